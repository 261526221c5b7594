//! The warm set: packages whose files are already in the store, linked by
//! one rayon `par_iter` over all of them.

use rayon::prelude::*;

use super::{
    InstallError,
    files::LinkContext,
    store::{self, Rows},
};
use crate::reporter::Origin;
use pacquet_planner::{Layout, Plan};

/// Links every warm slot. Returns the slots whose store files failed the
/// integrity re-check (docs/store.md §8); they must be fetched again.
pub fn link_warm(
    ctx: &LinkContext<'_>,
    plan: &Plan,
    rows: &Rows,
    warm: &[usize],
) -> Result<Vec<usize>, InstallError> {
    // Nothing is written before the gate opens; waiting here keeps the
    // rayon workers free for the cold set's extraction meanwhile.
    ctx.gate.wait()?;
    // The isolated layout's clearing removes only package directories the
    // new plan does not use, so a `package.json` seen when the rows were
    // read is still there; the hoisted layout's may replace a directory
    // with another package. (Not looking again saves one `statx` per kept
    // package: 1,352 on alotta.)
    let isolated = plan.layout == Layout::Isolated;
    let damaged: Vec<Option<usize>> = warm
        .par_iter()
        .map(|&i| {
            let slot = &plan.slots[i];
            let summary = rows.summary_for_slot(i).expect("warm slots have rows");
            let seen = isolated && rows.seen_in_place(i);
            if ctx.complete_from_summary(i, slot, summary, seen)? {
                return Ok(None);
            }
            // A file list that cannot be decoded: fetch the package again.
            let Some(row) = rows.for_slot(i) else {
                return Ok(Some(i));
            };
            // A directory whose marker exists needs no store check: the
            // import leaves it alone.
            let complete = ctx.verify.then(|| ctx.is_complete(slot, row)).transpose()?;
            if complete == Some(false) && !store::files_intact(ctx.cas, row) {
                return Ok(Some(i));
            }
            ctx.import(i, slot, row, Origin::Store, complete)?;
            Ok(None)
        })
        .collect::<Result<_, InstallError>>()?;
    Ok(damaged.into_iter().flatten().collect())
}
