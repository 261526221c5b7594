//! The resolved configuration.

use std::fmt;
use std::path::PathBuf;

use indexmap::IndexMap;
use serde_json::Value;

use crate::auth::Credentials;
use crate::enums::HoistingLimits;
use crate::enums::{NodeLinker, PackageImportMethod};
use crate::platform::host_platform;
use crate::registry::Registries;

/// A value that must not show up in logs; `Debug` prints `(protected)`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(protected)")
    }
}

/// `supportedArchitectures`; `current` stands for the host value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupportedArchitectures {
    pub os: Vec<String>,
    pub cpu: Vec<String>,
    pub libc: Vec<String>,
}

impl Default for SupportedArchitectures {
    fn default() -> Self {
        let current = || vec!["current".to_owned()];
        SupportedArchitectures {
            os: current(),
            cpu: current(),
            libc: current(),
        }
    }
}

impl SupportedArchitectures {
    /// The lists with `current` replaced by the host platform (a host
    /// without libc contributes nothing to `libc`).
    pub fn resolved(&self) -> SupportedArchitectures {
        let (os, cpu, libc) = host_platform();
        let replace = |list: &[String], host: Option<&str>| -> Vec<String> {
            let mut out: Vec<String> = Vec::new();
            for item in list {
                let item = if item == "current" {
                    host
                } else {
                    Some(item.as_str())
                };
                if let Some(item) = item
                    && !out.iter().any(|existing| existing == item)
                {
                    out.push(item.to_owned());
                }
            }
            out
        };
        SupportedArchitectures {
            os: replace(&self.os, Some(os)),
            cpu: replace(&self.cpu, Some(cpu)),
            libc: replace(&self.libc, libc),
        }
    }
}

/// Everything `pacquet install --frozen-lockfile` reads from the settings
/// sources, resolved and defaulted. Field names are pnpm's camelCase
/// settings in snake_case.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    // --- locations
    /// The directory pacquet runs in.
    pub cwd: PathBuf,
    /// Nearest ancestor with `pnpm-workspace.yaml`, else `cwd`.
    pub workspace_root: PathBuf,
    /// Whether a `pnpm-workspace.yaml` was found.
    pub is_workspace: bool,
    /// `packages:` of `pnpm-workspace.yaml`.
    pub packages: Vec<String>,
    /// Whether `pnpm-workspace.yaml` has a `packages` key (even `[]`).
    pub packages_declared: bool,
    /// `trustPolicy`, as set (`no-downgrade` or `off`; checked by the
    /// lockfile verification, docs/supply-chain.md).
    pub trust_policy: Option<String>,
    /// `trustPolicyExclude`: `name` / `name@v1 || v2` / glob patterns.
    pub trust_policy_exclude: Vec<String>,
    /// `trustPolicyIgnoreAfter` (minutes), as set.
    pub trust_policy_ignore_after: Option<u64>,
    /// `minimumReleaseAge` in minutes (pnpm 12 default 1440; 0 disables).
    pub minimum_release_age: u64,
    /// `minimumReleaseAgeExclude`: `name` / `name@v1 || v2` / glob patterns.
    pub minimum_release_age_exclude: Vec<String>,
    /// `minimumReleaseAgeStrict`: as set, else `true` when
    /// `minimumReleaseAge` is set, else unset. It only changes how a
    /// resolution picks versions (which pacquet does not do); a frozen
    /// install records it in the workspace state as pnpm 12 does.
    pub minimum_release_age_strict: Option<bool>,
    /// `minimumReleaseAgeIgnoreMissingTime` (default `true`): a registry
    /// without publish times passes the age check instead of failing it.
    pub minimum_release_age_ignore_missing_time: bool,
    /// Store directory, including the `v11` component.
    pub store_dir: PathBuf,
    /// pnpm home (`$PNPM_HOME`, …).
    pub pnpm_home: PathBuf,
    pub config_dir: PathBuf,
    pub cache_dir: PathBuf,
    pub state_dir: PathBuf,

    // --- layout
    pub package_import_method: PackageImportMethod,
    pub node_linker: NodeLinker,
    /// `hoistingLimits` (hoisted layout only).
    pub hoisting_limits: HoistingLimits,
    /// `externalDependencies` (hoisted layout only): names whose root slot
    /// another tool fills, so nothing is hoisted into it.
    pub external_dependencies: Vec<String>,
    pub hoist: bool,
    /// Effective private hoist patterns (`[]` when `hoist: false`).
    pub hoist_pattern: Vec<String>,
    /// Effective public hoist patterns (`['*']` when `shamefullyHoist`).
    pub public_hoist_pattern: Vec<String>,
    pub shamefully_hoist: bool,
    pub hoist_workspace_packages: bool,
    /// Per-project modules directory name (`node_modules`).
    pub modules_dir: String,
    /// Absolute virtual store directory.
    pub virtual_store_dir: PathBuf,
    pub virtual_store_dir_max_length: u64,
    pub enable_modules_dir: bool,
    pub extend_node_path: bool,
    /// `preferSymlinkedExecutables` as set.
    pub prefer_symlinked_executables: Option<bool>,
    /// Whether `.bin` entries are symlinks: as set, else on when the
    /// settings files or the environment select the hoisted layout.
    pub symlinked_executables: bool,
    pub enable_global_virtual_store: bool,
    /// `globalVirtualStoreDir` (default `<storeDir>/links`).
    pub global_virtual_store_dir: PathBuf,
    pub modules_cache_max_age: u64,

    // --- registries and network
    pub registries: Registries,
    /// Per-registry credentials; `Debug` prints key names only.
    pub credentials: Credentials,
    pub strict_ssl: bool,
    pub ca: Option<String>,
    pub cafile: Option<String>,
    pub cert: Option<Secret>,
    pub key: Option<Secret>,
    pub https_proxy: Option<Secret>,
    pub http_proxy: Option<Secret>,
    pub no_proxy: Option<String>,
    pub local_address: Option<String>,
    pub network_concurrency: usize,
    pub fetch_retries: u32,
    pub fetch_retry_factor: f64,
    /// Milliseconds.
    pub fetch_retry_mintimeout: u64,
    /// Milliseconds.
    pub fetch_retry_maxtimeout: u64,
    /// Milliseconds.
    pub fetch_timeout: u64,
    pub offline: bool,
    pub prefer_offline: bool,

    // --- store and builds
    pub verify_store_integrity: bool,
    pub strict_store_pkg_content_check: bool,
    pub frozen_store: bool,
    /// `lockfile.integrityTarget`: `tgz` (the default; pnpm 12.21 refuses
    /// it written out) or `tar`.
    pub lockfile_integrity_target: String,
    /// `lockfile.includeResolutionSettings` (pnpm 12): record and check
    /// resolution settings in the lockfile.
    pub lockfile_include_resolution_settings: bool,
    /// Read build results from the side-effects cache.
    pub side_effects_cache: bool,
    /// Do not write build results to the side-effects cache.
    pub side_effects_cache_readonly: bool,
    pub ignore_scripts: bool,
    /// `name` / `name@1.0.0 || 2.0.0` / depPath → allowed.
    pub allow_builds: IndexMap<String, bool>,
    pub dangerously_allow_all_builds: bool,
    pub strict_dep_builds: bool,
    pub child_concurrency: usize,

    // --- dependency selection and lockfile
    /// The `CI` environment was detected.
    pub ci: bool,
    /// Explicit `frozenLockfile`; see [`Config::frozen_lockfile_for`].
    pub frozen_lockfile: Option<bool>,
    pub prefer_frozen_lockfile: bool,
    pub trust_lockfile: bool,
    /// Install `dependencies`.
    pub production: bool,
    /// Install `devDependencies`.
    pub dev: bool,
    /// Install optional snapshots.
    pub optional: bool,
    pub supported_architectures: SupportedArchitectures,
    /// Which of `os`, `cpu`, `libc` `supportedArchitectures` gave (the
    /// workspace state records only those).
    pub supported_architectures_given: [bool; 3],
    pub ignored_optional_dependencies: Vec<String>,
    /// `ignoredOptionalDependencies` was set (even to `[]`): pnpm 12 then
    /// records it in the workspace state.
    pub ignored_optional_dependencies_set: bool,
    pub engine_strict: bool,
    /// `nodeVersion`: the Node.js version `engines.node` is checked against
    /// instead of the `node` on `PATH`.
    pub node_version: Option<String>,
    pub optimistic_repeat_install: bool,
    /// `recursiveInstall`: `false` installs the project in the current
    /// directory and its workspace dependencies only (`--filter {.}...`).
    pub recursive_install: bool,
    /// `sharedWorkspaceLockfile`: `false` (a lockfile per project) is
    /// refused by the installer.
    pub shared_workspace_lockfile: bool,
    /// `failIfNoMatch`: a filter that selects no project fails.
    pub fail_if_no_match: bool,
    /// `testPattern`: files whose changes alone do not select dependents
    /// (`--filter ...[<since>]`).
    pub test_pattern: Vec<String>,
    /// `changedFilesIgnorePattern`: files `[<since>]` does not count.
    pub changed_files_ignore_pattern: Vec<String>,
    /// `legacyDirFiltering`: `{dir}` selects every project under it.
    pub legacy_dir_filtering: bool,
    pub auto_install_peers: bool,
    pub exclude_links_from_lockfile: bool,
    pub dedupe_peers: bool,
    /// Resolution settings a frozen install only records (in the workspace
    /// state, docs/layout.md §9).
    pub dedupe_direct_deps: bool,
    pub dedupe_injected_deps: bool,
    pub dedupe_peer_dependents: bool,
    /// `resolutionMode` (`highest` by default; `time-based`,
    /// `lowest-direct`): how resolution picks versions.
    pub resolution_mode: String,
    /// `ignoreCompatibilityDb`: resolution leaves out the built-in
    /// package extensions (docs/resolution.md §3).
    pub ignore_compatibility_db: bool,
    /// `savePrefix` (`^` by default) and `saveExact`: how `add` writes a
    /// version it picked.
    pub save_prefix: String,
    pub save_exact: bool,
    /// `true`, `false` or `"deep"`.
    pub link_workspace_packages: Value,
    pub prefer_workspace_packages: bool,
    /// `strictPeerDependencies` and `resolvePeersFromWorkspaceRoot`
    /// (defaults `false` and `true`): how resolution treats peers.
    pub strict_peer_dependencies: bool,
    pub resolve_peers_from_workspace_root: bool,
    pub peers_suffix_max_length: u64,
    pub inject_workspace_packages: bool,
    /// `blockExoticSubdeps` (default `true`): resolution refuses a
    /// published package's dependency on a tarball URL or git repository.
    pub block_exotic_subdeps: bool,
    pub overrides: IndexMap<String, String>,
    /// `allowedDeprecatedVersions`: name → range of deprecated versions
    /// resolution does not warn about.
    pub allowed_deprecated_versions: IndexMap<String, String>,
    /// `peerDependencyRules`: which peer issues are not warned about.
    pub peer_dependency_rules: PeerDependencyRules,
    /// Catalog name → package → specifier (`catalog:` is `default`).
    pub catalogs: IndexMap<String, IndexMap<String, String>>,
    /// The catalogs as loaded, when a command (`update`) changed
    /// [`Config::catalogs`] afterwards: the state file records these, as
    /// pnpm 12.21 records the settings it started with.
    pub catalogs_as_loaded: Option<IndexMap<String, IndexMap<String, String>>>,
    /// Selector → patch file path (relative to the workspace root).
    pub patched_dependencies: IndexMap<String, String>,
    /// `packageExtensions` as written, if present.
    pub package_extensions: Option<Value>,
    /// `pnpmfile`, if set.
    pub pnpmfile: Option<String>,
    /// `ignorePnpmfile`: no pnpmfile is read, so none is checksummed.
    pub ignore_pnpmfile: bool,
    /// `deployAllFiles`: `deploy` copies every file of the project, not
    /// only the ones it would publish.
    pub deploy_all_files: bool,
    /// `scriptShell`: lifecycle scripts run as `<shell> -c <script>`.
    pub script_shell: Option<String>,
    /// `nodeOptions`: the `NODE_OPTIONS` of every lifecycle script.
    pub node_options: Option<String>,
    /// `unsafePerm`, if set. Unset, pnpm 12 takes it to be true except for
    /// root on Unix; false gives each script `TMPDIR=<dir>/node_modules/.tmp`.
    pub unsafe_perm: Option<bool>,
    /// `userAgent`: the HTTP `User-Agent` and the scripts'
    /// `npm_config_user_agent`.
    pub user_agent: Option<String>,
    /// `reporter`, `loglevel` and `color` as given: how the command prints.
    pub reporter: Option<String>,
    pub loglevel: Option<String>,
    pub color: Option<String>,
    /// Settings pnpm 12 honours in a way pacquet does not: `(key, what
    /// the refusal names)`, e.g. `("storeIndexFormat", "storeIndexFormat:
    /// files")` (docs/settings.md §2.5).
    pub unsupported: Vec<(&'static str, String)>,
}

impl Config {
    /// The registry serving `package_name` (always ends with `/`).
    pub fn registry_for(&self, package_name: &str) -> &str {
        self.registries.registry_for(package_name)
    }

    /// Tarball URL of a registry-resolved package (docs/lockfile.md §5).
    pub fn tarball_url(&self, name: &str, version: &str) -> String {
        self.registries.tarball_url(name, version)
    }

    /// Full `Authorization` header value for `url`, if any credential
    /// applies.
    pub fn authorization_for(&self, url: &str, package_name: Option<&str>) -> Option<String> {
        self.credentials.authorization_for(url, package_name)
    }

    /// Effective `frozenLockfile`: the explicit value, else `true` in CI
    /// when a lockfile exists.
    pub fn frozen_lockfile_for(&self, lockfile_exists: bool) -> bool {
        self.frozen_lockfile.unwrap_or(self.ci && lockfile_exists)
    }
}

/// `peerDependencyRules` (docs/resolution.md §8): peer issues pnpm 12 does
/// not warn about.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PeerDependencyRules {
    /// Name patterns of peers whose absence is no issue.
    pub ignore_missing: Vec<String>,
    /// Name patterns of peers any version of which is fine.
    pub allow_any: Vec<String>,
    /// `peer` or `parent[@range]>peer` → ranges also fine.
    pub allowed_versions: IndexMap<String, String>,
}
