//! Dependency builds and patches: which packages may run lifecycle scripts
//! (the `allowBuilds` policy), how each is imported (a package that will
//! build or be patched is copied so neither can touch store blobs; one
//! already built or patched is restored from the side-effects cache), and
//! applying the patches, then running the scripts in dependency order, once
//! everything is linked (docs/store.md §9.1).

use std::{
    collections::{HashMap, HashSet},
    path::{Path, PathBuf},
    sync::{Mutex, OnceLock},
};

use pacquet_config::Config;
use pacquet_lockfile::Lockfile;
use pacquet_scripts::{
    BuildNode, BuildOptions, DepsHashMemo, ScriptEvent, dependency_scripts, deps_hash,
    run_dependency_builds, side_effects_cache_key,
};
use pacquet_store_index::{FileInfo, IndexSender, PackageFilesIndex};
use serde_json::Value;

use super::InstallError;
use pacquet_planner::{BuildPermission, Layout, LinkOwner, Plan, Slot};

/// How one package directory is filled.
pub enum ImportMode {
    /// Link the row's files (hardlinks under `auto`).
    Plain,
    /// Copy: the package's scripts will run in it.
    ForBuild,
    /// The row's files with this side-effects entry applied: already built.
    Restored(Vec<(String, FileInfo)>),
}

/// A package whose patch is applied and/or whose scripts run after linking.
struct PendingBuild {
    files: Vec<(String, FileInfo)>,
    cache_key: Option<String>,
    store_key: Option<String>,
    patch: Option<PathBuf>,
    /// Its lifecycle scripts run.
    scripts: bool,
}

/// The side-effects cache and script settings a build run needs.
#[derive(Debug, Clone)]
pub struct BuildSettings {
    pub child_concurrency: usize,
    /// `sideEffectsCache`: restore packages built before.
    pub side_effects_read: bool,
    /// ... and record what new builds changed (not `sideEffectsCacheReadonly`).
    pub side_effects_write: bool,
    /// How every script runs ([`ScriptSettings::from_config`]).
    pub scripts: ScriptSettings,
}

/// What the settings change about every lifecycle script, dependency or
/// project.
#[derive(Debug, Clone)]
pub struct ScriptSettings {
    /// Set last in each script's environment.
    pub env: Vec<(String, String)>,
    /// `scriptShell`.
    pub shell: Option<PathBuf>,
    /// `unsafePerm`, or pnpm 12's default for this process.
    pub unsafe_perm: bool,
    /// `userAgent` for `npm_config_user_agent`.
    pub user_agent: Option<String>,
}

impl ScriptSettings {
    /// With `preferSymlinkedExecutables: true` set (not the hoisted
    /// layout's default), bins have no shim to carry `NODE_PATH`, so it is
    /// exported as `<virtualStoreDir>/node_modules`; `nodeOptions` becomes
    /// `NODE_OPTIONS` (both checked with pnpm 12.21). The global virtual
    /// store sets both for every script.
    pub fn from_config(config: &Config) -> Self {
        let mut env = Vec::new();
        if config.prefer_symlinked_executables == Some(true) {
            let hidden = config.virtual_store_dir.join("node_modules");
            env.push(("NODE_PATH".into(), hidden.to_string_lossy().into_owned()));
        }
        if config.enable_global_virtual_store {
            // Every script finds what the project hoists, `import`s too
            // (pnpm 12.21; docs/layout.md §16.8).
            let hidden = config.virtual_store_dir.join("node_modules");
            let modules = config.workspace_root.join(&config.modules_dir);
            let paths = std::env::join_paths([hidden, modules])
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default();
            env.retain(|(key, _)| key != "NODE_PATH");
            env.push(("NODE_PATH".into(), paths));
            let inherited = std::env::var("NODE_OPTIONS").ok();
            let before = config.node_options.clone().or(inherited);
            let hook = pacquet_scripts::node_path_hook::import_option();
            let options = match before.filter(|o| !o.is_empty()) {
                Some(before) => format!("{before} {hook}"),
                None => hook,
            };
            env.push(("NODE_OPTIONS".into(), options));
        } else if let Some(options) = &config.node_options {
            env.push(("NODE_OPTIONS".into(), options.clone()));
        }
        ScriptSettings {
            env,
            shell: config.script_shell.as_ref().map(PathBuf::from),
            unsafe_perm: config
                .unsafe_perm
                .unwrap_or_else(pacquet_scripts::default_unsafe_perm),
            user_agent: config.user_agent.clone(),
        }
    }

    /// The shared options of a build run with these settings.
    pub fn build_options<'s>(
        &'s self,
        child_concurrency: usize,
        init_cwd: &'s Path,
        extra_bin_dirs: &'s [PathBuf],
        reporter: &'s (dyn Fn(&ScriptEvent<'_>) + Sync),
    ) -> BuildOptions<'s> {
        BuildOptions {
            child_concurrency,
            init_cwd,
            extra_bin_dirs,
            reporter: Some(reporter),
            user_agent: self.user_agent.as_deref(),
            shell: self.shell.as_deref(),
            unsafe_perm: self.unsafe_perm,
            extra_env: &self.env,
            ..BuildOptions::default()
        }
    }
}

/// The builds of one install: which packages are imported for building
/// (collected while they are imported, since only the store row says a
/// package needs a build), and running them once everything is linked.
/// Whether a package may build was decided by the planner
/// ([`Slot::build`]).
pub struct Builds<'a> {
    lockfile: &'a Lockfile,
    settings: BuildSettings,
    /// `<platform>;<arch>;node<major>`, known only when node runs. Asked
    /// only when a package is allowed to build: `node --version` costs a
    /// process spawn (~40 ms here) that most installs never need.
    engine: OnceLock<Option<(&'static str, &'static str, u32)>>,
    memo: Mutex<DepsHashMemo>,
    pending: Mutex<HashMap<usize, PendingBuild>>,
    ignored: Mutex<Vec<String>>,
    /// depPaths of packages that need a build `--ignore-scripts` skipped.
    not_built: Mutex<Vec<String>>,
    /// `node_modules/.pnpm/lock.yaml` of the last install that finished.
    current_lockfile: PathBuf,
    /// Its snapshot keys, read only when a complete package wants a build.
    finished: OnceLock<HashSet<String>>,
}

impl<'a> Builds<'a> {
    pub fn new(settings: BuildSettings, lockfile: &'a Lockfile, current_lockfile: PathBuf) -> Self {
        Builds {
            lockfile,
            settings,
            engine: OnceLock::new(),
            memo: Mutex::new(DepsHashMemo::new()),
            pending: Mutex::new(HashMap::new()),
            ignored: Mutex::new(Vec::new()),
            not_built: Mutex::new(Vec::new()),
            current_lockfile,
            finished: OnceLock::new(),
        }
    }

    fn engine(&self) -> Option<(&'static str, &'static str, u32)> {
        *self.engine.get_or_init(|| {
            pacquet_scripts::node_major().map(|major| {
                (
                    pacquet_scripts::node_platform(),
                    pacquet_scripts::node_arch(),
                    major,
                )
            })
        })
    }

    /// Decides how slot `i` is imported from `row`.
    pub fn mode(&self, i: usize, slot: &Slot, row: &PackageFilesIndex) -> ImportMode {
        let scripts = row.requires_build == Some(true) && self.may_build(slot);
        let patch = slot.patch.as_ref().map(|p| &p.file);
        if !scripts && patch.is_none() {
            return ImportMode::Plain;
        }
        // The dependency hash is part of the key only when scripts run
        // (docs/store.md §9.1).
        let cache_key = self.engine().map(|(platform, arch, major)| {
            let hash =
                scripts.then(|| deps_hash(self.lockfile, &slot.dep_path, &mut lock(&self.memo)));
            side_effects_cache_key(
                platform,
                arch,
                major,
                hash.as_deref(),
                patch.map(|p| p.hash.as_str()),
            )
        });
        if self.settings.side_effects_read
            && let Some(key) = &cache_key
            && let Some((_, diff)) = row.side_effects.iter().flatten().find(|(k, _)| k == key)
        {
            return ImportMode::Restored(diff.apply_to(&row.files));
        }
        let build = PendingBuild {
            files: row.files.clone(),
            cache_key,
            store_key: slot.store_key.clone(),
            patch: patch.map(|p| p.path.clone()),
            scripts,
        };
        lock(&self.pending).insert(i, build);
        ImportMode::ForBuild
    }

    /// Whether a package that needs a build may run its scripts; records
    /// the ones that may not where pnpm reports them.
    pub(crate) fn may_build(&self, slot: &Slot) -> bool {
        match slot.build {
            BuildPermission::Allowed => true,
            BuildPermission::Denied => false,
            BuildPermission::ScriptsIgnored => {
                // pnpm lists them in `pendingBuilds`, approved or not.
                lock(&self.not_built).push(slot.dep_path.as_str().to_owned());
                false
            }
            BuildPermission::NotApproved => {
                let id = format!("{}@{}", slot.name(), slot.dep_path.version());
                let mut ignored = lock(&self.ignored);
                if !ignored.contains(&id) {
                    ignored.push(id);
                }
                false
            }
        }
    }

    /// The slots with a build or patch to run, ascending.
    pub fn pending_slots(&self) -> Vec<usize> {
        let mut slots: Vec<usize> = lock(&self.pending).keys().copied().collect();
        slots.sort_unstable();
        slots
    }

    pub fn has_pending(&self) -> bool {
        !lock(&self.pending).is_empty()
    }

    /// Slot `i` was already complete on disk. It was built before only if
    /// the install that placed it finished (its current lockfile lists the
    /// package); an install killed between import and build left it unbuilt.
    pub fn already_complete(&self, i: usize, slot: &Slot) {
        let finished = self.finished.get_or_init(|| {
            let Ok(Some(current)) = pacquet_lockfile::read_lockfile(&self.current_lockfile) else {
                return HashSet::new();
            };
            current
                .snapshots
                .keys()
                .map(|k| k.as_str().to_owned())
                .collect()
        });
        if finished.contains(slot.dep_path.as_str()) {
            lock(&self.pending).remove(&i);
        }
    }

    /// `name@version` of packages that wanted to build but are not in
    /// `allowBuilds`, sorted.
    pub fn ignored(&self) -> Vec<String> {
        let mut ignored = lock(&self.ignored).clone();
        ignored.sort();
        ignored
    }

    /// depPaths of packages whose build `--ignore-scripts` skipped.
    pub fn not_built(&self) -> Vec<String> {
        lock(&self.not_built).clone()
    }

    /// Applies the pending patches, then runs the pending builds in
    /// dependency order, uploading what each package's patch and build
    /// changed into the store row's `sideEffects`. Returns the optional
    /// packages whose build failed, with the error text.
    pub fn run(&self, run: &BuildRun<'_>) -> Result<Vec<(usize, String)>, InstallError> {
        let BuildRun {
            root,
            plan,
            manifests,
            cas,
            sender,
            extra_bin_dirs,
            report,
        } = run;
        let root = *root;
        let pending = std::mem::take(&mut *lock(&self.pending));
        if pending.is_empty() {
            return Ok(Vec::new());
        }
        let upload =
            |i: usize, build: &PendingBuild| -> Result<(), pacquet_scripts::ScriptsError> {
                let (Some(sender), Some(cache_key), Some(store_key), true) = (
                    sender.as_ref(),
                    build.cache_key.as_ref(),
                    build.store_key.as_ref(),
                    self.settings.side_effects_write,
                ) else {
                    return Ok(());
                };
                let write = |content: &[u8], exec: bool| cas.write(content, exec).map(|f| f.digest);
                let package_dir = root.join(&plan.slots[i].package_dir);
                let diff = pacquet_scripts::diff_package_dir(&package_dir, &build.files, &write)?;
                sender.put_side_effects(store_key.clone(), cache_key.clone(), diff);
                Ok(())
            };
        // Patches first: a package's scripts run on its patched files.
        let mut patched: Vec<(usize, &PendingBuild)> = pending
            .iter()
            .filter(|(_, build)| build.patch.is_some())
            .map(|(&i, build)| (i, build))
            .collect();
        patched.sort_by_key(|(i, _)| *i);
        for (i, build) in patched {
            let Some(patch) = &build.patch else {
                continue;
            };
            pacquet_patching::apply_patch(&root.join(&plan.slots[i].package_dir), patch)?;
            if !build.scripts {
                upload(i, build)?;
            }
        }
        let nodes = build_nodes(root, plan, manifests, &pending);
        let after_build = |i: usize| -> Result<(), pacquet_scripts::ScriptsError> {
            match pending.get(&i) {
                Some(build) => upload(i, build),
                None => Ok(()),
            }
        };
        let opts = BuildOptions {
            after_build: Some(&after_build),
            ..self.settings.scripts.build_options(
                self.settings.child_concurrency,
                root,
                extra_bin_dirs,
                report,
            )
        };
        let report = run_dependency_builds(&nodes, &opts)?;
        Ok(report
            .failed_optional
            .into_iter()
            .map(|(i, err)| (i, err.to_string()))
            .collect())
    }
}

/// Every slot as a node of the build graph (its sibling links and the
/// plan's `slot_deps` are its dependencies); only the pending ones have
/// stages to run.
fn build_nodes(
    root: &Path,
    plan: &Plan,
    manifests: &[OnceLock<Value>],
    pending: &HashMap<usize, PendingBuild>,
) -> Vec<BuildNode> {
    let mut deps: Vec<Vec<usize>> = vec![Vec::new(); plan.slots.len()];
    for link in &plan.symlinks {
        if let (LinkOwner::Slot(from), Some(to)) = (link.owner, link.target_slot) {
            deps[from].push(to);
        }
    }
    for &(from, to) in &plan.slot_deps {
        deps[from].push(to);
    }
    plan.slots
        .iter()
        .enumerate()
        .map(|(i, slot)| {
            let package_dir = root.join(&slot.package_dir);
            let mut manifest = manifests[i].get().cloned().unwrap_or(Value::Null);
            let mut stages = Vec::new();
            if pending.get(&i).is_some_and(|build| build.scripts) {
                // The whole `package.json`: `npm_package_config_*` and
                // friends come from fields the stored manifest may lack.
                if let Some(full) = read_json(&package_dir.join("package.json")) {
                    manifest = full;
                }
                let gyp = package_dir.join("binding.gyp").exists();
                stages = dependency_scripts(&manifest, gyp);
            }
            // docs/hoisted.md §7.
            let bin_dirs = if plan.layout == Layout::Hoisted && !stages.is_empty() {
                pacquet_scripts::bin_dirs_in_parent_dirs(&package_dir, root)
            } else {
                Vec::new()
            };
            BuildNode {
                name: slot.name().to_owned(),
                version: slot.dep_path.version().to_owned(),
                pkg_id: slot.dep_path.package_id().to_owned(),
                package_dir,
                manifest,
                stages,
                deps: std::mem::take(&mut deps[i]),
                optional: slot.optional,
                bin_dirs,
            }
        })
        .collect()
}

/// What running the builds needs from the install.
pub struct BuildRun<'a> {
    pub root: &'a Path,
    pub plan: &'a Plan,
    pub manifests: &'a [std::sync::OnceLock<Value>],
    pub cas: &'a pacquet_cas::Cas,
    /// Where side-effects uploads go (`None`: not recorded).
    pub sender: Option<IndexSender>,
    /// `PATH` entries after the package's own `.bin` dirs.
    pub extra_bin_dirs: &'a [PathBuf],
    pub report: &'a (dyn Fn(&ScriptEvent<'_>) + Sync),
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

/// A poisoned lock still holds consistent data here: every critical
/// section is a single push or insert.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
