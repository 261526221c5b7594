//! `allowBuilds` / `dangerouslyAllowAllBuilds`: which dependencies may run
//! their lifecycle scripts (docs/settings.md §2.3).
//!
//! Keys are a package name (`esbuild`), a name with exact versions
//! (`esbuild@0.23.1 || 0.24.0`), or for git/tarball dependencies the depPath
//! without peer suffix. When several keys match, an explicit `false` wins
//! over `true` whatever the key kinds or their order (recorded with pnpm 12),
//! and `dangerouslyAllowAllBuilds` does not override an explicit `false`.

use std::collections::HashMap;

use indexmap::IndexMap;

use crate::ScriptsError;

/// What to do with a dependency that has build scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildDecision {
    /// Run its scripts.
    Allowed,
    /// Listed with `false`: skip silently.
    Denied,
    /// Not listed: skip and report as an ignored build (`ERR_PNPM_IGNORED_BUILDS`
    /// under `strictDepBuilds`, `.modules.yaml.ignoredBuilds`).
    NotApproved,
}

/// Exact versions a key lists (`None`: any version) and its value.
type VersionRule = (Option<Vec<String>>, bool);

/// The effective build permission settings.
#[derive(Debug, Clone, Default)]
pub struct BuildPolicy {
    allow_builds: IndexMap<String, bool>,
    dangerously_allow_all: bool,
    /// name → (exact versions, or `None` for a bare-name key; value).
    by_name: HashMap<String, Vec<VersionRule>>,
}

impl BuildPolicy {
    pub fn new(allow_builds: &IndexMap<String, bool>, dangerously_allow_all: bool) -> Self {
        let mut by_name: HashMap<String, Vec<VersionRule>> = HashMap::new();
        for (key, &value) in allow_builds {
            let (name, versions) = split_key(key);
            by_name
                .entry(name.to_string())
                .or_default()
                .push((versions, value));
        }
        BuildPolicy {
            allow_builds: allow_builds.clone(),
            dangerously_allow_all,
            by_name,
        }
    }

    /// The configured `allowBuilds` map, as given.
    pub fn allow_builds(&self) -> &IndexMap<String, bool> {
        &self.allow_builds
    }

    pub fn dangerously_allow_all(&self) -> bool {
        self.dangerously_allow_all
    }

    /// Decides for the package `name@version` whose depPath without peer
    /// suffix is `dep_path_without_peers` (equal to `name@version` for
    /// registry packages; the URL form for git/tarball dependencies).
    pub fn decide(&self, name: &str, version: &str, dep_path_without_peers: &str) -> BuildDecision {
        let mut allowed = false;
        let mut denied = false;
        let mut note = |value: bool| {
            if value { allowed = true } else { denied = true }
        };
        if let Some(entries) = self.by_name.get(name) {
            for (versions, value) in entries {
                match versions {
                    None => note(*value),
                    Some(list) if list.iter().any(|v| v == version) => note(*value),
                    Some(_) => {}
                }
            }
        }
        if let Some(&value) = self.allow_builds.get(dep_path_without_peers) {
            note(value);
        }
        if denied {
            BuildDecision::Denied
        } else if allowed || self.dangerously_allow_all {
            BuildDecision::Allowed
        } else {
            BuildDecision::NotApproved
        }
    }
}

/// `name` → (`name`, None); `name@1.0.0 || 2.0.0` → (`name`, [1.0.0, 2.0.0]).
fn split_key(key: &str) -> (&str, Option<Vec<String>>) {
    let at = key
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c == '@')
        .map(|(i, _)| i);
    match at {
        None => (key, None),
        Some(i) => {
            let versions = key[i + 1..]
                .split("||")
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
                .collect();
            (&key[..i], Some(versions))
        }
    }
}

/// `ERR_PNPM_IGNORED_BUILDS` for the given `name@version` entries. They are
/// sorted and deduplicated, as pnpm 12 prints them:
/// `Ignored build scripts: a@1.0.0, b@2.0.0`.
pub fn ignored_builds_error(ignored: &[String]) -> ScriptsError {
    let mut ignored = ignored.to_vec();
    ignored.sort();
    ignored.dedup();
    ScriptsError::IgnoredBuilds { ignored }
}

#[cfg(test)]
mod tests;
