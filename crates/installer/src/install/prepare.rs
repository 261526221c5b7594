//! Before any package is imported: the previous install's leftovers are
//! removed (the diff of its plan and this one), the store index is read in
//! one batch, and the directories not already in place are created.

use pacquet_planner::{FetchSource, Plan};
use pacquet_sources::source_url;

use super::Run;
use crate::{
    InstallError, dirs,
    reporter::DirectDependency,
    stale::{self, Reconciled},
    store::{self, Rows, Store},
};

/// What the import phase starts from.
pub(super) struct Prepared {
    pub rows: Rows,
    pub reconciled: Reconciled,
    /// The root's direct dependencies before this install, when known.
    pub previous_direct: Option<Vec<DirectDependency>>,
    /// The virtual store did not exist: no package directory is complete.
    pub fresh: bool,
}

pub(super) fn prepare(run: &Run<'_>, store: &Store) -> Result<Prepared, InstallError> {
    let config = run.config;
    let root = config.workspace_root.as_path();
    let strict = config.strict_store_pkg_content_check;
    let prefetch = || store::prefetch_rows(store, run.plan, strict);
    let reconcile = || {
        stale::reconcile(&stale::Existing {
            root,
            opts: run.opts,
            plan: run.plan,
            wanted: &run.checked.lockfile,
            store_dir: &config.store_dir.to_string_lossy(),
            modules_cache_max_age: config.modules_cache_max_age,
            now: run
                .started_at
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_secs(),
        })
    };
    // Asked after `reconcile`, which may have removed the whole tree.
    let is_fresh = || !root.join(&run.opts.virtual_store_dir).exists();
    let (rows, mut reconciled, fresh) = if config.offline {
        // Nothing is touched before the store is known to hold everything.
        let rows = prefetch()?;
        offline_check(run.plan, &rows.partition().1)?;
        let reconciled = reconcile()?;
        let fresh = is_fresh();
        dirs::create_dirs(root, reconciled.removals.missing_dirs(&run.plan.dirs))?;
        (rows, reconciled, fresh)
    } else {
        let reconciled = reconcile()?;
        let fresh = is_fresh();
        let missing = reconciled.removals.missing_dirs(&run.plan.dirs);
        // The index read (~50 ms for alotta's 1,350 rows) and the ~8,000
        // mkdirs need nothing from each other: overlap them.
        let (rows, made) = std::thread::scope(|s| {
            let rows = s.spawn(prefetch);
            (rows.join(), dirs::create_dirs(root, missing))
        });
        made?;
        let rows = rows.map_err(|_| InstallError::Internal {
            what: "the store index read panicked".into(),
        })??;
        (rows, reconciled, fresh)
    };
    let previous_direct = reconciled.previous_direct.take();
    Ok(Prepared {
        rows,
        reconciled,
        previous_direct,
        fresh,
    })
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
