//! The store's package index: `<storeDir>/index.db`, shared with pnpm 11/12.
//!
//! Owns the row type ([`PackageFilesIndex`]), its msgpackr "records" codec,
//! key formats, batched reads and the single batched writer thread.

mod types;

pub use types::*;
