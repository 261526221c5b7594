//! Byte buffers kept between tarballs, so their pages stay mapped.
//!
//! A cold install of alotta downloads 67 MB of tarballs (1,352) and
//! inflates them to 337 MB. With a fresh buffer for each body, and inflate
//! buffers that grew by copying (or were dropped above 8 MiB: 139 MB of
//! alotta is in five such packages), the kernel mapped and zeroed a page
//! for every 4 KiB written again and again: ~90,000 page faults, ~7 % of
//! the install's CPU (`perf stat -e page-faults`, `perf record -g`). Bodies
//! go back to a small pool once extracted; packages over 8 MiB inflate one
//! at a time into one kept buffer.

use std::sync::{Mutex, PoisonError};

use crate::inflate::WHOLE_MAX;

/// Bodies kept for reuse: as many as can be in use at once, the downloads
/// in flight plus the tarballs waiting for a CPU (64 + 32 by default;
/// `networkConcurrency` goes up to 96).
const KEPT_BODIES: usize = 128;

/// Larger bodies are rare (8 of alotta's 1,352 tarballs exceed 1 MiB);
/// keeping them would hold memory for little gain.
const KEPT_BODY_CAPACITY: usize = 1 << 20;

/// Bytes of bodies kept at most: alotta's 128 largest tarballs under 1 MiB
/// take 24 MB; its tarballs are 49 KB on average.
const KEPT_BODY_BYTES: usize = 32 << 20;

static BODIES: Pool = Pool::new(KEPT_BODIES, KEPT_BODY_CAPACITY, KEPT_BODY_BYTES);

/// An empty buffer with room for `capacity` bytes, for a download's body.
pub(crate) fn body(capacity: usize) -> Vec<u8> {
    BODIES.take(capacity)
}

/// Gives a downloaded tarball's buffer back once its contents are used.
pub fn recycle_body(buffer: Vec<u8>) {
    BODIES.give(buffer);
}

/// Empty buffers kept for reuse: at most `count` of them, each of at most
/// `each` bytes, `bytes` in all.
pub(crate) struct Pool {
    kept: Mutex<Kept>,
    count: usize,
    each: usize,
    bytes: usize,
}

struct Kept {
    buffers: Vec<Vec<u8>>,
    /// The capacities of `buffers`, summed.
    bytes: usize,
}

impl Pool {
    pub(crate) const fn new(count: usize, each: usize, bytes: usize) -> Self {
        Pool {
            kept: Mutex::new(Kept {
                buffers: Vec::new(),
                bytes: 0,
            }),
            count,
            each,
            bytes,
        }
    }

    /// An empty buffer with room for `capacity` bytes: the smallest kept
    /// one that is large enough, or a new one.
    pub(crate) fn take(&self, capacity: usize) -> Vec<u8> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let fit = kept
            .buffers
            .iter()
            .enumerate()
            .filter(|(_, buffer)| buffer.capacity() >= capacity)
            .min_by_key(|(_, buffer)| buffer.capacity())
            .map(|(i, _)| i);
        match fit {
            Some(i) => {
                let buffer = kept.buffers.swap_remove(i);
                kept.bytes -= buffer.capacity();
                buffer
            }
            None => {
                drop(kept);
                Vec::with_capacity(capacity)
            }
        }
    }

    /// Keeps `buffer` (emptied) if the limits allow; when they do not, in
    /// place of the smallest kept buffer if that is smaller and the swap
    /// stays within `bytes`.
    pub(crate) fn give(&self, mut buffer: Vec<u8>) {
        let capacity = buffer.capacity();
        if capacity == 0 || capacity > self.each {
            return;
        }
        buffer.clear();
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.buffers.len() < self.count && kept.bytes + capacity <= self.bytes {
            kept.bytes += capacity;
            kept.buffers.push(buffer);
            return;
        }
        let smallest = kept
            .buffers
            .iter()
            .enumerate()
            .min_by_key(|(_, b)| b.capacity())
            .map(|(i, b)| (i, b.capacity()));
        if let Some((i, smallest)) = smallest
            && smallest < capacity
            && kept.bytes - smallest + capacity <= self.bytes
        {
            kept.bytes = kept.bytes - smallest + capacity;
            kept.buffers[i] = buffer;
        }
    }

    #[cfg(test)]
    fn kept_capacities(&self) -> Vec<usize> {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let mut capacities: Vec<usize> = kept.buffers.iter().map(Vec::capacity).collect();
        capacities.sort_unstable();
        assert_eq!(capacities.iter().sum::<usize>(), kept.bytes);
        capacities
    }
}

/// Largest inflate buffer a thread keeps between tarballs; larger archives
/// go to [`with_large`].
pub(crate) const KEEP_BUFFER: usize = 8 << 20;

thread_local! {
    /// The inflated tar of the thread's previous tarball, reused.
    static INFLATED: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `inflate` with the thread's inflate buffer, [`KEEP_BUFFER`] bytes
/// reserved whole (see [`reserve_whole`]; a cold alotta install: 77,000
/// page faults with exact-size buffers, 64,000 so).
pub(crate) fn with_thread_buffer<R>(inflate: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    INFLATED.with_borrow_mut(|buffer| {
        reserve_whole(buffer, KEEP_BUFFER);
        inflate(buffer)
    })
}

/// The buffer that archives over a thread's buffer inflate into, kept.
static LARGE: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// Runs `inflate` with the process's large-archive buffer, waiting while
/// another thread uses it. One at a time bounds memory: four extraction
/// threads could otherwise hold the largest packages of a project at once
/// (alotta's two highcharts versions, caniuse-db and jquery-ui unpack to
/// 47, 36, 23 and 17 MiB; a cold install peaked at 248–282 MiB resident),
/// and the buffer, kept for the next one, never adds to another. `inflate`
/// must not take it again.
///
/// It reserves the largest whole inflation at once (a cold alotta install,
/// whose packages over 8 MiB unpack to 17–47 MiB: 51–55k page faults
/// instead of 59–69k when it was replaced by each larger one, 3 runs each,
/// peak resident unchanged).
pub(crate) fn with_large<R>(inflate: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    let mut buffer = LARGE.lock().unwrap_or_else(PoisonError::into_inner);
    reserve_whole(
        &mut buffer,
        usize::try_from(WHOLE_MAX).unwrap_or(usize::MAX),
    );
    inflate(&mut buffer)
}

/// `buffer` holding exactly `len` bytes, zeroed where it had none.
pub(crate) fn sized(buffer: &mut Vec<u8>, len: usize) -> &mut [u8] {
    reserve_whole(buffer, len);
    if buffer.len() < len {
        buffer.resize(len, 0);
    }
    &mut buffer[..len]
}

/// Makes room for `capacity` bytes by replacing a buffer too small rather
/// than growing it: growing copies bytes nobody reads, and a kept buffer
/// replaced each time a larger archive comes maps all its pages again.
/// Reserving costs nothing more: pages are mapped only when first written.
fn reserve_whole(buffer: &mut Vec<u8>, capacity: usize) {
    if buffer.capacity() < capacity {
        // Freed first, so the old and the new are never both held.
        *buffer = Vec::new();
        *buffer = Vec::with_capacity(capacity);
    }
}

#[cfg(test)]
mod tests;
