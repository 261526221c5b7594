//! `minimumReleaseAgeExclude` / `trustPolicyExclude` entries: a name
//! pattern (`*` wildcards, `!` negation), or an exact name with a union of
//! exact versions (`foo@1.0.0 || 1.0.1`), as pnpm 12 reads them
//! (docs/supply-chain.md §3).

use miette::Diagnostic;
use pacquet_config::name_pattern::Matcher;

/// A policy setting that could not be read; pnpm 12's codes.
#[derive(Debug, thiserror::Error, Diagnostic, PartialEq, Eq)]
pub enum PolicyError {
    #[error("Invalid versions union. Found: \"{pattern}\". Use exact versions only.")]
    #[diagnostic(
        code(ERR_PNPM_INVALID_VERSION_UNION),
        help(
            "Write `name@1.0.0 || 1.0.1` with exact versions, or the bare name for every version."
        )
    )]
    InvalidVersionUnion { pattern: String },
    #[error("Name patterns are not allowed with version unions. Found: \"{pattern}\"")]
    #[diagnostic(
        code(ERR_PNPM_NAME_PATTERN_IN_VERSION_UNION),
        help("List each package of a version union by its exact name.")
    )]
    NamePatternInVersionUnion { pattern: String },
    #[error("Invalid value for trustPolicy: \"{value}\"")]
    #[diagnostic(
        code(ERR_PNPM_INVALID_SETTING),
        help("trustPolicy is `no-downgrade` or `off`.")
    )]
    UnknownTrustPolicy { value: String },
}

/// One compiled list.
#[derive(Debug, Clone, Default)]
pub struct ExcludeList {
    rules: Vec<(Matcher, Vec<String>)>,
    /// The patterns, sorted and deduplicated: what the verification cache
    /// records (docs/supply-chain.md §5).
    sorted: Vec<String>,
}

impl ExcludeList {
    pub fn parse(patterns: &[String]) -> Result<ExcludeList, PolicyError> {
        let mut rules = Vec::new();
        for pattern in patterns {
            let (name, versions) = parse_rule(pattern)?;
            rules.push((Matcher::new(&[name.to_string()]), versions));
        }
        let mut sorted = patterns.to_vec();
        sorted.sort();
        sorted.dedup();
        Ok(ExcludeList { rules, sorted })
    }

    /// Whether `name@version` is excluded: a matching bare-name rule
    /// excludes every version, matching union rules their versions.
    pub fn excludes(&self, name: &str, version: &str) -> bool {
        let mut any_version = false;
        let mut listed = false;
        for (matcher, versions) in &self.rules {
            if !matcher.matches(name) {
                continue;
            }
            if versions.is_empty() {
                any_version = true;
            } else if versions.iter().any(|v| v == version) {
                listed = true;
            }
        }
        any_version || listed
    }

    /// Whether a bare-name rule excludes every version of `name`.
    pub fn excludes_every_version(&self, name: &str) -> bool {
        self.rules
            .iter()
            .any(|(matcher, versions)| versions.is_empty() && matcher.matches(name))
    }

    pub fn sorted_patterns(&self) -> &[String] {
        &self.sorted
    }
}

/// `name` or `name@v1 || v2`; a scope's leading `@` is not a separator.
fn parse_rule(pattern: &str) -> Result<(&str, Vec<String>), PolicyError> {
    let at = if let Some(rest) = pattern.strip_prefix('@') {
        rest.find('@').map(|i| i + 1)
    } else {
        pattern.find('@')
    };
    let Some(at) = at else {
        return Ok((pattern, Vec::new()));
    };
    let (name, versions) = (&pattern[..at], &pattern[at + 1..]);
    let mut exact = Vec::new();
    for raw in versions.split("||") {
        let parsed = nodejs_semver::Version::parse(raw.trim()).map_err(|_| {
            PolicyError::InvalidVersionUnion {
                pattern: pattern.to_string(),
            }
        })?;
        exact.push(parsed.to_string());
    }
    if name.contains('*') {
        return Err(PolicyError::NamePatternInVersionUnion {
            pattern: pattern.to_string(),
        });
    }
    Ok((name, exact))
}

#[cfg(test)]
mod tests;
