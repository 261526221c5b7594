//! The tree the last install carried out, kept under
//! `<cacheDir>/pacquet/trees/` (one file per virtual store directory) so
//! that a repeat install compares its plan with it instead of parsing and
//! planning `<virtualStoreDir>/lock.yaml` again (docs/store.md §11.2). The
//! file names the `lock.yaml` text and the options it was laid out with, by
//! their 128-bit XXH3, and checks itself the same way; a file naming
//! others, or damaged, is ignored. The digests only tell this cache's own
//! files apart (whoever can write the record can write `lock.yaml`): XXH3
//! hashes alotta's ~0.4 MB `lock.yaml` and ~0.85 MB tree in microseconds,
//! where SHA-256 took ~2 % of a lockfile-change install's CPU (`perf`).

use std::path::{Path, PathBuf};

use pacquet_planner::{Plan, Tree};
use xxhash_rust::xxh3::xxh3_128;

use crate::summaries::keyed_by_store_dir;

/// Changes with the header below; the tree's own format has a magic of
/// its own.
const MAGIC: &[u8] = b"pacquet-tree 3\n";

/// Where the record for the virtual store `vsd` (absolute) lives.
pub fn path(cache_dir: &Path, vsd: &Path) -> PathBuf {
    keyed_by_store_dir(cache_dir, "trees", vsd)
}

/// The record of `plan`, laid out with options whose
/// [`pacquet_planner::PlanOptions::shape_key`] is `shape_key`, whose
/// `lock.yaml` is `lock_yaml`.
pub fn encode(lock_yaml: &str, shape_key: &str, plan: &Plan) -> Vec<u8> {
    let tree = pacquet_planner::tree::encode(plan);
    let mut out = Vec::with_capacity(MAGIC.len() + 3 * DIGEST + tree.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&digest(lock_yaml.as_bytes()));
    out.extend_from_slice(&digest(shape_key.as_bytes()));
    out.extend_from_slice(&digest(&tree));
    out.extend_from_slice(&tree);
    out
}

/// Bytes of one digest.
const DIGEST: usize = 16;

fn digest(bytes: &[u8]) -> [u8; DIGEST] {
    xxh3_128(bytes).to_le_bytes()
}

/// The tree `record` holds if it belongs to `lock_yaml` and `shape_key`.
pub fn decode(record: &[u8], lock_yaml: &str, shape_key: &str) -> Option<Tree> {
    let rest = record.strip_prefix(MAGIC)?;
    let (lock_digest, rest) = rest.split_at_checked(DIGEST)?;
    let (shape_digest, rest) = rest.split_at_checked(DIGEST)?;
    let (tree_digest, tree) = rest.split_at_checked(DIGEST)?;
    if shape_digest != digest(shape_key.as_bytes())
        || lock_digest != digest(lock_yaml.as_bytes())
        || tree_digest != digest(tree)
    {
        return None;
    }
    pacquet_planner::tree::decode(tree)
}

/// Reads the record at `path` (see [`decode`]). The file is mapped, not
/// read: alotta's ~0.85 MB record read into a fresh heap buffer cost a
/// zeroed 2 MiB huge page on first touch, 7 % of a lockfile-change
/// install's samples (`perf`, `clear_page_erms` under `fs::read`).
pub fn read(path: &Path, lock_yaml: &str, shape_key: &str) -> Option<Tree> {
    let file = std::fs::File::open(path).ok()?;
    // SAFETY: records are replaced by rename or removed (`write`), never
    // written in place, so the mapped bytes do not change under `decode`.
    let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
    decode(&map, lock_yaml, shape_key)
}

/// Replaces the record at `path`, or removes it when there is none to
/// keep. A record that cannot be written only costs the next install the
/// planning, so failures are ignored.
pub fn write(path: &Path, record: Option<&[u8]>) {
    match record {
        Some(bytes) => {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = pacquet_state::write_atomic(path, bytes);
        }
        None => {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests;
