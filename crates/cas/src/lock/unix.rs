//! The locks as pnpm 12 takes them on Unix: `flock` on files in a private
//! per-user directory.

use std::{
    fs::File,
    os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt},
    path::{Path, PathBuf},
};

use rustix::fs::{FlockOperation, OFlags};

use super::LockMode;
use crate::CasError;

/// `$XDG_RUNTIME_DIR` when it is a private directory of this user, else
/// `/tmp`, then `pnpm-store-operation-locks-<uid>`.
pub(super) fn lock_dir() -> PathBuf {
    let uid = rustix::process::getuid().as_raw();
    let base = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|dir| {
            std::fs::metadata(dir).is_ok_and(|m| {
                m.is_dir() && m.uid() == uid && m.permissions().mode() & 0o777 == 0o700
            })
        })
        .unwrap_or_else(|| PathBuf::from("/tmp"));
    base.join(format!("pnpm-store-operation-locks-{uid}"))
}

pub(super) fn create_private_dir(dir: &Path) -> Result<(), CasError> {
    let io = CasError::lock(dir);
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(io(e)),
    }
}

pub(super) fn lock_file(path: &Path, mode: LockMode) -> Result<File, CasError> {
    let file = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags((OFlags::NOFOLLOW | OFlags::CLOEXEC).bits() as i32)
        .open(path)
        .map_err(CasError::lock(path))?;
    let op = match mode {
        LockMode::Shared => FlockOperation::LockShared,
        LockMode::Exclusive => FlockOperation::LockExclusive,
    };
    loop {
        match rustix::fs::flock(&file, op) {
            Ok(()) => return Ok(file),
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(CasError::lock(path)(e.into())),
        }
    }
}
