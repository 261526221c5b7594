//! `patchedDependencies` patch files: their hash (what the lockfile
//! records) and applying them to an installed package directory as pnpm 12
//! does — git-style unified diffs, matched tolerantly, written without ever
//! touching a hard-linked store file (docs/patches.md).

mod apply;
mod error;
mod hash;
mod hunks;
mod parse;
mod write;

pub use apply::apply_patch;
pub use error::PatchError;
pub use hash::patch_hash;
