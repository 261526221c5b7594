//! A repeat install as the difference of the tree the previous install
//! carried out ([`Tree`]: kept from its plan, or planned again from its
//! `<virtualStoreDir>/lock.yaml`) and the new plan. What only the old tree
//! has is removed; what both have is in place and not made again. Pure: the
//! installer deletes.

// foldhash: the maps are keyed by long paths, hashed ~10,000 times per
// repeat install; SipHash was ~3 % of a lockfile-change install of alotta.
use foldhash::{HashMap, HashSet};

use crate::{Layout, LinkOwner, Plan, Tree};

/// What to delete before the new plan is carried out, and what of the old
/// tree stays.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Removals {
    /// `.bin` shims to drop first, while the old package is still there to
    /// say which commands it had.
    pub shims: Vec<ShimRemoval>,
    /// Symlinks (root-relative paths) to delete.
    pub links: Vec<String>,
    /// `@scope` directories to delete if a removed link left them empty.
    pub scopes: Vec<String>,
    /// Package directories (`<virtualStoreDir>/<dir>`) to delete with their
    /// contents.
    pub dirs: Vec<String>,
    /// Directories of the old plan that stay: not created again.
    pub kept_dirs: HashSet<String>,
    /// Symlinks (`path -> target`) of the old plan that stay.
    pub kept_links: HashMap<String, String>,
}

/// The commands a package linked at `link` put into that `node_modules/.bin`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShimRemoval {
    /// The link, root-relative; its `.bin` is the sibling directory.
    pub link: String,
    /// The old package directory whose manifest names the commands.
    pub package_dir: String,
}

impl Removals {
    /// The planned directories not already in place.
    pub fn missing_dirs<'p>(&self, dirs: &'p [String]) -> impl Iterator<Item = &'p String> {
        dirs.iter().filter(|d| !self.kept_dirs.contains(d.as_str()))
    }

    /// Whether `path` already links to `target`.
    pub fn has_link(&self, path: &str, target: &str) -> bool {
        self.kept_links.get(path).is_some_and(|t| t == target)
    }

    /// Per slot of `new`: its package directory and every link inside its
    /// `node_modules` were already in place, so its `.bin` (made from those
    /// links and their packages) is as the previous install left it.
    pub fn settled_slots(&self, new: &Plan) -> Vec<bool> {
        let mut settled: Vec<bool> = new
            .slots
            .iter()
            .map(|s| {
                // The package directory is made by its import; its parent
                // is the planned directory.
                let parent = s.package_dir.rsplit_once('/').map_or("", |(p, _)| p);
                self.kept_dirs.contains(parent)
            })
            .collect();
        for link in &new.symlinks {
            if let LinkOwner::Slot(i) = link.owner
                && !self.has_link(&link.path, &link.target)
            {
                settled[i] = false;
            }
        }
        settled
    }
}

/// Removes links (and their shims) `new` does not want and, when
/// `prune_orphans`, package directories no longer used. pnpm 12 keeps
/// orphaned directories until `modulesCacheMaxAge` has passed since the last
/// prune, so a branch switched back and forth relinks nothing.
pub fn diff(old: &Tree, new: &Plan, prune_orphans: bool) -> Removals {
    let wanted_links: HashMap<&str, &str> = new
        .symlinks
        .iter()
        .map(|l| (l.path.as_str(), l.target.as_str()))
        .collect();
    let kept_packages: HashSet<&str> = new.slots.iter().map(|s| s.dep_path.as_str()).collect();
    let kept_importers: HashSet<&str> = new.importers.iter().map(|i| i.id.as_str()).collect();
    let mut removals = Removals::default();
    // Old links the new plan does not have (or points elsewhere), outside
    // package directories (those go, or stay, with their directory) and
    // outside projects no longer installed.
    let changed = old
        .symlinks
        .iter()
        .filter(|l| wanted_links.get(l.path.as_str()) != Some(&l.target.as_str()))
        .filter(|l| match l.owner {
            LinkOwner::Slot(_) => false,
            LinkOwner::Importer(i) => kept_importers.contains(old.importers[i].id.as_str()),
            LinkOwner::PrivateHoist | LinkOwner::PublicHoist => true,
        });
    // Sibling links a package directory may hold from an earlier install
    // (also one whose `lock.yaml` no longer lists it) that this one does
    // not make; its `.bin` stays, as pnpm 12 leaves it.
    removals.links.extend(new.unlinked_siblings.iter().cloned());
    for link in changed {
        // pnpm 12 drops the shims of every changed link, hoisted ones too.
        if let Some(i) = link.target_slot {
            removals.shims.push(ShimRemoval {
                link: link.path.clone(),
                package_dir: old.slots[i].package_dir.clone(),
            });
        }
        if wanted_links.contains_key(link.path.as_str()) {
            continue; // relinked by the install
        }
        let remove = match (link.owner, link.target_slot) {
            (LinkOwner::Importer(_), _) | (_, None) => true,
            // A hoisted alias goes with its package: pnpm 12 keeps those of
            // packages still installed, even where hoisting changed.
            (_, Some(i)) => !kept_packages.contains(old.slots[i].dep_path.as_str()),
        };
        if !remove {
            continue;
        }
        removals.links.push(link.path.clone());
        if matches!(link.owner, LinkOwner::Importer(_))
            && let Some((scope, _)) = link.path.rsplit_once('/')
            && scope.rsplit('/').next().is_some_and(|s| s.starts_with('@'))
        {
            removals.scopes.push(scope.to_owned());
        }
    }
    if new.layout == Layout::Hoisted || old.layout == Layout::Hoisted {
        hoisted_dirs(old, new, &mut removals);
    } else if prune_orphans {
        let wanted_dirs: HashSet<&str> = new.slots.iter().map(|s| s.dir_name.as_str()).collect();
        let mut seen = HashSet::default();
        for slot in &old.slots {
            if !wanted_dirs.contains(slot.dir_name.as_str()) && seen.insert(&slot.dir_name) {
                removals
                    .dirs
                    .push(slot_dir(&slot.package_dir, &slot.dir_name).to_owned());
            }
        }
    }
    // Of a changed lockfile only the difference is made: alotta with five
    // direct dependencies added skips ~8,000 mkdirs and ~3,800 symlinks.
    let gone = |d: &str| {
        removals.dirs.iter().any(|r| is_within(d, r))
            || removals.scopes.iter().any(|r| is_within(d, r))
    };
    removals.kept_dirs = old.dirs.iter().filter(|d| !gone(d)).cloned().collect();
    let removed: HashSet<&str> = removals.links.iter().map(String::as_str).collect();
    removals.kept_links = old
        .symlinks
        .iter()
        .filter(|l| !removed.contains(l.path.as_str()))
        .map(|l| (l.path.clone(), l.target.clone()))
        .collect();
    removals
}

/// `dir` is `ancestor` or inside it.
fn is_within(dir: &str, ancestor: &str) -> bool {
    dir.strip_prefix(ancestor)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// `node_modules/.pnpm/a@1/node_modules/a` → `node_modules/.pnpm/a@1`.
fn slot_dir<'a>(package_dir: &'a str, dir_name: &str) -> &'a str {
    let end = package_dir
        .find(&format!("/{dir_name}/"))
        .map_or(package_dir.len(), |i| i + 1 + dir_name.len());
    &package_dir[..end]
}

#[cfg(test)]
mod tests;

/// The hoisted layout (docs/hoisted.md §6): a package directory whose
/// package changed or is gone goes, with whatever is nested in it.
fn hoisted_dirs(old: &Tree, new: &Plan, removals: &mut Removals) {
    let wanted: HashMap<&str, &str> = new
        .slots
        .iter()
        .map(|s| (s.package_dir.as_str(), s.dep_path.as_str()))
        .collect();
    let mut gone: Vec<&str> = old
        .slots
        .iter()
        .filter(|s| wanted.get(s.package_dir.as_str()) != Some(&s.dep_path.as_str()))
        .map(|s| s.package_dir.as_str())
        .collect();
    gone.sort_unstable();
    // Their commands in the `.bin` beside them go first.
    for dir in &gone {
        removals.shims.push(ShimRemoval {
            link: (*dir).to_owned(),
            package_dir: (*dir).to_owned(),
        });
    }
    for dir in gone {
        if !removals.dirs.iter().any(|r| is_within(dir, r)) {
            removals.dirs.push(dir.to_owned());
        }
    }
}
