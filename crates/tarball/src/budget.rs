//! A process-wide cap on the bytes of large tarballs inflated at once.
//!
//! Each extraction thread inflates a tarball whole into memory (one
//! libdeflate call, docs/store.md §7.2). With four threads, the largest
//! packages of a project can land together: on alotta, the two highcharts
//! versions, caniuse-db and jquery-ui unpack to 47, 36, 23 and 17 MiB, and a
//! cold install peaked above 256 MiB resident. Inflations above what a
//! thread keeps between tarballs take their size from this budget and wait
//! while others hold it.

use std::sync::{Condvar, Mutex, PoisonError};

/// Bytes of large inflated tarballs held at once: the largest npm package
/// fits alone, two of the largest of alotta do not.
pub(crate) const WHOLE_BUDGET: u64 = 64 << 20;

/// The budget shared by every extraction of the process.
pub(crate) static LARGE_INFLATES: Budget = Budget::new(WHOLE_BUDGET);

/// A number of bytes that may be held at once, handed out in [`Grant`]s.
pub(crate) struct Budget {
    limit: u64,
    held: Mutex<u64>,
    released: Condvar,
}

/// Bytes taken from a [`Budget`]; given back when dropped.
pub(crate) struct Grant<'b> {
    budget: &'b Budget,
    bytes: u64,
}

impl Budget {
    pub(crate) const fn new(limit: u64) -> Self {
        Budget {
            limit,
            held: Mutex::new(0),
            released: Condvar::new(),
        }
    }

    /// Takes `bytes`, waiting while others hold too much. A request larger
    /// than the whole budget is granted once nothing else is held, so it
    /// never waits forever. A thread must not hold two grants at once.
    pub(crate) fn acquire(&self, bytes: u64) -> Grant<'_> {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        while *held > 0 && *held + bytes > self.limit {
            held = self
                .released
                .wait(held)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *held += bytes;
        Grant {
            budget: self,
            bytes,
        }
    }

    #[cfg(test)]
    fn held(&self) -> u64 {
        *self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Grant<'_> {
    fn drop(&mut self) {
        let mut held = self
            .budget
            .held
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *held -= self.bytes;
        self.budget.released.notify_all();
    }
}

#[cfg(test)]
mod tests;
