//! pnpm 12's cross-process store locks (docs/store.md §2): installs hold
//! `all-stores.lock` and `<sha256(storeDir)>.lock` shared, `store prune`
//! holds both exclusively, so a prune never deletes a blob that a running
//! install has written but not linked yet. Taking the same `flock`s makes
//! pacquet and pnpm 12 wait for each other.

use std::{fs::File, path::Path};

use sha2::{Digest, Sha256};

use crate::CasError;

#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix::{create_private_dir, lock_dir, lock_file};

#[cfg(not(unix))]
mod portable;
#[cfg(not(unix))]
use portable::{create_private_dir, lock_dir, lock_file};

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
