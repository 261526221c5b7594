//! Carrying out an install. The planner decides (a `pacquet_planner::Plan`
//! of plain data, and the difference to the previous install); this crate
//! reads the store index, removes what the previous install left and the
//! plan no longer wants, creates directories, imports packages (from the
//! store, or through `pacquet_sources` when cold), creates symlinks and
//! `.bin` shims, runs the builds the plan allows, and writes the state
//! files through `pacquet_state`, reporting [`reporter::Event`]s on the way.
//!
//! * [`install()`]: the whole install; [`fetch()`]: only fill the store.
//! * [`settings`]: `Config` turned into each consumer's options, once.

mod bins;
mod build;
mod cold;
mod deprecations;
mod dirs;
mod error;
mod fetch;
mod files;
mod filtered;
mod gates;
mod global_store;
mod install;
mod lexical;
mod link_gate;
mod local;
mod local_tarball;
pub mod manifest_edit;
mod memory;
mod one_at_a_time;
mod peer_rules;
mod phases;
mod pnpmfile;
mod probe;
mod project_engines;
mod project_scripts;
mod remove;
pub mod reporter;
mod resolve;
pub use resolve::{Update, exotic_package_name, locked_versions, pick_version};
pub use validation::read_manifest;
pub mod settings;
mod skills;
mod stale;
mod store;
mod summaries;
mod symlinks;
#[cfg(test)]
mod test_support;
mod tree_record;
mod up_to_date;
mod validation;
mod verify;
mod warm;
mod write_state;
mod young_picks;

pub use error::InstallError;
pub use fetch::{FetchSummary, fetch, plan_all_importers, read_wanted_lockfile};
pub use filtered::{ProjectFilter, select as select_projects};
pub use gates::{CheckedLockfile, LOCKFILE_NAME, Project, importer_id, read_projects};
pub use install::{EditedManifest, InstallRequest, InstallSummary, install};
