//! Reuse check of a blob against its index row (docs/store.md §8).

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

use sha2::{Digest, Sha512};

use crate::{Cas, clock, stripes};

/// How far (ms) a blob's mtime may be past its `checkedAt` and still count
/// as untouched; pnpm's threshold.
const MTIME_SLACK_MS: f64 = 100.0;

/// Outcome of [`Cas::verify`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileCheck {
    /// Present and (if it was touched since `checked_at`) re-hashed good.
    Ok,
    /// Not in the store.
    Missing,
    /// Present but not the content its name promises; removed if it was a
    /// regular file.
    Damaged,
}

impl Cas {
    /// docs/store.md §8: `stat`; a blob modified more than 100 ms after
    /// `checked_at` (or any blob when it is `None`) is re-checked by size and
    /// hash, and deleted when wrong so the next write recreates it.
    pub fn verify(
        &self,
        digest_hex: &str,
        executable: bool,
        size: u64,
        checked_at: Option<f64>,
    ) -> FileCheck {
        let Some(stat) = self.stat_blob(digest_hex, executable) else {
            return FileCheck::Missing;
        };
        if !stat.is_file {
            return FileCheck::Damaged;
        }
        if stat.modified_ms - checked_at.unwrap_or(0.0) <= MTIME_SLACK_MS {
            return FileCheck::Ok;
        }
        let path = self.file_path(digest_hex, executable);
        // Serialize with in-process writers so we never delete a blob that
        // one of them has just healed.
        let _stripe = stripes::lock(digest_hex, executable);
        if stat.size != size {
            let _ = fs::remove_file(&path);
            return FileCheck::Damaged;
        }
        match hash_file(&path) {
            Ok(actual) if actual.eq_ignore_ascii_case(digest_hex) => FileCheck::Ok,
            Ok(_) => {
                let _ = fs::remove_file(&path);
                FileCheck::Damaged
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => FileCheck::Missing,
            Err(_) => FileCheck::Damaged,
        }
    }
}

fn hash_file(path: &Path) -> io::Result<String> {
    let mut file = File::open(path)?;
    let mut hasher = Sha512::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(hex::encode(hasher.finalize()))
}

/// What the reuse check needs from `stat`.
struct BlobStat {
    is_file: bool,
    size: u64,
    modified_ms: f64,
}

impl Cas {
    /// `fstatat` on the shard descriptor (one path component for the kernel
    /// to walk), else `stat` on the full path.
    fn stat_blob(&self, digest_hex: &str, executable: bool) -> Option<BlobStat> {
        if let Some(at) = self.blob_at(digest_hex, executable) {
            return stat_at(&at);
        }
        let meta = fs::metadata(self.file_path(digest_hex, executable)).ok()?;
        Some(BlobStat {
            is_file: meta.is_file(),
            size: meta.len(),
            modified_ms: meta
                .modified()
                .map(clock::system_time_ms)
                .unwrap_or(f64::INFINITY),
        })
    }
}

#[cfg(unix)]
fn stat_at(at: &crate::BlobAt<'_>) -> Option<BlobStat> {
    use rustix::fs::{AtFlags, FileType, statat};
    let st = statat(at.dir(), at.name(), AtFlags::empty()).ok()?;
    Some(BlobStat {
        is_file: FileType::from_raw_mode(st.st_mode) == FileType::RegularFile,
        size: st.st_size as u64,
        modified_ms: st.st_mtime as f64 * 1e3 + st.st_mtime_nsec as f64 / 1e6,
    })
}

#[cfg(not(unix))]
fn stat_at(at: &crate::BlobAt<'_>) -> Option<BlobStat> {
    at.unreachable()
}
