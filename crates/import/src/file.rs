//! Single-file primitives: hardlink, clone (`FICLONE` on Linux, else
//! `reflink-copy`: `clonefile` on macOS, block cloning on Windows), copy.
//! Each replaces a file left at `dst` by an interrupted import.

use std::{
    fs::{File, OpenOptions},
    io::ErrorKind,
    path::Path,
};

#[cfg(unix)]
fn mode(executable: bool) -> u32 {
    if executable { 0o755 } else { 0o644 }
}

/// Runs `op`; on `EEXIST` removes `dst` and runs it once more.
fn replacing(dst: &Path, op: impl Fn() -> std::io::Result<()>) -> std::io::Result<()> {
    match op() {
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            std::fs::remove_file(dst)?;
            op()
        }
        other => other,
    }
}

/// Attempts at a link whose source was replaced in between (below).
const LINK_ATTEMPTS: usize = 8;

/// Hard-links `src` at `dst`, again when the link failed only because
/// another writer renamed a copy over the blob at that moment
/// (docs/store.md §4.4: `ENOENT` while the name exists).
pub(crate) fn link_file(src: &Path, dst: &Path) -> std::io::Result<()> {
    let mut attempts = 1;
    loop {
        match replacing(dst, || std::fs::hard_link(src, dst)) {
            Err(e)
                if e.kind() == ErrorKind::NotFound
                    && attempts < LINK_ATTEMPTS
                    && std::fs::symlink_metadata(src).is_ok() =>
            {
                attempts += 1;
            }
            other => return other,
        }
    }
}

#[cfg(unix)]
fn create(dst: &Path, executable: bool) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode(executable))
        .open(dst)
}

/// Windows has no exec bits: how a file runs depends on its extension.
#[cfg(not(unix))]
fn create(dst: &Path, _executable: bool) -> std::io::Result<File> {
    OpenOptions::new().write(true).create_new(true).open(dst)
}

/// Copies contents (`copy_file_range` under the hood) into a new file whose
/// mode is 0755 for executables and 0644 otherwise.
pub(crate) fn copy_file(src: &Path, dst: &Path, executable: bool) -> std::io::Result<()> {
    let from = File::open(src)?;
    replacing(dst, || {
        let mut to = create(dst, executable)?;
        std::io::copy(&mut &from, &mut to).map(|_| ())
    })
}

/// A reflink copy; fails with `EOPNOTSUPP`/`EXDEV`/`EINVAL` where the
/// filesystem cannot share extents.
#[cfg(target_os = "linux")]
pub(crate) fn clone_file(src: &Path, dst: &Path, executable: bool) -> std::io::Result<()> {
    let from = File::open(src)?;
    replacing(dst, || {
        let to = create(dst, executable)?;
        let Err(err) = rustix::fs::ioctl_ficlone(&to, &from) else {
            return Ok(());
        };
        let err = std::io::Error::from(err);
        drop(to);
        let _ = std::fs::remove_file(dst);
        // Report as a clone failure, never as "exists".
        Err(match err.kind() {
            ErrorKind::AlreadyExists => std::io::Error::from_raw_os_error(libc::EOPNOTSUPP),
            _ => err,
        })
    })
}

/// A reflink copy through `reflink-copy`; fails with `ENOTSUP`/`EXDEV`
/// (macOS off APFS) or a Windows error where extents cannot be shared.
#[cfg(not(target_os = "linux"))]
pub(crate) fn clone_file(src: &Path, dst: &Path, executable: bool) -> std::io::Result<()> {
    replacing(dst, || reflink_copy::reflink(src, dst))?;
    set_mode(dst, executable)
}

/// `clonefile` copies the source's mode; the file list decides it instead.
#[cfg(all(unix, not(target_os = "linux")))]
fn set_mode(dst: &Path, executable: bool) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dst, std::fs::Permissions::from_mode(mode(executable)))
}

#[cfg(not(unix))]
fn set_mode(_dst: &Path, _executable: bool) -> std::io::Result<()> {
    Ok(())
}
