//! Picks `dist-tags.latest` of fixture packuments by semver precedence.

use nodejs_semver::Version;

/// Highest version without a prerelease part; if all are prereleases, the
/// highest of them. Panics on a version that is not semver: a registry
/// would not have accepted it, so the fixture is broken.
pub fn highest_release<'a>(versions: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let parsed: Vec<(Version, &str)> = versions
        .into_iter()
        .map(|v| match Version::parse(v) {
            Ok(parsed) => (parsed, v),
            Err(e) => panic!("fixture version {v:?} is not semver: {e}"),
        })
        .collect();
    let any_release = parsed.iter().any(|(v, _)| !v.is_prerelease());
    parsed
        .into_iter()
        .filter(|(v, _)| !(any_release && v.is_prerelease()))
        .max_by(|(a, _), (b, _)| a.cmp(b))
        .map(|(_, raw)| raw)
}

#[cfg(test)]
mod tests {
    use super::highest_release;

    #[test]
    fn latest_prefers_highest_release() {
        let v = ["1.0.0", "1.10.0", "1.9.0", "2.0.0-rc.1"];
        assert_eq!(highest_release(v), Some("1.10.0"));
        // Only prereleases: the highest of them.
        assert_eq!(highest_release(["1.0.0-a", "1.0.0-b"]), Some("1.0.0-b"));
    }

    #[test]
    #[should_panic(expected = "fixture version \"1.0\" is not semver")]
    fn rejects_a_version_that_is_not_semver() {
        highest_release(["1.0.0", "1.0"]);
    }

    #[test]
    fn build_metadata_with_a_dash_is_a_release() {
        // `+build-1` is not a prerelease; it must not lose to 1.0.0.
        assert_eq!(
            highest_release(["1.0.0", "1.0.1+build-1"]),
            Some("1.0.1+build-1")
        );
    }

    /// Pairs `(lower, higher)` by semver 2.0.0 §11 precedence, each of
    /// which a string comparison of the prerelease part gets backwards.
    #[test]
    fn prereleases_follow_semver_precedence() {
        let pairs = [
            // Numeric identifiers compare numerically...
            ("1.0.0-rc.9", "1.0.0-rc.10"),
            ("1.0.0-2", "1.0.0-11"),
            ("1.0.0-beta.2.9", "1.0.0-beta.11.0"),
            // ...and are lower than alphanumeric ones, though '-' sorts
            // before the digits as a byte.
            ("1.0.0-alpha.1", "1.0.0-alpha.-1"),
        ];
        for (lower, higher) in pairs {
            assert_eq!(
                highest_release([lower, higher]),
                Some(higher),
                "{lower} < {higher}"
            );
            assert_eq!(
                highest_release([higher, lower]),
                Some(higher),
                "{lower} < {higher}"
            );
        }
    }
}
