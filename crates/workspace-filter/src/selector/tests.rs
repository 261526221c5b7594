use std::path::{Path, PathBuf};

use pretty_assertions::assert_eq;

use super::{Selector, parse_selector};

fn parse(raw: &str) -> Selector {
    parse_selector(raw, Path::new("/ws"))
}

#[test]
fn a_name() {
    assert_eq!(
        parse("@scope/app"),
        Selector {
            name_pattern: Some("@scope/app".into()),
            ..Selector::default()
        }
    );
}

#[test]
fn dependencies_dependents_and_carets() {
    let s = parse("app...");
    assert!(s.include_dependencies && !s.include_dependents && !s.exclude_self);
    let s = parse("...app");
    assert!(!s.include_dependencies && s.include_dependents && !s.exclude_self);
    let s = parse("app^...");
    assert!(s.include_dependencies && s.exclude_self);
    assert_eq!(s.name_pattern.as_deref(), Some("app"));
    let s = parse("...^app");
    assert!(s.include_dependents && s.exclude_self);
    assert_eq!(s.name_pattern.as_deref(), Some("app"));
    let s = parse("...app...");
    assert!(s.include_dependencies && s.include_dependents);
}

#[test]
fn exclusion() {
    let s = parse("!app");
    assert!(s.exclude);
    assert_eq!(s.name_pattern.as_deref(), Some("app"));
}

#[test]
fn braces_and_brackets() {
    let s = parse("{packages/*}");
    assert_eq!(s.parent_dir, Some(PathBuf::from("/ws/packages/*")));
    assert_eq!(s.name_pattern, None);
    let s = parse("app{packages/../libs}[origin/main]");
    assert_eq!(s.name_pattern.as_deref(), Some("app"));
    assert_eq!(s.parent_dir, Some(PathBuf::from("/ws/libs")));
    assert_eq!(s.diff.as_deref(), Some("origin/main"));
    let s = parse("...[HEAD~1]");
    assert!(s.include_dependents);
    assert_eq!(s.diff.as_deref(), Some("HEAD~1"));
    assert_eq!(s.name_pattern, None);
}

#[test]
fn paths_fall_back_to_a_location_keeping_only_the_exclusion() {
    let s = parse("!./packages/app");
    assert_eq!(
        s,
        Selector {
            exclude: true,
            parent_dir: Some(PathBuf::from("/ws/packages/app")),
            ..Selector::default()
        }
    );
    assert_eq!(parse(".").parent_dir, Some(PathBuf::from("/ws")));
    assert_eq!(parse("..").parent_dir, Some(PathBuf::from("/")));
    // A location with `...` loses the walk, as in pnpm.
    let s = parse("./packages/app...");
    assert!(!s.include_dependencies);
    assert_eq!(s.parent_dir, Some(PathBuf::from("/ws/packages/app")));
}

#[test]
fn anything_else_is_a_name_pattern_with_nothing_else() {
    // `.hidden` is neither grammar nor a path: a name, and `!` is dropped.
    assert_eq!(
        parse("!.hidden"),
        Selector {
            name_pattern: Some(".hidden".into()),
            ..Selector::default()
        }
    );
    // An empty `{}` does not parse as a directory.
    assert_eq!(parse("{}").name_pattern.as_deref(), Some("{}"));
}
