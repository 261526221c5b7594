//! Byte buffers kept between tarballs, so their pages stay mapped.
//!
//! A cold install of alotta downloads 67 MB of tarballs (1,352) and
//! inflates them to 337 MB. With a fresh buffer for each body, and inflate
//! buffers that grew by copying (or were dropped above 8 MiB: 139 MB of
//! alotta is in five such packages), the kernel mapped and zeroed a page
//! for every 4 KiB written again and again: ~90,000 page faults, ~7 % of
//! the install's CPU (`perf stat -e page-faults`, `perf record -g`). Bodies
//! go back to a small pool once extracted; the inflated tars of large
//! packages share one kept buffer (the large-inflate budget rarely lets two
//! be inflated at once).

use std::sync::{Mutex, PoisonError};

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

/// The one kept buffer for inflating tarballs larger than a thread keeps.
static LARGE: Largest = Largest::new();

/// Takes the kept large buffer (empty if another thread holds it).
pub(crate) fn take_large() -> Vec<u8> {
    LARGE.take()
}

/// Keeps `buffer` for the next large tarball, unless a larger one is kept.
pub(crate) fn give_large(buffer: Vec<u8>) {
    LARGE.give(buffer);
}

/// One buffer kept: the largest given.
pub(crate) struct Largest(Mutex<Vec<u8>>);

impl Largest {
    pub(crate) const fn new() -> Self {
        Largest(Mutex::new(Vec::new()))
    }

    pub(crate) fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    pub(crate) fn give(&self, buffer: Vec<u8>) {
        let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if buffer.capacity() > kept.capacity() {
            *kept = buffer;
        }
    }
}

/// `buffer` holding exactly `len` bytes, zeroed where it had none. A buffer
/// too small is replaced rather than grown: growing copies bytes nobody
/// reads.
pub(crate) fn sized(buffer: &mut Vec<u8>, len: usize) -> &mut [u8] {
    if buffer.capacity() < len {
        *buffer = Vec::new();
        *buffer = Vec::with_capacity(len);
    }
    if buffer.len() < len {
        buffer.resize(len, 0);
    }
    &mut buffer[..len]
}

#[cfg(test)]
mod tests;
