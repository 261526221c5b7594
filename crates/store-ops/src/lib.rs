//! The `store` commands over a v11 store shared with pnpm 12: `status`
//! (installed packages modified against the store), `prune` (remove what no
//! project uses) and `add` (tarball files into the store), each under the
//! store lock pnpm 12 takes for it (`pacquet_cas::lock_store`).

mod add;
mod error;
mod mark;
mod prune;
mod status;

pub use add::{AddedTarball, add_tarballs};
pub use error::StoreOpsError;
pub use prune::{PruneSummary, SlotPrune, prune, prune_metadata};
pub use status::modified_packages;
