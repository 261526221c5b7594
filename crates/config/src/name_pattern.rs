//! Package-name patterns (`@pnpm/matcher`, docs/layout.md §14: hoisting,
//! and the supply-chain exclude lists): `*` matches
//! any run of characters (`/` included: the input is a package name),
//! everything else is literal; `!` excludes.

use globset::{Glob, GlobMatcher};

/// A compiled pattern list.
#[derive(Debug, Clone)]
pub struct Matcher {
    /// `(exclusion, pattern)` in list order.
    rules: Vec<(bool, GlobMatcher)>,
}

impl Matcher {
    pub fn new(patterns: &[String]) -> Self {
        let rules = patterns
            .iter()
            .filter_map(|p| match p.strip_prefix('!') {
                Some(rest) => Some((true, compile(rest)?)),
                None => Some((false, compile(p)?)),
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

/// `*` stays a wildcard (crossing `/`), every other glob character is
/// escaped. `None` only if globset rejects what is left, which escaping
/// rules out.
fn compile(pattern: &str) -> Option<GlobMatcher> {
    let escaped: Vec<String> = pattern.split('*').map(globset::escape).collect();
    let glob = escaped.join("*");
    Glob::new(&glob).ok().map(|g| g.compile_matcher())
}

#[cfg(test)]
mod tests;
