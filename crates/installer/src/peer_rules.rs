//! `peerDependencyRules`: which of a resolution's peer issues pnpm 12
//! still warns about (docs/resolution.md §8).

use nodejs_semver::{Range, Version};
use pacquet_config::{PeerDependencyRules, name_pattern::Matcher};
use pacquet_resolver::PeerIssues;
use pacquet_resolver::graph::{id_name, id_version};
use pacquet_resolver::peers::satisfies_as_peer;

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
    if target.is_empty() || id_name(target) != peer {
        return false;
    }
    if let Some(parent) = parent {
        if parent.is_empty() || id_name(parent) != id_name(consumer) {
            return false;
        }
        let range = id_version(parent);
        if !range.is_empty() && !satisfies(id_version(consumer), range) {
            return false;
        }
    }
    ranges
        .split("||")
        .any(|range| satisfies(found, range.trim()))
}

/// [`satisfies_as_peer`]; `*` allows anything, and what is not semver
/// only itself.
fn satisfies(version: &str, range: &str) -> bool {
    if range == "*" {
        return true;
    }
    match (Version::parse(version), Range::parse(range)) {
        (Ok(version), Ok(range)) => satisfies_as_peer(&version, &range),
        _ => version == range,
    }
}

#[cfg(test)]
mod tests;
