//! Listing a tree without following symlinks.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::difference::EntryKind;
use super::options::DiffOptions;

/// One tree entry.
#[derive(Debug, Clone)]
pub enum Entry {
    Dir,
    File { mode: u32 },
    Symlink(PathBuf),
    Other,
}

impl Entry {
    pub fn kind(&self) -> EntryKind {
        match self {
            Entry::Dir => EntryKind::Dir,
            Entry::File { .. } => EntryKind::File,
            Entry::Symlink(_) => EntryKind::Symlink,
            Entry::Other => EntryKind::Other,
        }
    }
}

/// All entries under `root` by `/`-separated relative path (root excluded).
/// A missing root is an empty tree.
pub fn walk_tree(root: &Path, opts: &DiffOptions) -> BTreeMap<String, Entry> {
    let mut out = BTreeMap::new();
    if root.symlink_metadata().is_ok() {
        visit(root, "", opts, &mut out);
    }
    out
}

fn visit(dir: &Path, prefix: &str, opts: &DiffOptions, out: &mut BTreeMap<String, Entry>) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in read.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        if opts.is_ignored(&rel) {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = path.symlink_metadata() else {
            continue;
        };
        let ft = meta.file_type();
        let item = if ft.is_symlink() {
            Entry::Symlink(std::fs::read_link(&path).unwrap_or_default())
        } else if ft.is_dir() {
            visit(&path, &rel, opts, out);
            Entry::Dir
        } else if ft.is_file() {
            Entry::File {
                mode: file_mode(&meta),
            }
        } else {
            Entry::Other
        };
        out.insert(rel, item);
    }
}

#[cfg(unix)]
fn file_mode(meta: &std::fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode()
}

/// Windows: the read-only bit is all there is (as Node reports it).
#[cfg(not(unix))]
fn file_mode(meta: &std::fs::Metadata) -> u32 {
    if meta.permissions().readonly() {
        0o100444
    } else {
        0o100666
    }
}
