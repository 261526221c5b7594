//! The small glob dialect of `files` entries and ignore files: `*` and `?`
//! stay inside one path segment, `**` crosses segments.

/// Whether `path` (`/`-separated) matches `pattern` as a whole. Memoized
/// over (pattern position, path position), so hostile patterns such as
/// `*a*a*a…` from a package's `files` cost at most their product.
pub fn glob_match(pattern: &str, path: &str) -> bool {
    // Longer patterns are not real file names; refusing them bounds memory.
    if pattern.len() > MAX_PATTERN {
        return false;
    }
    let mut memo = Memo {
        p: pattern.as_bytes(),
        s: path.as_bytes(),
        seen: vec![None; (pattern.len() + 1) * (path.len() + 1)],
    };
    memo.matches(0, 0)
}

const MAX_PATTERN: usize = 1024;

struct Memo<'a> {
    p: &'a [u8],
    s: &'a [u8],
    seen: Vec<Option<bool>>,
}

impl Memo<'_> {
    fn matches(&mut self, pi: usize, si: usize) -> bool {
        let slot = pi * (self.s.len() + 1) + si;
        if let Some(known) = self.seen[slot] {
            return known;
        }
        let result = self.step(pi, si);
        self.seen[slot] = Some(result);
        result
    }

    fn step(&mut self, pi: usize, si: usize) -> bool {
        let (p, s) = (self.p, self.s);
        match p.get(pi) {
            None => si == s.len(),
            Some(b'*') if p.get(pi + 1) == Some(&b'*') => {
                // `**/` may also match no directory at all.
                let rest = pi + 2;
                let after_slash = if p.get(rest) == Some(&b'/') {
                    rest + 1
                } else {
                    rest
                };
                (si..=s.len()).any(|i| self.matches(rest, i) || self.matches(after_slash, i))
            }
            Some(b'*') => {
                // One segment: stop at the next `/`.
                let end = s[si..]
                    .iter()
                    .position(|c| *c == b'/')
                    .map_or(s.len(), |n| si + n);
                (si..=end).any(|i| self.matches(pi + 1, i))
            }
            Some(b'?') => s.get(si).is_some_and(|c| *c != b'/') && self.matches(pi + 1, si + 1),
            Some(c) => s.get(si) == Some(c) && self.matches(pi + 1, si + 1),
        }
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
    fn hostile_patterns_finish() {
        let pattern = "*a".repeat(200);
        assert!(!glob_match(&pattern, &"a".repeat(150)));
    }

    #[test]
    fn double_stars_cross_segments() {
        assert!(glob_match("**/*.js", "a.js"));
        assert!(glob_match("**/*.js", "x/y/a.js"));
        assert!(glob_match("lib/**", "lib/x/y"));
        assert!(!glob_match("lib/**/*.ts", "src/a.ts"));
    }
}
