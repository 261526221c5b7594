//! One install, in phases that each carry out one part of the plan: check
//! the inputs, plan, remove what the previous install left and the plan no
//! longer wants, create directories, import packages (warm ones from the
//! store while cold ones download), symlinks, bins, builds, state files.

mod link;
mod prepare;
mod summary;

use std::path::PathBuf;
use std::time::SystemTime;

use pacquet_config::{Config, NodeLinker};
use pacquet_planner::{FetchSource, Plan, PlanOptions, plan};
use pacquet_tarball::FetcherOptions;

use crate::{
    InstallError, bins,
    build::{BuildRun, BuildSettings, Builds},
    filtered::{self, ProjectFilter, Scope},
    gates::{self, CheckedLockfile},
    global_store,
    link_gate::LinkGate,
    phases::Phases,
    probe::{DirProbe, ProbeAhead},
    project_scripts::ProjectScripts,
    reporter::{Event, Reporter},
    settings, skills,
    stale::{self, Reconciled},
    store::Store,
    summaries, symlinks, tree_record, up_to_date, verify,
    write_state::{self, StateInputs},
};
pub use summary::InstallSummary;
pub(crate) use summary::{direct_dependencies, tree_direct_dependencies};

/// What the caller asks for; everything else comes from [`Config`].
pub struct InstallRequest<'a> {
    pub config: &'a Config,
    pub frozen_lockfile: bool,
    /// `--filter` and the like: only some projects are installed.
    pub filter: Option<&'a ProjectFilter>,
    /// The workspace root is the only project, whatever `packages` says
    /// (`deploy`: the settings are the source workspace's).
    pub root_only: bool,
    /// `--lockfile-only`: resolve and write `pnpm-lock.yaml`, install nothing.
    pub lockfile_only: bool,
    /// `--fix-lockfile`: resolve even an up-to-date lockfile, keeping its
    /// versions; what the registry says replaces each entry's resolution.
    pub fix_lockfile: bool,
    /// The manifests the command edited first (`add`, `remove`,
    /// `update`), one per project.
    pub edited: Vec<EditedManifest>,
    /// `update`: resolve even an up-to-date lockfile, without keeping its
    /// versions of these names.
    pub update: Option<crate::resolve::Update>,
}

/// A project manifest a command edited before installing.
#[derive(Debug, Clone)]
pub struct EditedManifest {
    /// The project's directory.
    pub dir: std::path::PathBuf,
    /// The manifest as pnpm 12's state file records it after the edit:
    /// after `add`/`remove`, the one it holds in memory (groups the edit
    /// emptied are still there, though the written file drops them);
    /// after `update`, the file as it was before, stat included.
    pub manifest: serde_json::Value,
    /// The stat to record (`update`); `None`: none is (`add`, `remove`).
    pub stat_before: Option<pacquet_state::FileStat>,
}

/// Installs the projects of `req.config` from the lockfile. Blocking: the
/// warm set is linked on the rayon pool while downloads run on `runtime`.
pub fn install(
    req: &InstallRequest<'_>,
    runtime: &tokio::runtime::Handle,
    reporter: &dyn Reporter,
) -> Result<InstallSummary, InstallError> {
    let started_at = SystemTime::now();
    let phases = Phases::start();
    let config = req.config;
    // Refused before anything is read or written: `pnp` has no planner.
    if config.node_linker == NodeLinker::Pnp {
        return Err(InstallError::UnsupportedNodeLinker {
            linker: config.node_linker.as_str(),
        });
    }
    if config.enable_global_virtual_store && config.node_linker == NodeLinker::Hoisted {
        return Err(InstallError::UnsupportedGlobalVirtualStore {
            reason: "with nodeLinker: hoisted".into(),
        });
    }
    for (refused, setting) in [
        (!config.enable_modules_dir, "enableModulesDir: false"),
        (config.frozen_store, "frozenStore: true"),
        // A lockfile per project: pacquet reads the workspace's one.
        (
            config.is_workspace && !config.shared_workspace_lockfile,
            "sharedWorkspaceLockfile: false",
        ),
        // The lockfile would pin tar hashes, which the store rows pacquet
        // writes do not carry (docs/store.md §7.1).
        (
            config.lockfile_integrity_target == "tar",
            "lockfile.integrityTarget: tar",
        ),
        // pnpm 12 then records and checks `autoDedupe`,
        // `dedupeInjectedDeps`, `dedupePeerDependents` and
        // `linkWorkspacePackages` in the lockfile; pacquet does neither.
        (
            config.lockfile_include_resolution_settings,
            "lockfile.includeResolutionSettings: true",
        ),
    ] {
        if refused {
            return Err(InstallError::UnsupportedSetting {
                setting: setting.to_owned(),
            });
        }
    }
    // `shellEmulator` only changes how scripts run: with `ignoreScripts`
    // none does, so it has nothing to ask of pacquet.
    let asked = |key: &str| !(key == "shellEmulator" && config.ignore_scripts);
    if let Some((_, setting)) = config.unsupported.iter().find(|(key, _)| asked(key)) {
        return Err(InstallError::UnsupportedSetting {
            setting: setting.clone(),
        });
    }
    let scope = match req.filter {
        Some(filter) => filtered_scope(filter, config, reporter)?,
        None => Scope::All,
    };
    let selected = match &scope {
        Scope::Nothing { .. } => return Ok(InstallSummary::default()),
        Scope::All => None,
        Scope::Projects { ids, .. } => Some(ids.as_slice()),
    };
    // pnpm 12 keeps a hoisted tree's earlier placements across filtered
    // installs; pacquet's hoisted planner places the whole tree anew.
    if selected.is_some() && config.node_linker == NodeLinker::Hoisted {
        return Err(InstallError::UnsupportedSetting {
            setting: "--filter with nodeLinker: hoisted".to_owned(),
        });
    }
    let modules_dir = config.workspace_root.join(&config.modules_dir);
    // `optimisticRepeatInstall: false`: no answer from the state files.
    // A filtered install always installs.
    if selected.is_none()
        && !req.fix_lockfile
        && config.optimistic_repeat_install
        && up_to_date::is_up_to_date(config, &modules_dir, &config.virtual_store_dir)
        && let Some(recorded) = verify::recorded_verification(config)
    {
        let pending_skills = skills::recorded_pending(&modules_dir);
        if !pending_skills.is_empty() {
            reporter.report(Event::PendingSkills {
                packages: &pending_skills,
            });
        }
        if let Some(verified_at) = &recorded {
            reporter.report(Event::LockfileVerificationCached { verified_at });
        }
        phases.mark("up-to-date");
        reporter.report(Event::UpToDate);
        return Ok(InstallSummary::default());
    }
    let report_line = |event: &pacquet_scripts::ScriptEvent<'_>| {
        reporter.report(Event::ScriptOutput {
            line: &event.to_line(),
            script: event,
        });
    };
    let project_scripts = ProjectScripts {
        config,
        report: &report_line,
    };
    // pnpm 12 runs the root's `preinstall` first, before the lockfile checks.
    if !req.lockfile_only {
        project_scripts.run_early()?;
    }
    // Read once, and before anything is written: a `cafile` that cannot be
    // read must not leave a half-made `node_modules`.
    let fetcher = settings::fetcher_options(config)?;
    let hooks = crate::pnpmfile::Hooks::load(config, reporter)?;
    let mut resolved = false;
    let resolves_anyway = req.update.is_some() || req.fix_lockfile;
    let gate = if resolves_anyway {
        // Whatever the lockfile holds, it is resolved again.
        Err(InstallError::NoLockfile {
            dir: config.workspace_root.clone(),
        })
    } else {
        gates::read_checked_lockfile(config, req.frozen_lockfile, req.root_only, hooks.as_ref())
    };
    let checked = match gate {
        // Without `--frozen-lockfile`, what the lockfile lacks is resolved
        // and the new lockfile checked like any other.
        Err(InstallError::NoLockfile { .. } | InstallError::NeedsResolution(_))
            if !req.frozen_lockfile =>
        {
            // Every project is resolved, filtered or not, as pnpm 12.21
            // writes the whole workspace's lockfile.
            crate::resolve::resolve_lockfile(
                config,
                req.root_only,
                req.update.as_ref(),
                &fetcher,
                hooks.as_ref(),
                runtime,
                reporter,
            )?;
            phases.mark("resolve");
            // The projects' engines were checked by the gate; nothing else
            // of the check is needed to write the lockfile alone (parsing
            // it again was ~7 % of alotta's `--lockfile-only`).
            if req.lockfile_only && !resolves_anyway {
                return Ok(InstallSummary::default());
            }
            resolved = true;
            gates::read_checked_lockfile(config, true, req.root_only, hooks.as_ref())?
        }
        Ok(_) if req.lockfile_only => return Ok(InstallSummary::default()),
        checked => checked?,
    };
    if req.lockfile_only {
        return Ok(InstallSummary::default());
    }
    phases.mark("lockfile");
    for message in &checked.engine_warnings {
        reporter.report(Event::Warning { message });
    }
    // The verification asks the registry while the install plans, reads
    // the store and downloads; nothing is written into the project until
    // it has passed (the link gate).
    // A resolution checked the lockfile it was given, not what it resolved
    // (docs/supply-chain.md §8).
    let summary = std::thread::scope(|s| {
        let verification = s.spawn(|| match resolved {
            false => verify::verify_lockfile(config, &checked.lockfile, &fetcher, runtime),
            true => Ok(None),
        });
        let tarball_url = |name: &str, version: &str| config.tarball_url(name, version);
        let mut opts =
            settings::plan_options(config, &checked.projects, &checked.patches, &tarball_url);
        opts.node_version = settings::node_version(config, &checked.lockfile);
        opts.projects_in_id_order = resolved;
        let state_opts = selected.map(|ids| {
            let installed =
                filtered::installed_importers(&config.virtual_store_dir, &checked.lockfile, ids);
            opts.workspace_projects = opts.importers.clone();
            let mut state_opts = opts.clone();
            state_opts.importers.retain(|s| installed.contains(&s.id));
            opts.importers.retain(|s| ids.contains(&s.id));
            state_opts
        });
        // The previous install's tree is planned while this one is, in a
        // scope of its own: its thread borrows the options made above,
        // after the verification already started (they may run
        // `node --version`).
        let survey_opts = state_opts.as_ref().unwrap_or(&opts);
        let record =
            keeps_tree_record(&opts, selected.is_some()).then(|| tree_record_file(config, &opts));
        let ahead = ProbeAhead::default();
        std::thread::scope(|s| {
            let previous = s.spawn(|| {
                let wanted = stale::Wanted {
                    lockfile: &checked.lockfile,
                    text: checked.text.as_deref(),
                };
                let previous = stale::read_previous(
                    &config.workspace_root,
                    survey_opts,
                    wanted,
                    selected.is_some(),
                    record.as_deref(),
                );
                // Its packages are most of the new plan's; whether each is
                // still in place is asked while the plan is made.
                ahead.probe(
                    &DirProbe::open(&config.workspace_root, survey_opts.slots_dir()),
                    previous.package_dirs(),
                );
                previous
            });
            let planned = plan(&checked.lockfile, &opts)
                .and_then(|p| {
                    let state = state_opts
                        .as_ref()
                        .map(|o| plan(&checked.lockfile, o))
                        .transpose()?;
                    Ok((p, state))
                })
                .map_err(InstallError::from)
                .and_then(|(plan, state)| refuse_unsupported(&plan).map(|()| (plan, state)));
            let probed = ahead.take();
            let (plan, state_plan) = match planned {
                Ok(planned) => planned,
                // A refused lockfile is the first thing to report.
                Err(e) => return Err(join_verification(verification, reporter).err().unwrap_or(e)),
            };
            // Slots already in the global virtual store are left as they are;
            // the others are made in staging directories. Which slots exist is
            // asked under the store lock (shared), so a `store prune` cannot
            // remove one between that answer and the end of the install.
            let _slots_lock = opts.global_virtual_store.as_ref().and_then(|_| {
                pacquet_cas::lock_store(&config.store_dir, pacquet_cas::LockMode::Shared).ok()
            });
            let (plan, global) = match &opts.global_virtual_store {
                Some(gvs) => {
                    let (staged, slots) =
                        global_store::stage(&config.workspace_root, &gvs.dir, &plan);
                    (staged, Some(slots))
                }
                None => (plan, None),
            };
            phases.mark("plan");
            report_plan(&plan, reporter);
            let filtered = match (&state_plan, &state_opts, selected) {
                (Some(plan), Some(opts), Some(ids)) => Some(Filtered { plan, opts, ids }),
                _ => None,
            };
            let run = Run {
                config,
                fetcher: &fetcher,
                checked: &checked,
                plan: &plan,
                opts: &opts,
                filtered,
                reporter,
                project_scripts: &project_scripts,
                started_at,
                global: global.as_ref(),
                edited: &req.edited,
            };
            let summary = run.execute(runtime, &phases, verification, previous, &probed);
            pacquet_teardown::discard(plan);
            pacquet_teardown::discard(state_plan);
            summary
        })
    });
    pacquet_teardown::discard(checked);
    summary
}

/// A filtered install's view of everything installed after it: the
/// projects a previous install set up and the selected ones. The previous
/// tree is compared with this plan (so nothing of the others goes), and
/// `lock.yaml` lists its importers.
#[derive(Clone, Copy)]
pub(crate) struct Filtered<'a> {
    pub plan: &'a Plan,
    pub opts: &'a PlanOptions<'a>,
    /// The selected importer ids, root first.
    pub ids: &'a [String],
}

/// Whether an install may use and keep a [`tree_record`]: not a filtered
/// one (its plan is a part of its `lock.yaml`) nor one in the global
/// virtual store (its plan is staged).
fn keeps_tree_record(opts: &PlanOptions<'_>, filtered: bool) -> bool {
    !filtered && opts.global_virtual_store.is_none()
}

/// The [`tree_record`] file of this install's virtual store.
fn tree_record_file(config: &Config, opts: &PlanOptions<'_>) -> PathBuf {
    tree_record::path(
        &config.cache_dir,
        &config.workspace_root.join(&opts.virtual_store_dir),
    )
}

/// The projects `filter` selects, reported as pnpm 12 reports them; no
/// match with `failIfNoMatch` (`--fail-if-no-match`) is an error.
fn filtered_scope(
    filter: &ProjectFilter,
    config: &Config,
    reporter: &dyn Reporter,
) -> Result<Scope, InstallError> {
    let projects = gates::read_projects(config)?;
    let scope = filtered::scope(filter, config, &projects)?;
    let root = config.workspace_root.display();
    let total = projects.len();
    let (count, unmatched) = match &scope {
        Scope::All => (total, &[][..]),
        Scope::Nothing { unmatched } => (0, unmatched.as_slice()),
        Scope::Projects { ids, unmatched } => (ids.len(), unmatched.as_slice()),
    };
    let message = if count == total {
        format!("Scope: all {total} workspace projects")
    } else {
        format!("Scope: {count} of {total} workspace projects")
    };
    reporter.report(Event::Info { message: &message });
    if count == 0 {
        if config.fail_if_no_match {
            return Err(InstallError::NoProjectsMatched {
                dir: config.workspace_root.clone(),
            });
        }
        let message = format!("No projects matched the filters in \"{root}\"");
        reporter.report(Event::Info { message: &message });
    } else if !unmatched.is_empty() {
        let message = format!(
            "No projects matched the filters \"{}\" in \"{root}\"",
            unmatched.join(", ")
        );
        reporter.report(Event::Info { message: &message });
    }
    Ok(scope)
}

type Verification<'scope> = std::thread::ScopedJoinHandle<
    'scope,
    Result<Option<pacquet_verification::Verified>, InstallError>,
>;

/// The verification's verdict, reported.
fn join_verification(
    verification: Verification<'_>,
    reporter: &dyn Reporter,
) -> Result<(), InstallError> {
    let verified = verification.join().map_err(|_| InstallError::Internal {
        what: "the lockfile verification panicked".into(),
    })??;
    if let Some(verified) = verified {
        report_verified(&verified, reporter);
    }
    Ok(())
}

/// One planned install being carried out.
struct Run<'a> {
    config: &'a Config,
    /// The network settings, read once.
    fetcher: &'a FetcherOptions,
    checked: &'a CheckedLockfile,
    /// What this install links: every project, or the selected ones.
    plan: &'a Plan,
    opts: &'a PlanOptions<'a>,
    /// A filtered install: the whole state it leaves behind.
    filtered: Option<Filtered<'a>>,
    reporter: &'a dyn Reporter,
    project_scripts: &'a ProjectScripts<'a>,
    started_at: SystemTime,
    /// The global virtual store: which slots this install makes.
    global: Option<&'a global_store::Slots>,
    edited: &'a [EditedManifest],
}

impl Run<'_> {
    fn execute(
        &self,
        runtime: &tokio::runtime::Handle,
        phases: &Phases,
        verification: Verification<'_>,
        previous: std::thread::ScopedJoinHandle<'_, stale::Previous>,
        probed: &crate::probe::Probed,
    ) -> Result<InstallSummary, InstallError> {
        let config = self.config;
        let root = config.workspace_root.as_path();
        // Shared with other installs, exclusive against `store prune`
        // (pnpm 12's locks), so a prune never deletes blobs this install is
        // about to link. Best effort: a machine without a usable lock
        // directory still installs.
        let _store_lock =
            pacquet_cas::lock_store(&config.store_dir, pacquet_cas::LockMode::Shared).ok();
        let store = Store::open(&config.store_dir);
        // pnpm 12 says where the stores are only on an install with no
        // previous `lock.yaml`.
        let first_install = !root
            .join(&self.opts.virtual_store_dir)
            .join("lock.yaml")
            .exists();
        let keep_record = keeps_tree_record(self.opts, self.filtered.is_some());
        // The previous tree is compared with the plan while the index is
        // read (both only read: a lockfile-change install spent 25 ms on
        // each, one after the other).
        let (rows, survey) = std::thread::scope(|s| {
            let survey = s.spawn(|| previous.join().map(|p| prepare::survey(self, p)));
            (prepare::read_rows(self, &store, probed), survey.join())
        });
        let survey = survey
            .ok()
            .and_then(Result::ok)
            .ok_or_else(|| InstallError::Internal {
                what: "comparing with the previous tree panicked".into(),
            })?;
        let rows = match rows {
            Ok(rows) => rows,
            Err(e) => {
                return Err(join_verification(verification, self.reporter)
                    .err()
                    .unwrap_or(e));
            }
        };
        phases.mark("prefetch");
        let builds = Builds::new(
            build_settings(config),
            &self.checked.lockfile,
            root.join(&self.opts.virtual_store_dir).join("lock.yaml"),
        );
        let gate = LinkGate::new();
        let (cleared, linked) = std::thread::scope(|s| {
            // Verdict, then the previous tree cleared, then the gate opens;
            // meanwhile the cold set downloads and lands in the store.
            let keeper = s.spawn(|| {
                let cleared = join_verification(verification, self.reporter)
                    .and_then(|()| prepare::clear(self, survey));
                match &cleared {
                    Ok(c) => {
                        gate.open(c.fresh);
                        phases.mark("clear");
                    }
                    Err(_) => gate.fail(),
                }
                cleared
            });
            let linked = link::link_packages(self, runtime, &store, &rows, &gate, &builds);
            let cleared = keeper.join().map_err(|_| InstallError::Internal {
                what: "clearing the previous tree panicked".into(),
            });
            (cleared, linked)
        });
        // The verdict and the clearing come first: the gate's own error only
        // says that they stopped the install.
        let prepared = cleared??;
        let linked = linked?;
        phases.mark("link");
        // Nothing left to record when no build runs: the index writer's last
        // commit and checkpoint (30–50 ms on a cold alotta install, mostly
        // an fsync) overlap symlinks, bins and the state files.
        let (ignored_builds, pending_skills) = std::thread::scope(|s| {
            let finishing = (!builds.has_pending()).then(|| s.spawn(|| store.finish()));
            // Overlaps the rest; the scope joins it.
            s.spawn(|| {
                let vsd = root.join(&self.opts.virtual_store_dir);
                summaries::write(config, &vsd, &rows, &store.written());
            });
            let current_lockfile = s.spawn(|| {
                let text = write_state::render_current_lockfile(
                    self.checked,
                    self.plan,
                    self.opts,
                    self.filtered,
                );
                let record = text
                    .as_deref()
                    .filter(|_| keep_record)
                    .map(|text| tree_record::encode(text, &self.opts.shape_key(), self.plan));
                (text, record)
            });
            // A slot whose directory had to be filled again (removed by
            // hand since the previous install) lost its links too.
            let refilled = |l: &pacquet_planner::Symlink| matches!(l.owner, pacquet_planner::LinkOwner::Slot(s) if linked.filled[s]);
            let links: Vec<&pacquet_planner::Symlink> = self
                .plan
                .symlinks
                .iter()
                .filter(|l| {
                    refilled(l) || !prepared.reconciled.removals.has_link(&l.path, &l.target)
                })
                .collect();
            symlinks::create_symlinks(root, &links)?;
            phases.mark("symlinks");
            // Only the `.bin` directories of slots whose links changed are
            // made again (alotta with five direct dependencies added: 156
            // slot directories, 239 shims, ~10 ms).
            let mut settled = prepared.reconciled.removals.settled_slots(self.plan);
            settled
                .iter_mut()
                .zip(&linked.filled)
                .for_each(|(s, f)| *s &= !f);
            if let Some(global) = self.global {
                settled
                    .iter_mut()
                    .zip(&global.skip)
                    .for_each(|(s, g)| *s |= g);
            }
            bins::link_all_bins(
                root,
                self.plan,
                self.opts,
                &linked.manifests,
                bins::BinStyle::from_config(self.config),
                Some(&settled),
            )?;
            phases.mark("bins");
            if let Some(global) = self.global {
                // What is built or patched after publishing is marked
                // until it is done.
                global.mark_unfinished(root, self.plan, &builds.pending_slots())?;
                global.publish()?;
                phases.mark("publish");
            }
            self.run_builds(&store, &builds, &linked.manifests)?;
            phases.mark("builds");
            let ignored_builds = builds.ignored();
            let pending_skills = skills::pending(self.plan, &linked.skills);
            let (current_lockfile, record) =
                current_lockfile
                    .join()
                    .map_err(|_| InstallError::Internal {
                        what: "rendering lock.yaml panicked".into(),
                    })?;
            // Beside the state files: a record names its `lock.yaml` by
            // digest, so one written before (or without) that `lock.yaml`
            // is ignored. One that does not apply to this install goes.
            let record_file = tree_record_file(config, self.opts);
            s.spawn(move || tree_record::write(&record_file, record.as_deref()));
            self.write_state(
                &builds,
                &ignored_builds,
                prepared.reconciled,
                &pending_skills,
                current_lockfile,
            )?;
            phases.mark("state");
            match finishing {
                Some(finishing) => finishing.join().map_err(|_| InstallError::Internal {
                    what: "the store index writer panicked".into(),
                })??,
                None => store.finish()?,
            }
            phases.mark("finish");
            Ok::<_, InstallError>((ignored_builds, pending_skills))
        })?;
        if let Some(method) = linked.methods.first() {
            let store_dir = &config.store_dir;
            let virtual_store_dir = pacquet_planner::layout::relative_path(
                &config.cwd,
                &root.join(&self.opts.virtual_store_dir),
            );
            self.reporter.report(Event::ImportMethod {
                method: method.as_str(),
                stores: first_install.then_some((store_dir.as_path(), virtual_store_dir.as_str())),
            });
        }
        self.project_scripts
            .run_after_build(&self.installed_projects(), self.plan)?;
        if !pending_skills.is_empty() {
            self.reporter.report(Event::PendingSkills {
                packages: &pending_skills,
            });
        }
        write_state::write_workspace_state(&self.state_inputs(&[], &[], &[], None, Vec::new()))?;
        if !ignored_builds.is_empty() && config.strict_dep_builds {
            return Err(InstallError::LifecycleScripts(
                pacquet_scripts::ignored_builds_error(&ignored_builds),
            ));
        }
        let summary = summary::finish(self, &linked, prepared.previous_direct);
        pacquet_teardown::discard(rows);
        pacquet_teardown::discard(linked);
        Ok(summary)
    }

    /// Runs the builds the plan allows; unlinks optional packages whose
    /// build failed; links bins again (builds may create their targets).
    fn run_builds(
        &self,
        store: &Store,
        builds: &Builds<'_>,
        manifests: &[std::sync::OnceLock<serde_json::Value>],
    ) -> Result<(), InstallError> {
        let root = self.config.workspace_root.as_path();
        let has_builds = builds.has_pending();
        let pending = builds.pending_slots();
        // With the global virtual store, builds run where each package is
        // once published; an install without builds needs no such plan.
        let named = match &self.opts.global_virtual_store {
            Some(gvs) if has_builds => Some(global_store::named_plan(self.plan, gvs)),
            _ => None,
        };
        let plan = named.as_ref().unwrap_or(self.plan);
        let sender = if has_builds {
            Some(store.sender()?)
        } else {
            None
        };
        let extra_bin_dirs = [
            root.join(&self.opts.virtual_store_dir)
                .join("node_modules/.bin"),
            root.join(&self.opts.modules_dir).join(".bin"),
        ];
        let report_line = |event: &pacquet_scripts::ScriptEvent<'_>| {
            self.reporter.report(Event::ScriptOutput {
                line: &event.to_line(),
                script: event,
            });
        };
        let failed_optional = builds.run(&BuildRun {
            root,
            plan,
            manifests,
            cas: &store.cas,
            sender,
            extra_bin_dirs: &extra_bin_dirs,
            report: &report_line,
        })?;
        for (i, details) in &failed_optional {
            self.reporter.report(Event::OptionalBuildFailed {
                package_id: self.plan.slots[*i].dep_path.as_str(),
                details,
            });
        }
        if let Some(global) = self.global {
            // A failed optional build stays marked: made again next time.
            let finished: Vec<usize> = pending
                .into_iter()
                .filter(|i| !failed_optional.iter().any(|(f, _)| f == i))
                .collect();
            global.mark_finished(root, plan, &finished)?;
        }
        symlinks::unlink_failed_optional(root, &self.plan.symlinks, &failed_optional)?;
        // Shims already in place are left alone.
        if has_builds {
            bins::link_all_bins(
                root,
                plan,
                self.opts,
                manifests,
                bins::BinStyle::from_config(self.config),
                self.global.map(|g| g.skip.as_slice()),
            )?;
        }
        Ok(())
    }

    /// The projects this install installs (their scripts run).
    fn installed_projects(&self) -> Vec<crate::gates::Project> {
        self.checked
            .projects
            .iter()
            .filter(|p| self.filtered.is_none_or(|f| f.ids.contains(&p.id)))
            .cloned()
            .collect()
    }

    /// `lock.yaml` and `.modules.yaml`, before the projects' own scripts.
    fn write_state(
        &self,
        builds: &Builds<'_>,
        ignored_builds: &[String],
        reconciled: Reconciled,
        pending_skills: &[String],
        current_lockfile: Option<String>,
    ) -> Result<(), InstallError> {
        // The projects first, then the packages sorted, as pnpm 12 lists
        // them (benchmarks/compat-real/svelte: `playgrounds/sandbox` before
        // `esbuild@0.27.7`).
        let mut pending_builds = self
            .project_scripts
            .skipped_projects(&self.installed_projects());
        pending_builds.dedup();
        let mut packages = builds.not_built();
        packages.sort();
        packages.dedup();
        pending_builds.extend(packages);
        let Reconciled {
            pruned_at,
            skipped,
            removals,
            ..
        } = reconciled;
        pacquet_teardown::discard(removals);
        write_state::write_modules_state(
            &self.state_inputs(
                ignored_builds,
                &pending_builds,
                pending_skills,
                pruned_at,
                skipped,
            ),
            current_lockfile,
        )
    }

    fn state_inputs<'s>(
        &'s self,
        ignored_builds: &'s [String],
        pending_builds: &'s [String],
        pending_skills: &'s [String],
        pruned_at: Option<String>,
        previous_skipped: Vec<String>,
    ) -> StateInputs<'s> {
        StateInputs {
            config: self.config,
            checked: self.checked,
            plan: self.plan,
            opts: self.opts,
            filtered: self.filtered,
            ignored_builds,
            started_at: self.started_at,
            pruned_at,
            previous_skipped,
            pending_builds,
            pending_skills,
            edited: self.edited,
        }
    }
}

fn build_settings(config: &Config) -> BuildSettings {
    BuildSettings {
        child_concurrency: config.child_concurrency.max(1),
        side_effects_read: config.side_effects_cache,
        side_effects_write: config.side_effects_cache && !config.side_effects_cache_readonly,
        scripts: crate::build::ScriptSettings::from_config(config),
    }
}

pub(crate) fn report_verified(verified: &pacquet_verification::Verified, reporter: &dyn Reporter) {
    match verified {
        pacquet_verification::Verified::Checked { entries, elapsed } => {
            reporter.report(Event::LockfileVerified {
                entries: *entries,
                millis: elapsed.as_millis() as u64,
            });
        }
        pacquet_verification::Verified::Cached { verified_at } => {
            reporter.report(Event::LockfileVerificationCached { verified_at });
        }
    }
}

fn report_plan(plan: &Plan, reporter: &dyn Reporter) {
    reporter.report(Event::Resolved {
        total: plan.slots.len(),
    });
    for key in &plan.skipped {
        reporter.report(Event::SkippedOptional {
            package_id: key,
            reason: "unsupported platform",
        });
    }
    for warning in &plan.warnings {
        if let Some(message) = &warning.message {
            reporter.report(Event::Warning { message });
        }
    }
}

/// Fails before touching anything when a package cannot be fetched, so an
/// unsupported dependency never leaves a partial tree.
fn refuse_unsupported(plan: &Plan) -> Result<(), InstallError> {
    for slot in &plan.slots {
        if let FetchSource::Unsupported { reason } = &slot.fetch {
            return Err(pacquet_sources::SourceError::UnsupportedResolution {
                package_id: slot.dep_path.as_str().to_owned(),
                reason: reason.clone(),
            }
            .into());
        }
    }
    Ok(())
}
