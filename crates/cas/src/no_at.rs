//! Without descriptor-relative system calls (Windows), blobs are reached by
//! path only: [`Cas::blob_at`] is always `None`, and callers take the
//! [`Cas::file_path`] route they also take for a store that lacks a shard.

use std::{convert::Infallible, marker::PhantomData};

use crate::Cas;

/// Never constructed on this platform (see the Unix `BlobAt`); the type
/// exists so that callers compile unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlobAt<'a> {
    never: Infallible,
    _store: PhantomData<&'a Cas>,
}

impl BlobAt<'_> {
    /// Code holding a `BlobAt` cannot run here.
    pub fn unreachable(&self) -> ! {
        match self.never {}
    }
}

impl Cas {
    /// Always `None` here: callers use [`Cas::file_path`].
    pub fn blob_at(&self, _digest_hex: &str, _executable: bool) -> Option<BlobAt<'_>> {
        None
    }

    /// No descriptors to open here.
    pub(crate) fn open_shards(&self) {}
}
