//! Package-name patterns (`@pnpm/matcher`, docs/layout.md §14: hoisting,
//! and the supply-chain exclude lists): `*` matches
//! any run of characters (`/` included: the input is a package name),
//! everything else is literal; `!` excludes.

/// A compiled pattern list.
#[derive(Debug, Clone)]
pub struct Matcher {
    /// `(exclusion, pattern)` in list order.
    rules: Vec<(bool, Wildcard)>,
}

impl Matcher {
    pub fn new(patterns: &[String]) -> Self {
        let rules = patterns
            .iter()
            .map(|p| match p.strip_prefix('!') {
                Some(rest) => (true, Wildcard::new(rest)),
                None => (false, Wildcard::new(p)),
            })
            .collect();
        Matcher { rules }
    }

    /// docs/layout.md §14: no patterns match nothing; only exclusions match what none of
    /// them names; otherwise an inclusion must match and no later
    /// exclusion may.
    pub fn matches(&self, input: &str) -> bool {
        let has_include = self.rules.iter().any(|(exclude, _)| !exclude);
        if !has_include {
            return !self.rules.is_empty() && !self.rules.iter().any(|(_, g)| g.is_match(input));
        }
        let mut matched = false;
        for (exclude, glob) in &self.rules {
            if *exclude {
                if glob.is_match(input) {
                    matched = false;
                }
            } else if !matched && glob.is_match(input) {
                matched = true;
            }
        }
        matched
    }
}

/// One pattern, as the literal pieces between its `*`s. Matched directly
/// rather than through a compiled glob: the planners ask the hoisting
/// patterns about every alias, and `globset` was 6 % of planning alotta
/// (`cargo bench -p pacquet-planner`, `perf`).
#[derive(Debug, Clone)]
struct Wildcard {
    /// One more than the pattern has `*`s; never empty.
    pieces: Vec<String>,
}

impl Wildcard {
    fn new(pattern: &str) -> Self {
        Wildcard {
            pieces: pattern.split('*').map(str::to_owned).collect(),
        }
    }

    fn is_match(&self, input: &str) -> bool {
        let Some((first, rest)) = self.pieces.split_first() else {
            return false;
        };
        let Some((last, middle)) = rest.split_last() else {
            return input == first;
        };
        // The first piece starts the input and the last ends what is left
        // (so the two cannot overlap); each middle piece then matches at
        // its leftmost place, which leaves the most room to the others.
        let Some(mut inner) = input
            .strip_prefix(first.as_str())
            .and_then(|s| s.strip_suffix(last.as_str()))
        else {
            return false;
        };
        for piece in middle {
            match inner.find(piece.as_str()) {
                Some(at) => inner = &inner[at + piece.len()..],
                None => return false,
            }
        }
        true
    }
}

#[cfg(test)]
mod tests;
