//! Carrying out [`Removals`]: shims first (the old package's manifest says
//! which commands it had, and it may be about to go), then links, emptied
//! `@scope` directories and package directories. Whatever is already gone
//! is fine: a rerun after an interrupted install repeats the same removals.

use std::{
    io,
    path::{Path, PathBuf},
};

use pacquet_planner::Removals;
use serde_json::Value;

use crate::InstallError;

pub fn remove(root: &Path, removals: &Removals) -> Result<(), InstallError> {
    for shim in &removals.shims {
        remove_bins(root, &shim.package_dir, &shim.link)?;
    }
    for link in &removals.links {
        remove_file(&root.join(link))?;
    }
    for scope in &removals.scopes {
        // Fails (and is meant to) while the scope still has entries.
        let _ = std::fs::remove_dir(root.join(scope));
    }
    for dir in &removals.dirs {
        remove_all(&root.join(dir))?;
    }
    Ok(())
}

/// Removes from the `.bin` next to `link` the commands of the package at
/// `package_dir` (read from its `package.json` while it is still there).
fn remove_bins(root: &Path, package_dir: &str, link: &str) -> Result<(), InstallError> {
    let package_dir = root.join(package_dir);
    let Ok(text) = std::fs::read_to_string(package_dir.join("package.json")) else {
        return Ok(());
    };
    let Ok(manifest) = serde_json::from_str::<Value>(&text) else {
        return Ok(());
    };
    let Some(bin_dir) = bin_dir_of(&root.join(link)) else {
        return Ok(());
    };
    for command in pacquet_bins::bin_commands(&manifest, &package_dir) {
        remove_file(&bin_dir.join(&command.name))?;
    }
    Ok(())
}

/// `<modules>/.bin` for a link at `<modules>/name` or `<modules>/@scope/name`.
fn bin_dir_of(link: &Path) -> Option<PathBuf> {
    let parent = link.parent()?;
    let modules = match parent.file_name()?.to_str()? {
        scope if scope.starts_with('@') => parent.parent()?,
        _ => parent,
    };
    Some(modules.join(".bin"))
}

fn remove_file(path: &Path) -> Result<(), InstallError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other.map_err(InstallError::write(path)),
    }
}

pub fn remove_all(path: &Path) -> Result<(), InstallError> {
    match std::fs::remove_dir_all(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other.map_err(InstallError::write(path)),
    }
}
