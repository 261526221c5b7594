//! `peerDependencyRules`: which of a resolution's peer issues pnpm 12
//! still warns about (docs/resolution.md §8).

use nodejs_semver::{Range, Version};
use pacquet_config::{PeerDependencyRules, name_pattern::Matcher};
use pacquet_resolver::PeerIssues;

/// Whether an issue is left once `rules` have had their say: a missing
/// peer not matched by `ignoreMissing`, or a peer bound out of range whose
/// name `allowAny` does not match and whose version no `allowedVersions`
/// entry (for the peer, or for it below its consumer) allows.
pub(crate) fn any_left(issues: &PeerIssues, rules: &PeerDependencyRules) -> bool {
    let ignore_missing = Matcher::new(&rules.ignore_missing);
    if issues
        .missing
        .iter()
        .any(|name| !ignore_missing.matches(name))
    {
        return true;
    }
    let allow_any = Matcher::new(&rules.allow_any);
    issues.unmet.iter().any(|unmet| {
        !allow_any.matches(&unmet.peer)
            && !rules.allowed_versions.iter().any(|(selector, ranges)| {
                allows(selector, ranges, &unmet.peer, &unmet.found, &unmet.consumer)
            })
    })
}

/// Whether the `allowedVersions` entry `selector: ranges` lets `peer` at
/// `found` through below `consumer` (`name@version`).
fn allows(selector: &str, ranges: &str, peer: &str, found: &str, consumer: &str) -> bool {
    let (parent, target) = match selector.split_once('>') {
        Some((parent, target)) => (Some(parent.trim()), target.trim()),
        None => (None, selector.trim()),
    };
    if name_of(target).0 != peer {
        return false;
    }
    if let Some(parent) = parent {
        let (parent_name, parent_range) = name_of(parent);
        let (consumer_name, consumer_version) = name_of(consumer);
        if parent_name != consumer_name {
            return false;
        }
        if let Some(range) = parent_range
            && !satisfies(consumer_version.unwrap_or(""), range)
        {
            return false;
        }
    }
    ranges
        .split("||")
        .any(|range| satisfies(found, range.trim()))
}

/// `name` and what follows its `@` (a scope's `@` excluded).
fn name_of(spec: &str) -> (&str, Option<&str>) {
    match spec[1.min(spec.len())..].find('@') {
        Some(at) => (&spec[..at + 1], Some(&spec[at + 2..])),
        None => (spec, None),
    }
}

/// node-semver, a prerelease also passing when its release does, as pnpm
/// checks peers.
fn satisfies(version: &str, range: &str) -> bool {
    if range == "*" {
        return true;
    }
    let (Ok(parsed), Ok(range_parsed)) = (Version::parse(version), Range::parse(range)) else {
        return version == range;
    };
    if parsed.satisfies(&range_parsed) {
        return true;
    }
    parsed.is_prerelease()
        && Version::parse(format!(
            "{}.{}.{}",
            parsed.major(),
            parsed.minor(),
            parsed.patch()
        ))
        .is_ok_and(|release| release.satisfies(&range_parsed))
}

#[cfg(test)]
mod tests;
