use super::{ExcludeList, PolicyError};

fn list(patterns: &[&str]) -> ExcludeList {
    ExcludeList::parse(&patterns.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
}

#[test]
fn names_patterns_and_versions() {
    let l = list(&[
        "left-pad",
        "@types/*",
        "react@18.2.0 || 18.3.1",
        "@scope/x@1.0.0",
    ]);
    assert!(l.excludes("left-pad", "1.3.0"));
    assert!(l.excludes("@types/node", "20.0.0"));
    assert!(l.excludes("react", "18.3.1"));
    assert!(!l.excludes("react", "18.3.0"));
    assert!(l.excludes("@scope/x", "1.0.0"));
    assert!(!l.excludes("@scope/x", "1.0.1"));
    assert!(!l.excludes("lodash", "4.17.21"));
}

#[test]
fn rejects_ranges_and_patterns_in_unions() {
    let err = ExcludeList::parse(&["react@^18".to_string()]).unwrap_err();
    assert!(matches!(err, PolicyError::InvalidVersionUnion { .. }));
    let err = ExcludeList::parse(&["@types/*@1.0.0".to_string()]).unwrap_err();
    assert!(matches!(err, PolicyError::NamePatternInVersionUnion { .. }));
}

#[test]
fn records_sorted_unique_patterns() {
    let l = list(&["b", "a", "b"]);
    assert_eq!(l.sorted_patterns(), ["a", "b"]);
}
