//! A file's permission bits as pnpm records them (`FileInfo::mode`).

use std::fs::Metadata;

/// `st_mode & 0o777`.
#[cfg(unix)]
pub fn file_mode(meta: &Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o777
}

/// What Node's `fs.stat` (libuv) reports on Windows, so rows match
/// pnpm's there: `0o666`, or `0o444` for a read-only file; never
/// executable.
#[cfg(not(unix))]
pub fn file_mode(meta: &Metadata) -> u32 {
    if meta.permissions().readonly() {
        0o444
    } else {
        0o666
    }
}
