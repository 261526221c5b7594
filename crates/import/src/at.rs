//! Hard links through directory descriptors: `linkat(shard fd, name,
//! package fd, "lib/x.js")` and `mkdirat(package fd, "lib")`, so the kernel
//! walks one or two path components per call instead of a dozen (the store
//! path plus `node_modules/.pnpm/<slot>/node_modules/<name>/…`).

use std::{io, os::fd::OwnedFd, path::Path};

use pacquet_cas::BlobAt;
use rustix::fs::{AtFlags, Mode, linkat, mkdirat, unlinkat};

/// An open package directory.
pub(crate) struct DirFd {
    fd: OwnedFd,
}

impl DirFd {
    pub(crate) fn open(dir: &Path) -> io::Result<DirFd> {
        Ok(DirFd {
            fd: pacquet_cas::open_dir(dir)?,
        })
    }

    /// `mkdirat`, tolerating an existing directory.
    pub(crate) fn mkdir(&self, rel: &str) -> io::Result<()> {
        match mkdirat(&self.fd, rel, Mode::from_raw_mode(0o777)) {
            Err(e) if e == rustix::io::Errno::EXIST => Ok(()),
            other => Ok(other?),
        }
    }

    /// Hard-links `blob` at `rel`, replacing a file an interrupted import
    /// left there.
    pub(crate) fn link(&self, blob: &BlobAt<'_>, rel: &str) -> io::Result<()> {
        let link = || linkat(blob.dir(), blob.name(), &self.fd, rel, AtFlags::empty());
        match link() {
            Err(e) if e == rustix::io::Errno::EXIST => {
                unlinkat(&self.fd, rel, AtFlags::empty())?;
                Ok(link()?)
            }
            other => Ok(other?),
        }
    }
}
