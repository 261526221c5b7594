//! Writing one shim file, leaving an identical one alone.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::Path;

use crate::error::BinError;

#[cfg(unix)]
const SHIM_MODE: u32 = 0o755;

/// Writes `bytes` to `path` with mode `0755`. Returns `false` when the file
/// already held exactly `bytes` (then only a wrong mode is fixed).
pub(super) fn write_shim(path: &Path, bytes: &[u8]) -> Result<bool, BinError> {
    let err = |source| BinError::Write {
        path: path.to_path_buf(),
        source,
    };
    match create(path, bytes) {
        Ok(()) => return Ok(true),
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
        Err(e) => return Err(err(e)),
    }
    if is_current(path, bytes).map_err(err)? {
        return Ok(false);
    }
    std::fs::remove_file(path).map_err(err)?;
    create(path, bytes).map_err(err)?;
    Ok(true)
}

#[cfg(unix)]
fn create(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(SHIM_MODE)
        .open(path)?;
    file.write_all(bytes)?;
    // The umask may have cleared bits of SHIM_MODE.
    file.set_permissions(std::fs::Permissions::from_mode(SHIM_MODE))
}

/// Windows: no modes to set.
#[cfg(not(unix))]
fn create(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?
        .write_all(bytes)
}

/// Whether the regular file at `path` (not followed if a symlink) holds
/// `bytes`; fixes its mode when it does.
#[cfg(unix)]
fn is_current(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let mut file = match OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
    {
        Ok(file) => file,
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Ok(false),
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    if !meta.is_file() || meta.len() != bytes.len() as u64 {
        return Ok(false);
    }
    let mut existing = Vec::with_capacity(bytes.len());
    file.read_to_end(&mut existing)?;
    if existing != bytes {
        return Ok(false);
    }
    fix_mode(&file, meta.permissions().mode())?;
    Ok(true)
}

/// Without `O_NOFOLLOW` (Windows) a symlink is ruled out first; a race
/// that puts one there in between is read through, and only compared.
#[cfg(not(unix))]
fn is_current(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    let meta = std::fs::symlink_metadata(path)?;
    if !meta.is_file() || meta.len() != bytes.len() as u64 {
        return Ok(false);
    }
    let mut existing = Vec::with_capacity(bytes.len());
    File::open(path)?.read_to_end(&mut existing)?;
    Ok(existing == bytes)
}

#[cfg(unix)]
fn fix_mode(file: &File, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if mode & 0o7777 != SHIM_MODE {
        file.set_permissions(std::fs::Permissions::from_mode(SHIM_MODE))?;
    }
    Ok(())
}

/// Makes `path` a symlink to `target`. Returns `false` when it already was.
pub(super) fn write_symlink(path: &Path, target: &Path) -> Result<bool, BinError> {
    let err = |source| BinError::Write {
        path: path.to_path_buf(),
        source,
    };
    match std::fs::read_link(path) {
        Ok(current) if current == target => return Ok(false),
        Ok(_) => std::fs::remove_file(path).map_err(err)?,
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        // Something else (an old shim): replaced.
        Err(_) => std::fs::remove_file(path).map_err(err)?,
    }
    symlink_file(target, path).map_err(err)?;
    Ok(true)
}

#[cfg(unix)]
fn symlink_file(target: &Path, path: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, path)
}

/// Needs Developer Mode or the symlink privilege; `link_bins` writes shims
/// on Windows instead, as pnpm does.
#[cfg(windows)]
fn symlink_file(target: &Path, path: &Path) -> std::io::Result<()> {
    std::os::windows::fs::symlink_file(target, path)
}
