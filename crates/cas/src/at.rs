//! Blobs addressed relative to their shard directory (`files/XX`), for the
//! `*at` system calls of the warm path.
//!
//! A full blob path costs the kernel a walk over six components on every
//! `stat` and `link`; an open shard descriptor leaves one. In a warm alotta
//! install (39,000 links and as many stats) the intermediate walk was 11 %
//! of all CPU time (`perf`, `link_path_walk`).

use std::{
    ffi::CStr,
    fmt,
    os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd},
    sync::OnceLock,
};

use rustix::fs::{CWD, Mode, OFlags, openat};

use crate::Cas;

/// Longest blob name plus its NUL: a SHA-512 hex digest less its two shard
/// digits, then `-exec`.
const NAME_CAP: usize = 128 - 2 + "-exec".len() + 1;

/// A blob as `(shard directory descriptor, file name)`, for `linkat` and
/// `fstatat`. The descriptor is borrowed from the [`Cas`] that opened it, so
/// a `BlobAt` cannot outlive the store handle:
///
/// ```compile_fail,E0597
/// let dir = tempfile::tempdir().unwrap();
/// let digest = {
///     let cas = pacquet_cas::Cas::new(dir.path());
///     cas.write(b"x", false).unwrap().digest
/// };
/// let at = {
///     let cas = pacquet_cas::Cas::new(dir.path());
///     cas.blob_at(&digest, false).unwrap()
/// }; // `cas` closes its shard descriptors here
/// drop(at);
/// ```
///
/// The name is stored inline (no allocation per file on the warm path), so
/// a `BlobAt` is `Copy` within that lifetime.
#[derive(Clone, Copy)]
pub struct BlobAt<'a> {
    dir: BorrowedFd<'a>,
    /// NUL-terminated, zero-padded.
    name: [u8; NAME_CAP],
}

impl<'a> BlobAt<'a> {
    /// `name` inside the directory `dir`; `None` if it holds a NUL or is
    /// longer than a blob name can be.
    pub fn new(dir: BorrowedFd<'a>, name: &str) -> Option<BlobAt<'a>> {
        Self::with_suffix(dir, name, "")
    }

    fn with_suffix(dir: BorrowedFd<'a>, stem: &str, suffix: &str) -> Option<BlobAt<'a>> {
        let len = stem.len() + suffix.len();
        if len >= NAME_CAP || stem.contains('\0') {
            return None;
        }
        let mut buf = [0u8; NAME_CAP];
        buf[..stem.len()].copy_from_slice(stem.as_bytes());
        buf[stem.len()..len].copy_from_slice(suffix.as_bytes());
        Some(BlobAt { dir, name: buf })
    }

    /// The shard directory.
    pub fn dir(&self) -> BorrowedFd<'a> {
        self.dir
    }

    /// The file name inside [`BlobAt::dir`].
    pub fn name(&self) -> &CStr {
        CStr::from_bytes_until_nul(&self.name).expect("the buffer ends in NUL")
    }
}

impl fmt::Debug for BlobAt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlobAt")
            .field("dir", &self.dir)
            .field("name", &self.name())
            .finish()
    }
}

/// The same descriptor number and name: one blob while both borrows live.
impl PartialEq for BlobAt<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.dir.as_raw_fd() == other.dir.as_raw_fd() && self.name == other.name
    }
}

impl Eq for BlobAt<'_> {}

/// Lazily opened descriptors of the 256 shard directories.
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

/// Flags for a directory used only as the base of `*at` calls. Linux's
/// `O_PATH` needs no read permission and does no access check at open.
#[cfg(target_os = "linux")]
const DIR_FLAGS: OFlags = OFlags::PATH.union(OFlags::DIRECTORY).union(OFlags::CLOEXEC);
/// Elsewhere (no `O_PATH`) a read-only descriptor, which `*at` calls accept.
#[cfg(not(target_os = "linux"))]
const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::CLOEXEC);

/// Opens the directory `path` as a base for `*at` calls. `openat(CWD, …)`:
/// rustix's `open` is the older `open` syscall on x86_64.
pub fn open_dir(path: &std::path::Path) -> std::io::Result<OwnedFd> {
    Ok(openat(CWD, path, DIR_FLAGS, Mode::empty())?)
}

impl Cas {
    /// The blob `digest_hex` as a shard descriptor and name; `None` when the
    /// shard cannot be opened (a store without it yet) or the digest is not
    /// hex or too long, and callers fall back to [`Cas::file_path`].
    pub fn blob_at(&self, digest_hex: &str, executable: bool) -> Option<BlobAt<'_>> {
        let shard = u8::from_str_radix(digest_hex.get(..2)?, 16).ok()?;
        let dir = self.shard_fd(shard)?;
        let suffix = if executable { "-exec" } else { "" };
        BlobAt::with_suffix(dir, &digest_hex[2..], suffix)
    }

    /// Opens every shard's descriptor not open yet.
    pub(crate) fn open_shards(&self) {
        for shard in 0..=255u8 {
            self.shard_fd(shard);
        }
    }

    fn shard_fd(&self, shard: u8) -> Option<BorrowedFd<'_>> {
        let slot = &self.shard_fds.fds[usize::from(shard)];
        if let Some(fd) = slot.get() {
            return Some(fd.as_fd());
        }
        // Not cached on failure: a later write may create the shard.
        let fd = open_dir(&self.files_dir().join(format!("{shard:02x}"))).ok()?;
        // A racing thread may have set it first; either descriptor works.
        Some(slot.get_or_init(|| fd).as_fd())
    }
}
