//! Verification failures, with pnpm 12's codes and wording
//! (docs/supply-chain.md §7).

use std::fmt::Write as _;

use miette::Diagnostic;

use crate::exclude::PolicyError;

/// At most this many entries are listed; the rest are counted.
const MAX_LISTED: usize = 20;

const HINT: &str = "The lockfile contains entries that the active policies reject. This can \
mean the lockfile is stale, or that someone committed a lockfile that bypassed the policy \
locally — inspect recent changes to pnpm-lock.yaml before trusting it. If the changes look \
expected, rebuild it from a fresh resolution with pnpm, or relax the policy that flagged them.";

const TAMPER_HINT: &str = "The lockfile contains entries that cannot be verified, whatever the \
configured policies. This can mean the lockfile is stale, or that it was tampered with — inspect \
recent changes to pnpm-lock.yaml before trusting it. If the changes look expected, rebuild it \
from a fresh resolution with pnpm (\"pnpm clean --lockfile\", then \"pnpm install\").";

/// Why one entry failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Code {
    MinimumReleaseAge,
    TrustDowngrade,
    TarballUrlMismatch,
    MissingTarballIntegrity,
    ResolutionShapeMismatch,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::MinimumReleaseAge => "MINIMUM_RELEASE_AGE_VIOLATION",
            Code::TrustDowngrade => "TRUST_DOWNGRADE",
            Code::TarballUrlMismatch => "TARBALL_URL_MISMATCH",
            Code::MissingTarballIntegrity => "MISSING_TARBALL_INTEGRITY",
            Code::ResolutionShapeMismatch => "RESOLUTION_SHAPE_MISMATCH",
        }
    }
}

/// One failing lockfile entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub name: String,
    pub version: String,
    pub code: Code,
    pub reason: String,
}

#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum VerifyError {
    #[error("{count} lockfile entries failed verification:\n{listing}")]
    #[diagnostic(code(ERR_PNPM_MINIMUM_RELEASE_AGE_VIOLATION), help("{HINT}"))]
    MinimumReleaseAge { count: usize, listing: String },
    #[error("{count} lockfile entries failed verification:\n{listing}")]
    #[diagnostic(code(ERR_PNPM_TRUST_DOWNGRADE), help("{HINT}"))]
    TrustDowngrade { count: usize, listing: String },
    #[error("{count} lockfile entries failed verification:\n{listing}")]
    #[diagnostic(code(ERR_PNPM_MISSING_TARBALL_INTEGRITY), help("{TAMPER_HINT}"))]
    MissingTarballIntegrity { count: usize, listing: String },
    #[error("{count} lockfile entries failed verification:\n{listing}")]
    #[diagnostic(code(ERR_PNPM_RESOLUTION_SHAPE_MISMATCH), help("{TAMPER_HINT}"))]
    ResolutionShapeMismatch { count: usize, listing: String },
    #[error("{count} lockfile entries failed verification:\n{listing}")]
    #[diagnostic(code(ERR_PNPM_TARBALL_URL_MISMATCH), help("{TAMPER_HINT}"))]
    TarballUrlMismatch { count: usize, listing: String },
    /// Mixed codes.
    #[error("{count} lockfile entries failed verification:\n{listing}")]
    #[diagnostic(code(ERR_PNPM_LOCKFILE_RESOLUTION_VERIFICATION), help("{HINT}"))]
    Mixed { count: usize, listing: String },
    /// The registry could not be asked; the verification did not finish.
    #[error("{message}")]
    #[diagnostic(
        code(ERR_PNPM_META_FETCH_FAIL),
        help(
            "The lockfile is verified against the registry's metadata before anything is \
             installed. Check the registry and its credentials; `trustLockfile: true` skips the \
             verification."
        )
    )]
    MetaFetchFailed { message: String },
    #[error(transparent)]
    #[diagnostic(transparent)]
    Policy(#[from] PolicyError),
}

impl VerifyError {
    /// The error listing `violations` (sorted here by `name@version`).
    pub fn from_violations(mut violations: Vec<Violation>) -> VerifyError {
        violations.sort_by_cached_key(|v| format!("{}@{}", v.name, v.version));
        let count = violations.len();
        let first = violations.first().map(|v| v.code);
        let mixed = violations.iter().any(|v| Some(v.code) != first);
        let mut listing = String::new();
        for v in violations.iter().take(MAX_LISTED) {
            let tag = if mixed {
                format!("[{}] ", v.code.as_str())
            } else {
                String::new()
            };
            let _ = writeln!(listing, "  {}@{} {tag}{}", v.name, v.version, v.reason);
        }
        if count > MAX_LISTED {
            let _ = write!(listing, "  …and {} more", count - MAX_LISTED);
        } else {
            listing.pop();
        }
        match (mixed, first) {
            (false, Some(Code::MinimumReleaseAge)) => {
                VerifyError::MinimumReleaseAge { count, listing }
            }
            (false, Some(Code::TrustDowngrade)) => VerifyError::TrustDowngrade { count, listing },
            (false, Some(Code::MissingTarballIntegrity)) => {
                VerifyError::MissingTarballIntegrity { count, listing }
            }
            (false, Some(Code::TarballUrlMismatch)) => {
                VerifyError::TarballUrlMismatch { count, listing }
            }
            (false, Some(Code::ResolutionShapeMismatch)) => {
                VerifyError::ResolutionShapeMismatch { count, listing }
            }
            _ => VerifyError::Mixed { count, listing },
        }
    }
}
