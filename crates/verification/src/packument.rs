//! The parts of a registry packument the checks read: `modified`, each
//! version's `dist.tarball` and trust evidence, and `time`.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

/// Publishing trust of one version, weakest first
/// (docs/supply-chain.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum TrustEvidence {
    Provenance,
    TrustedPublisher,
    StagedPublish,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct VersionMeta {
    pub tarball: Option<String>,
    pub evidence: Option<TrustEvidence>,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Packument {
    /// When anything in the document last changed: an upper bound on every
    /// version's publish time.
    pub modified: Option<String>,
    pub versions: HashMap<String, VersionMeta>,
    /// `None` when the registry sends no `time` at all.
    pub time: Option<HashMap<String, String>>,
}

#[derive(Deserialize)]
struct Raw {
    #[serde(default)]
    modified: Option<Value>,
    #[serde(default)]
    versions: HashMap<String, RawVersion>,
    #[serde(default)]
    time: Option<HashMap<String, Value>>,
}

#[derive(Deserialize)]
struct RawVersion {
    #[serde(default)]
    dist: Option<RawDist>,
    #[serde(default, rename = "_npmUser")]
    npm_user: Option<Value>,
}

#[derive(Deserialize)]
struct RawDist {
    #[serde(default)]
    tarball: Option<Value>,
    #[serde(default)]
    attestations: Option<Value>,
}

impl Packument {
    pub(crate) fn parse(bytes: &[u8]) -> Result<Packument, serde_json::Error> {
        let raw: Raw = serde_json::from_slice(bytes)?;
        let time: Option<HashMap<String, String>> = raw.time.map(|t| {
            t.into_iter()
                .filter_map(|(k, v)| Some((k, v.as_str()?.to_owned())))
                .collect()
        });
        let modified = raw
            .modified
            .and_then(|v| v.as_str().map(str::to_owned))
            .or_else(|| time.as_ref()?.get("modified").cloned());
        let versions = raw
            .versions
            .into_iter()
            .map(|(v, meta)| (v, version_meta(meta)))
            .collect();
        Ok(Packument {
            modified,
            versions,
            time,
        })
    }
}

fn version_meta(raw: RawVersion) -> VersionMeta {
    let present = |v: Option<&Value>| v.is_some_and(|v| !v.is_null());
    let user = raw.npm_user.as_ref().filter(|u| u.is_object());
    let approver = present(user.and_then(|u| u.get("approver")));
    let trusted_publisher = present(user.and_then(|u| u.get("trustedPublisher")));
    let provenance = present(
        raw.dist
            .as_ref()
            .and_then(|d| d.attestations.as_ref())
            .and_then(|a| a.get("provenance")),
    );
    let evidence = if approver {
        Some(TrustEvidence::StagedPublish)
    } else if trusted_publisher && provenance {
        Some(TrustEvidence::TrustedPublisher)
    } else if provenance {
        Some(TrustEvidence::Provenance)
    } else {
        None
    };
    let tarball = raw
        .dist
        .and_then(|d| d.tarball)
        .and_then(|t| t.as_str().map(str::to_owned));
    VersionMeta { tarball, evidence }
}
