//! `Config` turned, once per install, into the narrow options each consumer
//! takes: the planner's [`PlanOptions`], the downloader's
//! [`FetcherOptions`].

use std::time::Duration;

use pacquet_config::{Config, NodeLinker};
use pacquet_planner::{
    HostPlatform, ImporterSelection, IncludedGroups, Layout, PlanOptions, layout::relative_path,
};
use pacquet_scripts::BuildPolicy;
use pacquet_tarball::{FetcherOptions, NetworkOptions};

use crate::InstallError;

use crate::gates::Project;
use pacquet_lockfile::{Lockfile, PatchSelectors};
use pacquet_planner::PatchFile;

/// Planner options for `config` and the selected `projects`.
pub fn plan_options<'a>(
    config: &Config,
    projects: &[Project],
    patches: &PatchSelectors<PatchFile>,
    tarball_url: &'a (dyn Fn(&str, &str) -> String + Sync),
) -> PlanOptions<'a> {
    let (os, cpu, libc) = pacquet_config::host_platform();
    let host = HostPlatform {
        os: os.to_owned(),
        cpu: cpu.to_owned(),
        libc: libc.map(str::to_owned),
    };
    let mut opts = PlanOptions::new(host, tarball_url);
    let root = &config.workspace_root;
    opts.virtual_store_dir = relative_path(root, &config.virtual_store_dir);
    opts.modules_dir = config.modules_dir.clone();
    opts.virtual_store_dir_max_length = config.virtual_store_dir_max_length as usize;
    opts.hoist_pattern = config.hoist_pattern.clone();
    opts.public_hoist_pattern = config.public_hoist_pattern.clone();
    opts.hoist_workspace_packages = config.hoist_workspace_packages;
    opts.ignore_scripts = config.ignore_scripts;
    opts.build_policy = BuildPolicy::new(&config.allow_builds, config.dangerously_allow_all_builds);
    opts.patches = patches.clone();
    opts.engine_strict = config.engine_strict;
    opts.layout = match config.node_linker {
        NodeLinker::Hoisted => Layout::Hoisted,
        // `pnp` is refused before planning.
        NodeLinker::Isolated | NodeLinker::Pnp => Layout::Isolated,
    };
    opts.hoisting_limits = config.hoisting_limits;
    opts.external_dependencies = config.external_dependencies.clone();
    opts.dedupe_direct_deps = config.dedupe_direct_deps;
    if config.enable_global_virtual_store {
        opts.global_virtual_store = Some(global_virtual_store(config));
    }
    opts.auto_install_peers = config.auto_install_peers;
    opts.included = IncludedGroups {
        dependencies: config.production,
        dev_dependencies: config.dev,
        optional_dependencies: config.optional,
    };
    opts.supported_architectures = config.supported_architectures.clone();
    opts.importers = projects
        .iter()
        .map(|p| ImporterSelection {
            id: p.id.clone(),
            dir: relative_path(root, &p.dir),
            name: p.manifest.name.clone(),
        })
        .collect();
    opts
}

/// The downloader's network settings (pnpm's `fetch*` and
/// `networkConcurrency`).
pub fn fetcher_options(config: &Config) -> Result<FetcherOptions, InstallError> {
    Ok(FetcherOptions {
        network_concurrency: config.network_concurrency.max(1),
        retries: config.fetch_retries,
        retry_factor: config.fetch_retry_factor.max(1.0) as u32,
        retry_min_timeout: Duration::from_millis(config.fetch_retry_mintimeout),
        retry_max_timeout: Duration::from_millis(config.fetch_retry_maxtimeout),
        fetch_timeout: Duration::from_millis(config.fetch_timeout),
        user_agent: config
            .user_agent
            .clone()
            .unwrap_or_else(|| format!("pacquet/{} npm/? node/?", env!("CARGO_PKG_VERSION"))),
        network: network_options(config)?,
    })
}

/// Proxies, TLS trust and local address (docs/settings.md §2.2).
fn network_options(config: &Config) -> Result<NetworkOptions, InstallError> {
    let invalid = |key: &'static str, reason: String| InstallError::NetworkSetting { key, reason };
    let mut ca = Vec::new();
    if let Some(pem) = &config.ca {
        // `.npmrc` writes newlines in a `ca` value as `\n`.
        ca.push(pem.replace("\\n", "\n"));
    }
    if let Some(path) = &config.cafile {
        let path = config.workspace_root.join(path);
        let pem = std::fs::read_to_string(&path)
            .map_err(|e| invalid("cafile", format!("{}: {e}", path.display())))?;
        ca.push(pem);
    }
    let local_address = config
        .local_address
        .as_deref()
        .map(|a| {
            a.parse()
                .map_err(|e| invalid("localAddress", format!("{a:?}: {e}")))
        })
        .transpose()?;
    // `.npmrc` writes newlines in PEM values as `\n`.
    let pem = |s: &pacquet_config::Secret| s.0.replace("\\n", "\n");
    let client_identity = match (&config.cert, &config.key) {
        (Some(cert), Some(key)) => Some((pem(cert), pem(key))),
        (None, None) => None,
        _ => {
            let reason = "`cert` and `key` go together".to_owned();
            return Err(invalid("cert", reason));
        }
    };
    Ok(NetworkOptions {
        per_registry: registry_tls(config)?,
        https_proxy: config.https_proxy.as_ref().map(|s| s.0.clone()),
        http_proxy: config.http_proxy.as_ref().map(|s| s.0.clone()),
        no_proxy: config.no_proxy.clone(),
        strict_ssl: config.strict_ssl,
        ca,
        local_address,
        client_identity,
    })
}

/// The TLS settings given per registry (`//host/:ca`, `:cafile`, `:cert`,
/// `:certfile`, `:key`, `:keyfile`), as pnpm 12 reads them: PEM values
/// with `\n` for newlines, files read now (docs/settings.md §2.2).
fn registry_tls(config: &Config) -> Result<Vec<pacquet_tarball::RegistryTls>, InstallError> {
    let mut by_prefix: indexmap::IndexMap<String, [Option<String>; 3]> = indexmap::IndexMap::new();
    for (key, value) in config.credentials.entries() {
        let Some(parsed) = pacquet_config::parse_per_registry_key(key) else {
            continue;
        };
        if parsed.scope.is_some() {
            continue;
        }
        let (slot, file) = match parsed.field.as_str() {
            "ca" => (0, false),
            "cafile" => (0, true),
            "cert" => (1, false),
            "certfile" => (1, true),
            "key" => (2, false),
            "keyfile" => (2, true),
            _ => continue,
        };
        let pem = if file {
            let path = config.workspace_root.join(value);
            std::fs::read_to_string(&path).map_err(|e| InstallError::NetworkSetting {
                key: "certificate file",
                reason: format!("{key}={}: {e}", path.display()),
            })?
        } else {
            value.replace("\\n", "\n")
        };
        let fields = by_prefix.entry(parsed.prefix).or_default();
        // The first (highest priority) value of a field wins.
        fields[slot].get_or_insert(pem);
    }
    by_prefix
        .into_iter()
        .map(|(prefix, [ca, cert, key])| {
            let client_identity = match (cert, key) {
                (Some(cert), Some(key)) => Some((cert, key)),
                (None, None) => None,
                _ => {
                    return Err(InstallError::NetworkSetting {
                        key: "cert",
                        reason: format!("`{prefix}:cert` and `{prefix}:key` go together"),
                    });
                }
            };
            Ok(pacquet_tarball::RegistryTls {
                prefix,
                ca: ca.map(|pem| vec![pem]),
                client_identity,
            })
        })
        .collect()
}

/// The patches `lockfile` recorded, for planning its layout without
/// applying anything (the previous install's tree, `pacquet fetch`): only
/// their hashes matter there (docs/lockfile.md §9.4).
pub fn recorded_patches(lockfile: &Lockfile) -> PatchSelectors<PatchFile> {
    let recorded = pacquet_lockfile::patch_hashes(lockfile)
        .into_iter()
        .map(|(key, hash)| {
            let file = PatchFile {
                path: Default::default(),
                hash,
            };
            (key, file)
        });
    PatchSelectors::new(recorded).unwrap_or_default()
}

/// The Node.js version `engines.node` is checked against: `nodeVersion`, or
/// the `node` on `PATH` (its answer cached per binary, docs/store.md §9.2),
/// asked only when some package declares `engines.node`
/// (docs/lockfile.md §7).
pub fn node_version(config: &Config, lockfile: &Lockfile) -> Option<String> {
    let declared = lockfile.packages.values().any(|info| {
        info.engines
            .as_ref()
            .is_some_and(|engines| engines.contains_key("node"))
    });
    if config.node_version.is_none() && !declared {
        return None;
    }
    running_node_version(config)
}

/// `nodeVersion`, else the version of the `node` on `PATH`.
pub fn running_node_version(config: &Config) -> Option<String> {
    config
        .node_version
        .clone()
        .or_else(|| pacquet_scripts::node_version().map(str::to_owned))
}

/// Where the global virtual store's slots go and the engine their names
/// carry. Node.js is asked only when a package may build: nothing else's
/// name depends on it (docs/layout.md §16.2).
fn global_virtual_store(config: &Config) -> pacquet_planner::GlobalVirtualStore {
    let root = &config.workspace_root;
    let may_build =
        config.dangerously_allow_all_builds || config.allow_builds.values().any(|allowed| *allowed);
    let engine = may_build
        .then(|| {
            let major = config
                .node_version
                .as_deref()
                .and_then(pacquet_scripts::side_effects::parse_node_major)
                .or_else(pacquet_scripts::side_effects::node_major)?;
            Some(format!(
                "{};{};node{major}",
                pacquet_scripts::side_effects::node_platform(),
                pacquet_scripts::side_effects::node_arch()
            ))
        })
        .flatten();
    pacquet_planner::GlobalVirtualStore {
        dir: relative_path(root, &config.global_virtual_store_dir),
        configured: config
            .global_virtual_store_dir
            .to_string_lossy()
            .into_owned(),
        lockfile_dir: root.to_string_lossy().replace('\\', "/"),
        engine,
    }
}
