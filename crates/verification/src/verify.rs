//! The verification of one lockfile: offline checks, the cache, then every
//! candidate checked against the registry with bounded concurrency.

use std::path::Path;
use std::time::{Duration, Instant};

use futures_util::{StreamExt, stream::FuturesUnordered};
use pacquet_lockfile::Lockfile;
use pacquet_tarball::{Fetcher, FetcherOptions};

use crate::cache::{self, Fingerprint};
use crate::candidates;
use crate::check::{Outcome, check};
use crate::error::VerifyError;
use crate::metadata::{Metadata, Registries};
use crate::policy::Policy;

/// What to verify and where to ask.
pub struct Verification<'a> {
    pub lockfile: &'a Lockfile,
    /// Absolute path of the lockfile (the cache's key).
    pub lockfile_path: &'a Path,
    pub policy: &'a Policy,
    /// pnpm's `cacheDir`, where verifications are recorded.
    pub cache_dir: &'a Path,
    pub registries: &'a dyn Registries,
    pub fetcher: FetcherOptions,
    pub offline: bool,
}

/// How a verification passed.
#[derive(Debug, Clone, PartialEq)]
pub enum Verified {
    /// An earlier verification (at this time) covers the lockfile.
    Cached { verified_at: String },
    /// `entries` were checked against the registry.
    Checked { entries: usize, elapsed: Duration },
}

/// When a recorded verification covering the lockfile at `lockfile_path`
/// under `policy` was made (an ISO date): the check a repeat install makes
/// before deciding that nothing needs doing.
pub fn recorded_at(cache_dir: &Path, lockfile_path: &Path, policy: &Policy) -> Option<String> {
    let mut fingerprint = Fingerprint::of(lockfile_path)?;
    cache::lookup(cache_dir, &mut fingerprint, policy)
}

pub async fn verify(v: &Verification<'_>) -> Result<Verified, VerifyError> {
    let mut fingerprint = Fingerprint::of(v.lockfile_path);
    if let Some(f) = fingerprint.as_mut()
        && let Some(verified_at) = cache::lookup(v.cache_dir, f, v.policy)
    {
        return Ok(Verified::Cached { verified_at });
    }
    let collected = candidates::collect(v.lockfile);
    if !collected.shape_violations.is_empty() {
        return Err(VerifyError::from_violations(collected.shape_violations));
    }
    let started = Instant::now();
    let entries = collected.candidates.len();
    let fetcher = Fetcher::new(v.fetcher.clone());
    let meta = Metadata::new(fetcher, v.cache_dir, v.registries, v.offline);
    let mut violations = collected.integrity_violations;
    let mut unreachable = None;
    // The fetcher's own limit (networkConcurrency) bounds the requests;
    // this bounds the entries in flight.
    let limit = 64;
    let mut pending = collected.candidates.iter();
    let mut running = FuturesUnordered::new();
    loop {
        while running.len() < limit
            && let Some(c) = pending.next()
        {
            running.push(check(c, v.policy, &meta));
        }
        let Some(outcome) = running.next().await else {
            break;
        };
        match outcome {
            Outcome::Pass => {}
            Outcome::Fail(violation) => violations.push(violation),
            Outcome::Unreachable(message) => {
                unreachable.get_or_insert(message);
            }
        }
    }
    if let Some(message) = unreachable {
        return Err(VerifyError::MetaFetchFailed { message });
    }
    if !violations.is_empty() {
        return Err(VerifyError::from_violations(violations));
    }
    if let Some(f) = fingerprint.as_mut() {
        cache::record(v.cache_dir, f, v.policy, crate::timestamp::now_ms());
    }
    Ok(Verified::Checked {
        entries,
        elapsed: started.elapsed(),
    })
}
