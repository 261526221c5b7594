//! Single-file primitives: hardlink, clone (`FICLONE`), copy. Each replaces
//! a file left at `dst` by an interrupted import.

use std::{
    fs::{File, OpenOptions},
    io::ErrorKind,
    os::unix::fs::OpenOptionsExt,
    path::Path,
};

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

pub(crate) fn link_file(src: &Path, dst: &Path) -> std::io::Result<()> {
    replacing(dst, || std::fs::hard_link(src, dst))
}

fn create(dst: &Path, executable: bool) -> std::io::Result<File> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode(executable))
        .open(dst)
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

#[cfg(not(target_os = "linux"))]
pub(crate) fn clone_file(_src: &Path, _dst: &Path, _executable: bool) -> std::io::Result<()> {
    Err(std::io::Error::from_raw_os_error(libc::EOPNOTSUPP))
}
