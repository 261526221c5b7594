//! Without descriptor-relative system calls (Windows) there is no open
//! package directory: [`DirFd::open`] fails, and every file takes the
//! path-based route of [`crate::method`].

use std::{io, path::Path};

use pacquet_cas::BlobAt;

/// Never constructed on this platform.
pub(crate) enum DirFd {}

impl DirFd {
    pub(crate) fn open(_dir: &Path) -> io::Result<DirFd> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "descriptor-relative calls are Unix-only",
        ))
    }

    pub(crate) fn mkdir(&self, _rel: &str) -> io::Result<()> {
        match *self {}
    }

    pub(crate) fn link(&self, _blob: &BlobAt<'_>, _rel: &str) -> io::Result<()> {
        match *self {}
    }
}
