//! Tarball extraction into a CAS (see `pacquet_fuzz_harness::tarball` for
//! the input format).
#![no_main]

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

static STORE: OnceLock<tempfile::TempDir> = OnceLock::new();
static RUNS: AtomicU64 = AtomicU64::new(0);

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let store = STORE.get_or_init(|| tempfile::tempdir().expect("temp store"));
    // Every distinct file content lands in the CAS: start over now and then
    // so a long run does not fill the disk.
    if RUNS.fetch_add(1, Ordering::Relaxed) % 2000 == 1999 {
        let _ = std::fs::remove_dir_all(store.path().join("files"));
    }
    pacquet_fuzz_harness::tarball(data, store.path());
});
