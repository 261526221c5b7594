//! Dependency lifecycle scripts (`preinstall`/`install`/`postinstall`).
//!
//! The install pipeline calls this crate after linking `node_modules` to
//!
//! * decide which dependencies may build ([`BuildPolicy`], [`ignored_builds_error`]),
//! * find what to run ([`requires_build`], [`dependency_scripts`]),
//! * key the side-effects cache ([`deps_hash`], [`side_effects_cache_key`]),
//! * run the scripts ([`run_stage`], [`run_dependency_builds`]),
//! * record what a build changed ([`diff_package_dir`]),
//! * let ES modules use `NODE_PATH` ([`node_path_hook`]).

mod build_scripts;
mod diff;
mod error;
pub mod node_path_hook;
pub mod policy;
pub mod runner;
pub mod side_effects;

pub use build_scripts::{
    IMPLICIT_GYP_INSTALL, LIFECYCLE_STAGES, dependency_scripts, files_require_build, requires_build,
};
pub use diff::{CasWrite, NEEDS_BUILD_MARKER, diff_package_dir};
pub use error::{ScriptFailure, ScriptsError};
pub use policy::{BuildDecision, BuildPolicy, ignored_builds_error};
pub use runner::{
    BuildNode, BuildOptions, BuildReport, ScriptEvent, ScriptOutcome, ScriptRun, ScriptSource,
    bin_dirs_in_parent_dirs, default_unsafe_perm, run_dependency_builds, run_stage,
};
pub use side_effects::{
    DepsHashMemo, HashInput, deps_hash, node_arch, node_major, node_platform, node_version,
    object_hash, side_effects_cache_key,
};
