//! `<cacheDir>/lockfile-verified.jsonl`: successful verifications, one JSON
//! record per line, in the format pnpm 12 reads and writes
//! (docs/supply-chain.md §5). A record is found by the lockfile's path
//! when its size, mtime and inode are unchanged, else by the hash of its
//! content; it counts only if [`Policy::trusts`] its policy snapshot.
//! Lines are appended with one `write`, so concurrent pnpm and pacquet
//! processes need no lock; a damaged line is skipped.

use std::collections::HashMap;
use std::fs::{self, OpenOptions};
use std::io::{self, Write as _};
use std::path::Path;
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::policy::Policy;
use crate::timestamp;

pub const FILE_NAME: &str = "lockfile-verified.jsonl";
/// Records kept when the file is compacted.
const MAX_RECORDS: usize = 1000;
/// Compact once the file grows past this (about 1.5 KiB per record).
const COMPACT_AT_BYTES: u64 = MAX_RECORDS as u64 * 1536;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub lockfile: LockfileId,
    #[serde(rename = "verifiedAt")]
    pub verified_at: String,
    pub policy: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockfileId {
    /// sha256 hex of the content (pacquet hashes the file's bytes).
    pub hash: String,
    /// Absolute path.
    pub path: String,
    pub size: u64,
    #[serde(rename = "mtimeNs")]
    pub mtime_ns: String,
    pub inode: String,
}

/// The lockfile as it is on disk now.
#[derive(Debug, Clone)]
pub struct Fingerprint {
    path: String,
    size: u64,
    mtime_ns: String,
    inode: String,
    hash: Option<String>,
}

impl Fingerprint {
    pub fn of(lockfile_path: &Path) -> Option<Fingerprint> {
        let meta = fs::metadata(lockfile_path).ok()?;
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|m| m.duration_since(UNIX_EPOCH).ok())
            .map_or_else(|| "0".to_string(), |d| d.as_nanos().to_string());
        Some(Fingerprint {
            path: lockfile_path.to_string_lossy().into_owned(),
            size: meta.len(),
            mtime_ns,
            inode: inode(&meta),
            hash: None,
        })
    }

    fn same_file(&self, id: &LockfileId) -> bool {
        self.size == id.size && self.mtime_ns == id.mtime_ns && self.inode == id.inode
    }

    fn hash(&mut self) -> Option<String> {
        if self.hash.is_none() {
            let bytes = fs::read(&self.path).ok()?;
            self.hash = Some(hex::encode(Sha256::digest(&bytes)));
        }
        self.hash.clone()
    }

    fn id(&mut self) -> Option<LockfileId> {
        Some(LockfileId {
            hash: self.hash()?,
            path: self.path.clone(),
            size: self.size,
            mtime_ns: self.mtime_ns.clone(),
            inode: self.inode.clone(),
        })
    }
}

#[cfg(unix)]
fn inode(meta: &fs::Metadata) -> String {
    use std::os::unix::fs::MetadataExt;
    meta.ino().to_string()
}

#[cfg(not(unix))]
fn inode(_: &fs::Metadata) -> String {
    "0".to_string()
}

/// When the lockfile at `fingerprint` was verified under a policy that
/// covers `policy`, if it was.
pub fn lookup(cache_dir: &Path, fingerprint: &mut Fingerprint, policy: &Policy) -> Option<String> {
    let text = fs::read_to_string(cache_dir.join(FILE_NAME)).ok()?;
    let mut at_path: Option<Record> = None;
    let mut by_hash: HashMap<String, Record> = HashMap::new();
    for record in text
        .lines()
        .filter_map(|l| serde_json::from_str::<Record>(l).ok())
    {
        if record.lockfile.hash.is_empty() || record.lockfile.path.is_empty() {
            continue;
        }
        if record.lockfile.path == fingerprint.path {
            at_path = Some(record.clone());
        }
        by_hash.insert(record.lockfile.hash.clone(), record);
    }
    // The newest record for this path decides when the file is unchanged.
    if let Some(record) = at_path
        && fingerprint.same_file(&record.lockfile)
    {
        return policy.trusts(&record.policy).then_some(record.verified_at);
    }
    let record = by_hash.get(&fingerprint.hash()?)?;
    if !policy.trusts(&record.policy) {
        return None;
    }
    // Remember this path too, so the next lookup needs no hash.
    let refreshed = Record {
        lockfile: fingerprint.id()?,
        verified_at: record.verified_at.clone(),
        policy: record.policy.clone(),
    };
    let _ = append(cache_dir, &refreshed);
    Some(record.verified_at.clone())
}

/// Records a successful verification of the lockfile at `fingerprint`.
/// Best effort: a cache that cannot be written only costs the next
/// install a verification.
pub fn record(cache_dir: &Path, fingerprint: &mut Fingerprint, policy: &Policy, now_ms: i64) {
    let Some(lockfile) = fingerprint.id() else {
        return;
    };
    let record = Record {
        lockfile,
        verified_at: timestamp::format(now_ms),
        policy: policy.snapshot(),
    };
    if append(cache_dir, &record).is_ok() {
        compact(cache_dir);
    }
}

fn append(cache_dir: &Path, record: &Record) -> io::Result<()> {
    fs::create_dir_all(cache_dir)?;
    let mut line = serde_json::to_string(record).map_err(io::Error::other)?;
    line.push('\n');
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(cache_dir.join(FILE_NAME))?
        .write_all(line.as_bytes())
}

/// Keeps the newest record per (path, hash), at most [`MAX_RECORDS`],
/// replacing the file by rename.
fn compact(cache_dir: &Path) {
    let path = cache_dir.join(FILE_NAME);
    if fs::metadata(&path).map_or(true, |m| m.len() <= COMPACT_AT_BYTES) {
        return;
    }
    let Ok(text) = fs::read_to_string(&path) else {
        return;
    };
    let mut seen = std::collections::HashSet::new();
    let mut kept: Vec<&str> = Vec::new();
    for line in text.lines().rev() {
        let Ok(record) = serde_json::from_str::<Record>(line) else {
            continue;
        };
        if seen.insert((record.lockfile.path, record.lockfile.hash)) {
            kept.push(line);
        }
        if kept.len() == MAX_RECORDS {
            break;
        }
    }
    kept.reverse();
    let tmp = cache_dir.join(format!("{FILE_NAME}.{}.tmp", std::process::id()));
    let body: String = kept.iter().map(|l| format!("{l}\n")).collect();
    if fs::write(&tmp, body).is_err() || fs::rename(&tmp, &path).is_err() {
        let _ = fs::remove_file(&tmp);
    }
}

#[cfg(test)]
mod tests;
