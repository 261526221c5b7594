//! Frozen-lockfile gate 3: the configuration the lockfile was resolved with
//! must equal the current one (`ERR_PNPM_LOCKFILE_CONFIG_MISMATCH`).

use std::collections::BTreeMap;

use crate::{Lockfile, LockfileError};

/// pnpm's default `peersSuffixMaxLength`.
pub const DEFAULT_PEERS_SUFFIX_MAX_LENGTH: u64 = 1000;

/// The config-side values, already resolved by the caller (the top-level
/// `catalog:` of `pnpm-workspace.yaml` goes into `catalogs["default"]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectedSettings {
    pub overrides: BTreeMap<String, String>,
    pub auto_install_peers: bool,
    pub exclude_links_from_lockfile: bool,
    pub dedupe_peers: bool,
    pub peers_suffix_max_length: u64,
    pub inject_workspace_packages: bool,
    pub ignored_optional_dependencies: Vec<String>,
    pub package_extensions_checksum: Option<String>,
    pub pnpmfile_checksum: Option<String>,
    /// selector → patch hash.
    pub patched_dependencies: BTreeMap<String, String>,
    /// catalog name → package → specifier.
    pub catalogs: BTreeMap<String, BTreeMap<String, String>>,
    /// `lockfile.integrityTarget` (`tgz` by default).
    pub integrity_target: String,
}

impl Default for ExpectedSettings {
    fn default() -> Self {
        ExpectedSettings {
            overrides: BTreeMap::new(),
            auto_install_peers: true,
            exclude_links_from_lockfile: false,
            dedupe_peers: false,
            peers_suffix_max_length: DEFAULT_PEERS_SUFFIX_MAX_LENGTH,
            inject_workspace_packages: false,
            ignored_optional_dependencies: Vec::new(),
            package_extensions_checksum: None,
            pnpmfile_checksum: None,
            patched_dependencies: BTreeMap::new(),
            catalogs: BTreeMap::new(),
            integrity_target: "tgz".to_owned(),
        }
    }
}

/// Compares in pnpm's order and names the first field that differs.
pub fn check_settings(
    lockfile: &Lockfile,
    expected: &ExpectedSettings,
) -> Result<(), LockfileError> {
    match first_mismatch(lockfile, expected) {
        Some(field) => Err(LockfileError::ConfigMismatch {
            field: field.to_owned(),
        }),
        None => Ok(()),
    }
}

fn first_mismatch(lf: &Lockfile, exp: &ExpectedSettings) -> Option<&'static str> {
    let settings = lf.settings.clone().unwrap_or_default();
    let catalogs_ok = lf.catalogs.iter().flatten().all(|(catalog, entries)| {
        entries.iter().all(|(name, dep)| {
            exp.catalogs
                .get(catalog)
                .and_then(|c| c.get(name))
                .is_some_and(|spec| *spec == dep.specifier)
        })
    });
    if !catalogs_ok {
        return Some("catalogs");
    }
    let overrides: BTreeMap<&str, &str> = lf
        .overrides
        .iter()
        .flatten()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let expected_overrides: BTreeMap<&str, &str> = exp
        .overrides
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    if overrides != expected_overrides {
        return Some("overrides");
    }
    if lf.package_extensions_checksum != exp.package_extensions_checksum {
        return Some("packageExtensionsChecksum");
    }
    let mut ignored = lf.ignored_optional_dependencies.clone().unwrap_or_default();
    ignored.sort();
    let mut expected_ignored = exp.ignored_optional_dependencies.clone();
    expected_ignored.sort();
    if ignored != expected_ignored {
        return Some("ignoredOptionalDependencies");
    }
    if patch_hashes(lf) != exp.patched_dependencies {
        return Some("patchedDependencies");
    }
    if settings
        .auto_install_peers
        .is_some_and(|v| v != exp.auto_install_peers)
    {
        return Some("settings.autoInstallPeers");
    }
    if settings.dedupe_peers.unwrap_or(false) != exp.dedupe_peers {
        return Some("settings.dedupePeers");
    }
    if settings
        .exclude_links_from_lockfile
        .is_some_and(|v| v != exp.exclude_links_from_lockfile)
    {
        return Some("settings.excludeLinksFromLockfile");
    }
    if settings
        .peers_suffix_max_length
        .unwrap_or(DEFAULT_PEERS_SUFFIX_MAX_LENGTH)
        != exp.peers_suffix_max_length
    {
        return Some("settings.peersSuffixMaxLength");
    }
    if lf.pnpmfile_checksum != exp.pnpmfile_checksum {
        return Some("pnpmfileChecksum");
    }
    if settings.inject_workspace_packages.unwrap_or(false) != exp.inject_workspace_packages {
        return Some("settings.injectWorkspacePackages");
    }
    if settings.integrity_target.as_deref().unwrap_or("tgz") != exp.integrity_target {
        return Some("settings.integrityTarget");
    }
    None
}

/// selector → hash; v10 lockfiles store `{path, hash}` objects instead.
pub fn patch_hashes(lf: &Lockfile) -> BTreeMap<String, String> {
    lf.patched_dependencies
        .iter()
        .flatten()
        .filter_map(|(selector, value)| {
            let hash = value
                .as_str()
                .or_else(|| value.get("hash").and_then(|h| h.as_str()))?;
            Some((selector.clone(), hash.to_owned()))
        })
        .collect()
}

#[cfg(test)]
mod tests;
