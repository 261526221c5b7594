//! Getting a package's files into the store: download a tarball (retries,
//! integrity, concurrency limit) and extract it into the CAS, producing the
//! `package_index` row (docs/store.md §7) that `pacquet-store-index` persists.
//!
//! Download is async ([`Fetcher`]); extraction is synchronous CPU work meant
//! for a thread pool ([`extract_to_store`]). Hostile tarballs (path
//! traversal, links, device nodes, gzip bombs) are refused, never unpacked.

mod buffers;
mod download;
mod entry_path;
mod error;
mod extract;
mod inflate;
mod integrity;
mod limited_reader;
mod manifest;
mod options;
mod retry;

pub use buffers::recycle_body;
pub use download::{Conditional, DownloadRequest, Fetcher, Validators};
pub use error::TarballError;
pub use extract::{
    ExtractLimits, GroupMember, extract_checked_to_store, extract_group_to_store, extract_to_store,
    needs_large_buffer,
};
pub use integrity::{TarballCheck, sha512_integrity};
pub use manifest::{bundled_manifest, requires_build};
pub use options::{FetcherOptions, NetworkOptions, RegistryTls};
