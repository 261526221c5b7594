//! Loading: collect every source, then resolve each setting.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde_json::Value;

use crate::auth::Credentials;
use crate::config::{Config, Secret, SupportedArchitectures};
use crate::enums::{HoistingLimits, NodeLinker, PackageImportMethod};
use crate::env_replace::{env_replace, has_placeholder};
use crate::layer::{Layer, Layers, cli_layer, env_layer, string_list};
use crate::npmrc_sources::{npmrc_chain, read_npmrc_files};
use crate::registry::{NPM_REGISTRY, Registries, normalize_registry};
use crate::store_dir::{StoreDirOrigin, default_root, resolve_explicit_root, with_version_suffix};
use crate::yaml_file::{
    WORKSPACE_MANIFEST, find_workspace_dir, read_config_yaml, read_workspace_yaml,
};
use crate::{CliOverrides, ConfigError, LoadOptions, dirs};

/// The sources, by name, before merging.
struct Sources {
    cli: Layer,
    env: Layer,
    workspace: Layer,
    global: Layer,
}

impl Sources {
    /// The sources over the `.npmrc` settings, highest priority first.
    fn over_npmrc(&self, npmrc: &Layer) -> Layers {
        Layers {
            layers: vec![
                self.cli.clone(),
                self.env.clone(),
                self.workspace.clone(),
                self.global.clone(),
                npmrc.clone(),
            ],
        }
    }
}

/// Loads the configuration (docs/settings.md §1.1 precedence: CLI > env >
/// `pnpm-workspace.yaml` > global `config.yaml` > `.npmrc` > defaults).
pub fn load(opts: &LoadOptions) -> Result<Config, ConfigError> {
    let env = &opts.env;
    let workspace_dir = if opts.cli.ignore_workspace {
        None
    } else {
        find_workspace_dir(&opts.cwd)
    };
    let workspace_root = workspace_dir.clone().unwrap_or_else(|| opts.cwd.clone());
    let config_dir = dirs::config_dir(env, opts.home.as_ref());
    let sources = read_sources(opts, workspace_dir.as_deref(), &config_dir)?;

    let user_npmrc = user_npmrc_path(&sources, opts);
    let npmrc = read_npmrc_files(&npmrc_chain(&workspace_root, &config_dir, user_npmrc), env)?;
    let layers = sources.over_npmrc(&npmrc.layer);
    check_variants(&layers)?;
    let credentials = Credentials::from_entries(
        env_credentials(env)
            .into_iter()
            .chain(npmrc.per_registry.iter().cloned()),
    )?;
    let registries = resolve_registries(&layers, &npmrc.scoped_registries);

    let is_workspace = workspace_dir.is_some();
    let locations = resolve_locations(
        opts,
        &sources,
        &layers,
        is_workspace,
        workspace_root,
        config_dir,
    );
    let mut config = resolve_settings(opts, &layers, locations, registries, credentials);
    // pnpm 12.21 turns `preferSymlinkedExecutables` on for a hoisted
    // `nodeLinker`, except one given with the `--node-linker` flag (checked:
    // that writes shims, `--config.node-linker=hoisted` symlinks).
    let without_cli = Layers {
        layers: layers.layers[1..].to_vec(),
    };
    let linker = if opts.cli.node_linker_flag {
        parsed(&without_cli, "nodeLinker", NodeLinker::parse)
    } else {
        config.node_linker
    };
    config.symlinked_executables = config
        .prefer_symlinked_executables
        .unwrap_or(linker == NodeLinker::Hoisted);
    Ok(config)
}

/// Settings pnpm 12 reads as enumerations: it refuses any other value while
/// loading its configuration, before anything runs.
fn check_variants(layers: &Layers) -> Result<(), ConfigError> {
    /// `(key, accepted values, pnpm's list of them)`.
    const ENUMS: &[(&str, &[&str], &str)] = &[
        ("trustPolicy", &["off", "no-downgrade"], "off, no-downgrade"),
        (
            "hoistingLimits",
            &["none", "workspaces", "dependencies"],
            "none, workspaces, dependencies",
        ),
    ];
    for &(key, accepted, expected) in ENUMS {
        if let Some(value) = layers.string(key)
            && !accepted.contains(&value.as_str())
        {
            return Err(ConfigError::InvalidVariant {
                key,
                value,
                expected,
            });
        }
    }
    Ok(())
}

/// Reads the workspace and global settings files and collects the CLI and
/// environment settings, in this order: the first error wins.
fn read_sources(
    opts: &LoadOptions,
    workspace_dir: Option<&Path>,
    config_dir: &Path,
) -> Result<Sources, ConfigError> {
    let workspace = match workspace_dir {
        Some(dir) => read_workspace_yaml(&dir.join(WORKSPACE_MANIFEST))?,
        None => Layer::new(),
    };
    // The repository's file may not pick registries from the environment
    // (docs/settings.md §1.2); the user's own file may.
    reject_registry_placeholders(&workspace, WORKSPACE_MANIFEST)?;
    let mut global = read_config_yaml(&config_dir.join("config.yaml"))?;
    expand_registry_placeholders(&mut global, &opts.env);
    Ok(Sources {
        cli: cli_sources(opts)?,
        env: env_layer(opts.env.iter()),
        workspace,
        global,
    })
}

/// [`Config`]'s locations, except `cwd`.
struct Locations {
    workspace_root: PathBuf,
    is_workspace: bool,
    packages: Vec<String>,
    packages_declared: bool,
    store_dir: PathBuf,
    pnpm_home: PathBuf,
    config_dir: PathBuf,
    cache_dir: PathBuf,
    state_dir: PathBuf,
}

fn resolve_locations(
    opts: &LoadOptions,
    sources: &Sources,
    layers: &Layers,
    is_workspace: bool,
    workspace_root: PathBuf,
    config_dir: PathBuf,
) -> Locations {
    let env = &opts.env;
    let home = opts.home.as_ref();
    let pnpm_home = dirs::pnpm_home_dir(env, home);
    let store_dir = resolve_store_dir(sources, opts, &workspace_root, &pnpm_home);
    let cache_dir = dir_setting(layers, "cacheDir", home, &workspace_root)
        .unwrap_or_else(|| dirs::cache_dir(env, home));
    let state_dir = dir_setting(layers, "stateDir", home, &workspace_root)
        .unwrap_or_else(|| dirs::state_dir(env, home));
    Locations {
        packages: sources
            .workspace
            .get("packages")
            .and_then(string_list)
            .unwrap_or_default(),
        packages_declared: sources.workspace.contains_key("packages"),
        workspace_root,
        is_workspace,
        store_dir,
        pnpm_home,
        config_dir,
        cache_dir,
        state_dir,
    }
}

/// Every other setting, from the merged layers. The fields are read in
/// this order on purpose: reading an ill-typed value logs a warning, and the
/// warnings keep their order.
fn resolve_settings(
    opts: &LoadOptions,
    layers: &Layers,
    locations: Locations,
    registries: Registries,
    credentials: Credentials,
) -> Config {
    let hoisting = hoisting(layers);
    let (modules_dir, virtual_store_dir) = modules_dirs(layers, &locations.workspace_root);
    let (side_effects_cache, side_effects_cache_readonly) = side_effects(layers);
    let (production, dev) = included_groups(&opts.cli);
    let https = https_proxy(layers, &opts.env);
    Config {
        cwd: opts.cwd.clone(),
        package_import_method: parsed(layers, "packageImportMethod", PackageImportMethod::parse),
        node_linker: parsed(layers, "nodeLinker", NodeLinker::parse),
        hoisting_limits: parsed(layers, "hoistingLimits", HoistingLimits::parse),
        external_dependencies: list_or_empty(layers, "externalDependencies"),
        hoist: hoisting.hoist,
        hoist_pattern: hoisting.hoist_pattern,
        public_hoist_pattern: hoisting.public_hoist_pattern,
        shamefully_hoist: hoisting.shamefully_hoist,
        hoist_workspace_packages: layers.bool("hoistWorkspacePackages", true),
        modules_dir,
        virtual_store_dir,
        virtual_store_dir_max_length: layers.u64("virtualStoreDirMaxLength", DEFAULT_MAX_LENGTH),
        enable_modules_dir: layers.bool("enableModulesDir", true),
        extend_node_path: layers.bool("extendNodePath", true),
        prefer_symlinked_executables: layers.opt_bool("preferSymlinkedExecutables"),
        symlinked_executables: false,
        enable_global_virtual_store: layers.bool("enableGlobalVirtualStore", false),
        global_virtual_store_dir: global_virtual_store_dir(layers, opts, &locations),
        modules_cache_max_age: layers.u64("modulesCacheMaxAge", 10080),
        registries,
        credentials,
        strict_ssl: layers.bool("strictSsl", true),
        ca: layers.string("ca"),
        cafile: layers.string("cafile"),
        cert: layers.string("cert").map(Secret),
        key: layers.string("key").map(Secret),
        https_proxy: https.clone().flatten().map(Secret),
        http_proxy: http_proxy(layers, &opts.env, &https),
        no_proxy: no_proxy(layers, &opts.env),
        local_address: layers.string("localAddress"),
        network_concurrency: network_concurrency(layers),
        fetch_retries: layers.u64("fetchRetries", 2) as u32,
        fetch_retry_factor: layers.f64("fetchRetryFactor", 10.0),
        fetch_retry_mintimeout: layers.u64("fetchRetryMintimeout", 10_000),
        fetch_retry_maxtimeout: layers.u64("fetchRetryMaxtimeout", 60_000),
        fetch_timeout: layers.u64("fetchTimeout", 60_000),
        offline: layers.bool("offline", false),
        prefer_offline: layers.bool("preferOffline", false),
        verify_store_integrity: layers.bool("verifyStoreIntegrity", true),
        strict_store_pkg_content_check: layers.bool("strictStorePkgContentCheck", true),
        frozen_store: layers.bool("frozenStore", false),
        side_effects_cache,
        lockfile_integrity_target: lockfile_integrity_target(layers),
        lockfile_include_resolution_settings: lockfile_include_resolution_settings(layers),
        side_effects_cache_readonly,
        ignore_scripts: layers.bool("ignoreScripts", false),
        allow_builds: bool_map(layers.get("allowBuilds")),
        dangerously_allow_all_builds: layers.bool("dangerouslyAllowAllBuilds", false),
        strict_dep_builds: layers.bool("strictDepBuilds", true),
        child_concurrency: layers.u64("childConcurrency", 5) as usize,
        ci: is_ci(&opts.env),
        frozen_lockfile: layers.opt_bool("frozenLockfile"),
        prefer_frozen_lockfile: layers.bool("preferFrozenLockfile", true),
        trust_lockfile: layers.bool("trustLockfile", false),
        recursive_install: layers.bool("recursiveInstall", true),
        shared_workspace_lockfile: layers.bool("sharedWorkspaceLockfile", true),
        fail_if_no_match: layers.bool("failIfNoMatch", false),
        test_pattern: list_or_empty(layers, "testPattern"),
        changed_files_ignore_pattern: list_or_empty(layers, "changedFilesIgnorePattern"),
        legacy_dir_filtering: layers.bool("legacyDirFiltering", false),
        production,
        dev,
        optional: layers.bool("optional", true),
        supported_architectures: supported_architectures(layers.get("supportedArchitectures")),
        supported_architectures_given: ["os", "cpu", "libc"].map(|key| {
            layers
                .get("supportedArchitectures")
                .and_then(|v| v.get(key))
                .is_some_and(|v| !v.is_null())
        }),
        ignored_optional_dependencies: list_or_empty(layers, "ignoredOptionalDependencies"),
        ignored_optional_dependencies_set: layers.list("ignoredOptionalDependencies").is_some(),
        engine_strict: layers.bool("engineStrict", false),
        node_version: layers.string("nodeVersion"),
        optimistic_repeat_install: layers.bool("optimisticRepeatInstall", true),
        auto_install_peers: layers.bool("autoInstallPeers", true),
        exclude_links_from_lockfile: layers.bool("excludeLinksFromLockfile", false),
        dedupe_peers: layers.bool("dedupePeers", false),
        dedupe_direct_deps: layers.bool("dedupeDirectDeps", false),
        dedupe_injected_deps: layers.bool("dedupeInjectedDeps", true),
        dedupe_peer_dependents: layers.bool("dedupePeerDependents", true),
        ignore_compatibility_db: layers.bool("ignoreCompatibilityDb", false),
        save_prefix: layers
            .string("savePrefix")
            .unwrap_or_else(|| "^".to_owned()),
        save_exact: layers.bool("saveExact", false),
        resolution_mode: layers
            .string("resolutionMode")
            .unwrap_or_else(|| "highest".to_owned()),
        link_workspace_packages: layers
            .typed("linkWorkspacePackages", |v| match v {
                Value::Bool(_) => Some(v.clone()),
                Value::String(s) if s == "deep" => Some(v.clone()),
                _ => None,
            })
            .unwrap_or(Value::Bool(false)),
        prefer_workspace_packages: layers.bool("preferWorkspacePackages", false),
        strict_peer_dependencies: layers.bool("strictPeerDependencies", false),
        resolve_peers_from_workspace_root: layers.bool("resolvePeersFromWorkspaceRoot", true),
        peers_suffix_max_length: layers.u64("peersSuffixMaxLength", 1000),
        inject_workspace_packages: layers.bool("injectWorkspacePackages", false),
        block_exotic_subdeps: layers.bool("blockExoticSubdeps", true),
        overrides: string_map(layers.get("overrides")),
        allowed_deprecated_versions: string_map(layers.get("allowedDeprecatedVersions")),
        peer_dependency_rules: peer_dependency_rules(layers.get("peerDependencyRules")),
        catalogs: catalogs(layers),
        catalogs_as_loaded: None,
        patched_dependencies: string_map(layers.get("patchedDependencies")),
        package_extensions: package_extensions(layers),
        pnpmfile: layers.string("pnpmfile"),
        ignore_pnpmfile: layers.bool("ignorePnpmfile", false),
        deploy_all_files: layers.bool("deployAllFiles", false),
        script_shell: layers.string("scriptShell").filter(|s| !s.is_empty()),
        node_options: layers.string("nodeOptions"),
        unsafe_perm: layers.opt_bool("unsafePerm"),
        user_agent: layers.string("userAgent").filter(|s| !s.is_empty()),
        reporter: layers.string("reporter"),
        loglevel: layers.string("loglevel"),
        color: layers.string("color"),
        unsupported: unsupported(layers),
        // Moved last: `global_virtual_store_dir` borrows them above.
        workspace_root: locations.workspace_root,
        is_workspace: locations.is_workspace,
        packages: locations.packages,
        packages_declared: locations.packages_declared,
        trust_policy: layers.string("trustPolicy"),
        trust_policy_exclude: list_or_empty(layers, "trustPolicyExclude"),
        trust_policy_ignore_after: layers.opt_u64("trustPolicyIgnoreAfter"),
        minimum_release_age: layers.u64("minimumReleaseAge", 1440),
        minimum_release_age_exclude: list_or_empty(layers, "minimumReleaseAgeExclude"),
        minimum_release_age_strict: layers.opt_bool("minimumReleaseAgeStrict").or_else(|| {
            let set = layers
                .get("minimumReleaseAge")
                .is_some_and(|v| !v.is_null());
            set.then_some(true)
        }),
        minimum_release_age_ignore_missing_time: layers
            .bool("minimumReleaseAgeIgnoreMissingTime", true),
        store_dir: locations.store_dir,
        pnpm_home: locations.pnpm_home,
        config_dir: locations.config_dir,
        cache_dir: locations.cache_dir,
        state_dir: locations.state_dir,
    }
}

/// Settings whose values pnpm 12 acts on and pacquet cannot, each with
/// the `key: value` its refusal names (docs/settings.md §2.5).
fn unsupported(layers: &Layers) -> Vec<(&'static str, String)> {
    let mut refused = Vec::new();
    if layers.bool("shellEmulator", false) {
        refused.push(("shellEmulator", "shellEmulator: true".to_owned()));
    }
    if let Some(format) = layers.string("storeIndexFormat")
        && format != "sqlite"
    {
        refused.push(("storeIndexFormat", format!("storeIndexFormat: {format}")));
    }
    if !layers.bool("symlink", true) {
        refused.push(("symlink", "symlink: false".to_owned()));
    }
    // pnpm 12 reads more settings from the sources `include` names.
    if layers.get("include").is_some_and(|v| !v.is_null()) {
        refused.push(("include", "include".to_owned()));
    }
    // pnpm 12 installs these into `node_modules/.pnpm-config` first.
    if let Some(Value::Object(deps)) = layers.get("configDependencies")
        && !deps.is_empty()
    {
        refused.push(("configDependencies", "configDependencies".to_owned()));
    }
    refused
}

/// The directory setting `key`: `~/` is the home directory, a relative
/// path is relative to `base`.
fn dir_setting(layers: &Layers, key: &str, home: Option<&PathBuf>, base: &Path) -> Option<PathBuf> {
    layers.string(key).map(|dir| expand_home(&dir, home, base))
}

/// Private hoisting is on by default with `*`; `shamefullyHoist` makes every
/// dependency public.
struct Hoisting {
    hoist: bool,
    hoist_pattern: Vec<String>,
    shamefully_hoist: bool,
    public_hoist_pattern: Vec<String>,
}

fn hoisting(layers: &Layers) -> Hoisting {
    let hoist = layers.bool("hoist", true);
    let hoist_pattern = if hoist {
        layers
            .list("hoistPattern")
            .unwrap_or_else(|| vec!["*".to_owned()])
    } else {
        Vec::new()
    };
    let shamefully_hoist = layers.bool("shamefullyHoist", false);
    let public_hoist_pattern = if shamefully_hoist {
        vec!["*".to_owned()]
    } else {
        layers.list("publicHoistPattern").unwrap_or_default()
    };
    Hoisting {
        hoist,
        hoist_pattern,
        shamefully_hoist,
        public_hoist_pattern,
    }
}

/// `modulesDir`, and the virtual store, which defaults to its `.pnpm`.
fn modules_dirs(layers: &Layers, workspace_root: &Path) -> (String, PathBuf) {
    let modules_dir = layers
        .string("modulesDir")
        .unwrap_or_else(|| "node_modules".to_owned());
    let virtual_store_dir = match layers.string("virtualStoreDir") {
        Some(dir) => workspace_root.join(dir),
        None => workspace_root.join(&modules_dir).join(".pnpm"),
    };
    (modules_dir, virtual_store_dir)
}

/// `virtualStoreDirMaxLength`'s default: Windows paths are shorter.
const DEFAULT_MAX_LENGTH: u64 = if cfg!(windows) { 60 } else { 120 };

fn global_virtual_store_dir(layers: &Layers, opts: &LoadOptions, at: &Locations) -> PathBuf {
    dir_setting(
        layers,
        "globalVirtualStoreDir",
        opts.home.as_ref(),
        &at.workspace_root,
    )
    .unwrap_or_else(|| at.store_dir.join("links"))
}

/// A proxy key's value: `None` when unset, or set to `false`, `null` or
/// nothing, which read as unset (`Some(None)` marks the legacy `proxy:
/// false`, which turns proxying off).
fn proxy_key(layers: &Layers, key: &str) -> Option<Option<String>> {
    match layers.get(key)? {
        Value::String(s) if s == "false" => Some(None),
        Value::Bool(false) => Some(None),
        Value::String(s) if !s.is_empty() && s != "null" => Some(Some(s.clone())),
        _ => None,
    }
}

/// pnpm 12's cascade (docs/settings.md §2.2): `httpsProxy`, else the
/// legacy `proxy` (`false` turns proxying off), else `HTTPS_PROXY`.
fn https_proxy(layers: &Layers, env: &HashMap<String, String>) -> Option<Option<String>> {
    if let Some(Some(url)) = proxy_key(layers, "httpsProxy") {
        return Some(Some(url));
    }
    match proxy_key(layers, "proxy") {
        Some(legacy) => Some(legacy),
        None => env_any(env, &["HTTPS_PROXY", "https_proxy"]).map(Some),
    }
}

/// `httpProxy`, else whatever the HTTPS cascade found, else `HTTP_PROXY`
/// or `PROXY`.
fn http_proxy(
    layers: &Layers,
    env: &HashMap<String, String>,
    https: &Option<Option<String>>,
) -> Option<Secret> {
    if let Some(Some(url)) = proxy_key(layers, "httpProxy") {
        return Some(Secret(url));
    }
    match https {
        Some(https) => https.clone().map(Secret),
        None => env_any(env, &["HTTP_PROXY", "http_proxy", "PROXY", "proxy"]).map(Secret),
    }
}

/// `noProxy: true` bypasses the proxy for every host.
fn no_proxy(layers: &Layers, env: &HashMap<String, String>) -> Option<String> {
    match layers.get("noProxy") {
        Some(Value::Bool(true)) => Some("*".to_owned()),
        Some(Value::String(list)) => Some(list.clone()),
        _ => env_any(env, &["NO_PROXY", "no_proxy"]),
    }
}

fn network_concurrency(layers: &Layers) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    layers.u64(
        "networkConcurrency",
        default_network_concurrency(cores) as u64,
    ) as usize
}

/// pnpm 12's default: `clamp(3 × max(1, cores − 1), 64, 96)`.
pub fn default_network_concurrency(cores: usize) -> usize {
    (3 * cores.saturating_sub(1).max(1)).clamp(64, 96)
}

fn cli_sources(opts: &LoadOptions) -> Result<Layer, ConfigError> {
    let mut layer = cli_layer(&opts.cli.config)?;
    let cli = &opts.cli;
    let mut set = |key: &str, value: Option<Value>| {
        if let Some(value) = value {
            layer.insert(key.to_owned(), value);
        }
    };
    set("storeDir", cli.store_dir.clone().map(Value::String));
    set("registry", cli.registry.clone().map(Value::String));
    set("offline", cli.offline.map(Value::Bool));
    set("preferOffline", cli.prefer_offline.map(Value::Bool));
    set("ignoreScripts", cli.ignore_scripts.map(Value::Bool));
    set("frozenLockfile", cli.frozen_lockfile.map(Value::Bool));
    Ok(layer)
}

fn user_npmrc_path(sources: &Sources, opts: &LoadOptions) -> Option<PathBuf> {
    let from_settings = [
        &sources.cli,
        &sources.env,
        &sources.workspace,
        &sources.global,
    ]
    .iter()
    .find_map(|layer| {
        layer
            .get("npmrcAuthFile")
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    let explicit = from_settings.or_else(|| {
        env_any(
            &opts.env,
            &["NPM_CONFIG_USERCONFIG", "npm_config_userconfig"],
        )
    });
    match explicit {
        Some(path) => Some(expand_home(&path, opts.home.as_ref(), &opts.cwd)),
        None => opts.home.as_ref().map(|home| home.join(".npmrc")),
    }
}

fn expand_home(path: &str, home: Option<&PathBuf>, base: &Path) -> PathBuf {
    let expanded = match (path.strip_prefix("~/"), home) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => PathBuf::from(path),
    };
    base.join(expanded)
}

fn resolve_store_dir(
    sources: &Sources,
    opts: &LoadOptions,
    workspace_root: &Path,
    pnpm_home: &Path,
) -> PathBuf {
    let candidates = [
        (&sources.cli, StoreDirOrigin::Cli),
        (&sources.env, StoreDirOrigin::Env),
        (&sources.workspace, StoreDirOrigin::WorkspaceYaml),
        (&sources.global, StoreDirOrigin::GlobalYaml),
    ];
    let explicit = candidates.iter().find_map(|(layer, origin)| {
        layer
            .get("storeDir")
            .and_then(Value::as_str)
            .filter(|dir| !dir.is_empty())
            .map(|dir| (dir.to_owned(), *origin))
    });
    let root = match explicit {
        Some((dir, origin)) => resolve_explicit_root(
            &dir,
            origin,
            opts.home.as_deref(),
            workspace_root,
            &opts.cwd,
        ),
        None => default_root(pnpm_home, workspace_root),
    };
    with_version_suffix(root)
}

fn resolve_registries(layers: &Layers, npmrc_scoped: &[(String, String)]) -> Registries {
    let mut registries = Registries::default();
    // Lowest priority first, so higher sources overwrite.
    for (scope, url) in npmrc_scoped.iter().rev() {
        registries
            .scoped
            .insert(scope.clone(), normalize_registry(url));
    }
    let mut default = None;
    for layer in layers.layers.iter().rev() {
        if let Some(Value::Object(map)) = layer.get("registries") {
            for (key, url) in map {
                let Some(url) = url.as_str() else { continue };
                if key == "default" {
                    default = Some(url.to_owned());
                } else if key.starts_with('@') {
                    registries
                        .scoped
                        .insert(key.clone(), normalize_registry(url));
                }
            }
        }
        if let Some(url) = layer.get("registry").and_then(Value::as_str) {
            default = Some(url.to_owned());
        }
    }
    registries.default = normalize_registry(default.as_deref().unwrap_or(NPM_REGISTRY));
    registries
}

fn registry_values(layer: &Layer) -> Vec<(String, &str)> {
    let mut values = Vec::new();
    if let Some(url) = layer.get("registry").and_then(Value::as_str) {
        values.push(("registry".to_owned(), url));
    }
    if let Some(Value::Object(map)) = layer.get("registries") {
        for (key, url) in map {
            if let Some(url) = url.as_str() {
                values.push((format!("registries.{key}"), url));
            }
        }
    }
    values
}

fn reject_registry_placeholders(layer: &Layer, source_name: &str) -> Result<(), ConfigError> {
    match registry_values(layer)
        .into_iter()
        .find(|(_, url)| has_placeholder(url))
    {
        Some((key, _)) => Err(ConfigError::RegistryEnvNotExpanded {
            key,
            source_name: source_name.to_owned(),
        }),
        None => Ok(()),
    }
}

fn expand_registry_placeholders(layer: &mut Layer, env: &HashMap<String, String>) {
    if let Some(Value::String(url)) = layer.get_mut("registry") {
        *url = env_replace(url, env);
    }
    if let Some(Value::Object(map)) = layer.get_mut("registries") {
        for url in map.values_mut() {
            if let Value::String(url) = url {
                *url = env_replace(url, env);
            }
        }
    }
}

/// `pnpm_config_//host/:_authToken=…` credentials, upper-case prefix first.
fn env_credentials(env: &HashMap<String, String>) -> Vec<(String, String)> {
    let mut upper = Vec::new();
    let mut lower = Vec::new();
    for (name, value) in env {
        if let Some(key) = name
            .strip_prefix("PNPM_CONFIG_")
            .filter(|k| k.starts_with("//"))
        {
            upper.push((key.to_owned(), value.clone()));
        } else if let Some(key) = name
            .strip_prefix("pnpm_config_")
            .filter(|k| k.starts_with("//"))
        {
            lower.push((key.to_owned(), value.clone()));
        }
    }
    upper.sort();
    lower.sort();
    upper.extend(lower);
    upper
}

fn env_any(env: &HashMap<String, String>, names: &[&str]) -> Option<String> {
    names
        .iter()
        .find_map(|name| env.get(*name).filter(|v| !v.is_empty()).cloned())
}

/// ci-info's core check: `CI` (unless `false`) or a well-known CI variable.
fn is_ci(env: &HashMap<String, String>) -> bool {
    if env.get("CI").is_some_and(|v| v == "false" || v == "0") {
        return false;
    }
    env_any(
        env,
        &[
            "CI",
            "CONTINUOUS_INTEGRATION",
            "BUILD_NUMBER",
            "RUN_ID",
            "GITHUB_ACTIONS",
        ],
    )
    .is_some()
}

/// An enum setting; an unknown value is ignored with a warning.
fn parsed<T: Default>(layers: &Layers, key: &str, parse: impl Fn(&str) -> Option<T>) -> T {
    let Some(text) = layers.string(key) else {
        return T::default();
    };
    let parsed = parse(&text);
    if parsed.is_none() {
        tracing::warn!("Ignoring invalid {key}: {text:?}");
    }
    parsed.unwrap_or_default()
}

/// `lockfile.integrityTarget`; `lockfile` may also be a bool.
fn lockfile_integrity_target(layers: &Layers) -> String {
    layers
        .get("lockfile")
        .and_then(|lockfile| lockfile.get("integrityTarget"))
        .and_then(scalar_string)
        .unwrap_or_else(|| "tgz".to_owned())
}

/// `lockfile.includeResolutionSettings`, set unless absent or false.
fn lockfile_include_resolution_settings(layers: &Layers) -> bool {
    match layers
        .get("lockfile")
        .and_then(|lockfile| lockfile.get("includeResolutionSettings"))
    {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::String(text)) => text != "false",
        Some(_) => true,
    }
}

/// `sideEffectsCache` may be a bool or `{read, write}`.
fn side_effects(layers: &Layers) -> (bool, bool) {
    let readonly = layers.bool("sideEffectsCacheReadonly", false);
    match layers.get("sideEffectsCache") {
        Some(Value::Object(map)) => {
            let read = map.get("read").and_then(Value::as_bool).unwrap_or(true);
            let write = map.get("write").and_then(Value::as_bool).unwrap_or(true);
            (read, readonly || !write)
        }
        Some(Value::Bool(enabled)) => (*enabled, readonly),
        _ => (true, readonly),
    }
}

/// `(production, dev)`. pnpm 12.21 sets them from `--prod`/`--dev` only:
/// `production`/`dev` in files, the environment or `--config.*` change
/// nothing (docs/settings.md §2).
fn included_groups(cli: &CliOverrides) -> (bool, bool) {
    (!cli.dev || cli.prod, !cli.prod || cli.dev)
}

fn scalar_string(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    }
}

fn string_map(value: Option<&Value>) -> IndexMap<String, String> {
    let Some(Value::Object(map)) = value else {
        return IndexMap::new();
    };
    map.iter()
        .filter_map(|(key, value)| scalar_string(value).map(|v| (key.clone(), v)))
        .collect()
}

fn peer_dependency_rules(value: Option<&Value>) -> crate::config::PeerDependencyRules {
    let field = |key: &str| value.and_then(|v| v.get(key));
    crate::config::PeerDependencyRules {
        ignore_missing: field("ignoreMissing")
            .and_then(string_list)
            .unwrap_or_default(),
        allow_any: field("allowAny").and_then(string_list).unwrap_or_default(),
        allowed_versions: string_map(field("allowedVersions")),
    }
}

fn bool_map(value: Option<&Value>) -> IndexMap<String, bool> {
    let Some(Value::Object(map)) = value else {
        return IndexMap::new();
    };
    map.iter()
        .filter_map(|(key, value)| value.as_bool().map(|v| (key.clone(), v)))
        .collect()
}

fn catalogs(layers: &Layers) -> IndexMap<String, IndexMap<String, String>> {
    let mut catalogs = IndexMap::new();
    if let Some(default) = layers.get("catalog").filter(|v| v.is_object()) {
        catalogs.insert("default".to_owned(), string_map(Some(default)));
    }
    if let Some(Value::Object(named)) = layers.get("catalogs") {
        for (name, entries) in named {
            if name == "default" && catalogs.contains_key("default") {
                continue;
            }
            catalogs.insert(name.clone(), string_map(Some(entries)));
        }
    }
    catalogs
}

fn list_or_empty(layers: &Layers, key: &str) -> Vec<String> {
    layers.list(key).unwrap_or_default()
}

/// `packageExtensions` as written; `null` counts as absent.
fn package_extensions(layers: &Layers) -> Option<Value> {
    layers
        .get("packageExtensions")
        .filter(|v| !v.is_null())
        .cloned()
}

fn supported_architectures(value: Option<&Value>) -> SupportedArchitectures {
    let mut archs = SupportedArchitectures::default();
    if let Some(Value::Object(map)) = value {
        let list = |key: &str| map.get(key).and_then(string_list);
        if let Some(os) = list("os") {
            archs.os = os;
        }
        if let Some(cpu) = list("cpu") {
            archs.cpu = cpu;
        }
        if let Some(libc) = list("libc") {
            archs.libc = libc;
        }
    }
    archs
}
