//! Blobs addressed relative to their shard directory (`files/XX`), for the
//! `*at` system calls of the warm path.
//!
//! A full blob path costs the kernel a walk over six components on every
//! `stat` and `link`; an open shard descriptor leaves one. In a warm alotta
//! install (39,000 links and as many stats) the intermediate walk was 11 %
//! of all CPU time (`perf`, `link_path_walk`).

use std::{
    ffi::CString,
    os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd},
    sync::OnceLock,
};

use crate::Cas;

/// A blob as `(shard directory descriptor, file name)`. The descriptor
/// belongs to the [`Cas`] and stays open as long as it lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlobAt {
    pub dir: RawFd,
    pub name: CString,
}

/// Lazily opened `O_PATH` descriptors of the 256 shard directories.
#[derive(Debug)]
pub(crate) struct ShardFds {
    fds: Box<[OnceLock<OwnedFd>]>,
}

impl ShardFds {
    pub(crate) fn new() -> Self {
        ShardFds {
            fds: (0..256).map(|_| OnceLock::new()).collect(),
        }
    }
}

impl Cas {
    /// The blob `digest_hex` as a shard descriptor and name; `None` when the
    /// shard cannot be opened (a store without it yet) or the digest is not
    /// hex, and callers fall back to [`Cas::file_path`].
    pub fn blob_at(&self, digest_hex: &str, executable: bool) -> Option<BlobAt> {
        let shard = u8::from_str_radix(digest_hex.get(..2)?, 16).ok()?;
        let dir = self.shard_fd(shard)?;
        let rest = &digest_hex[2..];
        let mut name = Vec::with_capacity(rest.len() + 6);
        name.extend_from_slice(rest.as_bytes());
        if executable {
            name.extend_from_slice(b"-exec");
        }
        Some(BlobAt {
            dir,
            name: CString::new(name).ok()?,
        })
    }

    fn shard_fd(&self, shard: u8) -> Option<RawFd> {
        let slot = &self.shard_fds.fds[usize::from(shard)];
        if let Some(fd) = slot.get() {
            return Some(fd.as_raw_fd());
        }
        let path = self.files_dir().join(format!("{shard:02x}"));
        let path = CString::new(path.into_os_string().into_encoded_bytes()).ok()?;
        // SAFETY: `path` is NUL-terminated; the result is checked.
        let raw = unsafe {
            libc::open(
                path.as_ptr(),
                libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        };
        if raw < 0 {
            return None; // not cached: a later write may create the shard
        }
        // SAFETY: `raw` is a descriptor we just opened and own.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        // A racing thread may have set it first; either descriptor works.
        Some(slot.get_or_init(|| fd).as_raw_fd())
    }
}
