//! Temp file names for atomic rewrites (docs/store.md §4.5), shared with pnpm so
//! leftovers from either tool look alike.

use std::sync::atomic::{AtomicU64, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Next process-wide counter value.
pub(crate) fn next_counter() -> u64 {
    COUNTER.fetch_add(1, Ordering::Relaxed)
}

/// `<base><pid><counter>`: `base` is the blob's file name cut at the first
/// `-`, except that a `-exec` tail becomes `x`.
pub fn temp_file_name(blob_file_name: &str, pid: u32, counter: u64) -> String {
    let base = match blob_file_name.strip_suffix("-exec") {
        Some(stem) => format!("{}x", stem.split('-').next().unwrap_or(stem)),
        None => blob_file_name
            .split('-')
            .next()
            .unwrap_or(blob_file_name)
            .to_string(),
    };
    format!("{base}{pid}{counter}")
}
