//! The uncompressed tar stream of the streaming path, counted against the
//! size cap while it is inflated, so a gzip bomb stops early.

use std::cell::Cell;
use std::io::{self, Read};

pub(crate) struct TarStream<'a, R> {
    inner: R,
    read: u64,
    limit: u64,
    /// Shared with the caller: the `tar` crate may rewrap our error, so the
    /// flag, not the error value, says the cap was hit.
    exceeded: &'a Cell<bool>,
}

impl<'a, R: Read> TarStream<'a, R> {
    pub(crate) fn new(inner: R, limit: u64, exceeded: &'a Cell<bool>) -> Self {
        TarStream {
            inner,
            read: 0,
            limit,
            exceeded,
        }
    }

    /// Bytes read so far.
    pub(crate) fn len(&self) -> u64 {
        self.read
    }
}

impl<R: Read> Read for TarStream<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // Never inflate more than one byte past the cap.
        let room = self.limit.saturating_sub(self.read).saturating_add(1);
        let take = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..take])?;
        self.read += n as u64;
        if self.read > self.limit {
            self.exceeded.set(true);
            return Err(io::Error::other("unpacked size limit exceeded"));
        }
        Ok(n)
    }
}
