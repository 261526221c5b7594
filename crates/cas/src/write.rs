//! The write protocol of docs/store.md §4 (pnpm 12 variant).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;
use std::time::Duration;

use crate::BlobAt;
use crate::retry::on_fd_exhaustion;
use crate::temp_name::{next_counter, temp_file_name};
use crate::{Cas, CasError, CasFile, clock, digest, stripes};

/// Distinct temp names tried before giving up (§4.4).
const TEMP_ATTEMPTS: usize = 16;
/// Attempts at the final `rename`.
const RENAME_ATTEMPTS: u32 = 4;

impl Cas {
    /// Hashes `content` and makes sure the store holds exactly it under its
    /// name, whatever other threads or processes (pacquet or pnpm) do to the
    /// same blob at the same time.
    pub fn write(&self, content: &[u8], executable: bool) -> Result<CasFile, CasError> {
        self.write_hashed(content, executable, digest::sha512_hex(content))
    }

    /// [`Cas::write`] for content whose digest (lowercase hex SHA-512) the
    /// caller computed, e.g. together with other files'.
    pub fn write_hashed(
        &self,
        content: &[u8],
        executable: bool,
        digest: String,
    ) -> Result<CasFile, CasError> {
        debug_assert_eq!(digest, digest::sha512_hex(content));
        let path = self.file_path(&digest, executable);
        if self.known.contains(&digest, executable) {
            return Ok(CasFile {
                digest,
                path,
                size: content.len() as u64,
                checked_at: clock::now_ms(),
            });
        }
        self.ensure_shards()?;
        {
            let _stripe = stripes::lock(&digest, executable);
            // Created relative to the open shard directory: a full path
            // costs the kernel a walk over every component per file.
            let created = match self.blob_at(&digest, executable) {
                Some(at) => create_at(&at, executable),
                None => open_exclusive(&path, executable),
            };
            store(&path, created, content, executable)?;
        }
        self.known.insert(&digest, executable);
        Ok(CasFile {
            digest,
            path,
            size: content.len() as u64,
            checked_at: clock::now_ms(),
        })
    }
}

/// Create mode: the umask still applies, as for pnpm's own writes.
#[cfg(unix)]
fn create_mode(executable: bool) -> u32 {
    if executable { 0o755 } else { 0o666 }
}

#[cfg(unix)]
fn open_exclusive(path: &Path, executable: bool) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    on_fd_exhaustion(|| {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(create_mode(executable))
            .open(path)
    })
}

/// No modes here: `-exec` is only part of the blob's name.
#[cfg(not(unix))]
fn open_exclusive(path: &Path, _executable: bool) -> io::Result<File> {
    on_fd_exhaustion(|| OpenOptions::new().write(true).create_new(true).open(path))
}

/// `O_CREAT | O_EXCL` of a blob relative to its shard descriptor.
#[cfg(unix)]
fn create_at(at: &BlobAt<'_>, executable: bool) -> io::Result<File> {
    use rustix::fs::{Mode, OFlags, RawMode, openat};
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::CLOEXEC;
    on_fd_exhaustion(|| {
        openat(
            at.dir(),
            at.name(),
            flags,
            // `mode_t` is 16 bits on macOS.
            Mode::from_raw_mode(create_mode(executable) as RawMode),
        )
        .map(File::from)
        .map_err(io::Error::from)
    })
}

#[cfg(not(unix))]
fn create_at(at: &BlobAt<'_>, _executable: bool) -> io::Result<File> {
    at.unreachable()
}

/// Finishes a write whose exclusive create gave `created`.
fn store(
    path: &Path,
    created: io::Result<File>,
    content: &[u8],
    executable: bool,
) -> Result<(), CasError> {
    match created {
        Ok(mut file) => file.write_all(content).map_err(|source| {
            // A half-written blob would look like a damaged one; drop it.
            let _ = fs::remove_file(path);
            CasError::Write {
                path: path.to_path_buf(),
                source,
            }
        }),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            if holds_exactly(path, content) {
                Ok(())
            } else {
                rewrite_atomically(path, content, executable)
            }
        }
        Err(source) => Err(CasError::Write {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Whether the existing blob is a regular file with exactly `content`.
/// Comparing bytes is enough: the name already is the hash of `content`.
/// Any failure to tell means "no", which leads to a rewrite.
fn holds_exactly(path: &Path, content: &[u8]) -> bool {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() && meta.len() == content.len() as u64 => {}
        _ => return false,
    }
    let Ok(mut file) = on_fd_exhaustion(|| File::open(path)) else {
        return false;
    };
    let mut buf = vec![0u8; 64 * 1024];
    let mut rest = content;
    loop {
        match file.read(&mut buf) {
            Ok(0) => return rest.is_empty(),
            Ok(n) if n <= rest.len() && buf[..n] == rest[..n] => rest = &rest[n..],
            Ok(_) => return false,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
}

/// Writes a temp file next to the blob and renames it over the blob, so
/// readers see either the old or the new file, never a partial one.
fn rewrite_atomically(path: &Path, content: &[u8], executable: bool) -> Result<(), CasError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let pid = std::process::id();
    let mut last_err = None;
    for _ in 0..TEMP_ATTEMPTS {
        let temp = dir.join(temp_file_name(&name, pid, next_counter()));
        let mut file = match open_exclusive(&temp, executable) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                last_err = Some(e);
                continue;
            }
            Err(source) => return Err(CasError::Write { path: temp, source }),
        };
        if let Err(source) = file.write_all(content) {
            drop(file);
            let _ = fs::remove_file(&temp);
            return Err(CasError::Write { path: temp, source });
        }
        drop(file);
        return rename_with_retries(&temp, path).inspect_err(|_| {
            let _ = fs::remove_file(&temp);
        });
    }
    Err(CasError::Write {
        path: path.to_path_buf(),
        source: last_err.unwrap_or_else(|| io::Error::other("no free temp file name")),
    })
}

fn rename_with_retries(from: &Path, to: &Path) -> Result<(), CasError> {
    let mut delay = Duration::from_millis(2);
    let mut attempt = 1;
    loop {
        match on_fd_exhaustion(|| fs::rename(from, to)) {
            Ok(()) => return Ok(()),
            Err(_) if attempt < RENAME_ATTEMPTS => {
                attempt += 1;
                std::thread::sleep(delay);
                delay *= 2;
            }
            Err(source) => {
                return Err(CasError::Rename {
                    from: from.to_path_buf(),
                    to: to.to_path_buf(),
                    source,
                });
            }
        }
    }
}
