//! `pnpm-lock.yaml` (lockfile v9) as pnpm 12 writes it.
//!
//! This crate owns the data model ([`Lockfile`] and friends), the typed form of
//! package/snapshot keys ([`DepPath`]), reading (with pnpm's error codes),
//! deterministic writing, and the `--frozen-lockfile` gates that compare a
//! lockfile with the project manifests and the configuration. It knows
//! nothing about the filesystem layout or the store.

mod dep_path;
mod error;
mod model;
mod read;
mod write;

pub use dep_path::{DepPath, DepRef};
pub use error::LockfileError;
pub use model::*;
pub use read::read_lockfile;
