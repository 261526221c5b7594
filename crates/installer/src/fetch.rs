//! `pacquet fetch`: fill the store from `pnpm-lock.yaml` alone, like
//! `pnpm fetch`. It plans every importer of the lockfile for this platform,
//! reads the index in one batch and downloads what is missing (or damaged)
//! through the install's cold path, without creating any `node_modules`.
//! No `package.json` is read, so a Docker layer can run it with only the
//! lockfile copied in. The lockfile is verified against registry metadata
//! as an install verifies it (docs/supply-chain.md), alongside the
//! downloads, and a refused lockfile fails the fetch as it fails
//! `pnpm fetch`.

use pacquet_config::Config;
use pacquet_lockfile::{Lockfile, LockfileError, read_lockfile};
use pacquet_tarball::FetcherOptions;
use rayon::prelude::*;

use crate::reporter::{Event, Reporter};
use crate::{InstallError, LOCKFILE_NAME, cold, settings, store};
use pacquet_planner::{FetchSource, ImporterSelection, Plan, plan};

/// What a fetch did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FetchSummary {
    /// Packages the lockfile needs on this platform.
    pub packages: usize,
    /// Packages downloaded into the store.
    pub downloaded: usize,
}

/// Downloads every package `pnpm-lock.yaml` needs on this platform into
/// `config.store_dir`. Blocking, like [`super::install`].
pub fn fetch(
    config: &Config,
    runtime: &tokio::runtime::Handle,
    reporter: &dyn Reporter,
) -> Result<FetchSummary, InstallError> {
    let lockfile =
        read_wanted_lockfile(config)?.ok_or(InstallError::Lockfile(LockfileError::NoLockfile))?;
    // Its `integrity` fields pin uncompressed tars (docs/store.md §7.1).
    let pins_tars = lockfile
        .settings
        .as_ref()
        .and_then(|s| s.integrity_target.as_deref())
        == Some("tar");
    if pins_tars || config.lockfile_integrity_target == "tar" {
        return Err(InstallError::UnsupportedSetting {
            setting: "lockfile.integrityTarget: tar".to_owned(),
        });
    }
    // pnpm 12 would keep this store's index as files, not in `index.db`.
    if let Some((_, setting)) = config
        .unsupported
        .iter()
        .find(|(key, _)| *key == "storeIndexFormat")
    {
        return Err(InstallError::UnsupportedSetting {
            setting: setting.clone(),
        });
    }
    let plan = plan_all_importers(config, &lockfile)?;
    reporter.report(Event::Resolved {
        total: plan.slots.len(),
    });
    let fetchable = fetchable_slots(&plan)?;
    let fetcher = settings::fetcher_options(config)?;
    // pnpm 12's shared store lock, as in `install`, until the rows are in.
    let _store_lock =
        pacquet_cas::lock_store(&config.store_dir, pacquet_cas::LockMode::Shared).ok();
    std::thread::scope(|s| {
        let verification =
            s.spawn(|| crate::verify::verify_lockfile(config, &lockfile, &fetcher, runtime));
        let fetched = fill_store(config, &fetcher, runtime, &plan, &fetchable);
        let verified = verification.join().map_err(|_| InstallError::Internal {
            what: "the lockfile verification panicked".into(),
        })??;
        if let Some(verified) = verified {
            crate::install::report_verified(&verified, reporter);
        }
        let (store, downloaded) = fetched?;
        // Only a verified lockfile's rows are committed to the index.
        store.finish()?;
        Ok(FetchSummary {
            packages: fetchable.len(),
            downloaded,
        })
    })
}

/// Downloads what the store lacks of `fetchable`; returns the store with
/// its rows not yet committed, and how many packages were downloaded.
fn fill_store(
    config: &Config,
    fetcher: &FetcherOptions,
    runtime: &tokio::runtime::Handle,
    plan: &Plan,
    fetchable: &[usize],
) -> Result<(store::Store, usize), InstallError> {
    let store = store::Store::open(&config.store_dir);
    // Every file is checked: no summary stands in for a row.
    let rows = store::prefetch_rows(
        &store,
        plan,
        config.strict_store_pkg_content_check,
        &crate::probe::DirProbe::open(&config.workspace_root, ""),
        &Default::default(),
        &Default::default(),
    )?;
    // A row whose blobs are gone or damaged is as good as no row: the
    // offline install that follows would have to download it.
    let missing: Vec<usize> = fetchable
        .par_iter()
        .copied()
        .filter(|&i| {
            rows.for_slot(i)
                .is_none_or(|row| !store::files_intact(&store.cas, row))
        })
        .collect();
    if config.offline
        && let Some(&i) = missing.first()
    {
        let slot = &plan.slots[i];
        return Err(InstallError::NoOfflineTarball {
            package_id: slot.dep_path.package_id().to_owned(),
            tarball_url: pacquet_sources::source_url(&slot.fetch).to_owned(),
        });
    }
    let authorize = |url: &str, name: Option<&str>| config.authorization_for(url, name);
    let fetcher = pacquet_sources::Downloader::new(
        fetcher.clone(),
        &authorize,
        config.workspace_root.clone(),
    );
    cold::fetch_to_store(runtime, None, &fetcher, &store, plan, &missing)?;
    Ok((store, missing.len()))
}

/// `pnpm-lock.yaml` at the workspace root, if there is one.
pub fn read_wanted_lockfile(config: &Config) -> Result<Option<Lockfile>, InstallError> {
    read_lockfile(&config.workspace_root.join(LOCKFILE_NAME)).map_err(InstallError::Lockfile)
}

/// The plan for every importer the lockfile records, with the dependency
/// groups and platforms the settings select.
pub fn plan_all_importers(config: &Config, lockfile: &Lockfile) -> Result<Plan, InstallError> {
    let tarball_url = |name: &str, version: &str| config.tarball_url(name, version);
    let patches = settings::recorded_patches(lockfile);
    let mut opts = settings::plan_options(config, &[], &patches, &tarball_url);
    opts.importers = lockfile
        .importers
        .keys()
        .map(|id| ImporterSelection::new(id, None))
        .collect();
    Ok(plan(lockfile, &opts)?)
}

/// Slots with something to download. Directory dependencies live outside
/// the store; kinds pacquet cannot fetch stop the fetch before any download.
fn fetchable_slots(plan: &Plan) -> Result<Vec<usize>, InstallError> {
    let mut slots = Vec::new();
    for (i, slot) in plan.slots.iter().enumerate() {
        match &slot.fetch {
            FetchSource::Registry { .. }
            | FetchSource::Tarball { .. }
            | FetchSource::LocalTarball { .. }
            | FetchSource::GitHostedTarball { .. } => slots.push(i),
            FetchSource::Directory { .. } => {}
            other => {
                return Err(pacquet_sources::SourceError::UnsupportedResolution {
                    package_id: slot.dep_path.as_str().to_owned(),
                    reason: format!("cannot fetch {}", pacquet_sources::source_url(other)),
                }
                .into());
            }
        }
    }
    Ok(slots)
}
