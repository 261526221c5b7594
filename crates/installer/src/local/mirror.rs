//! Whether a directory dependency's earlier copy still matches its source,
//! and clearing it when it does not. The copy's own `node_modules` (its
//! dependencies' commands, and in the hoisted layout its nested
//! dependencies) is not part of the package and is left alone.

use std::{
    collections::HashSet,
    fs::Metadata,
    path::{Path, PathBuf},
};

use pacquet_store_index::{PackageFilesIndex, file_mode};

/// Whether `dest` is absent or holds exactly the files of `row` (read from
/// `sources`, in the same order) with the same bytes: nothing to remove
/// before importing.
pub fn holds(dest: &Path, row: &PackageFilesIndex, sources: &[PathBuf]) -> bool {
    if std::fs::symlink_metadata(dest).is_err() {
        return true;
    }
    let mut present = HashSet::new();
    if !list_files(dest, dest, &mut present) {
        return false;
    }
    let wanted: Vec<_> = row
        .files
        .iter()
        .zip(sources)
        .filter(|((rel, _), _)| !in_node_modules(rel))
        .collect();
    present.len() == wanted.len()
        && wanted.iter().all(|((rel, _), src)| {
            present.contains(rel.as_str()) && same_contents(&dest.join(rel), src)
        })
}

/// Removes everything in `dest` but its `node_modules`.
pub fn clear(dest: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dest)? {
        let entry = entry?;
        if entry.file_name() == "node_modules" {
            continue;
        }
        if entry.file_type()?.is_dir() {
            std::fs::remove_dir_all(entry.path())?;
        } else {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

fn in_node_modules(rel: &str) -> bool {
    rel == "node_modules" || rel.starts_with("node_modules/")
}

/// Collects `/`-separated paths of the non-directories under `dir`.
fn list_files(root: &Path, dir: &Path, out: &mut HashSet<String>) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    for entry in entries {
        let Ok(entry) = entry else { return false };
        let path = entry.path();
        if dir == root && entry.file_name() == "node_modules" {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            return false;
        };
        if kind.is_dir() {
            if !list_files(root, &path, out) {
                return false;
            }
            continue;
        }
        let Ok(rel) = path.strip_prefix(root) else {
            return false;
        };
        let rel: Vec<_> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect();
        out.insert(rel.join("/"));
    }
    true
}

fn same_contents(copy: &Path, src: &Path) -> bool {
    let (Ok(a), Ok(b)) = (std::fs::metadata(copy), std::fs::metadata(src)) else {
        return false;
    };
    if same_file(&a, &b) {
        return true;
    }
    a.len() == b.len()
        && file_mode(&a) & 0o111 == file_mode(&b) & 0o111
        && matches!((std::fs::read(copy), std::fs::read(src)), (Ok(x), Ok(y)) if x == y)
}

#[cfg(unix)]
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_a: &Metadata, _b: &Metadata) -> bool {
    false
}
