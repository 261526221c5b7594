//! An install over an existing `node_modules`: make what the last install
//! left agree with the new plan before anything is linked.
//!
//! * Laid out with other settings (store, virtual store dir, linker, hoist
//!   patterns, included groups, layout version, per `.modules.yaml`): the
//!   modules directories are removed and everything is linked again, as
//!   pnpm 12 relinks silently.
//! * Otherwise the current lockfile (`<virtualStoreDir>/lock.yaml`) is
//!   planned too and the difference removed: package directories no longer
//!   wanted, symlinks no longer wanted or pointing elsewhere, and the `.bin`
//!   shims of packages whose links go away. What stays is left untouched;
//!   the install then adds what is new.

use std::{
    collections::{HashMap, HashSet},
    io,
    path::{Path, PathBuf},
};

use pacquet_lockfile::Lockfile;
use serde_json::Value;

use super::InstallError;
use crate::{
    ImporterSelection, InstallPlan, LinkOwner, PlanOptions, Symlink, plan,
    reporter::DirectDependency, state::ModulesYaml,
};

/// `.modules.yaml` fields whose change means the tree must be rebuilt.
const LAYOUT_FIELDS: [&str; 8] = [
    "storeDir",
    "virtualStoreDir",
    "virtualStoreDirMaxLength",
    "nodeLinker",
    "hoistPattern",
    "publicHoistPattern",
    "included",
    "layoutVersion",
];

pub struct Existing<'a> {
    pub root: &'a Path,
    pub opts: &'a PlanOptions<'a>,
    pub plan: &'a InstallPlan,
    pub wanted: &'a Lockfile,
    pub store_dir: &'a str,
    /// `modulesCacheMaxAge` in minutes: how long orphaned package
    /// directories stay in the virtual store.
    pub modules_cache_max_age: u64,
    /// Seconds since the epoch.
    pub now: u64,
}

/// What [`reconcile`] found out for the state files.
#[derive(Debug, Default)]
pub struct Reconciled {
    /// `prunedAt` to keep: orphans were not pruned, so the previous date
    /// stands (pnpm 12 only rewrites it when it prunes).
    pub pruned_at: Option<String>,
    /// The previous `skipped` list, carried over.
    pub skipped: Vec<String>,
    /// The root project's direct dependencies as the previous install left
    /// them, when known: the summary lists only the ones added since, as
    /// pnpm 12 does.
    pub previous_direct: Option<Vec<DirectDependency>>,
    /// What the previous install (its `lock.yaml`, written only after it
    /// linked everything) made and the new plan keeps: not made again.
    pub in_place: InPlace,
}

/// Directories and symlinks (`path -> target`) known to be in place.
#[derive(Debug, Default)]
pub struct InPlace {
    pub dirs: HashSet<String>,
    pub links: HashMap<String, String>,
}

impl InPlace {
    pub fn has_dir(&self, dir: &str) -> bool {
        self.dirs.contains(dir)
    }

    pub fn has_link(&self, link: &Symlink) -> bool {
        self.links.get(link.path.as_str()) == Some(&link.target)
    }

    /// The planned directories not already in place.
    pub fn missing_dirs<'p>(&self, dirs: &'p [String]) -> impl Iterator<Item = &'p String> {
        dirs.iter().filter(|d| !self.has_dir(d))
    }
}

/// Removes whatever the previous install left that `new.plan` does not want.
pub fn reconcile(new: &Existing<'_>) -> Result<Reconciled, InstallError> {
    let modules = new.root.join(&new.opts.modules_dir);
    if !modules.exists() {
        return Ok(Reconciled::default());
    }
    super::state::sweep_stale_temps(
        &modules,
        &[".modules.yaml", super::write_state::WORKSPACE_STATE_FILE],
    );
    super::state::sweep_stale_temps(&new.root.join(&new.opts.virtual_store_dir), &["lock.yaml"]);
    let previous: Option<Value> = std::fs::read_to_string(modules.join(".modules.yaml"))
        .ok()
        .map(|text| serde_json::from_str(&text).unwrap_or(Value::Null));
    if let Some(previous) = &previous
        && layout_changed(new, previous)
    {
        purge(new)?;
        return Ok(Reconciled::default());
    }
    let pruned_at = previous
        .as_ref()
        .and_then(|p| p.get("prunedAt"))
        .and_then(Value::as_str)
        .filter(|text| {
            crate::state::parse_http_date(text).is_some_and(|at| {
                new.now.saturating_sub(at) < new.modules_cache_max_age.saturating_mul(60)
            })
        })
        .map(str::to_owned);
    let prune_orphans = pruned_at.is_none();
    let skipped = previous
        .as_ref()
        .and_then(|p| p.get("skipped"))
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let mut reconciled = Reconciled {
        pruned_at,
        skipped,
        previous_direct: None,
        in_place: InPlace::default(),
    };
    let vsd = new.root.join(&new.opts.virtual_store_dir);
    let current_path = vsd.join("lock.yaml");
    let Ok(current_text) = std::fs::read_to_string(&current_path) else {
        return Ok(reconciled);
    };
    if current_text == new.wanted.to_yaml() {
        reconciled.previous_direct = Some(super::direct_dependencies(new.plan));
        return Ok(reconciled);
    }
    // A current lockfile pacquet cannot read or plan gives nothing to
    // compare against: leave the tree as it is, as after a killed install.
    let Ok(current) = Lockfile::parse(&current_text, &current_path) else {
        return Ok(reconciled);
    };
    let Ok(old) = plan(&current, &previous_options(new.root, new.opts, &current)) else {
        return Ok(reconciled);
    };
    let removed = remove_difference(new.root, &old, new.plan, prune_orphans)?;
    reconciled.previous_direct = Some(super::direct_dependencies(&old));
    // Of a changed lockfile only the difference is made: alotta with five
    // direct dependencies added skips ~8,000 mkdirs and ~3,800 symlinks.
    // (An unchanged lockfile is checked in full: that is how a user repairs
    // a tree by touching it.)
    reconciled.in_place = InPlace {
        dirs: old
            .dirs
            .into_iter()
            .filter(|d| !removed.iter().any(|r| is_within(d, r)))
            .collect(),
        links: old
            .symlinks
            .into_iter()
            .map(|l| (l.path, l.target))
            .collect(),
    };
    Ok(reconciled)
}

/// The options the previous install planned with: today's settings (a
/// layout change purges instead), over the importers it had.
fn previous_options<'a>(
    root: &Path,
    opts: &PlanOptions<'a>,
    current: &Lockfile,
) -> PlanOptions<'a> {
    let mut previous = opts.clone();
    previous.importers = current
        .importers
        .keys()
        .map(|id| {
            opts.importers
                .iter()
                .find(|sel| &sel.id == id)
                .cloned()
                .unwrap_or_else(|| gone_importer(root, id))
        })
        .collect();
    previous
}

/// An importer of the previous install that is no longer a project; its
/// name (for hoisting workspace packages) comes from a manifest left behind.
fn gone_importer(root: &Path, id: &str) -> ImporterSelection {
    let manifest = std::fs::read_to_string(root.join(id).join("package.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<Value>(&text).ok());
    let name = manifest.as_ref().and_then(|m| m.get("name")?.as_str());
    ImporterSelection::new(id, name)
}

fn layout_changed(new: &Existing<'_>, old: &Value) -> bool {
    let wanted = crate::modules_yaml(
        new.plan,
        new.opts,
        &ModulesYaml {
            store_dir: new.store_dir.to_owned(),
            ..ModulesYaml::default()
        },
    );
    let wanted: Value = serde_json::from_str(&wanted).expect("modules_yaml writes JSON");
    LAYOUT_FIELDS.iter().any(|f| old.get(f) != wanted.get(f))
}

/// Removes the modules directory of every importer.
fn purge(new: &Existing<'_>) -> Result<(), InstallError> {
    for importer in &new.plan.importers {
        let dir = new.root.join(&importer.dir).join(&new.opts.modules_dir);
        remove_all(&dir)?;
    }
    remove_all(&new.root.join(&new.opts.modules_dir))
}

/// Removes links (and their shims) the new plan does not want and, when
/// `prune_orphans`, package directories no longer used. Returns the
/// directories it removed. pnpm 12 keeps
/// orphaned directories until `modulesCacheMaxAge` has passed since the
/// last prune, so a branch switched back and forth relinks nothing.
fn remove_difference(
    root: &Path,
    old: &InstallPlan,
    new: &InstallPlan,
    prune_orphans: bool,
) -> Result<Vec<String>, InstallError> {
    let mut removed_dirs = Vec::new();
    let wanted_links: HashMap<&str, &str> = new
        .symlinks
        .iter()
        .map(|l| (l.path.as_str(), l.target.as_str()))
        .collect();
    let kept_packages: HashSet<&str> = new.slots.iter().map(|s| s.dep_path.as_str()).collect();
    let kept_importers: HashSet<&str> = new.importers.iter().map(|i| i.id.as_str()).collect();
    // Old links the new plan does not have (or points elsewhere), outside
    // package directories (those go, or stay, with their directory) and
    // outside projects no longer installed.
    let changed: Vec<&Symlink> = old
        .symlinks
        .iter()
        .filter(|l| wanted_links.get(l.path.as_str()) != Some(&l.target.as_str()))
        .filter(|l| match l.owner {
            LinkOwner::Slot(_) => false,
            LinkOwner::Importer(i) => kept_importers.contains(old.importers[i].id.as_str()),
            LinkOwner::PrivateHoist | LinkOwner::PublicHoist => true,
        })
        .collect();
    // Shims first: they are found through the old package's manifest,
    // which goes with its directory. pnpm 12 drops the shims of every
    // changed link, hoisted ones included.
    for link in &changed {
        if let Some(i) = link.target_slot {
            remove_bins(root, &old.slots[i].package_dir, &link.path)?;
        }
    }
    for link in &changed {
        if wanted_links.contains_key(link.path.as_str()) {
            continue; // relinked by the install
        }
        let remove = match link.owner {
            LinkOwner::Importer(_) => true,
            // A hoisted alias goes with its package: pnpm 12 keeps those
            // of packages still installed, even where hoisting changed.
            _ => match link.target_slot {
                Some(i) => !kept_packages.contains(old.slots[i].dep_path.as_str()),
                None => true,
            },
        };
        if remove {
            let path = root.join(&link.path);
            remove_file(&path)?;
            if matches!(link.owner, LinkOwner::Importer(_))
                && remove_empty_scope(&path)
                && let Some((scope, _)) = link.path.rsplit_once('/')
            {
                removed_dirs.push(scope.to_owned());
            }
        }
    }
    if !prune_orphans {
        return Ok(removed_dirs);
    }
    let wanted_dirs: HashSet<&str> = new.slots.iter().map(|s| s.dir_name.as_str()).collect();
    let mut removed = HashSet::new();
    for slot in &old.slots {
        if !wanted_dirs.contains(slot.dir_name.as_str()) && removed.insert(&slot.dir_name) {
            let top = slot_dir(&slot.package_dir, &slot.dir_name);
            remove_all(&root.join(top))?;
            removed_dirs.push(top.to_owned());
        }
    }
    Ok(removed_dirs)
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

/// Removes from the `.bin` next to `link` the commands of the package at
/// `package_dir` (read from its `package.json` while it is still there).
fn remove_bins(root: &Path, package_dir: &str, link: &str) -> Result<(), InstallError> {
    let package_dir = root.join(package_dir);
    let Ok(text) = std::fs::read_to_string(package_dir.join("package.json")) else {
        return Ok(());
    };
    let Ok(manifest) = serde_json::from_str::<Value>(&text) else {
        return Ok(());
    };
    let Some(bin_dir) = bin_dir_of(&root.join(link)) else {
        return Ok(());
    };
    for command in pacquet_bins::bin_commands(&manifest, &package_dir) {
        remove_file(&bin_dir.join(&command.name))?;
    }
    Ok(())
}

/// `<modules>/.bin` for a link at `<modules>/name` or `<modules>/@scope/name`.
fn bin_dir_of(link: &Path) -> Option<PathBuf> {
    let parent = link.parent()?;
    let modules = match parent.file_name()?.to_str()? {
        scope if scope.starts_with('@') => parent.parent()?,
        _ => parent,
    };
    Some(modules.join(".bin"))
}

/// Removes the `@scope` directory of `link` if it is now empty; says so.
fn remove_empty_scope(link: &Path) -> bool {
    if let Some(parent) = link.parent()
        && parent
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('@'))
    {
        // Fails (and is meant to) while the scope still has entries.
        return std::fs::remove_dir(parent).is_ok();
    }
    false
}

fn remove_file(path: &Path) -> Result<(), InstallError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other.map_err(InstallError::write(path)),
    }
}

fn remove_all(path: &Path) -> Result<(), InstallError> {
    match std::fs::remove_dir_all(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other.map_err(InstallError::write(path)),
    }
}
