//! Which lockfile entries are checked against the registry, and the
//! checks that need no network (docs/supply-chain.md §1).

use std::collections::HashSet;

use pacquet_lockfile::{Lockfile, Resolution};

use crate::error::{Code, Violation};
use crate::git_hosted::is_git_hosted_archive;

/// One `(name, version, resolution)` of `packages` the registry vouches for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub name: String,
    /// The key's version part; the registry checks apply only when it is
    /// a semver version.
    pub version: String,
    /// The explicit tarball URL the lockfile pins, if any: it must be the
    /// one the registry lists for `name@version`.
    pub tarball: Option<String>,
}

/// The entries to check, and the violations found without the network.
/// Shape violations (`RESOLUTION_SHAPE_MISMATCH`) refuse the lockfile on
/// their own; integrity violations join the registry's verdicts.
#[derive(Debug, Default)]
pub struct Collected {
    pub candidates: Vec<Candidate>,
    pub shape_violations: Vec<Violation>,
    pub integrity_violations: Vec<Violation>,
}

pub fn collect(lockfile: &Lockfile) -> Collected {
    let mut out = Collected::default();
    let mut seen: HashSet<(String, String, Option<String>)> = HashSet::new();
    for (key, info) in &lockfile.packages {
        let name = key.name();
        let version = key.version();
        let semver = nodejs_semver::Version::parse(version).is_ok();
        if semver && !is_registry_shaped(&info.resolution) {
            out.shape_violations.push(Violation {
                name: name.to_string(),
                version: version.to_string(),
                code: Code::ResolutionShapeMismatch,
                reason: "a registry-style dependency path is backed by a non-registry resolution"
                    .to_string(),
            });
        }
        let (tarball, integrity) = match &info.resolution {
            Resolution::Registry { integrity } => (None, Some(integrity.as_str())),
            Resolution::Tarball {
                tarball, integrity, ..
            } if is_http(tarball) && !is_git_hosted_archive(tarball) => {
                (Some(tarball.clone()), integrity.as_deref())
            }
            _ => continue,
        };
        let id = (name.to_string(), version.to_string(), tarball.clone());
        if !seen.insert(id) {
            continue;
        }
        if integrity.is_none_or(|i| i.trim().is_empty()) {
            out.integrity_violations.push(Violation {
                name: name.to_string(),
                version: version.to_string(),
                code: Code::MissingTarballIntegrity,
                reason: r#"has no "integrity" field, so its downloaded tarball cannot be verified"#
                    .to_string(),
            });
            continue;
        }
        if !semver {
            continue;
        }
        out.candidates.push(Candidate {
            name: name.to_string(),
            version: version.to_string(),
            tarball,
        });
    }
    out
}

/// A registry entry (`{integrity}`), or an HTTP(S) tarball that is not a
/// git host's archive (by URL or by flag).
fn is_registry_shaped(resolution: &Resolution) -> bool {
    match resolution {
        Resolution::Registry { .. } => true,
        Resolution::Tarball {
            tarball,
            git_hosted,
            ..
        } => is_http(tarball) && *git_hosted != Some(true) && !is_git_hosted_archive(tarball),
        _ => false,
    }
}

fn is_http(url: &str) -> bool {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

#[cfg(test)]
mod tests;
