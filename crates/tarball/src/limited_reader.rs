//! The uncompressed tar stream: counted against the size cap while it is
//! inflated (so a gzip bomb stops early) and hashed for `tarIntegrity`.

use std::cell::Cell;
use std::io::{self, Read};
use std::rc::Rc;

use ssri::{Algorithm, Integrity, IntegrityOpts};

pub(crate) struct TarStream<R> {
    inner: R,
    read: u64,
    limit: u64,
    hasher: IntegrityOpts,
    /// Shared with the caller: the `tar` crate may rewrap our error, so the
    /// flag, not the error value, says the cap was hit.
    exceeded: Rc<Cell<bool>>,
}

impl<R: Read> TarStream<R> {
    pub(crate) fn new(inner: R, limit: u64, exceeded: Rc<Cell<bool>>) -> Self {
        TarStream {
            inner,
            read: 0,
            limit,
            hasher: IntegrityOpts::new().algorithm(Algorithm::Sha512),
            exceeded,
        }
    }

    /// Bytes read so far.
    pub(crate) fn len(&self) -> u64 {
        self.read
    }

    /// `sha512-<base64>` of everything read.
    pub(crate) fn finish(self) -> Integrity {
        self.hasher.result()
    }
}

impl<R: Read> Read for TarStream<R> {
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
        self.hasher.input(&buf[..n]);
        Ok(n)
    }
}
