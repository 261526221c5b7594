//! Before any package is imported: the store index is read in one batch
//! (nothing written, so it overlaps the verification), then, once the
//! lockfile has passed, the previous install's leftovers are removed (the
//! diff of its plan and this one) and the directories not already in place
//! are created.

use pacquet_planner::{FetchSource, Plan};
use pacquet_sources::source_url;

use super::Run;
use crate::{
    InstallError, dirs,
    reporter::DirectDependency,
    stale::{self, Previous, Reconciled, Survey},
    store::{self, Rows, Store},
    summaries,
};

/// The store rows of the plan's packages; offline, also the check that the
/// store holds every one.
pub(super) fn read_rows(
    run: &Run<'_>,
    store: &Store,
    probed: &crate::probe::Probed,
) -> Result<Rows, InstallError> {
    let root = run.config.workspace_root.as_path();
    let vsd = root.join(&run.opts.virtual_store_dir);
    let cached = summaries::read(run.config, &vsd);
    let rows = store::prefetch_rows(
        store,
        run.plan,
        run.config.strict_store_pkg_content_check,
        &crate::probe::DirProbe::open(root, run.opts.slots_dir()),
        &cached,
        probed,
    )?;
    if run.config.offline {
        // Nothing is touched before the store is known to hold everything.
        let mut missing = rows.partition().1;
        // Global slots already made need no store row.
        if let Some(global) = run.global {
            missing.retain(|&i| !global.skip[i]);
        }
        offline_check(run.plan, &missing)?;
    }
    Ok(rows)
}

/// What clearing the previous tree left for the later phases.
pub(super) struct Cleared {
    pub reconciled: Reconciled,
    /// The root's direct dependencies before this install, when known.
    pub previous_direct: Option<Vec<DirectDependency>>,
    /// The virtual store did not exist: no package directory is complete.
    pub fresh: bool,
}

/// What the previous install left, compared with this plan; reads only,
/// so it runs while the store index is read.
pub(super) fn survey(run: &Run<'_>, previous: Previous) -> Survey {
    let store_dir = run.config.store_dir.to_string_lossy();
    stale::survey(&existing(run, &store_dir), previous)
}

/// Removes what the previous install left and this plan does not want (per
/// `survey`), and creates the directories the plan needs.
pub(super) fn clear(run: &Run<'_>, survey: Survey) -> Result<Cleared, InstallError> {
    let root = run.config.workspace_root.as_path();
    let store_dir = run.config.store_dir.to_string_lossy();
    let mut reconciled = stale::apply(&existing(run, &store_dir), survey)?;
    // Asked after `reconcile`, which may have removed the whole tree.
    let fresh = !root.join(&run.opts.virtual_store_dir).exists();
    dirs::create_dirs(root, reconciled.removals.missing_dirs(&run.plan.dirs))?;
    let previous_direct = reconciled.previous_direct.take();
    Ok(Cleared {
        reconciled,
        previous_direct,
        fresh,
    })
}

fn existing<'a>(run: &'a Run<'_>, store_dir: &'a str) -> stale::Existing<'a> {
    let config = run.config;
    // A filtered install compares with everything it leaves installed, so
    // the projects it did not select keep what they had.
    let (plan, opts, linked) = match run.filtered {
        Some(f) => (f.plan, f.opts, Some(run.plan)),
        None => (run.plan, run.opts, None),
    };
    stale::Existing {
        root: config.workspace_root.as_path(),
        opts,
        plan,
        linked,
        store_dir,
        modules_cache_max_age: config.modules_cache_max_age,
        now: run
            .started_at
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs(),
    }
}

/// `ERR_PNPM_NO_OFFLINE_TARBALL` for the first of `missing` that needs the
/// store (local directories do not).
pub(super) fn offline_check(plan: &Plan, missing: &[usize]) -> Result<(), InstallError> {
    let needs_store = |i: &&usize| !matches!(plan.slots[**i].fetch, FetchSource::Directory { .. });
    if let Some(&i) = missing.iter().find(needs_store) {
        let slot = &plan.slots[i];
        return Err(InstallError::NoOfflineTarball {
            package_id: slot.dep_path.package_id().to_owned(),
            tarball_url: source_url(&slot.fetch).to_owned(),
        });
    }
    Ok(())
}
