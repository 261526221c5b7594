//! Hoisting patterns (`@pnpm/matcher`): `*` wildcards, `!` exclusions.

/// A compiled pattern list.
#[derive(Debug, Clone)]
pub(crate) struct Matcher {
    rules: Vec<(bool, String)>,
}

impl Matcher {
    pub(crate) fn new(patterns: &[String]) -> Self {
        let rules = patterns
            .iter()
            .map(|p| match p.strip_prefix('!') {
                Some(rest) => (true, rest.to_owned()),
                None => (false, p.clone()),
            })
            .collect();
        Matcher { rules }
    }

    pub(crate) fn matches(&self, input: &str) -> bool {
        let has_include = self.rules.iter().any(|(ignore, _)| !ignore);
        if !has_include {
            // Only exclusions: everything not excluded matches.
            return !self.rules.is_empty() && !self.rules.iter().any(|(_, p)| glob(p, input));
        }
        let mut matched = false;
        for (ignore, pattern) in &self.rules {
            if *ignore {
                if glob(pattern, input) {
                    matched = false;
                }
            } else if !matched && glob(pattern, input) {
                matched = true;
            }
        }
        matched
    }
}

/// `*` matches any run of characters; everything else is literal.
fn glob(pattern: &str, input: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = input.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests;
