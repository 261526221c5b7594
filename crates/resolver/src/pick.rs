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
            let candidates: Vec<&(Version, _)> = packument
                .versions
                .iter()
                .filter(|(v, _)| v.satisfies(range) && eligible(v))
                .collect();
            if candidates.is_empty() {
                return latest.filter(|_| is_any(range)).and_then(|v| find(&v));
            }
            let best = |group: &[&'p (Version, _)]| -> Option<&'p Version> {
                group
                    .iter()
                    .map(|(v, _)| v)
                    .find(|v| Some(*v) == latest.as_ref())
                    .or_else(|| group.iter().map(|(v, _)| v).max())
            };
            let heaviest = candidates.iter().map(|(v, _)| weight(v)).max().unwrap_or(0);
            if heaviest > 0 {
                let group: Vec<_> = candidates
                    .iter()
                    .copied()
                    .filter(|(v, _)| weight(v) == heaviest)
                    .collect();
                return best(&group);
            }
            let fresh: Vec<_> = candidates
                .iter()
                .copied()
                .filter(|(_, range)| !is_deprecated(packument.json_at(range)))
                .collect();
            if fresh.is_empty() {
                best(&candidates)
            } else {
                best(&fresh)
            }
        }
    }
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
