use super::PatchSelectors;
use crate::LockfileError;

fn selectors(keys: &[&str]) -> PatchSelectors<usize> {
    PatchSelectors::new(keys.iter().enumerate().map(|(i, k)| (k.to_string(), i))).unwrap()
}

fn chosen(s: &PatchSelectors<usize>, name: &str, version: &str) -> Option<String> {
    s.select(name, version)
        .unwrap()
        .map(|sel| sel.key.to_owned())
}

#[test]
fn exact_then_range_then_bare() {
    let s = selectors(&["a@1.0.0", "a@^1.1.0", "a", "@s/b@2.0.0"]);
    assert_eq!(chosen(&s, "a", "1.0.0").as_deref(), Some("a@1.0.0"));
    assert_eq!(chosen(&s, "a", "1.2.0").as_deref(), Some("a@^1.1.0"));
    assert_eq!(chosen(&s, "a", "3.0.0").as_deref(), Some("a"));
    assert_eq!(chosen(&s, "@s/b", "2.0.0").as_deref(), Some("@s/b@2.0.0"));
    assert_eq!(chosen(&s, "@s/b", "2.0.1"), None);
    assert_eq!(chosen(&s, "c", "1.0.0"), None);
}

#[test]
fn star_is_bare_and_non_semver_versions_take_the_bare_entry() {
    let s = selectors(&["a@*", "a@^1"]);
    assert_eq!(chosen(&s, "a", "2.0.0").as_deref(), Some("a@*"));
    assert_eq!(
        chosen(&s, "a", "https://example.com/a.tgz").as_deref(),
        Some("a@*")
    );
}

#[test]
fn two_matching_ranges_conflict() {
    let s = selectors(&["a@^1", "a@>=1.0.0"]);
    let err = s.select("a", "1.5.0").unwrap_err();
    assert!(
        matches!(&err, LockfileError::PatchKeyConflict { ranges, .. } if ranges == &["^1", ">=1.0.0"])
    );
    assert_eq!(
        err.to_string(),
        "Unable to choose between 2 version ranges to patch a@1.5.0: ^1, >=1.0.0"
    );
    // An exact entry settles it.
    let s = selectors(&["a@^1", "a@>=1.0.0", "a@1.5.0"]);
    assert_eq!(chosen(&s, "a", "1.5.0").as_deref(), Some("a@1.5.0"));
}

#[test]
fn invalid_range_is_refused() {
    let err = PatchSelectors::new([("a@foo%bar".to_owned(), 0)]).unwrap_err();
    assert!(matches!(&err, LockfileError::PatchNonSemverRange { range } if range == "foo%bar"));
    assert_eq!(
        err.to_string(),
        "foo%bar is not a valid semantic version range."
    );
}
