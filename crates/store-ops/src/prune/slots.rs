//! The global virtual store's part of `store prune`, as pnpm 12.21 does it
//! (docs/layout.md §16.6): mark every slot under `<store>/links` that a
//! registered project reaches through its symlinks, then remove the others
//! and the directories they leave empty. Runs under the exclusive store
//! lock, so no install of either tool is making a slot meanwhile.

use std::{
    collections::HashSet,
    ffi::OsString,
    io::ErrorKind,
    path::{Path, PathBuf},
};

use crate::StoreOpsError;

/// What the sweep of `links` found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SlotPrune {
    /// Registered projects checked (none: no slot is removed).
    pub projects: usize,
    /// Slot directories removed.
    pub removed: usize,
}

/// Removes the slots no registered project reaches; `None` when the store
/// has no `links`.
pub fn prune_slots(
    store_dir: &Path,
    projects: &[PathBuf],
) -> Result<Option<SlotPrune>, StoreOpsError> {
    let links = store_dir.join("links");
    if std::fs::metadata(&links).is_err() {
        return Ok(None);
    }
    if projects.is_empty() {
        return Ok(Some(SlotPrune::default()));
    }
    let root = std::fs::canonicalize(&links).unwrap_or_else(|_| links.clone());
    let mut mark = Mark {
        root: &root,
        reachable: HashSet::new(),
        visited: HashSet::new(),
    };
    for project in projects {
        let mut modules = Vec::new();
        modules_dirs(project, &mut modules);
        for dir in modules {
            mark.walk(&dir);
        }
    }
    let removed = sweep(&links, &mark.reachable)?;
    Ok(Some(SlotPrune {
        projects: projects.len(),
        removed,
    }))
}

/// Every `node_modules` below `dir`, not descending into them nor into
/// hidden directories (workspace projects' ones included).
fn modules_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut subdirs = Vec::new();
    for entry in entries.flatten() {
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let name = entry.file_name();
        if name == "node_modules" {
            out.push(entry.path());
        } else if !name.to_string_lossy().starts_with('.') {
            subdirs.push(entry.path());
        }
    }
    for sub in subdirs {
        modules_dirs(&sub, out);
    }
}

struct Mark<'a> {
    /// `links`, canonical.
    root: &'a Path,
    /// `<scope>/<name>/<version>/<hash>` of the slots reached.
    reachable: HashSet<PathBuf>,
    visited: HashSet<PathBuf>,
}

impl Mark<'_> {
    /// Follows every symlink below `dir`; one into a slot marks it and
    /// continues inside the slot's `node_modules`. A project's own
    /// `.pnpm` is reached through its links, not walked.
    fn walk(&mut self, dir: &Path) {
        let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned());
        if !self.visited.insert(canonical) {
            return;
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_symlink() {
                let Ok(target) = std::fs::read_link(&path) else {
                    continue;
                };
                let target = match path.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
                let target = std::fs::canonicalize(&target).unwrap_or(target);
                let Ok(rel) = target.strip_prefix(self.root) else {
                    continue;
                };
                let parts: Vec<_> = rel.components().collect();
                if let Some(at) = parts.iter().position(|c| c.as_os_str() == "node_modules") {
                    let slot: PathBuf = parts[..at].iter().collect();
                    let inner = self.root.join(&slot).join("node_modules");
                    self.reachable.insert(slot);
                    self.walk(&inner);
                }
            } else if kind.is_dir() && entry.file_name() != ".pnpm" {
                self.walk(&path);
            }
        }
    }
}

/// Removes every `<scope>/<name>/<version>/<hash>` not in `reachable`,
/// then each parent left empty (only if empty: an install may be adding
/// to it).
fn sweep(links: &Path, reachable: &HashSet<PathBuf>) -> Result<usize, StoreOpsError> {
    let mut removed = 0;
    for scope in subdirs(links)? {
        let scope_dir = links.join(&scope);
        for name in subdirs(&scope_dir)? {
            let name_dir = scope_dir.join(&name);
            for version in subdirs(&name_dir)? {
                let version_dir = name_dir.join(&version);
                for hash in subdirs(&version_dir)? {
                    let slot: PathBuf = [&scope, &name, &version, &hash].iter().collect();
                    if reachable.contains(&slot) {
                        continue;
                    }
                    let dir = version_dir.join(&hash);
                    match std::fs::remove_dir_all(&dir) {
                        Err(e) if e.kind() != ErrorKind::NotFound => {
                            return Err(StoreOpsError::io(&dir)(e));
                        }
                        _ => removed += 1,
                    }
                }
                remove_if_empty(&version_dir)?;
            }
            remove_if_empty(&name_dir)?;
        }
        remove_if_empty(&scope_dir)?;
    }
    Ok(removed)
}

fn subdirs(dir: &Path) -> Result<Vec<OsString>, StoreOpsError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(StoreOpsError::io(dir)(e)),
    };
    Ok(entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name())
        .collect())
}

fn remove_if_empty(dir: &Path) -> Result<(), StoreOpsError> {
    match std::fs::remove_dir(dir) {
        Err(e) if !matches!(e.kind(), ErrorKind::NotFound | ErrorKind::DirectoryNotEmpty) => {
            Err(StoreOpsError::io(dir)(e))
        }
        _ => Ok(()),
    }
}
