//! Hard links through directory descriptors: `linkat(shard fd, name,
//! package fd, "lib/x.js")` and `mkdirat(package fd, "lib")`, so the kernel
//! walks one or two path components per call instead of a dozen (the store
//! path plus `node_modules/.pnpm/<slot>/node_modules/<name>/…`).

use std::{
    ffi::CStr,
    io,
    os::fd::{AsRawFd, FromRawFd, OwnedFd},
    path::Path,
};

use pacquet_cas::BlobAt;

/// An open package directory.
pub(crate) struct DirFd {
    fd: OwnedFd,
    /// Scratch for NUL-terminated relative paths.
    buf: Vec<u8>,
}

impl DirFd {
    pub(crate) fn open(dir: &Path) -> io::Result<DirFd> {
        let mut buf = Vec::with_capacity(256);
        let raw = with_c_path(&mut buf, dir.as_os_str().as_encoded_bytes(), |path| {
            // SAFETY: `path` is NUL-terminated; the result is checked.
            cvt(unsafe {
                libc::open(
                    path.as_ptr(),
                    libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
                )
            })
        })?;
        // SAFETY: `raw` was just opened and is owned here.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        Ok(DirFd { fd, buf })
    }

    /// `mkdirat`, tolerating an existing directory.
    pub(crate) fn mkdir(&mut self, rel: &str) -> io::Result<()> {
        let dir = self.fd.as_raw_fd();
        let result = with_c_path(&mut self.buf, rel.as_bytes(), |path| {
            // SAFETY: `path` is NUL-terminated.
            cvt(unsafe { libc::mkdirat(dir, path.as_ptr(), 0o777) })
        });
        match result {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
            other => other.map(drop),
        }
    }

    /// Hard-links `blob` at `rel`, replacing a file an interrupted import
    /// left there.
    pub(crate) fn link(&mut self, blob: &BlobAt, rel: &str) -> io::Result<()> {
        let dir = self.fd.as_raw_fd();
        with_c_path(&mut self.buf, rel.as_bytes(), |path| {
            let link = || {
                // SAFETY: both names are NUL-terminated; both fds are open.
                cvt(unsafe { libc::linkat(blob.dir, blob.name.as_ptr(), dir, path.as_ptr(), 0) })
            };
            match link() {
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    // SAFETY: `path` is NUL-terminated.
                    cvt(unsafe { libc::unlinkat(dir, path.as_ptr(), 0) })?;
                    link()
                }
                other => other,
            }
        })
        .map(drop)
    }
}

/// Runs `f` with `bytes` as a C string built in `buf`.
fn with_c_path<T>(
    buf: &mut Vec<u8>,
    bytes: &[u8],
    f: impl FnOnce(&CStr) -> io::Result<T>,
) -> io::Result<T> {
    buf.clear();
    buf.extend_from_slice(bytes);
    buf.push(0);
    let path = CStr::from_bytes_with_nul(buf)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "path contains NUL"))?;
    f(path)
}

fn cvt(rc: libc::c_int) -> io::Result<libc::c_int> {
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(rc)
    }
}
