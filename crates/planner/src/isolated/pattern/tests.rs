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
