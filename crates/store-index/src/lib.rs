//! The store's package index: `<storeDir>/index.db`, shared with pnpm 11/12.
//!
//! Owns the row type ([`PackageFilesIndex`]), its msgpackr "records" codec
//! ([`encode`], [`decode`]), key formats ([`store_key`], [`built_key`]),
//! batched reads ([`prefetch`]), the single batched writer thread
//! ([`IndexWriter`]) and a project's copy of the row summaries its last
//! install used ([`read_summaries`]). See `docs/store.md` §5–§11.

mod connection;
mod decode;
mod encode;
mod error;
mod file_mode;
mod keys;
mod prune;
mod read;
mod summary_cache;
mod types;
mod writer;

#[cfg(test)]
mod tests;

pub use connection::INDEX_DB;
pub use decode::{decode, decode_summary};
pub use encode::encode;
pub use error::{DecodeError, StoreIndexError};
pub use file_mode::file_mode;
pub use keys::{built_key, store_key};
pub use prune::{PruneIndexError, Retained, all_keys, retain_rows};
pub use read::{CHUNK, prefetch, prefetch_raw};
pub use summary_cache::{CachedSummary, read_summaries, write_summaries};
pub use types::*;
pub use writer::{IndexSender, IndexWriter, WriterStats};
