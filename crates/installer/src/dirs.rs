//! Creating the plan's directories: one `mkdir` each, level by level so a
//! parent always exists before its children are created in parallel.
//! Siblings are created by one thread: `mkdir` holds its parent's lock, so
//! two threads making entries of one directory (the virtual store's slots)
//! take turns and the waiting one spins (`perf` of a lockfile-change
//! install: a quarter of its `mkdir` samples in `rwsem_spin_on_owner`).

use std::{io::ErrorKind, path::Path};

use rayon::prelude::*;

use super::InstallError;

#[cfg(test)]
mod tests;

/// Creates `dirs` (relative to `root`); existing ones are fine.
pub fn create_dirs<'a>(
    root: &Path,
    dirs: impl IntoIterator<Item = &'a String>,
) -> Result<(), InstallError> {
    for level in siblings_by_level(dirs) {
        level.par_iter().try_for_each(|siblings| {
            siblings.iter().try_for_each(|dir| {
                let path = root.join(dir);
                match std::fs::create_dir(&path) {
                    Err(e) if e.kind() == ErrorKind::AlreadyExists => Ok(()),
                    Err(e) if e.kind() == ErrorKind::NotFound => {
                        std::fs::create_dir_all(&path).map_err(InstallError::write(&path))
                    }
                    other => other.map_err(InstallError::write(&path)),
                }
            })
        })?;
    }
    Ok(())
}

/// `dirs` by depth, shallowest first; each level's directories grouped by
/// parent, in the order they came.
fn siblings_by_level<'a>(dirs: impl IntoIterator<Item = &'a String>) -> Vec<Vec<Vec<&'a str>>> {
    let mut levels: Vec<foldhash::HashMap<&str, usize>> = Vec::new();
    let mut groups: Vec<Vec<Vec<&str>>> = Vec::new();
    for dir in dirs {
        let depth = dir.matches('/').count();
        if levels.len() <= depth {
            levels.resize_with(depth + 1, Default::default);
            groups.resize_with(depth + 1, Vec::new);
        }
        let parent = dir.rsplit_once('/').map_or("", |(parent, _)| parent);
        let next = groups[depth].len();
        let group = *levels[depth].entry(parent).or_insert(next);
        if group == next {
            groups[depth].push(Vec::new());
        }
        groups[depth][group].push(dir.as_str());
    }
    groups
}
