//! The package importer: materializes one package directory from CAS blobs.
//!
//! Files are imported in one pass (one `mkdir` per directory, one link or
//! copy per file); the completion marker (`package.json`, else the
//! lexicographically first file) is placed last through a temporary name
//! and a `rename`, so a directory whose marker exists is complete.

mod file;
mod method;

use std::{
    collections::BTreeSet,
    io::ErrorKind,
    path::{Path, PathBuf},
};

pub use method::{ImportMethod, ImportState, UsedMethod};

use crate::PackageManagerError;

/// One file of a package: where it goes, which CAS blob it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageFile<'a> {
    /// Path inside the package (`lib/index.js`), `/`-separated.
    pub rel_path: &'a str,
    /// The CAS blob.
    pub src: PathBuf,
    /// Whether the file must be executable (`-exec` blob).
    pub executable: bool,
}

/// What [`import_package`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportOutcome {
    /// The marker existed: nothing was touched.
    AlreadyComplete,
    /// The package was (re-)imported.
    Imported,
}

/// The completion marker of a file list.
pub fn completion_marker<'a>(files: &[PackageFile<'a>]) -> Option<&'a str> {
    files
        .iter()
        .map(|f| f.rel_path)
        .find(|p| *p == "package.json")
        .or_else(|| files.iter().map(|f| f.rel_path).min())
}

/// Imports `files` into `dest_dir` (whose parent must exist). Safe to call
/// concurrently for different destinations.
pub fn import_package(
    dest_dir: &Path,
    files: &[PackageFile<'_>],
    method: ImportMethod,
    state: &ImportState,
) -> Result<ImportOutcome, PackageManagerError> {
    let io_err = |path: &Path| {
        let path = path.to_owned();
        move |source| PackageManagerError::Import { path, source }
    };
    let marker = completion_marker(files);
    if let Some(marker) = marker {
        let marker_path = dest_dir.join(marker);
        if std::fs::symlink_metadata(&marker_path).is_ok() {
            return Ok(ImportOutcome::AlreadyComplete);
        }
    }
    create_dir(dest_dir).map_err(io_err(dest_dir))?;
    let subdirs: BTreeSet<&str> = files.iter().flat_map(|f| ancestors(f.rel_path)).collect();
    for dir in subdirs {
        let path = dest_dir.join(dir);
        create_dir(&path).map_err(io_err(&path))?;
    }
    for f in files.iter().filter(|f| Some(f.rel_path) != marker) {
        let dst = dest_dir.join(f.rel_path);
        state
            .import_file(&f.src, &dst, f.executable, method)
            .map_err(io_err(&dst))?;
    }
    if let Some(marker) = marker {
        let f = files
            .iter()
            .find(|f| f.rel_path == marker)
            .expect("marker is a file");
        let dst = dest_dir.join(marker);
        let tmp = temp_name(&dst);
        state
            .import_file(&f.src, &tmp, f.executable, method)
            .map_err(io_err(&tmp))?;
        std::fs::rename(&tmp, &dst).map_err(io_err(&dst))?;
    }
    Ok(ImportOutcome::Imported)
}

/// `a/b/c.js` → `a`, `a/b`.
fn ancestors(rel_path: &str) -> impl Iterator<Item = &str> {
    rel_path
        .match_indices('/')
        .map(move |(i, _)| &rel_path[..i])
}

fn create_dir(path: &Path) -> std::io::Result<()> {
    match std::fs::create_dir(path) {
        Err(e) if e.kind() == ErrorKind::AlreadyExists => Ok(()),
        other => other,
    }
}

/// A sibling name for the marker's atomic placement.
fn temp_name(dst: &Path) -> PathBuf {
    let name = dst
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    dst.with_file_name(format!(".{name}.pacquet-tmp-{}", std::process::id()))
}

#[cfg(test)]
mod tests;
