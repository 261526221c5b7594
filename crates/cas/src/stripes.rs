//! Process-wide locks per target path (docs/store.md §4.1), so two packages that
//! contain the same blob do not race on it. Striped: 256 mutexes, shared by
//! all `Cas` handles in the process.

use std::sync::{Mutex, MutexGuard};

static STRIPES: [Mutex<()>; 256] = [const { Mutex::new(()) }; 256];

/// Locks the stripe of a blob. The digest is already uniformly random, so
/// two of its hex digits pick the stripe; the exec bit flips it so the two
/// variants of one digest do not contend.
pub(crate) fn lock(digest_hex: &str, executable: bool) -> MutexGuard<'static, ()> {
    let bytes = digest_hex.as_bytes();
    let hi = bytes.get(2).copied().unwrap_or(0);
    let lo = bytes.get(3).copied().unwrap_or(0);
    let index = (usize::from(hi) * 31 + usize::from(lo) + usize::from(executable)) % 256;
    // A panic while holding the lock leaves no shared state to repair.
    STRIPES[index]
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
