//! The registry checks of one lockfile entry (docs/supply-chain.md §2–§4):
//! the pinned tarball URL is the registry's, the version is older than
//! the `minimumReleaseAge` cutoff, and its publishing trust is no weaker
//! than earlier versions'.

use crate::candidates::Candidate;
use crate::error::{Code, Violation};
use crate::metadata::{Kind, Metadata};
use crate::policy::Policy;
use crate::{timestamp, trust};

pub(crate) enum Outcome {
    Pass,
    Fail(Violation),
    /// The registry could not be asked: the verification cannot finish.
    Unreachable(String),
}

pub(crate) async fn check(c: &Candidate, policy: &Policy, meta: &Metadata<'_>) -> Outcome {
    let (name, version) = (c.name.as_str(), c.version.as_str());
    let age = policy.age_applies(name, version);
    let trust = policy.trust_applies(name, version);
    let fail = |code, reason: String| {
        Outcome::Fail(Violation {
            name: name.to_string(),
            version: version.to_string(),
            code,
            reason,
        })
    };
    // The trust check needs the full document; fetch it first so the
    // other checks read it instead of a second, abbreviated request.
    let first = if trust { Kind::Full } else { Kind::Abbreviated };
    if let Some(pinned) = &c.tarball {
        let doc = match meta.get(name, first).await {
            Ok(doc) => doc,
            Err(message) => return Outcome::Unreachable(message),
        };
        match doc.versions.get(version).and_then(|v| v.tarball.as_deref()) {
            Some(listed) if same_tarball_url(pinned, listed) => {}
            Some(listed) => {
                return fail(
                    Code::TarballUrlMismatch,
                    format!(
                        "has a tarball URL ({pinned}) that does not match the registry's \
                         published metadata ({listed})"
                    ),
                );
            }
            None => {
                return fail(
                    Code::TarballUrlMismatch,
                    "could not be verified against the registry's published metadata".into(),
                );
            }
        }
    }
    if let (true, Some(cutoff)) = (age, policy.cutoff_ms()) {
        match age_check(name, version, cutoff, policy, meta, first).await {
            Ok(None) => {}
            Ok(Some(reason)) => return fail(Code::MinimumReleaseAge, reason),
            Err(message) => return Outcome::Unreachable(message),
        }
    }
    if trust {
        let doc = match meta.get(name, Kind::Full).await {
            Ok(doc) => doc,
            Err(message) => return Outcome::Unreachable(message),
        };
        let checked = trust::check(
            &doc,
            name,
            version,
            policy.trust_policy_ignore_after,
            policy.now_ms,
        );
        if let Err(reason) = checked {
            return fail(Code::TrustDowngrade, reason);
        }
    }
    Outcome::Pass
}

/// `Ok(Some(reason))` when the version is too young or its age cannot be
/// told; `Err` when the registry cannot be asked.
async fn age_check(
    name: &str,
    version: &str,
    cutoff: i64,
    policy: &Policy,
    meta: &Metadata<'_>,
    first: Kind,
) -> Result<Option<String>, String> {
    // A document last modified before the cutoff that lists the version
    // proves the version is older: no per-version time needed. A failed
    // request here just falls through to the full document.
    if let Ok(doc) = meta.get(name, first).await {
        let modified = doc.modified.as_deref().and_then(timestamp::parse);
        if modified.is_some_and(|m| m < cutoff) && doc.versions.contains_key(version) {
            return Ok(None);
        }
    }
    let published = match published_at(name, version, meta).await? {
        Some(published) => published,
        None if policy.ignore_missing_time => return Ok(None),
        None => {
            return Ok(Some(
                "could not be checked against minimumReleaseAge (version not present in \
                 registry manifest)"
                    .into(),
            ));
        }
    };
    let Some(at) = timestamp::parse(&published) else {
        return Ok(Some("publish timestamp is not a valid date".into()));
    };
    if at > cutoff {
        return Ok(Some(format!(
            "was published at {published}, within the minimumReleaseAge cutoff ({})",
            timestamp::format(cutoff)
        )));
    }
    Ok(None)
}

/// The version's publish time, from the first source that has it, in
/// pnpm 12's order: the full document this install already fetched or the
/// mirror keeps (no request), the
/// registry's attestations of the version (a small document), the full
/// document from the registry. `Err` when the registry cannot be asked.
async fn published_at(
    name: &str,
    version: &str,
    meta: &Metadata<'_>,
) -> Result<Option<String>, String> {
    if let Some(Ok(fetched)) = meta.peek_full(name)
        && let Some(published) = fetched.time.as_ref().and_then(|t| t.get(version))
    {
        return Ok(Some(published.clone()));
    }
    if let Some(kept) = meta.kept_full(name).await
        && let Some(published) = kept.time.as_ref().and_then(|t| t.get(version))
    {
        return Ok(Some(published.clone()));
    }
    if let Some(published) = meta.attestation_time(name, version).await {
        return Ok(Some(published));
    }
    let doc = meta.get(name, Kind::Full).await?;
    Ok(doc.time.as_ref().and_then(|t| t.get(version)).cloned())
}

/// Equal after normalizing what registries write differently for the same
/// artifact: the scheme, a default port, `%2f` for a scope's slash.
fn same_tarball_url(a: &str, b: &str) -> bool {
    canonical(a) == canonical(b)
}

fn canonical(url: &str) -> String {
    let normalized = url::Url::parse(url)
        .map_or_else(|_| url.to_string(), |u| u.to_string())
        .replace("%2F", "/")
        .replace("%2f", "/");
    match normalized.split_once("://") {
        Some((_, rest)) => rest.to_string(),
        None => normalized,
    }
}
