//! The package importer: materializes one package directory from files
//! (CAS blobs, or a local directory's own files) by hardlink, clone or copy.
//!
//! Files are imported in one pass (one `mkdir` per directory, one link or
//! copy per file); the completion marker (`package.json`, else the
//! lexicographically first file) is placed last through a temporary name
//! and a `rename`, so a directory whose marker exists is complete.

#[cfg(unix)]
mod at;
#[cfg(not(unix))]
#[path = "no_at.rs"]
mod at;
mod error;
mod file;
mod method;
mod os_error;

use std::{collections::BTreeSet, io::ErrorKind, path::Path, path::PathBuf};

use pacquet_cas::Cas;
use pacquet_store_index::FileInfo;

pub use error::ImportError;
pub use method::{ImportMethod, ImportState, UsedMethod};

/// One file of a package: where it goes, which CAS blob it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageFile<'a> {
    /// Path inside the package (`lib/index.js`), `/`-separated.
    pub rel_path: &'a str,
    /// The CAS blob.
    pub src: PathBuf,
    /// The same blob relative to its open shard directory, when the store
    /// provides one: hard links then cost the kernel a shorter path walk.
    pub at: Option<pacquet_cas::BlobAt<'a>>,
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

/// Imports `files` into `dest_dir` (whose parent must exist), unless its
/// completion marker shows an earlier import finished. Safe to call
/// concurrently for different destinations.
pub fn import_package(
    dest_dir: &Path,
    files: &[PackageFile<'_>],
    method: ImportMethod,
    state: &ImportState,
) -> Result<ImportOutcome, ImportError> {
    if let Some(marker) = completion_marker(files)
        && std::fs::symlink_metadata(dest_dir.join(marker)).is_ok()
    {
        return Ok(ImportOutcome::AlreadyComplete);
    }
    import_files(dest_dir, files, method, state)?;
    Ok(ImportOutcome::Imported)
}

/// [`import_package`] for a destination the caller knows holds no complete
/// import (its virtual store did not exist when the install began): saves
/// the marker `lstat`, one per package.
pub fn import_new_package(
    dest_dir: &Path,
    files: &[PackageFile<'_>],
    method: ImportMethod,
    state: &ImportState,
) -> Result<(), ImportError> {
    import_files(dest_dir, files, method, state)
}

fn import_files(
    dest_dir: &Path,
    files: &[PackageFile<'_>],
    method: ImportMethod,
    state: &ImportState,
) -> Result<(), ImportError> {
    let io_err = |path: &Path| {
        let path = path.to_owned();
        move |source| ImportError::Import { path, source }
    };
    let marker = completion_marker(files);
    create_package_dir(dest_dir).map_err(io_err(dest_dir))?;
    let subdirs: BTreeSet<&str> = files.iter().flat_map(|f| ancestors(f.rel_path)).collect();
    // Descriptor-relative calls when this import makes hard links.
    let dir_fd = (state.links_first(method) && files.iter().any(|f| f.at.is_some()))
        .then(|| at::DirFd::open(dest_dir).ok())
        .flatten();
    for dir in subdirs {
        match &dir_fd {
            Some(fd) => fd.mkdir(dir).map_err(io_err(&dest_dir.join(dir)))?,
            None => {
                let path = dest_dir.join(dir);
                create_dir(&path).map_err(io_err(&path))?;
            }
        }
    }
    let mut linked = false;
    for f in files.iter().filter(|f| Some(f.rel_path) != marker) {
        if let (Some(fd), Some(blob)) = (&dir_fd, &f.at)
            && fd.link(blob, f.rel_path).is_ok()
        {
            linked = true;
            continue;
        }
        // Not linked (another device, the link limit, a permission, a
        // missing blob): the general path knows the fallbacks and errors.
        let dst = dest_dir.join(f.rel_path);
        state
            .import_file(&f.src, &dst, f.executable, method)
            .map_err(io_err(&dst))?;
    }
    if linked {
        state.record(UsedMethod::Hardlink);
    }
    if let Some(marker) = marker {
        let f = files
            .iter()
            .find(|f| f.rel_path == marker)
            .expect("marker is a file");
        let dst = dest_dir.join(marker);
        state
            .place_marker(&f.src, &dst, f.executable, method)
            .map_err(io_err(&dst))?;
    }
    Ok(())
}

/// `a/b/c.js` → `a`, `a/b`.
fn ancestors(rel_path: &str) -> impl Iterator<Item = &str> {
    rel_path
        .match_indices('/')
        .map(move |(i, _)| &rel_path[..i])
}

/// The package directory; its parents too when something removed them
/// after the install that planned them (a directory deleted by hand: pnpm
/// 12 makes it again).
fn create_package_dir(path: &Path) -> std::io::Result<()> {
    match create_dir(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => std::fs::create_dir_all(path),
        other => other,
    }
}

fn create_dir(path: &Path) -> std::io::Result<()> {
    match std::fs::create_dir(path) {
        Err(e) if e.kind() == ErrorKind::AlreadyExists => Ok(()),
        other => other,
    }
}

/// The CAS blob of every file of an index row.
pub fn blob_files<'r>(cas: &'r Cas, files: &'r [(String, FileInfo)]) -> Vec<PackageFile<'r>> {
    files
        .iter()
        .map(|(path, info)| PackageFile {
            rel_path: path,
            src: cas.file_path(&info.digest, info.is_executable()),
            executable: info.is_executable(),
            at: cas.blob_at(&info.digest, info.is_executable()),
        })
        .collect()
}

/// Linux: modes under the umask read from `/proc`, `FIEMAP`, descriptors.
#[cfg(all(test, target_os = "linux"))]
mod tests;
