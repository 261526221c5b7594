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

/// @pnpm/matcher's rule taken literally: the pattern is a regular
/// expression `^…$` in which `*` is `.*` and every other character stands
/// for itself; matched here by backtracking over every split.
fn reference(pattern: &[u8], input: &[u8]) -> bool {
    match pattern.split_first() {
        None => input.is_empty(),
        Some((b'*', rest)) => (0..=input.len()).any(|at| reference(rest, &input[at..])),
        Some((c, rest)) => input.first() == Some(c) && reference(rest, &input[1..]),
    }
}

/// Every string of up to `len` characters over `alphabet`.
fn all_strings(alphabet: &[char], len: usize) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut last = vec![String::new()];
    for _ in 0..len {
        last = last
            .iter()
            .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
            .collect();
        out.extend(last.iter().cloned());
    }
    out
}

/// Every pattern of up to 5 characters over `a`, `b`, `/`, `*` against every
/// input of up to 5 characters over `a`, `b`, `/`: overlapping pieces,
/// repeated stars, empty pieces at either end. `**` is two runs and no
/// more: `**/` (`^.*.*/$`) does not match `""`, as a glob library's "any
/// directories, or none" would.
#[test]
fn agrees_with_pnpm_s_regular_expressions() {
    let patterns = all_strings(&['a', 'b', '/', '*'], 5);
    let inputs = all_strings(&['a', 'b', '/'], 5);
    for pattern in &patterns {
        let wildcard = Wildcard::new(pattern);
        for input in &inputs {
            assert_eq!(
                wildcard.is_match(input),
                reference(pattern.as_bytes(), input.as_bytes()),
                "pattern {pattern:?} on {input:?}"
            );
        }
    }
}
