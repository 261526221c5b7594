//! The install engine's deciding and linking parts.
//!
//! * [`plan()`] turns a lockfile into an [`InstallPlan`]: every `.pnpm` slot
//!   with its fetch source and store key, every symlink with its exact
//!   relative target, hoisting in pnpm's `hoistedDependencies` order, skipped
//!   optional packages and the ordered list of directories to create.
//! * [`import_package`] materializes one package directory from CAS blobs
//!   (hardlink, clone or copy), placing the completion marker last.
//! * [`modules_yaml`] and [`workspace_state`] render pnpm 12's state files.
//! * [`layout`] holds the naming rules (`depPathToFilename`, relative paths).
//! * [`install::install`] carries a plan out: store prefetch, warm/cold
//!   partition, linking, symlinks, bins and state files, reporting
//!   [`reporter::Event`]s on the way; [`install::fetch`] only fills the store.
//! * [`store_ops`] holds the `store status|prune|add` operations.

mod error;
mod import;
pub mod install;
pub mod layout;
mod plan;
mod platform;
pub mod reporter;
pub mod state;
pub mod store_ops;

pub use error::PackageManagerError;
pub use import::{
    ImportMethod, ImportOutcome, ImportState, PackageFile, UsedMethod, completion_marker,
    import_new_package, import_package,
};
pub use plan::*;
pub use platform::{HostPlatform, PlatformTargets, SupportedArchitectures};
pub use state::{modules_yaml, workspace_state};
