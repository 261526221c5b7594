//! Registry metadata (packuments) as pnpm 12 gets and keeps them
//! (docs/registry-metadata.md): the abbreviated or full document of a
//! package, revalidated against the on-disk mirror under
//! `<cacheDir>/v12/` that pnpm 12 shares, and read from it alone when
//! offline.
//!
//! * [`path`]: where a package's mirror file lives.
//! * [`mirror`]: the `pnpm-meta-v1` file format.
//! * [`Client`]: conditional requests, the mirror update, offline reads.
//! * [`MirrorWriter`]: mirror files written on one thread, off the
//!   requests' path.

mod client;
mod error;
mod key_in;
pub mod mirror;
pub mod path;
mod writer;

pub use client::{Body, Client, Kind, packument_url};
pub use error::MetadataError;
pub use key_in::KeyIn;
pub use writer::MirrorWriter;
