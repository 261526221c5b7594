//! An install over an existing `node_modules`: make what the last install
//! left agree with the new plan before anything is linked.
//!
//! * Laid out with other settings (store, virtual store dir, linker, hoist
//!   patterns, layout version, per `.modules.yaml`): the
//!   modules directories are removed and everything is linked again, as
//!   pnpm 12 relinks silently.
//! * Otherwise the tree the previous install carried out (its record,
//!   [`crate::tree_record`], or else its `<virtualStoreDir>/lock.yaml`
//!   planned again) is compared with the new plan and the planner's
//!   [`pacquet_planner::diff`] removed ([`crate::remove`]): package
//!   directories no longer wanted, symlinks no longer wanted or pointing
//!   elsewhere, and the `.bin` shims of packages whose links go away. What
//!   stays is left untouched; the install then adds what is new.

use std::path::Path;

use pacquet_lockfile::Lockfile;
use serde_json::Value;

use pacquet_planner::{ImporterSelection, Plan, PlanOptions, Removals, Tree, plan};

use crate::{InstallError, remove::remove_all, reporter::DirectDependency};

/// `.modules.yaml` fields whose change means the tree must be rebuilt.
/// `included` is not one: other dependency groups are an ordinary repeat
/// install (docs/layout.md §13.3).
const LAYOUT_FIELDS: [&str; 7] = [
    "storeDir",
    "virtualStoreDir",
    "virtualStoreDirMaxLength",
    "nodeLinker",
    "hoistPattern",
    "publicHoistPattern",
    "layoutVersion",
];

pub struct Existing<'a> {
    pub root: &'a Path,
    pub opts: &'a PlanOptions<'a>,
    pub plan: &'a Plan,
    /// A filtered install links only this part of [`Self::plan`].
    pub linked: Option<&'a Plan>,
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
    /// The difference to the previous install (its `lock.yaml`, written
    /// only after it linked everything), already removed; its kept
    /// directories and links are not made again.
    pub removals: Removals,
}

/// What [`survey`] found; nothing is removed until [`apply`]. The two
/// together remove whatever the previous install left that the new plan
/// does not want.
#[derive(Debug)]
pub enum Survey {
    /// No previous `node_modules`.
    Fresh,
    /// Laid out with other settings: every modules directory goes.
    Purge,
    /// The previous install's leftovers this plan does not want.
    Remove(Box<Reconciled>),
}

/// Carries out a [`survey`]: stale temp files swept, then the purge or the
/// removals.
pub fn apply(new: &Existing<'_>, survey: Survey) -> Result<Reconciled, InstallError> {
    if matches!(survey, Survey::Fresh) {
        return Ok(Reconciled::default());
    }
    let modules = new.root.join(&new.opts.modules_dir);
    pacquet_state::sweep_stale_temps(&modules, &[".modules.yaml"]);
    pacquet_state::sweep_stale_temps(
        &new.root.join("node_modules"),
        &[crate::write_state::WORKSPACE_STATE_FILE],
    );
    pacquet_state::sweep_stale_temps(&new.root.join(&new.opts.virtual_store_dir), &["lock.yaml"]);
    match survey {
        Survey::Fresh => Ok(Reconciled::default()),
        Survey::Purge => {
            purge(new)?;
            Ok(Reconciled::default())
        }
        Survey::Remove(reconciled) => {
            crate::remove::remove(new.root, &reconciled.removals)?;
            Ok(*reconciled)
        }
    }
}

/// What the previous install left, read and planned again before the new
/// plan is known: [`read_previous`] runs while the new lockfile is planned
/// (on alotta, planning each lockfile takes ~15 ms), [`survey`] compares.
#[derive(Debug)]
pub struct Previous {
    /// Its `.modules.yaml`, when there is one (`Null` if unreadable).
    modules_yaml: Option<Value>,
    tree: PreviousTree,
}

impl Previous {
    /// The package directories of its tree, when it was recorded or
    /// planned (root-relative, or absolute in a global virtual store).
    pub fn package_dirs(&self) -> impl Iterator<Item = &str> {
        let slots = match &self.tree {
            PreviousTree::Planned(tree) => tree.slots.as_slice(),
            _ => &[],
        };
        slots.iter().map(|s| s.package_dir.as_str())
    }
}

#[derive(Debug)]
enum PreviousTree {
    /// No modules directory.
    Fresh,
    /// No `lock.yaml`, or one pacquet cannot read or plan: nothing to
    /// compare against; the tree is left as it is, as after a killed
    /// install.
    Unknown,
    /// Its `lock.yaml` is the wanted lockfile, every group installed both
    /// times: nothing to remove. (A partial install's plan is smaller than
    /// its `lock.yaml` says.)
    Same,
    /// Its tree: recorded, or planned again from its `lock.yaml`.
    Planned(Box<Tree>),
}

/// The lockfile being installed, and the text it was read from.
#[derive(Clone, Copy)]
pub struct Wanted<'a> {
    pub lockfile: &'a Lockfile,
    pub text: Option<&'a str>,
}

/// Reads the previous install's `.modules.yaml` and `lock.yaml` and finds
/// its tree: the one `record` (a [`crate::tree_record`] file) holds if it
/// belongs to that `lock.yaml` and these options, else the `lock.yaml`
/// planned with `opts` (the options the new plan is made with) and the
/// groups it recorded. `filtered`: a filtered install, whose plan is a
/// part of its `lock.yaml`.
pub fn read_previous(
    root: &Path,
    opts: &PlanOptions<'_>,
    wanted: Wanted<'_>,
    filtered: bool,
    record: Option<&Path>,
) -> Previous {
    let modules = root.join(&opts.modules_dir);
    if !modules.exists() {
        return Previous {
            modules_yaml: None,
            tree: PreviousTree::Fresh,
        };
    }
    let modules_yaml: Option<Value> = std::fs::read_to_string(modules.join(".modules.yaml"))
        .ok()
        .map(|text| serde_json::from_str(&text).unwrap_or(Value::Null));
    let tree = plan_previous(root, opts, wanted, filtered, modules_yaml.as_ref(), record);
    Previous { modules_yaml, tree }
}

fn plan_previous(
    root: &Path,
    opts: &PlanOptions<'_>,
    wanted: Wanted<'_>,
    filtered: bool,
    modules_yaml: Option<&Value>,
    record: Option<&Path>,
) -> PreviousTree {
    let current_path = root.join(&opts.virtual_store_dir).join("lock.yaml");
    let Ok(current_text) = std::fs::read_to_string(&current_path) else {
        return PreviousTree::Unknown;
    };
    let whole = opts.included.all() && !filtered;
    // `lock.yaml` is written as `pnpm-lock.yaml` renders, so the same text
    // is the same lockfile; different text is compared once rendered, but
    // only when no record answers (rendering alotta's lockfile: ~2 % of a
    // lockfile-change install's CPU, `perf`).
    if whole && wanted.text == Some(current_text.as_str()) {
        return PreviousTree::Same;
    }
    let included = modules_yaml.and_then(|p| recorded_groups(p.get("included")?));
    // Parsing and planning alotta's `lock.yaml` again: ~10 ms of CPU
    // while the new lockfile is planned; its record: ~2 ms.
    if let Some(record) = record {
        let mut recorded_with = opts.clone();
        recorded_with.included = included.unwrap_or_default();
        let shape_key = recorded_with.shape_key();
        if let Some(tree) = crate::tree_record::read(record, &current_text, &shape_key) {
            return PreviousTree::Planned(Box::new(tree));
        }
    }
    if whole && current_text == wanted.lockfile.to_yaml() {
        return PreviousTree::Same;
    }
    let Ok(current) = Lockfile::parse(&current_text, &current_path) else {
        return PreviousTree::Unknown;
    };
    match plan(&current, &previous_options(root, opts, &current, included)) {
        Ok(old) => PreviousTree::Planned(Box::new(Tree::from(old))),
        Err(_) => PreviousTree::Unknown,
    }
}

/// Compares the previous install (as [`read_previous`] found it) with
/// `new.plan`, reading only: it runs while the store index is read and
/// before the lockfile's verdict.
pub fn survey(new: &Existing<'_>, previous: Previous) -> Survey {
    let modules_yaml = previous.modules_yaml;
    if matches!(previous.tree, PreviousTree::Fresh) {
        return Survey::Fresh;
    }
    if let Some(modules_yaml) = &modules_yaml
        && layout_changed(new, modules_yaml)
    {
        return Survey::Purge;
    }
    let pruned_at = modules_yaml
        .as_ref()
        .and_then(|p| p.get("prunedAt"))
        .and_then(Value::as_str)
        .filter(|text| {
            pacquet_state::parse_http_date(text).is_some_and(|at| {
                new.now.saturating_sub(at) < new.modules_cache_max_age.saturating_mul(60)
            })
        })
        .map(str::to_owned);
    let prune_orphans = pruned_at.is_none();
    let skipped = modules_yaml
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
        removals: Removals::default(),
    };
    let old = match previous.tree {
        PreviousTree::Fresh | PreviousTree::Unknown => {
            return Survey::Remove(Box::new(reconciled));
        }
        PreviousTree::Same => {
            reconciled.previous_direct = Some(crate::install::direct_dependencies(new.plan));
            return Survey::Remove(Box::new(reconciled));
        }
        PreviousTree::Planned(old) => old,
    };
    reconciled.removals = pacquet_planner::diff(&old, new.plan, prune_orphans);
    if let Some(gvs) = &new.opts.global_virtual_store {
        keep_global_slots(&gvs.dir, &mut reconciled.removals);
    }
    if let Some(linked) = new.linked {
        drop_unhoisted_shims(&old, linked, &mut reconciled.removals);
    }
    reconciled.previous_direct = Some(crate::install::tree_direct_dependencies(&old));
    Survey::Remove(Box::new(reconciled))
}

/// Slots of the global virtual store are shared with every project using
/// the store: an install never removes or edits one (`store prune` does).
fn keep_global_slots(dir: &str, removals: &mut Removals) {
    let outside = |path: &String| {
        path.strip_prefix(dir)
            .is_none_or(|rest| !rest.is_empty() && !rest.starts_with('/'))
    };
    removals.dirs.retain(outside);
    removals.links.retain(outside);
    removals.scopes.retain(outside);
}

/// A filtered install keeps the previous install's privately hoisted
/// links, but pnpm 12 links the commands of only the packages it hoisted
/// itself into `<virtualStoreDir>/node_modules/.bin`: the others' go.
fn drop_unhoisted_shims(old: &Tree, linked: &Plan, removals: &mut Removals) {
    use pacquet_planner::{LinkOwner, ShimRemoval};
    let hoisted: std::collections::HashSet<(&str, &str)> = linked
        .symlinks
        .iter()
        .filter(|l| l.owner == LinkOwner::PrivateHoist)
        .map(|l| (l.path.as_str(), l.target.as_str()))
        .collect();
    for link in &old.symlinks {
        let Some(slot) = link.target_slot else {
            continue;
        };
        if link.owner != LinkOwner::PrivateHoist
            || hoisted.contains(&(link.path.as_str(), link.target.as_str()))
            || removals.shims.iter().any(|s| s.link == link.path)
        {
            continue;
        }
        removals.shims.push(ShimRemoval {
            link: link.path.clone(),
            package_dir: old.slots[slot].package_dir.clone(),
        });
    }
}

/// `.modules.yaml`'s `included`.
fn recorded_groups(included: &Value) -> Option<pacquet_planner::IncludedGroups> {
    let flag = |key: &str| included.get(key).and_then(Value::as_bool);
    Some(pacquet_planner::IncludedGroups {
        dependencies: flag("dependencies")?,
        dev_dependencies: flag("devDependencies")?,
        optional_dependencies: flag("optionalDependencies")?,
    })
}

/// The options the previous install planned with: today's settings (a
/// layout change purges instead) and the groups it recorded, over the
/// importers it had.
fn previous_options<'a>(
    root: &Path,
    opts: &PlanOptions<'a>,
    current: &Lockfile,
    included: Option<pacquet_planner::IncludedGroups>,
) -> PlanOptions<'a> {
    let mut previous = opts.clone();
    previous.patches = crate::settings::recorded_patches(current);
    // Its `lock.yaml` holds only the importer groups it installed
    // (docs/layout.md §13.2) but every snapshot edge, optional ones too:
    // without optional dependencies it linked none of those.
    previous.included = included.unwrap_or_default();
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
    let wanted = pacquet_state::layout_fields(new.plan, new.opts, new.store_dir);
    LAYOUT_FIELDS.iter().any(|f| old.get(f) != wanted.get(*f))
}

/// Removes the modules directory of every importer.
fn purge(new: &Existing<'_>) -> Result<(), InstallError> {
    for importer in &new.plan.importers {
        let dir = new.root.join(&importer.dir).join(&new.opts.modules_dir);
        remove_all(&dir)?;
    }
    remove_all(&new.root.join(&new.opts.modules_dir))
}

#[cfg(test)]
mod tests;
