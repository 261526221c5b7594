//! The locks where there is no `flock` (Windows): `std`'s whole-file locks
//! (`LockFileEx`), which also conflict between processes.
//!
//! The directory is `%TEMP%\pnpm-store-operation-locks`: `%TEMP%` is already
//! private to the user, so no uid is needed. Whether pnpm 12 on Windows
//! uses the same directory was not observed (docs/store.md §2), so pacquet
//! and pnpm may not wait for each other there.

use std::{
    fs::File,
    path::{Path, PathBuf},
};

use super::LockMode;
use crate::CasError;

pub(super) fn lock_dir() -> PathBuf {
    std::env::temp_dir().join("pnpm-store-operation-locks")
}

pub(super) fn create_private_dir(dir: &Path) -> Result<(), CasError> {
    match std::fs::create_dir(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(CasError::lock(dir)(e)),
    }
}

pub(super) fn lock_file(path: &Path, mode: LockMode) -> Result<File, CasError> {
    let file = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(CasError::lock(path))?;
    match mode {
        LockMode::Shared => file.lock_shared(),
        LockMode::Exclusive => file.lock(),
    }
    .map_err(CasError::lock(path))?;
    Ok(file)
}
