//! Where a resolution's bytes come from (docs/lockfile.md §4–§5).

use crate::{DepPath, Resolution};

/// The tarball URL pnpm derives for a registry resolution:
/// `<registry>/<name>/-/<unscoped name>-<version without +build>.tgz`.
pub fn registry_tarball_url(registry: &str, name: &str, version: &str) -> String {
    let unscoped = name.rsplit_once('/').map_or(name, |(_, n)| n);
    let version = version.split_once('+').map_or(version, |(v, _)| v);
    let slash = if registry.ends_with('/') { "" } else { "/" };
    format!("{registry}{slash}{name}/-/{unscoped}-{version}.tgz")
}

impl DepPath {
    /// The registry tarball URL for this key (meaningful for registry resolutions).
    pub fn registry_tarball_url(&self, registry: &str) -> String {
        registry_tarball_url(registry, self.name(), self.version())
    }
}

impl Resolution {
    /// A git host's archive download (fetched, then prepared like a git
    /// checkout): `gitHosted: true`, or an HTTPS archive URL on
    /// codeload.github.com, bitbucket.org or gitlab.com (`/-/archive/`).
    pub fn is_git_hosted_tarball(&self) -> bool {
        let Resolution::Tarball {
            tarball,
            git_hosted,
            ..
        } = self
        else {
            return false;
        };
        if let Some(flag) = git_hosted {
            return *flag;
        }
        let Some(rest) = tarball.strip_prefix("https://") else {
            return false;
        };
        let host = rest.split('/').next().unwrap_or("");
        match host {
            "codeload.github.com" | "bitbucket.org" => true,
            "gitlab.com" => rest.contains("/-/archive/"),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests;
