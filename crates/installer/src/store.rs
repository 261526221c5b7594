//! The store as one install uses it: the CAS, one batched read of the index
//! and a writer thread started only when something new must be recorded.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{Mutex, OnceLock},
};

use rayon::prelude::*;

use pacquet_cas::{Cas, FileCheck};
use pacquet_store_index::{CachedSummary, IndexSender, IndexWriter, PackageFilesIndex, RowSummary};

use super::InstallError;
use crate::probe::DirProbe;
use pacquet_planner::{BuildPermission, Plan, Slot};

pub struct Store {
    pub dir: PathBuf,
    pub cas: Cas,
    /// Started on first use: a warm install with nothing to record never
    /// opens the index read-write.
    writer: Mutex<Option<IndexWriter>>,
    /// Summaries of the rows this install wrote, for the project's copy.
    written: Mutex<Vec<(String, CachedSummary)>>,
}

impl Store {
    pub fn open(dir: &Path) -> Store {
        Store {
            dir: dir.to_owned(),
            cas: Cas::new(dir),
            writer: Mutex::new(None),
            written: Mutex::default(),
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

    /// Queues `row` under `key` for the index.
    pub fn put(&self, sender: &IndexSender, key: String, row: PackageFilesIndex) {
        let summary = CachedSummary::new(&row.summary());
        let mut written = self.written.lock().unwrap_or_else(|e| e.into_inner());
        written.push((key.clone(), summary));
        drop(written);
        sender.put(key, row);
    }

    /// The summaries of the rows [`Store::put`] queued.
    pub fn written(&self) -> Vec<(String, CachedSummary)> {
        std::mem::take(&mut *self.written.lock().unwrap_or_else(|e| e.into_inner()))
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
    /// Where rows summarized from the project's copy are read on demand.
    store_dir: PathBuf,
    /// Every summary came from the project's copy, which holds exactly
    /// these keys: there is nothing new to write back.
    pub unchanged_copy: bool,
}

struct RowEntry {
    key: String,
    /// The row as read; `None` when summarized from the project's copy
    /// (docs/store.md §11.1), read from the index if its files are needed.
    raw: Option<Vec<u8>>,
    summary: RowSummary,
    /// The copy's entry, manifest included, when the summary came from
    /// it (the summary may leave the manifest out). Every slot using it
    /// then had its `package.json` in place when the rows were read.
    copied: Option<CachedSummary>,
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

    /// Whether the slot's `package.json` was found in place when the rows
    /// were read (its summary came from the project's copy).
    pub fn seen_in_place(&self, slot: usize) -> bool {
        self.entry(slot).is_some_and(|e| e.copied.is_some())
    }

    /// What the slot's row says about its package, without its files.
    pub fn summary_for_slot(&self, slot: usize) -> Option<&RowSummary> {
        self.entry(slot).map(|e| &e.summary)
    }

    /// The slot's full row, decoded on first use; `None` also when the
    /// file list cannot be decoded, or the index no longer holds a row
    /// known from the project's copy.
    pub fn for_slot(&self, slot: usize) -> Option<&PackageFilesIndex> {
        let entry = self.entry(slot)?;
        entry
            .full
            .get_or_init(|| {
                let decode = |raw: &[u8]| pacquet_store_index::decode(raw).ok();
                match &entry.raw {
                    Some(raw) => decode(raw),
                    None => pacquet_store_index::prefetch_raw(&self.store_dir, &[&entry.key])
                        .get(&entry.key)
                        .and_then(|raw| decode(raw)),
                }
            })
            .as_ref()
    }

    /// Every key's summary as the next install's copy holds it.
    pub fn summaries(&self) -> Vec<(&str, CachedSummary)> {
        self.entries
            .par_iter()
            .flatten()
            .map(|e| {
                let copied = e.copied.clone();
                (
                    e.key.as_str(),
                    copied.unwrap_or_else(|| CachedSummary::new(&e.summary)),
                )
            })
            .collect()
    }
}

/// Reads every store key of the plan in one batch. Rows that are unusable
/// (another digest algorithm) count as misses; with `strict`, a row whose
/// manifest names another package is an error (pnpm's
/// `strictStorePkgContentCheck`).
///
/// A key whose summary the project's copy (`cached`) holds is not read
/// when that summary alone completes every slot using it (see
/// [`summary_suffices`]) and each of their directories under `root` holds
/// a `package.json`: a lockfile-change install of alotta then reads 46
/// rows instead of 1,352. Such a summary carries its manifest only where
/// one is read ([`crate::bins::manifest_read`]).
pub fn prefetch_rows(
    store: &Store,
    plan: &Plan,
    strict: bool,
    probe: &DirProbe,
    cached: &foldhash::HashMap<String, CachedSummary>,
    probed: &crate::probe::Probed,
) -> Result<Rows, InstallError> {
    let mut index: foldhash::HashMap<&str, usize> = Default::default();
    let mut keys: Vec<&str> = Vec::new();
    let mut users: Vec<Vec<usize>> = Vec::new();
    let slot_row: Vec<Option<usize>> = plan
        .slots
        .iter()
        .enumerate()
        .map(|(i, slot)| {
            let key = slot.store_key.as_deref()?;
            let row = *index.entry(key).or_insert_with(|| {
                keys.push(key);
                users.push(Vec::new());
                keys.len() - 1
            });
            users[row].push(i);
            Some(row)
        })
        .collect();
    // Of the others only the flags are read.
    let manifest_read = crate::bins::manifest_read(plan);
    let index_db = store.dir.join(pacquet_store_index::INDEX_DB);
    let read_index = |keys: &[&str]| {
        if keys.is_empty() || !index_db.exists() {
            HashMap::new()
        } else {
            pacquet_store_index::prefetch_raw(&store.dir, keys)
        }
    };
    // Keys the copy lacks are read from the index while the copy's
    // summaries are checked against the tree (alotta, five dependencies
    // added: 46 rows, ~2 ms, next to ~1,350 lookups).
    let uncopied: Vec<&str> = keys
        .iter()
        .copied()
        .filter(|key| !cached.contains_key(*key))
        .collect();
    let (from_copy, mut raw) = rayon::join(
        || -> Vec<Option<(RowSummary, &CachedSummary)>> {
            keys.par_iter()
                .zip(&users)
                .map(|(key, users)| {
                    let manifest = users.iter().any(|&i| manifest_read[i]);
                    let copied = cached.get(*key)?;
                    let summary = copied.summary_with(manifest)?;
                    users
                        .iter()
                        .all(|&i| {
                            let slot = &plan.slots[i];
                            summary_suffices(slot, &summary)
                                && probed
                                    .get(slot.package_dir.as_str())
                                    .copied()
                                    .unwrap_or_else(|| probe.has_manifest(&slot.package_dir))
                        })
                        .then_some((summary, copied))
                })
                .collect()
        },
        || read_index(&uncopied),
    );
    // Copied keys the copy cannot stand in for: usually none.
    let to_read: Vec<&str> = keys
        .iter()
        .zip(&from_copy)
        .filter(|(key, s)| s.is_none() && cached.contains_key(**key))
        .map(|(k, _)| *k)
        .collect();
    raw.extend(read_index(&to_read));
    let to_read_any = !uncopied.is_empty() || !to_read.is_empty();
    let unchanged_copy = !to_read_any && cached.len() == keys.len();
    type Found<'c> = (
        String,
        Option<Vec<u8>>,
        Option<(RowSummary, &'c CachedSummary)>,
    );
    let found: Vec<Found<'_>> = keys
        .iter()
        .zip(from_copy)
        .map(|(key, summary)| {
            let blob = summary.is_none().then(|| raw.remove(*key)).flatten();
            ((*key).to_owned(), blob, summary)
        })
        .collect();
    let entries: Vec<Option<RowEntry>> = found
        .into_par_iter()
        .map(|(key, raw, from_copy)| {
            let (summary, copied) = match (from_copy, &raw) {
                (Some((summary, copied)), _) => (summary, Some(copied.clone())),
                (None, Some(raw)) => (pacquet_store_index::decode_summary(raw).ok()?, None),
                (None, None) => return None,
            };
            (summary.algo == "sha512").then(|| RowEntry {
                key,
                raw,
                summary,
                copied,
                full: OnceLock::new(),
            })
        })
        .collect();
    let rows = Rows {
        entries,
        slot_row,
        store_dir: store.dir.clone(),
        unchanged_copy,
    };
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

/// Whether a slot whose directory is complete needs nothing of its row but
/// the summary: no patch, no build to run, and `package.json` among its
/// files (the completion marker then).
pub fn summary_suffices(slot: &Slot, summary: &RowSummary) -> bool {
    let builds = summary.requires_build == Some(true) && slot.build == BuildPermission::Allowed;
    summary.has_package_json && slot.patch.is_none() && !builds
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
