//! Records the state file's `validation` block (docs/layout.md §9.1) at the
//! end of an install, as pnpm 12 does: the filesystem's clock, then `stat`
//! and digest of the lockfile, the installed projects' manifests and the
//! local tarballs. Best effort: a file that cannot be read leaves the block
//! out, and the next install (pacquet's or pnpm's) checks everything.

use std::{
    collections::BTreeMap,
    fs::{File, Metadata},
    io::Read,
    path::{Path, PathBuf},
    time::{SystemTime, UNIX_EPOCH},
};

use pacquet_lockfile::{Lockfile, Resolution};
use pacquet_state::{FileSignature, FileStat, ManifestRecord, Validation, bytes_digest};
use serde_json::Value;

use crate::lexical::normalize;

/// A workspace project: importer id (`.`, `packages/a`) and directory.
pub struct ProjectDir<'a> {
    pub id: &'a str,
    pub dir: &'a Path,
}

/// What the block describes (docs/layout.md §9.1).
pub struct ValidationInputs<'a> {
    /// Where the state file goes; the filesystem's clock is read there.
    pub modules_dir: &'a Path,
    pub lockfile_path: &'a Path,
    pub lockfile: &'a Lockfile,
    /// Every workspace project.
    pub projects: &'a [ProjectDir<'a>],
    /// Importer ids installed so far (every project unless filtered).
    pub installed: &'a dyn Fn(&str) -> bool,
    /// The `patchedDependencies` files and the pnpmfile, absolute.
    pub config_files: &'a [PathBuf],
    /// The manifest the command edited, as it holds it in memory (a group
    /// the edit emptied is still there), by project directory.
    pub edited: &'a [crate::EditedManifest],
}

/// The block, or `None` when an input could not be read.
pub fn record(inputs: &ValidationInputs<'_>) -> Option<Validation> {
    let recorded_at_ns = filesystem_clock_ns(inputs.modules_dir);
    let mut files = BTreeMap::new();
    let lockfile_sig = signature(inputs.lockfile_path)?;
    let lockfile_digest = lockfile_sig.digest.clone();
    files.insert(display(inputs.lockfile_path), lockfile_sig);

    let mut manifests = BTreeMap::new();
    let mut workspace_manifests = BTreeMap::new();
    for project in inputs.projects {
        let (stat, manifest) = read_manifest(&project.dir.join("package.json"))?;
        let edited = inputs.edited.iter().find(|e| {
            e.dir == project.dir
                || std::fs::canonicalize(&e.dir).ok() == std::fs::canonicalize(project.dir).ok()
        });
        if (inputs.installed)(project.id) {
            let record = ManifestRecord {
                stat: edited.and_then(|e| e.stat_before).unwrap_or(stat),
                manifest: edited.map_or_else(|| manifest.clone(), |e| e.manifest.clone()),
                record_file: edited.is_none_or(|e| e.stat_before.is_some()),
            };
            manifests.insert(project.id.to_owned(), record);
        }
        workspace_manifests.insert(project.id.to_owned(), manifest);
    }

    let lockfile_dir = inputs.lockfile_path.parent().unwrap_or(Path::new("."));
    let (local_directories, local_tarballs) = local_dependencies(inputs.lockfile, lockfile_dir);
    let patches = inputs.config_files.iter().map(|p| display(p));
    for file in local_tarballs.iter().cloned().chain(patches) {
        let sig = signature(Path::new(&file))?;
        files.insert(file, sig);
    }
    Some(Validation {
        recorded_at_ns,
        files,
        lockfile_digest,
        manifests,
        workspace_manifests,
        local_directories,
        local_tarballs,
    })
}

/// Absolute paths of the lockfile's `directory` packages (injected
/// workspace projects included) and `file:` tarballs.
pub fn local_dependencies(lockfile: &Lockfile, lockfile_dir: &Path) -> (Vec<String>, Vec<String>) {
    let mut directories = Vec::new();
    let mut tarballs = Vec::new();
    for info in lockfile.packages.values() {
        match &info.resolution {
            Resolution::Directory { directory } => {
                directories.push(display(&normalize(&lockfile_dir.join(directory))));
            }
            Resolution::Tarball { tarball, .. } => {
                if let Some(path) = tarball.strip_prefix("file:") {
                    tarballs.push(display(&normalize(&lockfile_dir.join(path))));
                }
            }
            _ => {}
        }
    }
    (directories, tarballs)
}

/// The manifest's `stat` (taken on the open file, so it describes the bytes
/// read) and its parsed JSON.
pub fn read_manifest(path: &Path) -> Option<(FileStat, Value)> {
    let (stat, bytes) = read_with_stat(path)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    Some((stat, serde_json::from_slice(bytes).ok()?))
}

/// A file's `stat` and the digest of its bytes.
pub fn signature(path: &Path) -> Option<FileSignature> {
    let (stat, bytes) = read_with_stat(path)?;
    Some(FileSignature {
        stat,
        digest: bytes_digest(&bytes),
    })
}

fn read_with_stat(path: &Path) -> Option<(FileStat, Vec<u8>)> {
    let mut file = File::open(path).ok()?;
    let stat = file_stat(&file.metadata().ok()?);
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    Some((stat, bytes))
}

/// `stat` of a path, without reading it.
pub fn stat(path: &Path) -> Option<FileStat> {
    Some(file_stat(&std::fs::metadata(path).ok()?))
}

fn file_stat(meta: &Metadata) -> FileStat {
    let mtime_ns = meta.modified().map(ns_since_epoch).unwrap_or(0);
    FileStat {
        mtime_ns,
        ctime_ns: change_time_ns(meta).unwrap_or(mtime_ns),
        size: meta.len(),
    }
}

#[cfg(unix)]
fn change_time_ns(meta: &Metadata) -> Option<i64> {
    use std::os::unix::fs::MetadataExt;
    Some(meta.ctime() * 1_000_000_000 + meta.ctime_nsec())
}

/// No inode change time off Unix: the modification time stands in.
#[cfg(not(unix))]
fn change_time_ns(_meta: &Metadata) -> Option<i64> {
    None
}

fn ns_since_epoch(time: SystemTime) -> i64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i64)
}

/// The clock file times are stamped with, which runs a few ms behind the
/// system clock on Linux: the modification time of a fresh temporary file
/// (an unnamed `O_TMPFILE` where supported), as pnpm 12 reads it.
pub fn filesystem_clock_ns(dir: &Path) -> i64 {
    tempfile::tempfile_in(dir)
        .ok()
        .and_then(|file| file.metadata().ok())
        .and_then(|meta| meta.modified().ok())
        .map_or_else(|| ns_since_epoch(SystemTime::now()), ns_since_epoch)
}

fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}
