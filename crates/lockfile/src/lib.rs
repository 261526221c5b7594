//! `pnpm-lock.yaml` (lockfile v9) as pnpm 12 writes it.
//!
//! This crate owns the data model ([`Lockfile`] and friends), the typed form of
//! package/snapshot keys ([`DepPath`]), reading (with pnpm's error codes) and
//! deterministic writing. It knows nothing about the filesystem layout or the store.

mod dep_path;
mod model;

pub use dep_path::{DepPath, DepRef};
pub use model::*;
