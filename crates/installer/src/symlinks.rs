//! Creating the symlinks of the plan: sibling dependencies inside slots,
//! importers' direct dependencies, hoisted aliases.

use std::{io, path::Path};

#[cfg(windows)]
mod junction;

/// Creates `link -> target`, replacing whatever is at `link` unless it is
/// already a symlink with that exact target. The common case (nothing there)
/// costs one `symlink` call.
#[cfg(unix)]
pub fn symlink_force(target: &Path, link: &Path) -> io::Result<()> {
    match std::os::unix::fs::symlink(target, link) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            if std::fs::read_link(link).is_ok_and(|t| t == target) {
                return Ok(());
            }
            match std::fs::symlink_metadata(link) {
                Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(link)?,
                Ok(_) => std::fs::remove_file(link)?,
                Err(_) => {}
            }
            std::os::unix::fs::symlink(target, link)
        }
        Err(e) => Err(e),
    }
}

/// Windows: a junction to the same directory (docs/layout.md §3).
#[cfg(windows)]
pub fn symlink_force(target: &Path, link: &Path) -> io::Result<()> {
    junction::junction_force(target, link)
}

/// Creates the given symlinks of the plan, in parallel.
pub fn create_symlinks(
    root: &Path,
    links: &[&pacquet_planner::Symlink],
) -> Result<(), super::InstallError> {
    use rayon::prelude::*;
    links.par_iter().try_for_each(|link| {
        let path = root.join(&link.path);
        let target = Path::new(&link.target);
        match symlink_force(target, &path) {
            // Its directory was removed behind the install's back (a
            // package directory deleted by hand): made again, as pnpm 12
            // does.
            Err(e) if e.kind() == io::ErrorKind::NotFound => path
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| symlink_force(target, &path)),
            other => other,
        }
        .map_err(super::InstallError::write(&path))
    })
}

/// Removes the projects' links to optional packages whose build failed, as
/// pnpm 12 does (their virtual-store directories and bin shims stay).
pub fn unlink_failed_optional(
    root: &Path,
    links: &[pacquet_planner::Symlink],
    failed: &[(usize, String)],
) -> Result<(), super::InstallError> {
    for link in links {
        let is_failed = |slot| failed.iter().any(|(i, _)| Some(*i) == slot);
        if matches!(link.owner, pacquet_planner::LinkOwner::Importer(_))
            && is_failed(link.target_slot)
        {
            let path = root.join(&link.path);
            match remove_link(&path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => {
                    return Err(super::InstallError::write(&path)(e));
                }
                _ => {}
            }
        }
    }
    Ok(())
}

#[cfg(unix)]
fn remove_link(path: &Path) -> io::Result<()> {
    std::fs::remove_file(path)
}

/// A junction is a directory to Windows: `remove_dir` unlinks it without
/// touching its target.
#[cfg(windows)]
fn remove_link(path: &Path) -> io::Result<()> {
    std::fs::remove_dir(path).or_else(|_| std::fs::remove_file(path))
}
