//! The `store` commands over a v11 store shared with pnpm 12: `status`
//! (installed packages modified against the store), `prune` (remove what no
//! project uses), `add` (tarball files into the store) and the store locks
//! they share with pnpm.

mod add;
mod error;
mod lock;
mod mark;
mod prune;
mod status;

pub use add::{AddedTarball, add_tarballs};
pub use error::StoreOpsError;
pub use lock::{LockMode, StoreLock, lock_store};
pub use prune::{PruneSummary, prune};
pub use status::modified_packages;
