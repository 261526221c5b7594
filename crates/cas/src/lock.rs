//! pnpm 12's cross-process store locks (docs/store.md §2): installs hold
//! `all-stores.lock` and `<sha256(storeDir)>.lock` shared, `store prune`
//! holds both exclusively, so a prune never deletes a blob that a running
//! install has written but not linked yet. Taking the same `flock`s makes
//! pacquet and pnpm 12 wait for each other.

use std::{
    fs::File,
    os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt},
    path::{Path, PathBuf},
};

use rustix::fs::{FlockOperation, OFlags};
use sha2::{Digest, Sha256};

use crate::CasError;

/// Held locks; dropping closes the files, which releases them.
#[derive(Debug)]
pub struct StoreLock {
    _files: Vec<File>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockMode {
    Shared,
    Exclusive,
}

/// Locks `store_dir` (the `…/v11` directory) in `mode`, waiting as long as
/// another process holds a conflicting lock.
pub fn lock_store(store_dir: &Path, mode: LockMode) -> Result<StoreLock, CasError> {
    let dir = lock_dir();
    create_private_dir(&dir)?;
    let store_name = format!(
        "{}.lock",
        hex::encode(Sha256::digest(store_dir.to_string_lossy().as_bytes()))
    );
    // Always in this order, as pnpm does, so two lockers never deadlock.
    let files = ["all-stores.lock", store_name.as_str()]
        .iter()
        .map(|name| lock_file(&dir.join(name), mode))
        .collect::<Result<Vec<File>, CasError>>()?;
    Ok(StoreLock { _files: files })
}

/// `$XDG_RUNTIME_DIR` when it is a private directory of this user, else
/// `/tmp`, then `pnpm-store-operation-locks-<uid>`.
fn lock_dir() -> PathBuf {
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

fn create_private_dir(dir: &Path) -> Result<(), CasError> {
    let io = CasError::lock(dir);
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(io(e)),
    }
}

fn lock_file(path: &Path, mode: LockMode) -> Result<File, CasError> {
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
