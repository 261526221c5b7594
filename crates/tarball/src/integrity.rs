//! Subresource-integrity checks of downloaded bytes.

use ssri::{Integrity, IntegrityOpts};

use crate::TarballError;

pub(crate) fn parse(integrity: &str, package_id: &str) -> Result<Integrity, TarballError> {
    integrity
        .trim()
        .parse::<Integrity>()
        .map_err(|_| TarballError::BadIntegrity {
            package_id: package_id.to_string(),
            integrity: integrity.to_string(),
        })
}

/// Checks `bytes` against `wanted` in its strongest algorithm.
pub(crate) fn verify(wanted: &Integrity, bytes: &[u8], url: &str) -> Result<(), TarballError> {
    let algorithm = wanted.pick_algorithm();
    let actual = IntegrityOpts::new()
        .algorithm(algorithm)
        .chain(bytes)
        .result();
    if wanted.matches(&actual).is_some() {
        Ok(())
    } else {
        Err(TarballError::Integrity {
            url: url.to_string(),
            wanted: wanted.to_string(),
            actual: actual.to_string(),
        })
    }
}

/// The `sha512-<base64>` integrity of `bytes`: what a lockfile and a store
/// row record for a tarball read from disk.
pub fn sha512_integrity(bytes: &[u8]) -> String {
    let digest = pacquet_sha512::digest(bytes);
    format!(
        "sha512-{}",
        base64::Engine::encode(&base64::engine::general_purpose::STANDARD, digest)
    )
}

/// A tarball's `sha512-…` integrity, checked during extraction together
/// with the package's files (docs/store.md §7.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TarballCheck {
    /// The expected SHA-512 of the `.tgz`.
    pub(crate) digest: [u8; 64],
    /// The lockfile's integrity string, for the error.
    pub(crate) integrity: String,
    pub(crate) url: String,
}

impl TarballCheck {
    /// `Some` when `integrity` is one `sha512-…` hash (what the registry
    /// gives every package); anything else is checked on download.
    pub fn sha512(integrity: &str, url: &str) -> Option<TarballCheck> {
        let parsed: Integrity = integrity.trim().parse().ok()?;
        let [hash] = parsed.hashes.as_slice() else {
            return None;
        };
        if hash.algorithm != ssri::Algorithm::Sha512 {
            return None;
        }
        let bytes =
            base64::Engine::decode(&base64::engine::general_purpose::STANDARD, &hash.digest)
                .ok()?;
        Some(TarballCheck {
            digest: bytes.try_into().ok()?,
            integrity: integrity.to_string(),
            url: url.to_string(),
        })
    }

    /// Checks the tarball's SHA-512, computed elsewhere (with its files').
    pub(crate) fn matches(&self, actual: &[u8; 64]) -> Result<(), TarballError> {
        if *actual == self.digest {
            return Ok(());
        }
        let actual = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, actual);
        Err(TarballError::Integrity {
            url: self.url.clone(),
            wanted: self.integrity.clone(),
            actual: format!("sha512-{actual}"),
        })
    }

    /// Hashes `tgz` on its own and checks it.
    pub(crate) fn verify(&self, tgz: &[u8]) -> Result<(), TarballError> {
        self.matches(&pacquet_sha512::digest(tgz))
    }
}
