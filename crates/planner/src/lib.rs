//! Deciding an install: lockfile and settings in, a [`Plan`] of plain data
//! out, with no I/O. Owns the layout rules (directory names, relative link
//! targets, hoisting, platform filtering), where each package's files come
//! from, and the difference between an installed [`Tree`] and a new plan
//! (what a repeat install removes). The installer crate carries a plan out.
//!
//! One planner per `nodeLinker` layout: [`isolated`] and [`hoisted`];
//! [`plan`] picks the one [`PlanOptions::layout`] names.

mod builds;
mod diff;
mod error;
mod fetch;
pub mod global_store;
pub mod hoisted;
pub mod isolated;
pub mod layout;
mod model;
mod options;
mod platform;
pub mod tree;

#[cfg(test)]
mod test_support;

pub use diff::{Removals, ShimRemoval, diff};
pub use error::PlanError;
pub use fetch::fetch_source;
pub use global_store::GlobalVirtualStore;
pub use tree::{Tree, TreeSlot};

pub use model::{
    BinDir, BuildPermission, DirectDep, DirectTarget, FetchSource, HoistKind, HoistTarget, Hoisted,
    ImporterPlan, Layout, LinkOwner, PatchFile, Plan, PlatformWarning, Slot, SlotPatch, Symlink,
};
pub use options::{ImporterSelection, IncludedGroups, PlanOptions};
pub use platform::{HostPlatform, PlatformTargets, SupportedArchitectures};

/// Decides everything an install does, in the layout `opts` asks for,
/// without touching the filesystem.
pub fn plan(lockfile: &pacquet_lockfile::Lockfile, opts: &PlanOptions) -> Result<Plan, PlanError> {
    match opts.layout {
        Layout::Isolated => isolated::plan(lockfile, opts),
        Layout::Hoisted => hoisted::plan(lockfile, opts),
    }
}
