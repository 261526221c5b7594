//! The metadata caches `store prune` removes, as pnpm 12.21 does: when the
//! cache directory exists, every subdirectory whose name starts with
//! `metadata` (the packument caches) and the store's `tmp` go, and pnpm
//! says "Removed all cached metadata files"; without a cache directory it
//! says nothing (checked by running it with no, an empty and a populated
//! cache directory).

use std::path::Path;

use crate::StoreOpsError;

/// Removes the metadata caches under `cache_dir` and `<store_dir>/tmp`;
/// `false` when there is no cache directory (nothing removed, nothing to
/// say).
pub fn prune_metadata(cache_dir: &Path, store_dir: &Path) -> Result<bool, StoreOpsError> {
    let entries = match std::fs::read_dir(cache_dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(source) => return Err(StoreOpsError::io(cache_dir)(source)),
    };
    for entry in entries {
        let entry = entry.map_err(StoreOpsError::io(cache_dir))?;
        if entry
            .file_name()
            .as_encoded_bytes()
            .starts_with(b"metadata")
        {
            remove_dir(&entry.path())?;
        }
    }
    remove_dir(&store_dir.join("tmp"))?;
    Ok(true)
}

fn remove_dir(path: &Path) -> Result<(), StoreOpsError> {
    match std::fs::remove_dir_all(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(StoreOpsError::io(path)(e)),
        _ => Ok(()),
    }
}
