//! The supply-chain gate (docs/supply-chain.md): before anything is
//! written, the lockfile's registry entries are checked against registry
//! metadata under the project's policy, unless `trustLockfile` is set.

use std::path::PathBuf;

use pacquet_config::Config;
use pacquet_lockfile::Lockfile;
use pacquet_tarball::FetcherOptions;
use pacquet_verification::{Policy, PolicyError, Registries, Verification, Verified};

use crate::{InstallError, gates::LOCKFILE_NAME};

/// The settings' routing and credentials, as the verification asks for them.
struct ConfigRegistries<'a>(&'a Config);

impl Registries for ConfigRegistries<'_> {
    fn registry_for(&self, name: &str) -> String {
        self.0.registry_for(name).to_string()
    }

    fn authorization_for(&self, url: &str, name: &str) -> Option<String> {
        self.0.authorization_for(url, Some(name))
    }
}

fn lockfile_path(config: &Config) -> PathBuf {
    config.workspace_root.join(LOCKFILE_NAME)
}

/// The policy to verify under now; `None` when `trustLockfile` skips it.
fn policy(config: &Config) -> Option<Result<Policy, PolicyError>> {
    let now = pacquet_verification::timestamp::now_ms();
    (!config.trust_lockfile).then(|| Policy::from_config(config, now))
}

/// Verifies `lockfile`; `Ok(None)` when `trustLockfile` skips it.
pub(crate) fn verify_lockfile(
    config: &Config,
    lockfile: &Lockfile,
    fetcher: &FetcherOptions,
    runtime: &tokio::runtime::Handle,
) -> Result<Option<Verified>, InstallError> {
    let Some(policy) = policy(config) else {
        return Ok(None);
    };
    let policy = policy.map_err(|e| InstallError::Verification(e.into()))?;
    let path = lockfile_path(config);
    let registries = ConfigRegistries(config);
    let verification = Verification {
        lockfile,
        lockfile_path: &path,
        policy: &policy,
        cache_dir: &config.cache_dir,
        registries: &registries,
        fetcher: fetcher.clone(),
        offline: config.offline,
    };
    let verified = runtime
        .block_on(pacquet_verification::verify(&verification))
        .map_err(InstallError::Verification)?;
    Ok(Some(verified))
}

/// Records the lockfile a resolution just wrote as verified, as pnpm 12.21
/// does: its new picks went through the policy, the rest passed it with
/// the lockfile they came from (docs/supply-chain.md §8). Best effort.
pub(crate) fn record_resolved(config: &Config, lockfile: &Lockfile) {
    let Some(Ok(policy)) = policy(config) else {
        return;
    };
    if lockfile.packages.is_empty() {
        return;
    }
    let Some(mut fingerprint) =
        pacquet_verification::cache::Fingerprint::of(&lockfile_path(config))
    else {
        return;
    };
    let now = pacquet_verification::timestamp::now_ms();
    pacquet_verification::cache::record(&config.cache_dir, &mut fingerprint, &policy, now);
}

/// Whether the lockfile on disk needs no verification now: `Some(None)`
/// with `trustLockfile` or without a lockfile, `Some(Some(verified_at))`
/// when a recorded verification covers today's policy, `None` otherwise.
/// A repeat install that finds nothing else to do still has to pass this.
pub(crate) fn recorded_verification(config: &Config) -> Option<Option<String>> {
    let Some(policy) = policy(config) else {
        return Some(None);
    };
    let path = lockfile_path(config);
    if !path.exists() {
        return Some(None);
    }
    // A setting that cannot be read is reported by the full install.
    let policy = policy.ok()?;
    pacquet_verification::recorded_at(&config.cache_dir, &path, &policy).map(Some)
}
