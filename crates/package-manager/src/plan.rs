//! The install planner: turns a lockfile into an [`InstallPlan`] of plain
//! data (slots, symlinks, hoisting, directories) without any I/O.

mod build;
mod dirs;
mod fetch;
mod graph;
mod hoist;
mod model;
mod names;
mod options;
mod pattern;

pub use build::plan;
pub(crate) use fetch::fetch_source;
pub use model::*;
pub use options::{ImporterSelection, IncludedGroups, PlanOptions};

#[cfg(test)]
mod tests;
