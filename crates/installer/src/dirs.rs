//! Creating the plan's directories: one `mkdir` each, level by level so a
//! parent always exists before its children are created in parallel.
//! Siblings are created by one thread: `mkdir` holds its parent's lock, so
//! two threads making entries of one directory (the virtual store's slots)
//! take turns and the waiting one spins (`perf` of a lockfile-change
//! install: a quarter of its `mkdir` samples in `rwsem_spin_on_owner`).
//!
//! The threads are this call's own, not the rayon pool's: in a cold install
//! the pool's workers all stay inside the extraction's `par_bridge` until
//! the last download has landed, so a level handed to the pool waited for
//! every download, and the link gate with it (alotta cold, `PACQUET_PHASES`:
//! the gate opened after 1.25–1.34 s instead of 0.1–0.15 s, and nothing was
//! linked before then).

use std::{
    io::ErrorKind,
    path::Path,
    sync::Mutex,
    sync::atomic::{AtomicBool, AtomicUsize, Ordering},
};

use super::InstallError;

#[cfg(test)]
mod tests;

/// A level with fewer directories than this is made by the calling thread
/// (a guess, not a measured break-even: a thread start costs about as much
/// as a few `mkdir`s, and a lockfile-change install makes a few dozen
/// directories per level).
const INLINE_BELOW: usize = 64;

/// Creates `dirs` (relative to `root`); existing ones are fine.
pub fn create_dirs<'a>(
    root: &Path,
    dirs: impl IntoIterator<Item = &'a String>,
) -> Result<(), InstallError> {
    let workers = rayon::current_num_threads().max(1);
    for level in siblings_by_level(dirs) {
        let count: usize = level.iter().map(Vec::len).sum();
        let workers = if count < INLINE_BELOW { 1 } else { workers };
        for_each_group(&level, workers, |siblings| {
            siblings.iter().try_for_each(|dir| create_dir(root, dir))
        })?;
    }
    Ok(())
}

fn create_dir(root: &Path, dir: &str) -> Result<(), InstallError> {
    let path = root.join(dir);
    match std::fs::create_dir(&path) {
        Err(e) if e.kind() == ErrorKind::AlreadyExists => Ok(()),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            std::fs::create_dir_all(&path).map_err(InstallError::write(&path))
        }
        other => other.map_err(InstallError::write(&path)),
    }
}

/// Runs `f` on every group, on the calling thread and `workers - 1` scoped
/// threads taking groups in turn; the first error stops the others and is
/// returned.
fn for_each_group<T: Sync>(
    groups: &[T],
    workers: usize,
    f: impl Fn(&T) -> Result<(), InstallError> + Sync,
) -> Result<(), InstallError> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let first_error = Mutex::new(None);
    let work = || {
        while !failed.load(Ordering::Relaxed) {
            let Some(group) = groups.get(next.fetch_add(1, Ordering::Relaxed)) else {
                return;
            };
            if let Err(e) = f(group) {
                failed.store(true, Ordering::Relaxed);
                first_error
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(e);
                return;
            }
        }
    };
    let helpers = workers.min(groups.len()).saturating_sub(1);
    std::thread::scope(|s| {
        for _ in 0..helpers {
            // A thread that cannot be started leaves its share to the others.
            let _ = std::thread::Builder::new().spawn_scoped(s, work);
        }
        work();
    });
    match first_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// `dirs` by depth, shallowest first; each level's directories grouped by
/// parent, in the order they came.
fn siblings_by_level<'a>(dirs: impl IntoIterator<Item = &'a String>) -> Vec<Vec<Vec<&'a str>>> {
    let mut levels: Vec<foldhash::HashMap<&str, usize>> = Vec::new();
    let mut groups: Vec<Vec<Vec<&str>>> = Vec::new();
    for dir in dirs {
        let depth = dir.matches('/').count();
        if levels.len() <= depth {
            levels.resize_with(depth + 1, Default::default);
            groups.resize_with(depth + 1, Vec::new);
        }
        let parent = dir.rsplit_once('/').map_or("", |(parent, _)| parent);
        let next = groups[depth].len();
        let group = *levels[depth].entry(parent).or_insert(next);
        if group == next {
            groups[depth].push(Vec::new());
        }
        groups[depth][group].push(dir.as_str());
    }
    groups
}
