//! The store's content-addressable files: `<storeDir>/files/XX/<rest>[-exec]`.
//!
//! Owns blob naming (docs/store.md §3), the concurrent-writer-safe write protocol
//! shared with pnpm 11/12 (§4: `O_EXCL` create, compare on `EEXIST`, atomic
//! temp+rename rewrite, `EMFILE` backoff) and the reuse check of a blob
//! against its index row (§8), and the cross-process store locks pnpm 12
//! takes (§2). Rows themselves live in `pacquet-store-index`.

#[cfg(unix)]
mod at;
#[cfg(not(unix))]
#[path = "no_at.rs"]
mod at;
mod cas;
mod clock;
mod digest;
mod error;
mod known;
mod lock;
mod retry;
mod stripes;
mod temp_name;
mod verify;
mod write;

pub use at::BlobAt;
#[cfg(unix)]
pub use at::open_dir;
pub use cas::{Cas, CasFile};
pub use clock::now_ms;
pub use digest::sha512_hex;
pub use error::CasError;
pub use lock::{LockMode, StoreLock, lock_store};
pub use temp_name::temp_file_name;
pub use verify::FileCheck;
