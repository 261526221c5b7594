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
