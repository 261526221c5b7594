//! The warm set: packages whose files are already in the store, linked by
//! one rayon `par_iter` over all of them.

use pacquet_cas::FileCheck;
use rayon::prelude::*;

use super::{InstallError, files::LinkContext, store::Rows};
use crate::{InstallPlan, reporter::Origin};

/// Links every warm slot. Returns the slots whose store files failed the
/// integrity re-check (store.md §8); they must be fetched again.
pub fn link_warm(
    ctx: &LinkContext<'_>,
    plan: &InstallPlan,
    rows: &Rows,
    warm: &[usize],
) -> Result<Vec<usize>, InstallError> {
    let damaged: Vec<Option<usize>> = warm
        .par_iter()
        .map(|&i| {
            let slot = &plan.slots[i];
            let row = rows.for_slot(i).expect("warm slots have rows");
            if ctx.verify && !is_complete(ctx, &slot.package_dir, row) && !files_intact(ctx, row) {
                return Ok(Some(i));
            }
            ctx.import(i, slot, row, Origin::Store)?;
            Ok(None)
        })
        .collect::<Result<_, InstallError>>()?;
    Ok(damaged.into_iter().flatten().collect())
}

/// A package directory whose completion marker exists needs no store check:
/// the import will leave it alone.
fn is_complete(
    ctx: &LinkContext<'_>,
    package_dir: &str,
    row: &pacquet_store_index::PackageFilesIndex,
) -> bool {
    !ctx.fresh
        && row_marker(row)
            .is_some_and(|m| std::fs::symlink_metadata(ctx.root.join(package_dir).join(m)).is_ok())
}

fn files_intact(ctx: &LinkContext<'_>, row: &pacquet_store_index::PackageFilesIndex) -> bool {
    row.files.iter().all(|(_, info)| {
        ctx.cas.verify(
            &info.digest,
            info.is_executable(),
            info.size,
            info.checked_at,
        ) == FileCheck::Ok
    })
}

/// The completion marker of a row, by the rule of [`crate::completion_marker`].
fn row_marker(row: &pacquet_store_index::PackageFilesIndex) -> Option<&str> {
    let paths = row.files.iter().map(|(p, _)| p.as_str());
    paths
        .clone()
        .find(|p| *p == "package.json")
        .or_else(|| paths.min())
}
