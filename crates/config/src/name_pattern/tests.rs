use super::*;

fn m(patterns: &[&str]) -> Matcher {
    Matcher::new(&patterns.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

#[test]
fn wildcards() {
    assert!(m(&["*"]).matches("anything"));
    assert!(m(&["*eslint*"]).matches("@typescript-eslint/parser"));
    assert!(m(&["*eslint*"]).matches("eslint"));
    assert!(!m(&["*eslint*"]).matches("prettier"));
    assert!(m(&["@types/*"]).matches("@types/node"));
    assert!(m(&["a*b*c"]).matches("abc"));
    assert!(!m(&["a*b*c"]).matches("acb"));
    assert!(!m(&[]).matches("x"));
}

#[test]
fn exclusions() {
    assert!(!m(&["*", "!react"]).matches("react"));
    assert!(m(&["*", "!react"]).matches("react-dom"));
    assert!(m(&["!react"]).matches("vue"));
    assert!(!m(&["!react"]).matches("react"));
}

/// Only `*` is special: other glob characters are matched literally, as
/// @pnpm/matcher escapes them into its regular expression.
#[test]
fn other_glob_characters_are_literal() {
    assert!(m(&["a?c"]).matches("a?c"));
    assert!(!m(&["a?c"]).matches("abc"));
    assert!(m(&["[ab]"]).matches("[ab]"));
    assert!(!m(&["[ab]"]).matches("a"));
    assert!(m(&["{a,b}*"]).matches("{a,b}x"));
    assert!(!m(&["{a,b}*"]).matches("ax"));
    // Case matters; `*` crosses the scope's `/`.
    assert!(!m(&["React"]).matches("react"));
    assert!(m(&["@babel*core"]).matches("@babel/core"));
}

/// An exclusion only undoes matches before it; a later inclusion can match
/// again.
#[test]
fn order_of_inclusions_and_exclusions() {
    assert!(!m(&["*eslint*", "!eslint"]).matches("eslint"));
    assert!(m(&["!eslint", "*eslint*"]).matches("eslint"));
    assert!(m(&["*", "!@types/*", "@types/node"]).matches("@types/node"));
    assert!(!m(&["*", "!@types/*", "@types/node"]).matches("@types/react"));
}
