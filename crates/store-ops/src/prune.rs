//! `store prune`, as pnpm 12.21 does it on a v11 store (verified by running
//! it):
//!
//! 1. Take the store locks exclusively, so no pnpm 12 install runs meanwhile.
//!    With a global virtual store, remove the slots no registered project
//!    reaches ([`slots`]).
//! 2. Mark: rows that registered projects use ([`super::mark`]); their blobs
//!    (files and side-effects additions) are kept.
//! 3. Sweep `files/<xx>/`: remove every regular file that has a single link
//!    (no `node_modules` hard-links it) and is not kept by a mark. Files
//!    with more links stay, whatever references them.
//! 4. Remove each unmarked row whose `package.json` blob was removed in
//!    step 3 (pnpm 11/12's rule), with its `package_index_alias` rows, then
//!    compact `index.db`. Rows without a `package.json` or that cannot be
//!    decoded are kept.

use std::{
    collections::HashSet,
    path::{Path, PathBuf},
};

use pacquet_store_index::{FileInfo, PackageFilesIndex};

use pacquet_cas::{LockMode, lock_store};

use crate::{
    StoreOpsError,
    mark::{registered_projects, used_keys},
};

mod metadata;
mod slots;

pub use metadata::prune_metadata;

pub use slots::SlotPrune;

/// What a prune removed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct PruneSummary {
    pub files: usize,
    pub bytes: u64,
    pub packages: usize,
    /// The global virtual store's slots, when the store has `links`.
    pub slots: Option<SlotPrune>,
}

pub fn prune(store_dir: &Path) -> Result<PruneSummary, StoreOpsError> {
    let _lock = lock_store(store_dir, LockMode::Exclusive)?;
    let projects = registered_projects(store_dir)?;
    // Slots first: the blobs only removed slots linked are then single
    // links, which the sweep below removes.
    let slots = slots::prune_slots(store_dir, &projects)?;
    let marked = used_keys(&projects)?;
    let kept = kept_blobs(store_dir, &marked);
    let (files, bytes, removed) = sweep_files(&store_dir.join("files"), &kept)?;
    let retained = pacquet_store_index::retain_rows(store_dir, &|key, data| {
        marked.contains(key) || !package_json_removed(data, &removed)
    })?;
    Ok(PruneSummary {
        files,
        bytes,
        packages: retained.removed.len(),
        slots,
    })
}

/// `xx/rest[-exec]` of every blob the marked rows reference.
fn kept_blobs(store_dir: &Path, marked: &HashSet<String>) -> HashSet<String> {
    let keys: Vec<&str> = marked.iter().map(String::as_str).collect();
    let rows = if store_dir.join(pacquet_store_index::INDEX_DB).exists() {
        pacquet_store_index::prefetch(store_dir, &keys)
    } else {
        Vec::new()
    };
    let mut kept = HashSet::new();
    for row in rows.iter().flatten() {
        kept.extend(row_files(row).map(blob_name));
    }
    kept
}

fn row_files(row: &PackageFilesIndex) -> impl Iterator<Item = &FileInfo> {
    let added = row
        .side_effects
        .iter()
        .flatten()
        .flat_map(|(_, diff)| diff.added.iter().flatten());
    row.files.iter().chain(added).map(|(_, info)| info)
}

fn blob_name(info: &FileInfo) -> String {
    let d = &info.digest;
    let exec = if info.is_executable() { "-exec" } else { "" };
    format!("{}/{}{exec}", &d[..2.min(d.len())], &d[2.min(d.len())..])
}

/// Removes single-link blobs that are not kept. Returns the count, the
/// bytes and the digests of the removed blobs.
fn sweep_files(
    files: &Path,
    kept: &HashSet<String>,
) -> Result<(usize, u64, HashSet<String>), StoreOpsError> {
    let mut removed = HashSet::new();
    let (mut count, mut bytes) = (0, 0);
    let shards = match std::fs::read_dir(files) {
        Ok(shards) => shards,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((0, 0, removed)),
        Err(e) => return Err(StoreOpsError::io(files)(e)),
    };
    for shard in shards {
        let shard = shard.map_err(StoreOpsError::io(files))?;
        // Loose files next to the shards are in-flight stream writes.
        if !shard.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let shard_name = shard.file_name().to_string_lossy().into_owned();
        let dir: PathBuf = shard.path();
        for entry in std::fs::read_dir(&dir).map_err(StoreOpsError::io(&dir))? {
            let entry = entry.map_err(StoreOpsError::io(&dir))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(meta) = entry.metadata() else { continue };
            if !meta.is_file()
                || link_count(&entry.path(), &meta) != Some(1)
                || kept.contains(&format!("{shard_name}/{name}"))
            {
                continue;
            }
            match std::fs::remove_file(entry.path()) {
                Ok(()) => {
                    count += 1;
                    bytes += meta.len();
                    let digest = name.strip_suffix("-exec").unwrap_or(&name);
                    removed.insert(format!("{shard_name}{digest}"));
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(StoreOpsError::io(entry.path())(e)),
            }
        }
    }
    Ok((count, bytes, removed))
}

/// The row's `package.json` blob was just removed; undecodable rows and
/// rows without a `package.json` are kept.
fn package_json_removed(data: &[u8], removed: &HashSet<String>) -> bool {
    let Ok(row) = pacquet_store_index::decode(data) else {
        return false;
    };
    row.files
        .iter()
        .find(|(path, _)| path == "package.json")
        .is_some_and(|(_, info)| removed.contains(&info.digest.to_ascii_lowercase()))
}

/// The file's hard-link count.
#[cfg(unix)]
fn link_count(_path: &Path, meta: &std::fs::Metadata) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    Some(meta.nlink())
}

/// `nNumberOfLinks` from `GetFileInformationByHandle` (`std`'s accessor is
/// unstable on Windows); `None`, which keeps the file, when unreadable.
#[cfg(windows)]
fn link_count(path: &Path, _meta: &std::fs::Metadata) -> Option<u64> {
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Storage::FileSystem::{
        BY_HANDLE_FILE_INFORMATION, GetFileInformationByHandle,
    };
    let file = std::fs::File::open(path).ok()?;
    // SAFETY: all-zero is a valid value of this plain C struct.
    let mut info: BY_HANDLE_FILE_INFORMATION = unsafe { std::mem::zeroed() };
    // SAFETY: the handle is open for the call and `info` is writable.
    let ok = unsafe { GetFileInformationByHandle(file.as_raw_handle(), &mut info) };
    (ok != 0).then_some(u64::from(info.nNumberOfLinks))
}

#[cfg(test)]
mod tests;
