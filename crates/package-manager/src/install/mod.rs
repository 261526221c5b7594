//! Carrying out an install: read and check the lockfile, plan, prefetch the
//! store index in one batch, then link warm packages (already in the store)
//! while cold ones download, and finish with symlinks, bins and state files.

mod bins;
mod build;
mod cold;
mod dirs;
mod error;
mod fetch;
mod files;
mod gates;
mod options;
mod phases;
mod project_scripts;
mod sources;
mod stale;
mod state;
mod store;
mod symlinks;
mod up_to_date;
mod warm;
mod write_state;

use std::sync::OnceLock;

pub use error::InstallError;
pub use fetch::{FetchSummary, fetch, plan_all_importers, read_wanted_lockfile};
pub use gates::{CheckedLockfile, LOCKFILE_NAME, Project, importer_id, read_checked_lockfile};
pub use options::{import_method, plan_options, relative_path};
pub use state::write_atomic;

use pacquet_config::Config;
use pacquet_lockfile::DependencyGroup;

use crate::{
    FetchSource, ImportState, InstallPlan, plan,
    reporter::{DirectDependency, Event, Reporter},
};

/// What the caller asks for; everything else comes from [`Config`].
pub struct InstallRequest<'a> {
    pub config: &'a Config,
    pub frozen_lockfile: bool,
}

/// What an install did, for callers and tests.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct InstallSummary {
    /// Package directories in the virtual store.
    pub added: usize,
    /// Packages whose files came from the store.
    pub reused: usize,
    /// Packages downloaded.
    pub downloaded: usize,
    /// Optional packages skipped for the platform.
    pub skipped: usize,
}

/// Installs the projects of `req.config` from the lockfile. Blocking: the
/// warm set is linked on the rayon pool while downloads run on `runtime`.
pub fn install(
    req: &InstallRequest<'_>,
    runtime: &tokio::runtime::Handle,
    reporter: &dyn Reporter,
) -> Result<InstallSummary, InstallError> {
    let started_at = std::time::SystemTime::now();
    let mut phases = phases::Phases::start();
    let config = req.config;
    // Refused before anything is read or written: installing the isolated
    // layout where `hoisted` or `pnp` was asked for would be a wrong tree.
    if config.node_linker != pacquet_config::NodeLinker::Isolated {
        return Err(InstallError::UnsupportedNodeLinker {
            linker: config.node_linker.as_str(),
        });
    }
    let modules_dir = config.workspace_root.join(&config.modules_dir);
    if up_to_date::is_up_to_date(config, &modules_dir, &config.virtual_store_dir) {
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
    let project_scripts = project_scripts::ProjectScripts {
        config,
        report: &report_line,
    };
    // pnpm 12 runs the root's `preinstall` first, before the lockfile checks.
    project_scripts.run_early()?;
    let checked = gates::read_checked_lockfile(config, req.frozen_lockfile)?;
    let tarball_url = |name: &str, version: &str| config.tarball_url(name, version);
    let opts = options::plan_options(config, &checked.projects, &tarball_url);
    let plan = plan(&checked.lockfile, &opts)?;
    refuse_unsupported(&plan)?;
    phases.mark("plan");
    reporter.report(Event::Resolved {
        total: plan.slots.len(),
    });
    for key in &plan.skipped {
        reporter.report(Event::SkippedOptional {
            package_id: key,
            reason: "unsupported platform",
        });
    }

    let root = config.workspace_root.as_path();
    // Shared with other installs, exclusive against `store prune` (pnpm 12's
    // locks), so a prune never deletes blobs this install is about to link.
    // Best effort: a machine without a usable lock directory still installs.
    let _store_lock =
        crate::store_ops::lock_store(&config.store_dir, crate::store_ops::LockMode::Shared).ok();
    let store = store::Store::open(&config.store_dir);
    let strict = config.strict_store_pkg_content_check;
    let prefetch = || store::prefetch_rows(&store, &plan, strict);
    let reconcile = || {
        stale::reconcile(&stale::Existing {
            root,
            opts: &opts,
            plan: &plan,
            wanted: &checked.lockfile,
            store_dir: &config.store_dir.to_string_lossy(),
            modules_cache_max_age: config.modules_cache_max_age,
            now: started_at
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_secs(),
        })
    };
    let (rows, reconciled, fresh) = if config.offline {
        // Nothing is touched before the store is known to hold everything.
        let rows = prefetch()?;
        offline_check(&plan, &rows.partition().1)?;
        let reconciled = reconcile()?;
        let fresh = !root.join(&opts.virtual_store_dir).exists();
        dirs::create_dirs(root, reconciled.in_place.missing_dirs(&plan.dirs))?;
        (rows, reconciled, fresh)
    } else {
        let reconciled = reconcile()?;
        let fresh = !root.join(&opts.virtual_store_dir).exists();
        // The index read (~50 ms for alotta's 1,350 rows) and the ~8,000
        // mkdirs need nothing from each other: overlap them.
        let (rows, dirs) = std::thread::scope(|s| {
            let rows = s.spawn(prefetch);
            let dirs = dirs::create_dirs(root, reconciled.in_place.missing_dirs(&plan.dirs));
            (rows.join(), dirs)
        });
        dirs?;
        let rows = rows.map_err(|_| InstallError::Internal {
            what: "the store index read panicked".into(),
        })??;
        (rows, reconciled, fresh)
    };
    let (warm_slots, mut cold_slots) = rows.partition();
    phases.mark("prefetch+dirs");
    let builds = build::Builds::new(
        config,
        &checked.lockfile,
        root.join(&opts.virtual_store_dir).join("lock.yaml"),
    );
    let ctx = files::LinkContext {
        root,
        cas: &store.cas,
        method: options::import_method(config),
        state: ImportState::new(),
        verify: config.verify_store_integrity,
        reporter,
        manifests: (0..plan.slots.len()).map(|_| OnceLock::new()).collect(),
        builds: &builds,
        fresh,
        imported: Default::default(),
    };
    let fetcher = cold::FetchContext::new(config, root)?;

    let (damaged, cold_result) = std::thread::scope(|s| {
        let warm = s.spawn(|| warm::link_warm(&ctx, &plan, &rows, &warm_slots));
        let cold = cold::fetch_and_link(runtime, &ctx, &fetcher, &store, &plan, &cold_slots);
        (warm.join(), cold)
    });
    let damaged = damaged.map_err(|_| InstallError::Internal {
        what: "warm linking panicked".into(),
    })??;
    cold_result?;
    phases.mark("link");
    let downloaded_first = cold_slots.len();
    if !damaged.is_empty() {
        // Store files that failed the integrity re-check: fetch them again.
        if config.offline {
            offline_check(&plan, &damaged)?;
        }
        cold::fetch_and_link(runtime, &ctx, &fetcher, &store, &plan, &damaged)?;
        cold_slots.extend(damaged.iter().copied());
    }

    let links: Vec<&crate::Symlink> = plan
        .symlinks
        .iter()
        .filter(|l| !reconciled.in_place.has_link(l))
        .collect();
    symlinks::create_symlinks(root, &links)?;
    phases.mark("symlinks");
    bins::link_all_bins(root, &plan, &opts, &ctx.manifests)?;
    phases.mark("bins");

    let vsd = root.join(&opts.virtual_store_dir);
    let extra_bin_dirs = [
        vsd.join("node_modules/.bin"),
        root.join(&opts.modules_dir).join(".bin"),
    ];
    let has_builds = builds.has_pending();
    let sender = if has_builds {
        Some(store.sender()?)
    } else {
        None
    };
    let failed_optional = builds.run(&build::BuildRun {
        root,
        plan: &plan,
        manifests: &ctx.manifests,
        cas: &store.cas,
        sender,
        extra_bin_dirs: &extra_bin_dirs,
        report: &report_line,
    })?;
    for (i, details) in &failed_optional {
        reporter.report(Event::OptionalBuildFailed {
            package_id: plan.slots[*i].dep_path.as_str(),
            details,
        });
    }
    symlinks::unlink_failed_optional(root, &plan.symlinks, &failed_optional)?;
    // Builds may create the files bins point at: link them again (shims
    // already in place are left alone).
    if has_builds {
        bins::link_all_bins(root, &plan, &opts, &ctx.manifests)?;
    }

    phases.mark("builds");
    let ignored_builds = builds.ignored();
    let mut pending_builds = project_scripts.skipped_projects(&checked.projects);
    pending_builds.extend(builds.not_built());
    pending_builds.sort();
    pending_builds.dedup();
    let state_inputs = write_state::StateInputs {
        config,
        checked: &checked,
        plan: &plan,
        opts: &opts,
        ignored_builds: &ignored_builds,
        started_at,
        pruned_at: reconciled.pruned_at,
        previous_skipped: reconciled.skipped,
        pending_builds: &pending_builds,
    };
    write_state::write_modules_state(&state_inputs)?;
    let methods = ctx.state.methods_used();
    let imported = ctx.imported.into_inner();
    phases.mark("state");
    store.finish()?;
    phases.mark("finish");
    if let Some(method) = methods.first() {
        reporter.report(Event::ImportMethod {
            method: method_name(*method),
        });
    }
    project_scripts.run_after_build(&checked.projects, &plan)?;
    write_state::write_workspace_state(&state_inputs)?;

    if !ignored_builds.is_empty() && config.strict_dep_builds {
        return Err(InstallError::LifecycleScripts(
            pacquet_scripts::ignored_builds_error(&ignored_builds),
        ));
    }
    let mut direct = direct_dependencies(&plan);
    if let Some(previous) = &reconciled.previous_direct {
        // A dependency that only moved between groups is not new (pnpm 12).
        direct.retain(|d| {
            !previous
                .iter()
                .any(|p| (&p.alias, &p.name, &p.version) == (&d.alias, &d.name, &d.version))
        });
    }
    let summary = InstallSummary {
        added: imported,
        reused: plan.slots.len() - cold_slots.len(),
        downloaded: downloaded_first + damaged.len(),
        skipped: plan.skipped.len() + plan.skipped_below.len(),
    };
    reporter.report(Event::Summary {
        added: summary.added,
        direct: &direct,
    });
    Ok(summary)
}

/// Fails before touching anything when a package cannot be fetched, so an
/// unsupported dependency never leaves a partial tree.
fn refuse_unsupported(plan: &InstallPlan) -> Result<(), InstallError> {
    // Installing a patched package unpatched would pass for pnpm's tree
    // (same directory names) with different file contents.
    if let Some(slot) = plan
        .slots
        .iter()
        .find(|s| s.dep_path.patch_hash().is_some())
    {
        return Err(InstallError::UnsupportedPatch {
            package_id: slot.dep_path.as_str().to_owned(),
        });
    }
    for slot in &plan.slots {
        let reason = match &slot.fetch {
            FetchSource::Unsupported { reason } => reason.clone(),
            _ => continue,
        };
        return Err(InstallError::UnsupportedResolution {
            package_id: slot.dep_path.as_str().to_owned(),
            reason,
        });
    }
    Ok(())
}

fn offline_check(plan: &InstallPlan, missing: &[usize]) -> Result<(), InstallError> {
    // Local directories need no store entry.
    let needs_store = |i: &&usize| !matches!(plan.slots[**i].fetch, FetchSource::Directory { .. });
    if let Some(&i) = missing.iter().find(needs_store) {
        let slot = &plan.slots[i];
        return Err(InstallError::NoOfflineTarball {
            package_id: slot.dep_path.package_id().to_owned(),
            tarball_url: cold::source_url(&slot.fetch).to_owned(),
        });
    }
    Ok(())
}

fn method_name(method: crate::UsedMethod) -> &'static str {
    match method {
        crate::UsedMethod::Hardlink => "hardlink",
        crate::UsedMethod::Clone => "clone",
        crate::UsedMethod::Copy => "copy",
    }
}

/// The root project's direct dependencies, for the closing summary.
pub(super) fn direct_dependencies(plan: &InstallPlan) -> Vec<DirectDependency> {
    let Some(root) = plan.importers.iter().find(|i| i.id == ".") else {
        return Vec::new();
    };
    root.direct
        .iter()
        .map(|d| {
            let version = match &d.target {
                crate::DirectTarget::Slot(i) => plan.slots[*i].dep_path.version().to_owned(),
                crate::DirectTarget::Link(dir) => format!("link:{dir}"),
            };
            let name = match &d.target {
                crate::DirectTarget::Slot(i) => plan.slots[*i].name().to_owned(),
                crate::DirectTarget::Link(_) => d.alias.clone(),
            };
            DirectDependency {
                group: group_name(d.group),
                alias: d.alias.clone(),
                name,
                version,
            }
        })
        .collect()
}

fn group_name(group: DependencyGroup) -> &'static str {
    match group {
        DependencyGroup::Prod => "dependencies",
        DependencyGroup::Dev => "devDependencies",
        DependencyGroup::Optional => "optionalDependencies",
    }
}
