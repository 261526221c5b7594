//! Paths resolved without touching the filesystem.

use std::path::{Component, Path, PathBuf};

/// Drops `.` and `..` components lexically (link targets and lockfile
/// paths are relative, and may name what does not exist yet).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}
