//! The store as one install uses it: the CAS, one batched read of the index
//! and a writer thread started only when something new must be recorded.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{Mutex, OnceLock},
};

use rayon::prelude::*;

use pacquet_cas::{Cas, FileCheck};
use pacquet_store_index::{IndexSender, IndexWriter, PackageFilesIndex, RowSummary};

use super::InstallError;
use pacquet_planner::Plan;

pub struct Store {
    pub dir: PathBuf,
    pub cas: Cas,
    /// Started on first use: a warm install with nothing to record never
    /// opens the index read-write.
    writer: Mutex<Option<IndexWriter>>,
}

impl Store {
    pub fn open(dir: &Path) -> Store {
        Store {
            dir: dir.to_owned(),
            cas: Cas::new(dir),
            writer: Mutex::new(None),
        }
    }

    /// A sender to the index writer, starting it if needed.
    pub fn sender(&self) -> Result<IndexSender, InstallError> {
        let mut writer = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        if writer.is_none() {
            *writer = Some(IndexWriter::spawn(&self.dir)?);
        }
        Ok(writer.as_ref().expect("set above").sender())
    }

    /// Waits until every queued row is committed. A later [`Store::sender`]
    /// starts a new writer.
    pub fn finish(&self) -> Result<(), InstallError> {
        let writer = self.writer.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(writer) = writer {
            writer.finish()?;
        }
        Ok(())
    }
}

/// Index rows for the plan's slots. Peer variants of a package share one
/// store key, so rows are kept per unique key.
///
/// Every row is summarized up front (algo, manifest, `requiresBuild`,
/// markers); its file list is decoded only when the package is imported
/// or checked. A lockfile-change install of alotta finds almost every
/// package complete: decoding 1,352 full rows (40,000 file records) was
/// its largest single cost (17 % of its CPU time, measured with perf).
pub struct Rows {
    /// One entry per unique key; `None` when the store lacks it or it is
    /// unusable (another digest algorithm, undecodable).
    entries: Vec<Option<RowEntry>>,
    /// Slot → index into `entries` (`None` for slots without a store key).
    pub slot_row: Vec<Option<usize>>,
}

struct RowEntry {
    raw: Vec<u8>,
    summary: RowSummary,
    full: OnceLock<Option<PackageFilesIndex>>,
}

impl Rows {
    /// Slots whose row is present (warm) and the rest (cold).
    pub fn partition(&self) -> (Vec<usize>, Vec<usize>) {
        let mut warm = Vec::new();
        let mut cold = Vec::new();
        for slot in 0..self.slot_row.len() {
            match self.entry(slot) {
                Some(_) => warm.push(slot),
                None => cold.push(slot),
            }
        }
        (warm, cold)
    }

    fn entry(&self, slot: usize) -> Option<&RowEntry> {
        self.slot_row[slot].and_then(|r| self.entries[r].as_ref())
    }

    /// What the slot's row says about its package, without its files.
    pub fn summary_for_slot(&self, slot: usize) -> Option<&RowSummary> {
        self.entry(slot).map(|e| &e.summary)
    }

    /// The slot's full row, decoded on first use; `None` also when the
    /// file list cannot be decoded.
    pub fn for_slot(&self, slot: usize) -> Option<&PackageFilesIndex> {
        let entry = self.entry(slot)?;
        entry
            .full
            .get_or_init(|| pacquet_store_index::decode(&entry.raw).ok())
            .as_ref()
    }
}

/// Reads every store key of the plan in one batch. Rows that are unusable
/// (another digest algorithm) count as misses; with `strict`, a row whose
/// manifest names another package is an error (pnpm's
/// `strictStorePkgContentCheck`).
pub fn prefetch_rows(store: &Store, plan: &Plan, strict: bool) -> Result<Rows, InstallError> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut keys: Vec<&str> = Vec::new();
    let slot_row: Vec<Option<usize>> = plan
        .slots
        .iter()
        .map(|slot| {
            let key = slot.store_key.as_deref()?;
            Some(*index.entry(key).or_insert_with(|| {
                keys.push(key);
                keys.len() - 1
            }))
        })
        .collect();
    let mut raw = if store.dir.join(pacquet_store_index::INDEX_DB).exists() {
        pacquet_store_index::prefetch_raw(&store.dir, &keys)
    } else {
        HashMap::new()
    };
    let blobs: Vec<Option<Vec<u8>>> = keys.iter().map(|key| raw.remove(*key)).collect();
    let entries: Vec<Option<RowEntry>> = blobs
        .into_par_iter()
        .map(|blob| {
            let raw = blob?;
            let summary = pacquet_store_index::decode_summary(&raw).ok()?;
            (summary.algo == "sha512").then(|| RowEntry {
                raw,
                summary,
                full: OnceLock::new(),
            })
        })
        .collect();
    let rows = Rows { entries, slot_row };
    if strict {
        for (i, slot) in plan.slots.iter().enumerate() {
            let Some(manifest) = rows.summary_for_slot(i).and_then(|r| r.manifest.as_ref()) else {
                continue;
            };
            let found_name = manifest.get("name").and_then(|v| v.as_str());
            let found_version = manifest.get("version").and_then(|v| v.as_str());
            let wanted_version = slot.dep_path.version();
            let name_ok = found_name.is_none_or(|n| n == slot.name());
            let version_ok = found_version
                .is_none_or(|v| v == wanted_version || !is_semver_like(wanted_version));
            if !(name_ok && version_ok) {
                return Err(InstallError::UnexpectedStoreContent {
                    package_id: slot.dep_path.package_id().to_owned(),
                    found: format!(
                        "{}@{}",
                        found_name.unwrap_or("?"),
                        found_version.unwrap_or("?")
                    ),
                    wanted: format!("{}@{}", slot.name(), wanted_version),
                });
            }
        }
    }
    Ok(rows)
}

/// Registry versions compare exactly; tarball URLs, `file:` and git refs in
/// the version position do not name a version.
fn is_semver_like(v: &str) -> bool {
    v.as_bytes().first().is_some_and(u8::is_ascii_digit) && !v.contains(':')
}

/// Whether every blob of `row` is in the CAS and passes the reuse check
/// (docs/store.md §8); a row whose blobs are gone or damaged is as good as
/// no row.
pub fn files_intact(cas: &Cas, row: &PackageFilesIndex) -> bool {
    row.files.iter().all(|(_, info)| {
        cas.verify(
            &info.digest,
            info.is_executable(),
            info.size,
            info.checked_at,
        ) == FileCheck::Ok
    })
}
