//! The global virtual store (`enableGlobalVirtualStore`): slots under
//! `<storeDir>/links` shared by every project of the store. A slot already
//! there is used as it is; a missing one is made whole in a staging
//! directory beside it and renamed into place, never over anything: where
//! another install (pnpm fills slots in place) is making the same slot at
//! that moment, ours only adds the entries it lacks (docs/layout.md §16.4).

use std::{
    collections::HashMap,
    io::ErrorKind,
    path::{Path, PathBuf},
    sync::OnceLock,
};

use pacquet_planner::{LinkOwner, Plan, layout::join};
use serde_json::Value;

use crate::InstallError;

mod placement;

/// Which slots this install makes, and where.
pub(crate) struct Slots {
    /// Per slot: its directory exists (made by an earlier install), or
    /// another slot of this plan shares it.
    pub skip: Vec<bool>,
    /// Per slot sharing another's directory: that slot.
    shared_with: Vec<Option<usize>>,
    /// `(staging, final)` absolute directories of the slots made here, and
    /// the package directory inside (`node_modules/<name>`).
    staged: Vec<(PathBuf, PathBuf, String)>,
}

/// A slot directory, `<dir>/<@scope|@>/<name>/<version>/<hash>`, is this
/// many path segments below the store's `links`.
const SLOT_DEPTH: usize = 4;

/// In a package directory of a slot published before its build or patch
/// finished; removed when they did (pnpm 12.21's name for it).
pub(crate) const NEEDS_BUILD: &str = pacquet_scripts::NEEDS_BUILD_MARKER;

/// Whether the install may change the package after importing it: a
/// build it may run, or a patch.
fn may_change(slot: &pacquet_planner::Slot) -> bool {
    slot.build == pacquet_planner::BuildPermission::Allowed || slot.patch.is_some()
}

/// Looks up which slots exist and rewrites `plan` so that the missing ones
/// are made in staging directories and the present ones are left alone.
pub(crate) fn stage(root: &Path, gvs_dir: &str, plan: &Plan) -> (Plan, Slots) {
    let n = plan.slots.len();
    let mut slots = Slots {
        skip: vec![false; n],
        shared_with: vec![None; n],
        staged: Vec::new(),
    };
    // Root-relative slot directory → its staging directory (`None`: left
    // alone).
    let mut moves: HashMap<String, Option<String>> = HashMap::with_capacity(n);
    let mut owner: HashMap<&str, usize> = HashMap::with_capacity(n);
    let pid = std::process::id();
    for (i, slot) in plan.slots.iter().enumerate() {
        let dir = join(gvs_dir, &slot.dir_name);
        if let Some(&first) = owner.get(slot.dir_name.as_str()) {
            // Peer variants that hash alike share one directory.
            slots.skip[i] = true;
            slots.shared_with[i] = Some(first);
            continue;
        }
        owner.insert(&slot.dir_name, i);
        let final_dir = root.join(&dir);
        let package = final_dir.join("node_modules").join(slot.name());
        // A slot whose build or patch did not finish is made again.
        let interrupted = may_change(slot) && package.join(NEEDS_BUILD).exists();
        if package.is_dir() && !interrupted {
            slots.skip[i] = true;
            moves.insert(dir, None);
            continue;
        }
        let (parent, hash) = dir.rsplit_once('/').unwrap_or(("", dir.as_str()));
        let staging = join(parent, &format!(".{hash}.{pid}.tmp"));
        let staging_dir = root.join(&staging);
        remove_abandoned(&root.join(parent), hash);
        let inside = format!("node_modules/{}", slot.name());
        slots.staged.push((staging_dir, final_dir, inside));
        moves.insert(dir, Some(staging));
    }
    let depth = gvs_dir.split('/').filter(|p| !p.is_empty()).count() + SLOT_DEPTH;
    // `Some(Some(path))`: moved; `Some(None)`: dropped; `None`: outside
    // every slot.
    let map = |path: &str| -> Option<Option<String>> {
        let cut = nth_separator(path, depth)?;
        let (slot_dir, rest) = path.split_at(cut);
        match moves.get(slot_dir)? {
            Some(staging) => Some(Some(format!("{staging}{rest}"))),
            None => Some(None),
        }
    };
    let mut staged = plan.clone();
    for (i, slot) in staged.slots.iter_mut().enumerate() {
        if !slots.skip[i]
            && let Some(Some(moved)) = map(&slot.package_dir)
        {
            slot.package_dir = moved;
        }
    }
    staged.dirs = plan
        .dirs
        .iter()
        .filter_map(|d| match map(d) {
            Some(moved) => moved,
            None => Some(d.clone()),
        })
        .collect();
    staged.symlinks = plan
        .symlinks
        .iter()
        .filter_map(|l| {
            if !matches!(l.owner, LinkOwner::Slot(_)) {
                return Some(l.clone());
            }
            let path = map(&l.path)??;
            Some(pacquet_planner::Symlink { path, ..l.clone() })
        })
        .collect();
    staged.bin_only_deps = plan
        .bin_only_deps
        .iter()
        .filter(|(s, _, _)| !slots.skip[*s])
        .map(|(s, t, sibling)| {
            let sibling = match map(sibling) {
                Some(Some(moved)) => moved,
                _ => sibling.clone(),
            };
            (*s, *t, sibling)
        })
        .collect();
    // A slot is never edited once made.
    staged.unlinked_siblings.clear();
    (staged, slots)
}

/// Puts `staging` in the place of the slot at `final_dir`: the old one is
/// renamed aside first, then removed.
fn replace(staging: &Path, final_dir: &Path) -> Result<(), InstallError> {
    let mut aside = final_dir.as_os_str().to_owned();
    aside.push(format!(".{}.old", std::process::id()));
    let aside = PathBuf::from(aside);
    std::fs::rename(final_dir, &aside).map_err(InstallError::write(final_dir))?;
    std::fs::rename(staging, final_dir).map_err(InstallError::write(final_dir))?;
    let _ = std::fs::remove_dir_all(&aside);
    Ok(())
}

/// Removes the staging directories of `hash` that killed installs left:
/// those of processes no longer running, and one of our own pid (a
/// process that had it before).
fn remove_abandoned(version_dir: &Path, hash: &str) {
    let Ok(entries) = std::fs::read_dir(version_dir) else {
        return;
    };
    let prefix = format!(".{hash}.");
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|n| n.strip_suffix(".tmp"))
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == std::process::id() || !is_running(pid) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether a process of that id exists (Linux: `/proc`). Elsewhere every
/// other process counts as running: its staging directory stays.
fn is_running(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new("/proc").join(pid.to_string()).exists()
    } else {
        true
    }
}

/// `plan` with every slot's package directory where pnpm 12.21 names it
/// for builds: under `globalVirtualStoreDir` as configured.
pub(crate) fn named_plan(plan: &Plan, gvs: &pacquet_planner::GlobalVirtualStore) -> Plan {
    let mut named = plan.clone();
    for slot in &mut named.slots {
        slot.package_dir = gvs.named_package_dir(slot);
    }
    named
}

/// Byte index of the `n`-th `/` of `path` (the end of its first `n`
/// segments), or the length when it has exactly `n` segments.
fn nth_separator(path: &str, n: usize) -> Option<usize> {
    let mut seen = 0;
    for (i, b) in path.bytes().enumerate() {
        if b == b'/' {
            seen += 1;
            if seen == n {
                return Some(i);
            }
        }
    }
    (seen + 1 == n).then_some(path.len())
}

impl Slots {
    /// The manifests of slots this install does not import that no store
    /// row gave: taken from the slot sharing their directory, or read from
    /// the slot (those with commands and direct dependencies, which `.bin`
    /// linking reads).
    pub fn fill_manifests(&self, root: &Path, plan: &Plan, manifests: &[OnceLock<Value>]) {
        let manifest_read = crate::bins::manifest_read(plan);
        for (i, slot) in plan.slots.iter().enumerate() {
            if !self.skip[i] || manifests[i].get().is_some() {
                continue;
            }
            if let Some(first) = self.shared_with[i] {
                if let Some(m) = manifests[first].get() {
                    let _ = manifests[i].set(m.clone());
                }
                continue;
            }
            if !manifest_read[i] {
                continue;
            }
            let path = root.join(&slot.package_dir).join("package.json");
            if let Ok(text) = std::fs::read(&path)
                && let Ok(manifest) = serde_json::from_slice(&text)
            {
                let _ = manifests[i].set(manifest);
            }
        }
    }

    /// Puts each staged slot into place without ever replacing anything
    /// (`placement`). Where another install made or is making the same
    /// slot, ours gives it what it lacks and the rest is dropped. A slot
    /// there whose build was interrupted is replaced.
    pub fn publish(&self) -> Result<(), InstallError> {
        for (staging, final_dir, package) in &self.staged {
            match placement::rename_noreplace(staging, final_dir) {
                Ok(()) => {}
                Err(e) if placement::is_taken(&e) => {
                    if final_dir.join(package).join(NEEDS_BUILD).exists() {
                        replace(staging, final_dir)?;
                    } else {
                        placement::merge_into(staging, final_dir)
                            .map_err(InstallError::write(final_dir))?;
                    }
                }
                Err(e) => return Err(InstallError::write(final_dir)(e)),
            }
        }
        Ok(())
    }

    /// The marker paths of those of `slots` this install makes.
    fn markers<'s>(
        &'s self,
        root: &'s Path,
        plan: &'s Plan,
        slots: &'s [usize],
    ) -> impl Iterator<Item = PathBuf> + 's {
        slots
            .iter()
            .filter(|&&i| !self.skip[i])
            .map(move |&i| root.join(&plan.slots[i].package_dir).join(NEEDS_BUILD))
    }

    /// Marks the staged package directories of `slots` (those this install
    /// builds or patches after publishing them) as not finished.
    pub fn mark_unfinished(
        &self,
        root: &Path,
        plan: &Plan,
        slots: &[usize],
    ) -> Result<(), InstallError> {
        for marker in self.markers(root, plan, slots) {
            std::fs::write(&marker, b"").map_err(InstallError::write(&marker))?;
        }
        Ok(())
    }

    /// Removes the markers of `slots` in their published directories
    /// (`plan` names the final ones): their build and patch finished.
    pub fn mark_finished(
        &self,
        root: &Path,
        plan: &Plan,
        slots: &[usize],
    ) -> Result<(), InstallError> {
        for marker in self.markers(root, plan, slots) {
            match std::fs::remove_file(&marker) {
                Err(e) if e.kind() != ErrorKind::NotFound => {
                    return Err(InstallError::write(&marker)(e));
                }
                _ => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
