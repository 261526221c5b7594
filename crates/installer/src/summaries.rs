//! The project's copy of the store row summaries its last install used
//! (docs/store.md §11.1), under `<cacheDir>/pacquet/row-summaries/`, one
//! file per virtual store directory: read before the index, so packages
//! already complete need no row, and written back after an install that
//! read rows the copy lacked.

use std::path::{Path, PathBuf};

use foldhash::HashMap;

use pacquet_config::Config;
use pacquet_store_index::CachedSummary;
use sha2::{Digest, Sha256};

use crate::{lexical::normalize, store::Rows};

/// Where the copy for the virtual store `vsd` (absolute) lives.
pub fn copy_path(cache_dir: &Path, vsd: &Path) -> PathBuf {
    keyed_by_store_dir(cache_dir, "row-summaries", vsd)
}

/// `<cacheDir>/pacquet/<kind>/<digest of vsd>`: pacquet's own cache
/// files about one virtual store directory (absolute).
pub fn keyed_by_store_dir(cache_dir: &Path, kind: &str, vsd: &Path) -> PathBuf {
    let digest = Sha256::digest(normalize(vsd).as_os_str().as_encoded_bytes());
    cache_dir
        .join("pacquet")
        .join(kind)
        .join(hex::encode(&digest[..16]))
}

/// The copy for this install's virtual store; empty when there is none.
pub fn read(config: &Config, vsd: &Path) -> HashMap<String, CachedSummary> {
    if !vsd.exists() {
        // Nothing is in place to be completed from a summary.
        return HashMap::default();
    }
    pacquet_store_index::read_summaries(&copy_path(&config.cache_dir, vsd), &config.store_dir)
}

/// Replaces the copy with the summaries of `rows` and of the rows this
/// install wrote (`written`), unless the copy supplied them all. A copy
/// that cannot be written only costs the next install the rows, so
/// failures are ignored.
pub fn write(config: &Config, vsd: &Path, rows: &Rows, written: &[(String, CachedSummary)]) {
    if rows.unchanged_copy && written.is_empty() {
        return;
    }
    let path = copy_path(&config.cache_dir, vsd);
    let summaries = rows.summaries();
    let all = summaries
        .iter()
        .map(|(key, summary)| (*key, summary))
        .chain(written.iter().map(|(key, summary)| (key.as_str(), summary)));
    let _ = pacquet_store_index::write_summaries(&path, &config.store_dir, all);
}
