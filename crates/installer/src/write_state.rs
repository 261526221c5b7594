//! The state files written at the end of an install, so pnpm 12 run
//! afterwards sees an up-to-date `node_modules`, and the store's
//! `projects/` registration.

use std::{
    borrow::Cow,
    collections::HashSet,
    path::{Path, PathBuf},
    time::{SystemTime, UNIX_EPOCH},
};

use indexmap::IndexMap;
use pacquet_config::Config;
use pacquet_lockfile::{DependencyGroup, ProjectManifest, resolve_override_references};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use pacquet_state::{
    ModulesYaml, ProjectEntry, WorkspaceState, WorkspaceStateSettings, http_date, modules_yaml,
    workspace_state, write_atomic,
};

use crate::{
    InstallError,
    gates::CheckedLockfile,
    validation::{ProjectDir, ValidationInputs},
};
use pacquet_planner::{IncludedGroups, Plan, PlanOptions};

/// pnpm reads these files back; they say which pnpm version's layout they
/// describe. pacquet builds pnpm 12.21's layout.
pub const PACKAGE_MANAGER: &str = "pnpm@12.21.0";

/// Written last: its `lastValidatedTimestamp` vouches for the whole tree.
pub const WORKSPACE_STATE_FILE: &str = ".pnpm-workspace-state-v1.json";

/// The workspace state lives in `<root>/node_modules` whatever `modulesDir`
/// says (pnpm 12.21 creates that directory for it; docs/layout.md §9).
pub fn state_file_path(workspace_root: &Path) -> PathBuf {
    workspace_root
        .join("node_modules")
        .join(WORKSPACE_STATE_FILE)
}

pub struct StateInputs<'a> {
    pub config: &'a Config,
    pub checked: &'a CheckedLockfile,
    pub plan: &'a Plan,
    pub opts: &'a PlanOptions<'a>,
    /// A filtered install: `lock.yaml` lists what it and the installs
    /// before it installed, `hoistedDependencies` keeps earlier entries.
    pub filtered: Option<crate::install::Filtered<'a>>,
    pub ignored_builds: &'a [String],
    /// When the install began, before it read any input: the state's
    /// `lastValidatedTimestamp`. A later edit, even one stamped by the
    /// filesystem's coarse clock a few ms behind, then counts as a change.
    pub started_at: SystemTime,
    /// The previous `prunedAt`, unless this install pruned orphans.
    pub pruned_at: Option<String>,
    /// The previous install's `skipped`, carried over.
    pub previous_skipped: Vec<String>,
    /// Projects and dependencies whose scripts did not run.
    pub pending_builds: &'a [String],
    /// Direct dependencies whose agent skills await approval.
    pub pending_skills: &'a [String],
    /// See [`crate::InstallRequest::edited`].
    pub edited: &'a [crate::EditedManifest],
}

/// The text of `node_modules/.pnpm/lock.yaml` for `inputs`; `None` when
/// pnpm 12 writes none (no dependencies, docs/layout.md §13.5). Pure, so it
/// is rendered while symlinks and bins are made (~2 ms of alotta's
/// lockfile-change install); it is written only after them, so the file
/// still says what is in place.
pub fn render_current_lockfile(
    checked: &CheckedLockfile,
    plan: &Plan,
    opts: &PlanOptions<'_>,
    filtered: Option<crate::install::Filtered<'_>>,
) -> Option<String> {
    let current = match filtered {
        Some(f) => current_lockfile(checked, f.plan, opts.included, Some(&f.opts.importers)),
        None => current_lockfile(checked, plan, opts.included, None),
    };
    (!is_empty(&current)).then(|| current.to_yaml())
}

/// `node_modules/.pnpm/lock.yaml` (`current_lockfile`, from
/// [`render_current_lockfile`]) and `node_modules/.modules.yaml`, written
/// before the projects' own scripts run (pnpm 12 leaves them behind when a
/// project script fails).
pub fn write_modules_state(
    inputs: &StateInputs<'_>,
    current_lockfile: Option<String>,
) -> Result<(), InstallError> {
    let StateInputs {
        config,
        plan,
        opts,
        ignored_builds,
        pruned_at,
        previous_skipped,
        pending_builds,
        pending_skills,
        filtered,
        ..
    } = inputs;
    let root = config.workspace_root.as_path();
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let store_dir = config.store_dir.to_string_lossy().into_owned();
    let modules = root.join(&opts.modules_dir);
    std::fs::create_dir_all(&modules).map_err(InstallError::write(&modules))?;

    let vsd = root.join(&opts.virtual_store_dir);
    let lock_path = vsd.join("lock.yaml");
    // pnpm 12 writes no current lockfile without dependencies, and
    // removes one a previous install left (docs/layout.md §13.5).
    match current_lockfile {
        None => match std::fs::remove_file(&lock_path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(InstallError::write(&lock_path)(e));
            }
            _ => {}
        },
        Some(text) => {
            std::fs::create_dir_all(&vsd).map_err(InstallError::write(&vsd))?;
            write_atomic(&lock_path, text.as_bytes()).map_err(InstallError::write(&lock_path))?;
        }
    }
    let yaml_path = modules.join(".modules.yaml");
    let previous_hoisted = match filtered {
        Some(_) => previous_hoisted(&yaml_path),
        None => serde_json::Map::new(),
    };

    let yaml = modules_yaml(
        plan,
        opts,
        &ModulesYaml {
            store_dir: store_dir.clone(),
            pruned_at: pruned_at
                .clone()
                .unwrap_or_else(|| http_date(now.as_secs())),
            package_manager: PACKAGE_MANAGER.to_owned(),
            allow_builds: sorted_allow_builds(config),
            ignored_builds: ignored_builds.to_vec(),
            injected_deps: injected_deps(plan, opts),
            previous_skipped: previous_skipped.clone(),
            pending_builds: pending_builds.to_vec(),
            pending_skills: pending_skills.to_vec(),
            previous_hoisted,
        },
    );
    write_atomic(&yaml_path, yaml.as_bytes()).map_err(InstallError::write(&yaml_path))?;
    Ok(())
}

/// `node_modules/.pnpm-workspace-state-v1.json` and the store's project
/// registration, written once the projects' scripts succeeded.
pub fn write_workspace_state(inputs: &StateInputs<'_>) -> Result<(), InstallError> {
    let StateInputs {
        config,
        checked,
        opts,
        started_at,
        ..
    } = inputs;
    let root = config.workspace_root.as_path();
    let store_dir = config.store_dir.to_string_lossy().into_owned();
    let modules = root.join(&opts.modules_dir);
    let state = WorkspaceState {
        last_validated_timestamp: started_at
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis() as u64,
        projects: checked
            .projects
            .iter()
            .map(|p| ProjectEntry {
                dir: p.dir.to_string_lossy().into_owned(),
                name: p.manifest.name.clone(),
                version: p.manifest.version.clone(),
                has_modules_dir: config.node_linker == pacquet_config::NodeLinker::Hoisted
                    && p.dir.join(&config.modules_dir).is_dir(),
            })
            .collect(),
        pnpmfiles: crate::gates::pnpmfile_path(config)
            .map(|p| p.to_string_lossy().into_owned())
            .into_iter()
            .collect(),
        // Whether projects are left out of what is installed now, this
        // install and the ones before it together (checked with pnpm 12.21:
        // a filtered install after a full one records `false`).
        filtered_install: inputs
            .filtered
            .is_some_and(|f| f.opts.importers.len() != checked.projects.len()),
        settings: settings(config, &store_dir),
        validation: validation(inputs, &modules),
    };
    let state_path = state_file_path(root);
    if let Some(dir) = state_path.parent() {
        std::fs::create_dir_all(dir).map_err(InstallError::write(dir))?;
    }
    write_atomic(&state_path, workspace_state(&state).as_bytes())
        .map_err(InstallError::write(&state_path))?;

    register_project(&config.store_dir, root);
    Ok(())
}

/// The `validation` block over the projects installed so far.
fn validation(inputs: &StateInputs<'_>, modules: &Path) -> Option<pacquet_state::Validation> {
    let checked = inputs.checked;
    let projects: Vec<ProjectDir<'_>> = checked
        .projects
        .iter()
        .map(|p| ProjectDir {
            id: &p.id,
            dir: &p.dir,
        })
        .collect();
    let installed = |id: &str| match &inputs.filtered {
        Some(f) => f.opts.importers.iter().any(|s| s.id == id),
        None => true,
    };
    let root = &inputs.config.workspace_root;
    // The patch files and the pnpmfile: what a repeat install `stat`s
    // besides the lockfile and local tarballs (pnpm 12.21).
    let config_files: Vec<std::path::PathBuf> = inputs
        .config
        .patched_dependencies
        .values()
        .map(|p| root.join(p))
        .chain(crate::gates::pnpmfile_path(inputs.config))
        .collect();
    crate::validation::record(&ValidationInputs {
        modules_dir: modules,
        lockfile_path: &checked.path,
        lockfile: &checked.lockfile,
        projects: &projects,
        installed: &installed,
        config_files: &config_files,
        edited: inputs.edited,
    })
}

/// The previous `.modules.yaml`'s `hoistedDependencies`, if any.
fn previous_hoisted(path: &Path) -> serde_json::Map<String, serde_json::Value> {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|doc| doc.get("hoistedDependencies")?.as_object().cloned())
        .unwrap_or_default()
}

/// `node_modules/.pnpm/lock.yaml`: what was installed (docs/layout.md
/// §13.2). With every group that is the wanted lockfile as is, skipped
/// optional packages included (checked with the optional-platform fixture).
/// `importers`: a filtered install lists only these (docs/filtering.md §5).
fn current_lockfile<'c>(
    checked: &'c CheckedLockfile,
    plan: &Plan,
    included: IncludedGroups,
    importers: Option<&[pacquet_planner::ImporterSelection]>,
) -> Cow<'c, pacquet_lockfile::Lockfile> {
    // Borrowed, not copied: cloning alotta's lockfile faulted in ~0.7 MB
    // of fresh pages on the thread that renders it.
    if included.all() && importers.is_none() && plan.unlinked_peers.is_empty() {
        return Cow::Borrowed(&checked.lockfile);
    }
    let mut current = checked.lockfile.clone();
    current.empty_maps_written = !current.packages.is_empty();
    if let Some(importers) = importers {
        current
            .importers
            .retain(|id, _| importers.iter().any(|s| &s.id == id));
    }
    for importer in current.importers.values_mut() {
        let keep = |group| included.importer_group(group);
        if !keep(DependencyGroup::Prod) {
            importer.dependencies = None;
        }
        if !keep(DependencyGroup::Dev) {
            importer.dev_dependencies = None;
        }
        if !keep(DependencyGroup::Optional) {
            importer.optional_dependencies = None;
        }
    }
    // The plan reached exactly these: installed, or skipped on this platform.
    let reached: HashSet<&str> = plan
        .slots
        .iter()
        .map(|slot| slot.dep_path.as_str())
        .chain(plan.skipped.iter().map(String::as_str))
        .chain(plan.skipped_below.iter().map(String::as_str))
        .collect();
    current
        .snapshots
        .retain(|key, _| reached.contains(key.as_str()));
    for (key, alias) in &plan.unlinked_peers {
        if let Some(snapshot) = current.snapshots.get_mut(key.as_str())
            && let Some(optional) = &mut snapshot.optional_dependencies
        {
            optional.remove(alias);
            if optional.is_empty() {
                snapshot.optional_dependencies = None;
            }
        }
    }
    let ids: HashSet<&str> = current.snapshots.keys().map(|k| k.package_id()).collect();
    let packages = std::mem::take(&mut current.packages);
    current.packages = packages
        .into_iter()
        .filter(|(key, _)| ids.contains(key.as_str()))
        .collect();
    Cow::Owned(current)
}

/// pnpm's `isEmptyLockfile`: no importer depends on anything.
fn is_empty(lockfile: &pacquet_lockfile::Lockfile) -> bool {
    let none = |group: &Option<std::collections::BTreeMap<_, _>>| {
        group.as_ref().is_none_or(|g| g.is_empty())
    };
    lockfile.snapshots.is_empty()
        && lockfile.importers.values().all(|i| {
            none(&i.dependencies) && none(&i.dev_dependencies) && none(&i.optional_dependencies)
        })
}

pub fn settings(config: &Config, store_dir: &str) -> WorkspaceStateSettings {
    let mut s = WorkspaceStateSettings::new(store_dir);
    s.allow_builds = sorted_allow_builds(config);
    s.auto_install_peers = config.auto_install_peers;
    // pnpm 12 writes catalogs and their entries sorted.
    let mut catalogs = config
        .catalogs_as_loaded
        .as_ref()
        .unwrap_or(&config.catalogs)
        .clone();
    catalogs.sort_unstable_keys();
    for entries in catalogs.values_mut() {
        entries.sort_unstable_keys();
    }
    s.catalogs = json!(catalogs);
    s.dangerously_allow_all_builds = config.dangerously_allow_all_builds;
    s.dedupe_peers = config.dedupe_peers;
    s.dedupe_direct_deps = config.dedupe_direct_deps;
    s.dedupe_injected_deps = config.dedupe_injected_deps;
    s.dedupe_peer_dependents = config.dedupe_peer_dependents;
    s.link_workspace_packages = config.link_workspace_packages.clone();
    s.prefer_workspace_packages = config.prefer_workspace_packages;
    s.dev = config.dev;
    s.node_linker = config.node_linker.as_str().to_owned();
    s.exclude_links_from_lockfile = config.exclude_links_from_lockfile;
    s.hoist_pattern = config.hoist_pattern.clone();
    s.hoist_workspace_packages = config.hoist_workspace_packages;
    s.inject_workspace_packages = config.inject_workspace_packages;
    s.minimum_release_age = config.minimum_release_age;
    s.minimum_release_age_ignore_missing_time = config.minimum_release_age_ignore_missing_time;
    s.optional = config.optional;
    s.peers_suffix_max_length = config.peers_suffix_max_length;
    s.production = config.production;
    s.public_hoist_pattern = config.public_hoist_pattern.clone();
    s.virtual_store_dir_max_length = config.virtual_store_dir_max_length;
    // Every scoped registry (`@jsr` has a default), sorted as pnpm 12 writes them.
    let mut routes: Vec<(&String, &String)> = config.registries.scoped.iter().collect();
    routes.sort();
    s.registry_routes = routes
        .into_iter()
        .map(|(scope, url)| (scope.clone(), url.clone()))
        .collect();
    // docs/layout.md §13.6: only with a `pnpm-workspace.yaml`.
    s.workspace_package_patterns = match (config.is_workspace, config.packages_declared) {
        (false, _) => None,
        (true, false) => Some(vec![".".into()]),
        (true, true) => Some(config.packages.clone()),
    };
    // The lists the setting gave, as given (checked with pnpm 12.21).
    let archs = &config.supported_architectures;
    let given = config.supported_architectures_given;
    if given.contains(&true) {
        let mut recorded = serde_json::Map::new();
        for ((key, list), given) in [
            ("os", &archs.os),
            ("cpu", &archs.cpu),
            ("libc", &archs.libc),
        ]
        .into_iter()
        .zip(given)
        {
            if given {
                recorded.insert(key.to_owned(), json!(list));
            }
        }
        s.supported_architectures = Some(Value::Object(recorded));
    }
    // Recorded, absolute, when not the default (checked with pnpm 12.21).
    let default_vsd = config
        .workspace_root
        .join(&config.modules_dir)
        .join(".pnpm");
    // Also with the global virtual store off (checked with pnpm 12.21).
    if config.global_virtual_store_dir != config.store_dir.join("links") {
        let dir = crate::lexical::normalize(&config.global_virtual_store_dir);
        s.extra
            .insert("globalVirtualStoreDir".into(), json!(dir.to_string_lossy()));
    }
    if config.enable_global_virtual_store {
        s.extra
            .insert("enableGlobalVirtualStore".into(), json!(true));
    }
    if config.virtual_store_dir != default_vsd {
        let vsd = config.virtual_store_dir.to_string_lossy();
        s.extra.insert("virtualStoreDir".into(), json!(vsd));
    }
    // Recorded only when off (checked with pnpm 12.21).
    if !config.extend_node_path {
        s.extra.insert("extendNodePath".into(), json!(false));
    }
    // pnpm 12 records it when set (checked with the fixture projects).
    if config.trust_lockfile {
        s.extra.insert("trustLockfile".into(), json!(true));
    }
    // Recorded when set (checked with a project setting both, docs/layout.md §9).
    if let Some(policy) = &config.trust_policy {
        s.extra.insert("trustPolicy".into(), json!(policy));
    }
    // Lists as written (checked with pnpm 12.21, docs/supply-chain.md §5).
    if !config.minimum_release_age_exclude.is_empty() {
        let excludes = json!(config.minimum_release_age_exclude);
        s.extra.insert("minimumReleaseAgeExclude".into(), excludes);
    }
    // pnpm 12 records it when set, or `true` when `minimumReleaseAge` is
    // (checked on svelte and vue-core, benchmarks/compat-real).
    if let Some(strict) = config.minimum_release_age_strict {
        s.extra
            .insert("minimumReleaseAgeStrict".into(), json!(strict));
    }
    if !config.trust_policy_exclude.is_empty() {
        let excludes = json!(config.trust_policy_exclude);
        s.extra.insert("trustPolicyExclude".into(), excludes);
    }
    if let Some(minutes) = config.trust_policy_ignore_after {
        s.extra
            .insert("trustPolicyIgnoreAfter".into(), json!(minutes));
    }
    if !config.overrides.is_empty() {
        s.extra
            .insert("overrides".into(), json!(recorded_overrides(config)));
    }
    // As written (checked with pnpm 12.21 on vite, benchmarks/compat-real).
    if let Some(extensions) = &config.package_extensions {
        s.extra
            .insert("packageExtensions".into(), extensions.clone());
    }
    // Recorded when set, even empty (checked with pnpm 12.21).
    if config.ignored_optional_dependencies_set {
        let ignored = json!(config.ignored_optional_dependencies);
        s.extra
            .insert("ignoredOptionalDependencies".into(), ignored);
    }
    // Paths as configured (checked with pnpm 12.21, docs/layout.md §9).
    if !config.patched_dependencies.is_empty() {
        let patches = json!(config.patched_dependencies);
        s.extra.insert("patchedDependencies".into(), patches);
    }
    s
}

/// `<store>/projects/<first 32 hex of sha256(project dir)>` → project dir,
/// as pnpm 12 records which projects use a store (docs/store.md §2). Best effort:
/// the install does not depend on it.
fn register_project(store_dir: &Path, root: &Path) {
    let name = hex::encode(Sha256::digest(root.to_string_lossy().as_bytes()));
    let dir = store_dir.join("projects");
    let link = dir.join(&name[..32]);
    if std::fs::symlink_metadata(&link).is_ok() {
        return;
    }
    let _ = std::fs::create_dir_all(&dir);
    let _ = link_project(root, &link);
}

#[cfg(unix)]
fn link_project(root: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(root, link)
}

/// A junction, as pnpm links directories on Windows.
#[cfg(windows)]
fn link_project(root: &Path, link: &Path) -> std::io::Result<()> {
    crate::symlinks::symlink_force(root, link)
}

/// `injectedDeps`: each `file:` directory (as written in the lockfile) →
/// the package directories it was injected into.
/// A global slot's directory is named as pnpm 12.21 names it there: from
/// `globalVirtualStoreDir` as configured (and never a staging directory).
fn injected_deps(plan: &Plan, opts: &PlanOptions) -> indexmap::IndexMap<String, Vec<String>> {
    let mut out: indexmap::IndexMap<String, Vec<String>> = indexmap::IndexMap::new();
    for slot in &plan.slots {
        if let pacquet_planner::FetchSource::Directory { path } = &slot.fetch {
            // Keyed by the package id's `file:` part, which is the directory
            // in a workspace (`packages/lib`) and the file URL's path in a
            // deploy (`///ws/packages/lib`; checked with pnpm 12.21).
            let version = slot.dep_path.version();
            let key = version.strip_prefix("file:").unwrap_or(path);
            let dir = match &opts.global_virtual_store {
                Some(gvs) => gvs.named_package_dir(slot),
                None => slot.package_dir.clone(),
            };
            out.entry(key.to_owned()).or_default().push(dir);
        }
    }
    // pnpm 12 writes the directories sorted (vite, benchmarks/compat-real).
    out.sort_unstable_keys();
    out
}

/// pnpm 12 writes `allowBuilds` with its keys sorted, whatever the order in
/// `pnpm-workspace.yaml`.
fn sorted_allow_builds(config: &Config) -> IndexMap<String, bool> {
    let mut map = config.allow_builds.clone();
    map.sort_unstable_keys();
    map
}

/// `overrides` as pnpm 12 records them: `$name` references resolved against
/// the root `package.json`, keys sorted.
fn recorded_overrides(config: &Config) -> IndexMap<String, String> {
    let mut overrides = config.overrides.clone();
    if overrides.values().any(|v| v.starts_with('$')) {
        let root = ProjectManifest::from_path(&config.workspace_root.join("package.json"));
        if let Ok(resolved) = root.and_then(|root| resolve_override_references(&overrides, &root)) {
            overrides = resolved;
        }
    }
    overrides.sort_unstable_keys();
    overrides
}
