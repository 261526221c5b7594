//! Directory links on Windows: junctions, as pnpm's `symlink-dir` makes
//! them there (they need no privilege, unlike symlinks). A junction holds
//! an absolute target, so the plan's relative target is resolved against
//! the link's directory first.

use std::{
    io,
    path::{Path, PathBuf},
};

/// Creates the junction `link` → `target` (relative to `link`'s directory,
/// or absolute), replacing whatever is at `link` unless it already is a
/// link to that directory.
pub(crate) fn junction_force(target: &Path, link: &Path) -> io::Result<()> {
    let absolute = absolute_target(target, link);
    match junction::create(&absolute, link) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            if std::fs::read_link(link).is_ok_and(|t| same_path(&t, &absolute)) {
                return Ok(());
            }
            remove_entry(link)?;
            junction::create(&absolute, link)
        }
        Err(e) => Err(e),
    }
}

fn absolute_target(target: &Path, link: &Path) -> PathBuf {
    let base = link.parent().unwrap_or(Path::new("."));
    // `junction::create` resolves `..` and `/` itself (`GetFullPathNameW`).
    base.join(target)
}

/// Paths compared without case and with `..` resolved, as Windows does.
fn same_path(a: &Path, b: &Path) -> bool {
    match (std::path::absolute(a), std::path::absolute(b)) {
        (Ok(a), Ok(b)) => a
            .to_string_lossy()
            .eq_ignore_ascii_case(&b.to_string_lossy()),
        _ => false,
    }
}

/// A junction or directory symlink is removed with `remove_dir` (never
/// through to its target), a real directory with its contents.
fn remove_entry(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::remove_dir(path).or_else(|_| std::fs::remove_file(path))
        }
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}
