//! What a build changed in a package directory, as pnpm 12 stores it in
//! `sideEffects[<key>]` (docs/store.md §7, §9).

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::Read;
use std::path::Path;

use pacquet_store_index::{FileInfo, SideEffectsDiff};
use sha2::{Digest, Sha512};

use crate::ScriptsError;

/// The marker a global virtual store slot holds until its build finished
/// (docs/layout.md §16.4).
pub const NEEDS_BUILD_MARKER: &str = ".pnpm-needs-build";

/// Writes a file's content to the CAS (`executable` picks the `-exec` blob)
/// and returns its hex SHA-512 digest.
pub type CasWrite<'a, E> = dyn Fn(&[u8], bool) -> Result<String, E> + 'a;

/// Compares the built `package_dir` with the package's original `files`
/// (from its store row) and returns pnpm's diff:
///
/// * `added`: files that are new, or whose content or executable bit
///   changed, written to the store through `cas_write(content, executable)`
///   (which returns the hex SHA-512 digest), as `FileInfo` without
///   `checkedAt`; keys sorted bytewise. A file rewritten with the same
///   content and mode is not listed.
/// * `deleted`: original paths no longer present, sorted.
///
/// Empty parts are `None` (an unchanged package diffs to `{}`). The
/// package's own `node_modules/` (bins, `.tmp`, bundled dependencies) is
/// left out on both sides, and so is the global virtual store's
/// [`NEEDS_BUILD_MARKER`] (pnpm 12.21 stores no trace of it). Symlinks are
/// not followed.
pub fn diff_package_dir<E>(
    package_dir: &Path,
    files: &[(String, FileInfo)],
    cas_write: &CasWrite<'_, E>,
) -> Result<SideEffectsDiff, ScriptsError>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let original: HashMap<&str, &FileInfo> = files.iter().map(|(p, f)| (p.as_str(), f)).collect();
    let mut seen: HashSet<String> = HashSet::new();
    let mut added: Vec<(String, FileInfo)> = Vec::new();
    let mut stack: Vec<(std::path::PathBuf, String)> =
        vec![(package_dir.to_path_buf(), String::new())];
    while let Some((dir, prefix)) = stack.pop() {
        let entries = fs::read_dir(&dir).map_err(|e| read_err(&dir, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| read_err(&dir, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = format!("{prefix}{name}");
            if rel == "node_modules" || rel == NEEDS_BUILD_MARKER {
                continue;
            }
            let kind = entry.file_type().map_err(|e| read_err(&entry.path(), e))?;
            if kind.is_dir() {
                stack.push((entry.path(), format!("{rel}/")));
                continue;
            }
            if !kind.is_file() {
                continue;
            }
            let path = entry.path();
            let meta = entry.metadata().map_err(|e| read_err(&path, e))?;
            let mode = pacquet_store_index::file_mode(&meta);
            let executable = mode & 0o111 != 0;
            let size = meta.len();
            let previous = original.get(rel.as_str());
            let content = if let Some(prev) = previous
                && prev.size == size
                && prev.is_executable() == executable
            {
                let content = read_file(&path)?;
                if hex::encode(Sha512::digest(&content)) == prev.digest {
                    seen.insert(rel);
                    continue;
                }
                content
            } else {
                read_file(&path)?
            };
            let digest = cas_write(&content, executable).map_err(|e| ScriptsError::CasWrite {
                path: rel.clone(),
                source: Box::new(e),
            })?;
            added.push((
                rel.clone(),
                FileInfo {
                    digest,
                    mode,
                    size: content.len() as u64,
                    checked_at: None,
                },
            ));
            seen.insert(rel);
        }
    }
    added.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut deleted: Vec<String> = files
        .iter()
        .map(|(p, _)| p)
        .filter(|p| !p.starts_with("node_modules/") && !seen.contains(p.as_str()))
        .cloned()
        .collect();
    deleted.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    Ok(SideEffectsDiff {
        added: (!added.is_empty()).then_some(added),
        deleted: (!deleted.is_empty()).then_some(deleted),
        extra: Vec::new(),
    })
}

fn read_file(path: &Path) -> Result<Vec<u8>, ScriptsError> {
    let mut buf = Vec::new();
    fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut buf))
        .map_err(|e| read_err(path, e))?;
    Ok(buf)
}

fn read_err(path: &Path, source: std::io::Error) -> ScriptsError {
    ScriptsError::ReadBuiltPackage {
        path: path.display().to_string(),
        source,
    }
}

/// Unix modes, and a fixture script run with `sh`.
#[cfg(all(test, unix))]
mod tests;
