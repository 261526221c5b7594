//! Importing one package directory from an index row: the shared context of
//! the warm and cold paths.

use std::{
    path::Path,
    sync::{
        OnceLock,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
};

use pacquet_cas::Cas;
use pacquet_import::{
    ImportMethod, ImportOutcome, ImportState, PackageFile, import_new_package, import_package,
};
use pacquet_store_index::{FileInfo, PackageFilesIndex, RowSummary};
use serde_json::Value;

use super::{
    InstallError,
    build::{Builds, ImportMode},
};
use crate::link_gate::LinkGate;
use crate::reporter::{Event, Origin, Reporter};
use pacquet_planner::Slot;

/// What every package import of one install shares.
pub struct LinkContext<'a> {
    pub root: &'a Path,
    pub cas: &'a Cas,
    pub method: ImportMethod,
    pub state: ImportState,
    /// `verifyStoreIntegrity`.
    pub verify: bool,
    pub reporter: &'a dyn Reporter,
    /// Bundled manifest per slot, filled as packages land (bins read it).
    pub manifests: Vec<OnceLock<Value>>,
    pub builds: &'a Builds<'a>,
    /// Holds every import until the lockfile is verified and the previous
    /// tree cleared; it opens with whether the virtual store did not exist
    /// (then no package directory can hold an earlier import, so markers
    /// need no check).
    pub gate: &'a LinkGate,
    /// Package directories actually filled (not found complete).
    pub imported: AtomicUsize,
    /// Per slot: its package directory was filled by this install.
    pub filled: Vec<AtomicBool>,
    /// Per slot: the package provides agent skills.
    pub skills: Vec<AtomicBool>,
}

impl LinkContext<'_> {
    /// Places `row`'s files at the slot's package directory, unless an
    /// earlier install completed it. `complete` is that answer when the
    /// caller already looked.
    pub fn import(
        &self,
        slot_index: usize,
        slot: &Slot,
        row: &PackageFilesIndex,
        origin: Origin,
        complete: Option<bool>,
    ) -> Result<ImportOutcome, InstallError> {
        let fresh = self.gate.wait()?;
        let package_id = slot.dep_path.as_str();
        self.reporter.report(Event::Fetched { package_id, origin });
        let mode = self.builds.mode(slot_index, slot, row);
        let (entries, method) = match &mode {
            ImportMode::Plain => (row.files.as_slice(), self.method),
            // Scripts write into the package: never share inodes with the store.
            ImportMode::ForBuild => (row.files.as_slice(), ImportMethod::CloneOrCopy),
            ImportMode::Restored(files) => (files.as_slice(), self.method),
        };
        let dest = self.root.join(&slot.package_dir);
        // Checked before the file list is built: in a repeat install most
        // directories are complete, and building their lists cost more than
        // the one lstat (small fixture after a one-package change: 28 ms of
        // 51 ms went there).
        let complete = complete.unwrap_or_else(|| !fresh && marker_exists(&dest, entries));
        let outcome = if complete {
            ImportOutcome::AlreadyComplete
        } else {
            let files = pacquet_import::blob_files(self.cas, entries);
            import_new_package(&dest, &files, method, &self.state)?;
            ImportOutcome::Imported
        };
        self.finish(slot_index, slot, row, &mode, outcome);
        Ok(outcome)
    }

    /// Places files that are not CAS blobs (a `file:` directory's own
    /// files, described by `row`) at the slot's package directory.
    pub fn import_files(
        &self,
        slot_index: usize,
        slot: &Slot,
        row: &PackageFilesIndex,
        files: &[PackageFile<'_>],
    ) -> Result<ImportOutcome, InstallError> {
        self.gate.wait()?;
        let mode = self.builds.mode(slot_index, slot, row);
        // Scripts write into the package: never share inodes with the source.
        let method = match mode {
            ImportMode::ForBuild => ImportMethod::CloneOrCopy,
            _ => self.method,
        };
        let dest = self.root.join(&slot.package_dir);
        let outcome = import_package(&dest, files, method, &self.state)?;
        self.finish(slot_index, slot, row, &mode, outcome);
        Ok(outcome)
    }

    /// What every import records: a build found already done, the manifest
    /// for bins, the count and event of a new directory.
    fn finish(
        &self,
        slot_index: usize,
        slot: &Slot,
        row: &PackageFilesIndex,
        mode: &ImportMode,
        outcome: ImportOutcome,
    ) {
        if outcome == ImportOutcome::AlreadyComplete && matches!(mode, ImportMode::ForBuild) {
            self.builds.already_complete(slot_index, slot);
        }
        if let Some(manifest) = &row.manifest {
            let _ = self.manifests[slot_index].set(manifest.clone());
        }
        if crate::skills::provides_skills(&row.files) {
            self.skills[slot_index].store(true, Ordering::Relaxed);
        }
        if outcome == ImportOutcome::Imported {
            self.filled[slot_index].store(true, Ordering::Relaxed);
            self.imported.fetch_add(1, Ordering::Relaxed);
            self.reporter.report(Event::Imported {
                package_id: slot.dep_path.as_str(),
            });
        }
    }

    /// A package already complete in its directory, recorded from its row's
    /// summary alone: its manifest (for bins), whether it provides skills,
    /// and a build it does not get. `false` when that is not enough: the
    /// directory may be incomplete, its marker is not `package.json`, or a
    /// build or patch needs the file list. `seen`: its `package.json` was
    /// already found in place after the previous tree was read, and
    /// clearing that tree cannot have removed it.
    pub fn complete_from_summary(
        &self,
        slot_index: usize,
        slot: &Slot,
        summary: &RowSummary,
        seen: bool,
    ) -> Result<bool, InstallError> {
        let fresh = self.gate.wait()?;
        if fresh || !crate::store::summary_suffices(slot, summary) {
            return Ok(false);
        }
        let needs_build = summary.requires_build == Some(true);
        if !seen
            && std::fs::symlink_metadata(self.root.join(&slot.package_dir).join("package.json"))
                .is_err()
        {
            return Ok(false);
        }
        self.reporter.report(Event::Fetched {
            package_id: slot.dep_path.as_str(),
            origin: Origin::Store,
        });
        if needs_build {
            // Not allowed: recorded where pnpm reports it.
            self.builds.may_build(slot);
        }
        if let Some(manifest) = &summary.manifest {
            let _ = self.manifests[slot_index].set(manifest.clone());
        }
        if summary.provides_skills {
            self.skills[slot_index].store(true, Ordering::Relaxed);
        }
        Ok(true)
    }

    /// A global slot an earlier install made, recorded from its row's
    /// summary alone: nothing of it is read or written.
    pub fn settled(&self, slot_index: usize, slot: &Slot, summary: &RowSummary) {
        if summary.requires_build == Some(true) {
            self.builds.may_build(slot);
        }
        if let Some(manifest) = &summary.manifest {
            let _ = self.manifests[slot_index].set(manifest.clone());
        }
        if summary.provides_skills {
            self.skills[slot_index].store(true, Ordering::Relaxed);
        }
    }

    /// Whether the slot's directory holds a finished import of `row` (never
    /// in a virtual store this install created).
    pub fn is_complete(&self, slot: &Slot, row: &PackageFilesIndex) -> Result<bool, InstallError> {
        let fresh = self.gate.wait()?;
        Ok(!fresh && marker_exists(&self.root.join(&slot.package_dir), &row.files))
    }
}

/// Whether the completion marker of `entries` (by the rule of
/// [`crate::import::completion_marker`]) exists in `dest`.
fn marker_exists(dest: &Path, entries: &[(String, FileInfo)]) -> bool {
    let paths = entries.iter().map(|(p, _)| p.as_str());
    let marker = paths
        .clone()
        .find(|p| *p == "package.json")
        .or_else(|| paths.min());
    marker.is_some_and(|m| std::fs::symlink_metadata(dest.join(m)).is_ok())
}
