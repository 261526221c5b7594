//! The small glob dialect of `files` entries and ignore files: `*` and `?`
//! stay inside one path segment, `**` crosses segments.

/// Whether `path` (`/`-separated) matches `pattern` as a whole.
pub fn glob_match(pattern: &str, path: &str) -> bool {
    matches(pattern.as_bytes(), path.as_bytes())
}

fn matches(p: &[u8], s: &[u8]) -> bool {
    match p.first() {
        None => s.is_empty(),
        Some(b'*') if p.get(1) == Some(&b'*') => {
            // `**/` may also match no directory at all.
            let rest = &p[2..];
            let rest_after_slash = rest.strip_prefix(b"/").unwrap_or(rest);
            if matches(rest_after_slash, s) {
                return true;
            }
            (0..s.len())
                .any(|i| matches(rest, &s[i + 1..]) || matches(rest_after_slash, &s[i + 1..]))
        }
        Some(b'*') => {
            let rest = &p[1..];
            for i in 0..=s.len() {
                if matches(rest, &s[i..]) {
                    return true;
                }
                if s.get(i) == Some(&b'/') {
                    break;
                }
            }
            false
        }
        Some(b'?') => s.first().is_some_and(|c| *c != b'/') && matches(&p[1..], &s[1..]),
        Some(c) => s.first() == Some(c) && matches(&p[1..], &s[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::glob_match;

    #[test]
    fn stars_stay_in_one_segment() {
        assert!(glob_match("*.js", "a.js"));
        assert!(!glob_match("*.js", "lib/a.js"));
        assert!(glob_match("lib/*.js", "lib/a.js"));
        assert!(glob_match("a?c", "abc"));
        assert!(!glob_match("a?c", "a/c"));
    }

    #[test]
    fn double_stars_cross_segments() {
        assert!(glob_match("**/*.js", "a.js"));
        assert!(glob_match("**/*.js", "x/y/a.js"));
        assert!(glob_match("lib/**", "lib/x/y"));
        assert!(!glob_match("lib/**/*.ts", "src/a.ts"));
    }
}
