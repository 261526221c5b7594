//! Running lifecycle scripts: one stage ([`run_stage`]) and the builds of
//! all dependencies in dependency order ([`run_dependency_builds`]).

mod env;
mod events;
mod schedule;
mod stage;

pub use env::{bin_dirs_in_parent_dirs, lifecycle_path_dirs, package_env_vars};
pub use events::{ScriptEvent, ScriptSource, log_prefix};
pub use schedule::{BuildNode, BuildOptions, BuildReport, run_dependency_builds};
pub use stage::{ScriptOutcome, ScriptRun, default_unsafe_perm, run_stage};

#[cfg(test)]
mod tests;
