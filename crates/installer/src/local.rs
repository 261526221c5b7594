//! Linking the slots whose files come from the local machine rather than a
//! download: `file:` directories (imported straight from the source) and
//! git repositories (cloned, prepared, stored, then imported).

use pacquet_import::PackageFile;
use pacquet_planner::{FetchSource, Plan, Slot};
use rayon::prelude::*;

mod mirror;

use crate::{
    InstallError,
    cold::group_by_source,
    files::LinkContext,
    reporter::{Event, Origin},
    store::Store,
};

pub fn link_local(
    ctx: &LinkContext<'_>,
    store: &Store,
    plan: &Plan,
    local: &[usize],
) -> Result<(), InstallError> {
    // Waited for here, not in the pool: imports parked in every rayon
    // worker would starve the step that opens the gate (clearing the old
    // tree runs on the same pool), which deadlocked a deploy on 2 cores.
    if !local.is_empty() {
        ctx.gate.wait()?;
    }
    local.par_iter().try_for_each(|&i| {
        let slot = &plan.slots[i];
        match &slot.fetch {
            FetchSource::Directory { path } => import_directory(ctx, i, slot, path),
            _ => Ok(()),
        }
    })?;
    let clones: Vec<usize> = local
        .iter()
        .copied()
        .filter(|&i| matches!(plan.slots[i].fetch, FetchSource::Git { .. }))
        .collect();
    if clones.is_empty() {
        return Ok(());
    }
    let sender = store.sender()?;
    // One clone per repository and commit, linked into every slot using it.
    group_by_source(plan, &clones)
        .par_iter()
        .try_for_each(|group| {
            let first = &plan.slots[group.slots[0]];
            let FetchSource::Git { repo, commit, path } = &first.fetch else {
                return Ok(());
            };
            let row = pacquet_sources::fetch_git(
                ctx.cas,
                first.prepare.may_run(),
                first.dep_path.package_id(),
                repo,
                commit,
                path.as_deref(),
            )?;
            for &i in &group.slots {
                ctx.import(i, &plan.slots[i], &row, Origin::Network, None)?;
            }
            if let Some(key) = &first.store_key {
                sender.put(key.clone(), row);
            }
            Ok(())
        })
}

/// Imports the directory `path` (relative to the lockfile directory) into
/// slot `i`'s package directory. A directory with install scripts is
/// copied and built like any package. Every install brings the copy up to
/// date with its source, files added and removed, as pnpm 12 does
/// (docs/layout.md §9.1).
fn import_directory(
    ctx: &LinkContext<'_>,
    i: usize,
    slot: &Slot,
    path: &str,
) -> Result<(), InstallError> {
    let package_id = slot.dep_path.as_str();
    let package = pacquet_sources::read_directory(package_id, ctx.root.join(path))?;
    ctx.reporter.report(Event::Fetched {
        package_id,
        origin: Origin::Store,
    });
    let files: Vec<PackageFile<'_>> = package
        .row
        .files
        .iter()
        .zip(&package.sources)
        .map(|((rel, info), src)| PackageFile {
            rel_path: rel,
            src: src.clone(),
            executable: info.mode & 0o111 != 0,
            at: None,
        })
        .collect();
    let dest = ctx.root.join(&slot.package_dir);
    if !mirror::holds(&dest, &package.row, &package.sources) {
        mirror::clear(&dest).map_err(InstallError::write(&dest))?;
    }
    ctx.import_files(i, slot, &package.row, &files)?;
    Ok(())
}
