//! Process-wide locks per target path (docs/store.md §4.1), so two packages that
//! contain the same blob do not race on it. Striped: 4,096 mutexes, shared by
//! all `Cas` handles in the process.

use std::sync::{Mutex, MutexGuard};

/// With 256 stripes, the four extraction threads of a cold alotta install
/// met on one ~270 times (a contended lock is a futex wait and a wake;
/// `perf record -e syscalls:sys_enter_futex`); a stripe is held for a
/// create and a write.
const STRIPES: usize = 4096;

static LOCKS: [Mutex<()>; STRIPES] = [const { Mutex::new(()) }; STRIPES];

/// Locks the stripe of a blob.
pub(crate) fn lock(digest_hex: &str, executable: bool) -> MutexGuard<'static, ()> {
    // A panic while holding the lock leaves no shared state to repair.
    LOCKS[stripe(digest_hex, executable)]
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The digest is already uniformly random, so three of its hex digits
/// (after the two that name the shard) pick the stripe; the exec bit flips
/// it so the two variants of one digest do not contend.
fn stripe(digest_hex: &str, executable: bool) -> usize {
    let digits = digest_hex
        .get(2..5)
        .and_then(|digits| usize::from_str_radix(digits, 16).ok())
        .unwrap_or(0);
    (digits ^ usize::from(executable)) % STRIPES
}

#[cfg(test)]
mod tests {
    use super::stripe;

    #[test]
    fn digests_spread_over_every_stripe() {
        let digest = |digits: usize| format!("ab{digits:03x}{}", "0".repeat(123));
        let mut seen = vec![false; super::STRIPES];
        for digits in 0..0x1000 {
            seen[stripe(&digest(digits), false)] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_ne!(stripe(&digest(7), false), stripe(&digest(7), true));
        // Not hex: still a stripe.
        assert_eq!(stripe("zz", false), 0);
    }
}
