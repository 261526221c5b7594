//! Putting a staged slot where another install may be making the same one.
//!
//! pnpm 12.21 makes a missing slot in place: it creates the slot
//! directory, then `node_modules`, then claims `node_modules/<name>` with
//! an exclusive `mkdir` and fills it. A rename that replaced the
//! directory it had just created (an empty directory is replaceable)
//! would leave pnpm creating `node_modules` in a removed directory
//! (`ENOENT`, its `ERR_PNPM_PACKAGE_MANAGER_CREATE_NODE_MODULES_DIR`).
//! So nothing here ever replaces: a staged slot meeting a slot directory
//! gives it each entry it lacks and leaves every entry it has to its maker.

use std::{io, path::Path};

/// Renames `from` to `to` unless something is at `to`, even an empty
/// directory (`AlreadyExists` then).
pub(super) fn rename_noreplace(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        match renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
            Ok(()) => return Ok(()),
            // Filesystems without `renameat2` flags: the check below.
            Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => {}
            Err(e) => return Err(e.into()),
        }
    }
    if std::fs::symlink_metadata(to).is_ok() {
        return Err(io::ErrorKind::AlreadyExists.into());
    }
    std::fs::rename(from, to)
}

/// Whether `e` says the destination of a rename was there.
pub(super) fn is_taken(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::AlreadyExists | io::ErrorKind::DirectoryNotEmpty
    )
}

/// Gives the slot at `slot` every entry of the staged slot `staging`'s
/// `node_modules` (the package directory, its dependencies' links, scope
/// directories entry by entry) that it lacks, each in one rename, then
/// removes what is left of `staging`.
pub(super) fn merge_into(staging: &Path, slot: &Path) -> io::Result<()> {
    let modules = slot.join("node_modules");
    create_dir_once(&modules)?;
    let staged = staging.join("node_modules");
    for entry in std::fs::read_dir(&staged)? {
        let entry = entry?;
        let name = entry.file_name();
        let target = modules.join(&name);
        let is_scope =
            name.to_str().is_some_and(|n| n.starts_with('@')) && entry.file_type()?.is_dir();
        if is_scope {
            create_dir_once(&target)?;
            for inner in std::fs::read_dir(entry.path())? {
                let inner = inner?;
                place(&inner.path(), &target.join(inner.file_name()))?;
            }
        } else {
            place(&entry.path(), &target)?;
        }
    }
    std::fs::remove_dir_all(staging)
}

/// Moves one entry into place; one already there is its maker's.
fn place(from: &Path, to: &Path) -> io::Result<()> {
    match rename_noreplace(from, to) {
        Err(e) if !is_taken(&e) => Err(e),
        _ => Ok(()),
    }
}

fn create_dir_once(dir: &Path) -> io::Result<()> {
    match std::fs::create_dir(dir) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => Err(e),
        _ => Ok(()),
    }
}
