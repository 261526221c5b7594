//! `trustPolicy: no-downgrade` (docs/supply-chain.md §4): a version must
//! not carry weaker publishing trust than the strongest evidence of any
//! version published before it. Order is by publish time, not semver; a
//! release is compared with earlier releases only, a prerelease with
//! everything earlier.

use crate::packument::Packument;
use crate::timestamp;

/// Why a version fails the trust check: the violation's reason text.
pub(crate) fn check(
    meta: &Packument,
    name: &str,
    version: &str,
    ignore_after_minutes: Option<u64>,
    now_ms: i64,
) -> Result<(), String> {
    let uncheckable = |why: String| format!("could not be checked against trustPolicy ({why})");
    let published = meta
        .time
        .as_ref()
        .and_then(|t| t.get(version))
        .ok_or_else(|| {
            uncheckable(format!(
                "missing time for version {version} of {name} in metadata"
            ))
        })?;
    let published = timestamp::parse(published)
        .ok_or_else(|| uncheckable("publish timestamp is not a valid date".into()))?;
    if let Some(limit) = ignore_after_minutes {
        let minutes = (now_ms - published).max(0) as u64 / 60_000;
        if minutes > limit {
            return Ok(());
        }
    }
    let current = meta.versions.get(version).ok_or_else(|| {
        uncheckable(format!(
            "missing version object for version {version} of {name} in metadata"
        ))
    })?;
    let release = !is_prerelease(version);
    let strongest_before = meta
        .versions
        .iter()
        .filter(|(v, _)| !(release && is_prerelease(v)))
        .filter(|(v, _)| {
            let time = meta.time.as_ref().and_then(|t| t.get(v.as_str()));
            time.and_then(|t| timestamp::parse(t))
                .is_some_and(|t| t < published)
        })
        .filter_map(|(_, m)| m.evidence)
        .max();
    let Some(before) = strongest_before else {
        return Ok(());
    };
    if current.evidence.is_none_or(|now| now < before) {
        return Err(format!(
            "High-risk trust downgrade for \"{name}@{version}\" (possible package takeover)"
        ));
    }
    Ok(())
}

fn is_prerelease(version: &str) -> bool {
    nodejs_semver::Version::parse(version).is_ok_and(|v| v.is_prerelease())
}

#[cfg(test)]
mod tests;
