//! Resolving the fixture projects from their manifests alone gives the
//! lockfiles pnpm 12.21 wrote for them against the same registry
//! (committed by `pacquet-test-registry regenerate`).

use std::path::Path;

use pacquet_lockfile::ProjectManifest;
use pacquet_resolver::{ImporterInput, Registries, RegistryMetadata, ResolveOptions, resolve};
use pacquet_tarball::{Fetcher, FetcherOptions};
use pacquet_testing::{REGISTRY_PLACEHOLDER, Registry, project_dir};
use pretty_assertions::assert_eq;

mod support;

struct One(String);

impl Registries for One {
    fn registry_for(&self, _name: &str) -> String {
        self.0.clone()
    }
    fn authorization_for(&self, _url: &str, _name: &str) -> Option<String> {
        None
    }
}

/// `pnpm-workspace.yaml` settings the fixtures use.
fn setting(dir: &Path, key: &str) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("pnpm-workspace.yaml")).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{key}: ")))
        .map(|v| v.trim().to_owned())
}

/// The root and every project under the `<dir>/*` patterns of
/// `pnpm-workspace.yaml`: (importer id, manifest).
fn projects(dir: &Path) -> Vec<(String, ProjectManifest)> {
    let read =
        |path: &Path| ProjectManifest::from_path(&path.join("package.json")).expect("manifest");
    let mut out = vec![(".".to_owned(), read(dir))];
    let yaml = std::fs::read_to_string(dir.join("pnpm-workspace.yaml")).unwrap_or_default();
    for pattern in yaml.lines().filter_map(|l| l.trim().strip_prefix("- ")) {
        let parent = pattern.trim_matches(['\'', '"']).trim_end_matches("/*");
        let Ok(entries) = std::fs::read_dir(dir.join(parent)) else {
            continue;
        };
        let mut found: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().join("package.json").is_file())
            .map(|e| format!("{parent}/{}", e.file_name().to_string_lossy()))
            .collect();
        found.sort();
        out.extend(found.into_iter().map(|id| {
            let manifest = read(&dir.join(&id));
            (id, manifest)
        }));
    }
    out
}

async fn resolved_lockfile(registry: &Registry, project: &str) -> String {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let dir = project_dir(project);
    let projects = projects(&dir);
    let fetcher = Fetcher::new(FetcherOptions::default());
    let url = registry.url();
    let registries = One(url.clone());
    let metadata = RegistryMetadata::new(&fetcher, None, &registries, false, None);
    let registry_for = |_: &str| url.clone();
    let opts = ResolveOptions {
        auto_install_peers: setting(&dir, "autoInstallPeers").is_none_or(|v| v == "true"),
        peers_suffix_max_length: setting(&dir, "peersSuffixMaxLength")
            .map_or(1000, |v| v.parse().expect("number")),
        extensions: Some(pacquet_resolver::extensions::Extensions::builtin()),
        ..support::options(&registry_for)
    };
    let importers: Vec<ImporterInput<'_>> = projects
        .iter()
        .map(|(id, manifest)| ImporterInput { id, manifest })
        .collect();
    let resolved = resolve(&importers, &metadata, &opts)
        .await
        .unwrap_or_else(|e| panic!("{project}: {e:?}"));
    resolved
        .lockfile
        .to_yaml()
        .replace(&url, REGISTRY_PLACEHOLDER)
}

fn committed(project: &str) -> String {
    std::fs::read_to_string(project_dir(project).join("pnpm-lock.yaml")).expect("lockfile")
}

macro_rules! same_as_pnpm {
    ($($test:ident: $project:literal,)*) => {$(
        #[test]
        fn $test() {
            // Started outside the runtime: the registry makes its own.
            let registry = Registry::start_fixtures();
            let runtime = tokio::runtime::Runtime::new().expect("runtime");
            let resolved = runtime.block_on(resolved_lockfile(&registry, $project));
            assert_eq!(resolved, committed($project));
        }
    )*};
}

same_as_pnpm! {
    basic: "basic",
    aliases: "aliases",
    peers: "peers",
    peers_hashed: "peers-hashed",
    optional_peers: "optional-peers",
    optional_platform: "optional-platform",
    peer_bins: "peer-bins",
    hoisting: "hoisting",
    engines: "engines",
    workspace: "workspace",
    workspace_peers: "workspace-peers",
    peer_links: "peer-links",
    filter: "filter",
    groups: "groups",
}
