//! Linking the slots whose files come from the local machine rather than a
//! download: `file:` directories (imported straight from the source) and
//! git repositories (cloned, prepared, stored, then imported).

use rayon::prelude::*;

use super::{fetch_git, import_directory};
use crate::{
    FetchSource, InstallPlan,
    install::{InstallError, cold::group_by_source, files::LinkContext, store::Store},
    reporter::Origin,
};

pub fn link_local(
    ctx: &LinkContext<'_>,
    store: &Store,
    plan: &InstallPlan,
    local: &[usize],
) -> Result<(), InstallError> {
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
            let package_id = first.dep_path.package_id();
            let row = fetch_git(
                ctx.cas,
                ctx.builds,
                package_id,
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
