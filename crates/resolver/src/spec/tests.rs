use super::*;

fn registry(alias: &str, spec: &str) -> RegistrySpec {
    match parse(alias, spec) {
        Spec::Registry(spec) => spec,
        Spec::Other(other) => panic!("{other} is not a registry spec"),
    }
}

#[test]
fn versions_ranges_and_tags() {
    let exact = |s: &str| Selector::Version(Version::parse(s).unwrap());
    assert_eq!(registry("a", "1.2.3").selector, exact("1.2.3"));
    assert_eq!(registry("a", "=1.2.3").selector, exact("1.2.3"));
    assert_eq!(registry("a", "v1.2.3").selector, exact("1.2.3"));
    assert!(matches!(
        registry("a", "^1.2.3").selector,
        Selector::Range(_)
    ));
    assert!(matches!(
        registry("a", ">=1 <2 || 3").selector,
        Selector::Range(_)
    ));
    assert!(matches!(registry("a", "*").selector, Selector::Range(_)));
    assert_eq!(registry("a", "next").selector, Selector::Tag("next".into()));
    assert_eq!(registry("a", "").selector, Selector::Tag("latest".into()));
}

#[test]
fn npm_aliases_name_another_package() {
    let spec = registry("plain-alias", "npm:pq-plain@^1.0.0");
    assert_eq!(spec.name, "pq-plain");
    assert_eq!(spec.selector_raw(), "^1.0.0");
    let scoped = registry("x", "npm:@pq/plain@1.0.0");
    assert_eq!(scoped.name, "@pq/plain");
    assert_eq!(scoped.selector_raw(), "1.0.0");
    let bare = registry("x", "npm:@pq/plain");
    assert_eq!(bare.name, "@pq/plain");
    assert_eq!(bare.selector, Selector::Tag("latest".into()));
    assert_eq!(registry("a", "^1.0.0").selector_raw(), "^1.0.0");
}

#[test]
fn other_protocols_are_not_registry_specs() {
    for spec in [
        "workspace:*",
        "file:../a",
        "link:../a",
        "catalog:",
        "git+https://example.com/a.git",
        "github:user/repo",
        "user/repo",
        "https://example.com/a.tgz",
        "./local",
        "jsr:@std/fs",
    ] {
        assert!(matches!(parse("a", spec), Spec::Other(_)), "{spec}");
    }
}
