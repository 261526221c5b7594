//! Supply-chain verification of a lockfile before it is installed, as
//! pnpm 12 does on every install (docs/supply-chain.md): each registry
//! entry is checked against its registry's metadata under the project's
//! policy, and the install is refused when any entry fails.
//!
//! * [`candidates`]: the entries to check, and the offline checks (a
//!   registry-style key backed by a non-registry resolution, a tarball
//!   without integrity).
//! * [`Policy`]: `minimumReleaseAge`, `trustPolicy` and their exclude
//!   lists, and the snapshot a cached verification is judged by.
//! * [`verify`]: the fan-out over the registry ([`metadata`]), one
//!   request per package name, with the per-entry checks in [`check`].
//! * [`cache`]: `<cacheDir>/lockfile-verified.jsonl`, shared with pnpm 12,
//!   so a repeat install verifies nothing.

mod attestation;
pub mod cache;
pub mod candidates;
mod check;
mod error;
mod exclude;
mod git_hosted;
pub mod metadata;
mod packument;
mod policy;
pub mod timestamp;
mod trust;
mod verify;

pub use error::{Code, VerifyError, Violation};
pub use exclude::{ExcludeList, PolicyError};
pub use metadata::Registries;
pub use policy::{Policy, TrustPolicy};
pub use verify::{Verification, Verified, recorded_at, verify};
