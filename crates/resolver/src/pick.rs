//! Which version of a packument a selector gets (docs/resolution.md §1).

use nodejs_semver::Version;

use crate::packument::{Packument, VersionManifest};
use crate::spec::Selector;

/// The version `selector` picks from `packument`, among the versions
/// `eligible` admits (old enough for `minimumReleaseAge`), or `None`.
///
/// For a range, versions the install prefers (`weight` > 0) come first:
/// the heaviest group, and in it `latest` if present, else the highest.
/// Without preferences: among satisfying versions that are not
/// deprecated (all of them if every one is), `latest` if present, else
/// the highest. A `*` that nothing satisfies gets `latest` (packages with
/// prereleases only).
pub fn pick<'p>(
    packument: &'p Packument,
    selector: &Selector,
    weight: &dyn Fn(&Version) -> u32,
    eligible: &dyn Fn(&Version) -> bool,
) -> Option<&'p Version> {
    let find = |wanted: &Version| {
        packument
            .versions
            .iter()
            .map(|(v, _)| v)
            .find(|v| *v == wanted && eligible(v))
    };
    let latest = packument
        .dist_tags
        .get("latest")
        .and_then(|v| Version::parse(v).ok());
    match selector {
        Selector::Version(version) => find(version),
        Selector::Tag(tag) => {
            let version = Version::parse(packument.dist_tags.get(tag)?).ok()?;
            find(&version)
        }
        Selector::Range(range) => {
            pick_in_range(packument, range, latest.as_ref(), weight, eligible)
                .or_else(|| latest.filter(|_| is_any(range)).and_then(|v| find(&v)))
        }
    }
}

/// [`pick`] for a range, `None` when no eligible version satisfies it.
/// Eligibility (publish dates) and deprecation (a scan of the manifest)
/// are asked in the order that settles the answer first, not of every
/// satisfying version: asking all of them was ~10 % of alotta's
/// resolution.
fn pick_in_range<'p>(
    packument: &'p Packument,
    range: &nodejs_semver::Range,
    latest: Option<&Version>,
    weight: &dyn Fn(&Version) -> u32,
    eligible: &dyn Fn(&Version) -> bool,
) -> Option<&'p Version> {
    // Each with its weight.
    let mut satisfying: Vec<(&'p (Version, std::ops::Range<usize>), u32)> = packument
        .versions
        .iter()
        .filter(|(v, _)| v.satisfies(range))
        .map(|entry| (entry, weight(&entry.0)))
        .collect();
    let is_latest = |v: &Version| Some(v) == latest;
    // `latest` if in `group`, else its highest.
    let best = |group: Vec<&'p Version>| -> Option<&'p Version> {
        let latest = group.iter().copied().find(|v| is_latest(v));
        latest.or_else(|| group.into_iter().max())
    };
    // The preferred versions, heaviest group first.
    let mut weights: Vec<u32> = satisfying
        .iter()
        .map(|(_, w)| *w)
        .filter(|w| *w > 0)
        .collect();
    weights.sort_unstable_by(|a, b| b.cmp(a));
    weights.dedup();
    for heaviest in weights {
        let group: Vec<&Version> = satisfying
            .iter()
            .filter(|(entry, w)| *w == heaviest && eligible(&entry.0))
            .map(|(entry, _)| &entry.0)
            .collect();
        if !group.is_empty() {
            return best(group);
        }
    }
    let fresh = |(_, at): &(Version, std::ops::Range<usize>)| !is_deprecated(packument.json_at(at));
    let mut eligible_seen = Vec::new();
    if let Some((entry, _)) = satisfying.iter().find(|(entry, _)| is_latest(&entry.0))
        && eligible(&entry.0)
    {
        if fresh(entry) {
            return Some(&entry.0);
        }
        eligible_seen.push(&entry.0);
    }
    // Sorted only now: `latest` answers most picks.
    satisfying.sort_by(|a, b| b.0.0.cmp(&a.0.0));
    for (entry, _) in &satisfying {
        if is_latest(&entry.0) || !eligible(&entry.0) {
            continue;
        }
        if fresh(entry) {
            return Some(&entry.0);
        }
        eligible_seen.push(&entry.0);
    }
    // Every eligible version is deprecated: `latest`, else the highest.
    eligible_seen
        .into_iter()
        .max_by(|a, b| is_latest(a).cmp(&is_latest(b)).then(a.cmp(b)))
}

/// The version `selector` picks for a direct dependency under
/// `resolutionMode: lowest-direct` or `time-based` (docs/resolution.md
/// §19): a range gets its lowest satisfying version, in the heaviest
/// preferred group if any (deprecation and `latest` do not matter);
/// `*` the lowest version of all, prereleases included. Versions and
/// dist-tags pick as [`pick`] does.
pub fn pick_lowest<'p>(
    packument: &'p Packument,
    selector: &Selector,
    weight: &dyn Fn(&Version) -> u32,
    eligible: &dyn Fn(&Version) -> bool,
) -> Option<&'p Version> {
    let Selector::Range(range) = selector else {
        return pick(packument, selector, weight, eligible);
    };
    let candidates = || {
        packument
            .versions
            .iter()
            .map(|(v, _)| v)
            .filter(|v| eligible(v))
    };
    let satisfying = || candidates().filter(|v| v.satisfies(range));
    let heaviest = satisfying().map(weight).max().unwrap_or(0);
    if heaviest > 0 {
        return satisfying().filter(|v| weight(v) == heaviest).min();
    }
    if is_any(range) {
        return candidates().min();
    }
    satisfying().min()
}

/// `*`, or the same range written `>=0.0.0`: every release.
fn is_any(range: &nodejs_semver::Range) -> bool {
    matches!(range.to_string().as_str(), "*" | ">=0.0.0")
}

/// The highest release (not a prerelease) of `packument` that is not
/// deprecated: what pnpm 12.21's warning about a deprecated dependency
/// points to.
pub(crate) fn highest_not_deprecated(packument: &Packument) -> Option<Version> {
    packument
        .versions
        .iter()
        .filter(|(version, range)| {
            !version.is_prerelease() && !is_deprecated(packument.json_at(range))
        })
        .map(|(version, _)| version)
        .max()
        .cloned()
}

fn is_deprecated(json: &str) -> bool {
    json.contains("\"deprecated\"")
        && VersionManifest::parse(json).is_ok_and(|m| m.deprecated.is_some())
}

#[cfg(test)]
mod tests;
