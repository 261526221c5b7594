//! `node_modules/.pnpm-workspace-state-v1.json` (docs/layout.md §9).

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use crate::validation::Validation;

/// One project: absolute dir, manifest name and version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectEntry {
    pub dir: String,
    pub name: Option<String>,
    pub version: Option<String>,
    /// Hoisted layout: the project has a `node_modules` (pnpm 12 records
    /// it only then).
    pub has_modules_dir: bool,
}

/// The `settings` block. Defaults are pnpm 12.21's; keys are written sorted.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkspaceStateSettings {
    /// Written only when non-empty.
    pub allow_builds: IndexMap<String, bool>,
    pub auto_install_peers: bool,
    pub catalogs: Value,
    pub dangerously_allow_all_builds: bool,
    pub dedupe_direct_deps: bool,
    pub dedupe_injected_deps: bool,
    pub dedupe_peer_dependents: bool,
    pub dedupe_peers: bool,
    pub dev: bool,
    pub exclude_links_from_lockfile: bool,
    pub hoist_pattern: Vec<String>,
    pub hoist_workspace_packages: bool,
    pub inject_workspace_packages: bool,
    /// `true`, `false` or `"deep"`.
    pub link_workspace_packages: Value,
    pub minimum_release_age: u64,
    pub minimum_release_age_ignore_missing_time: bool,
    pub node_linker: String,
    pub optional: bool,
    pub peers_suffix_max_length: u64,
    pub prefer_workspace_packages: bool,
    pub production: bool,
    pub public_hoist_pattern: Vec<String>,
    pub registry_routes: IndexMap<String, String>,
    /// Absolute store dir including `/v11`.
    pub store_dir: String,
    /// `{os, cpu, libc}` as configured; written only when set.
    pub supported_architectures: Option<Value>,
    pub virtual_store_dir_max_length: u64,
    /// `None` for a project without `pnpm-workspace.yaml`.
    pub workspace_package_patterns: Option<Vec<String>>,
    /// Any further setting pnpm records (`overrides`, …), by its JSON key.
    pub extra: BTreeMap<String, Value>,
}

impl WorkspaceStateSettings {
    /// pnpm 12.21's defaults with the given store dir.
    pub fn new(store_dir: &str) -> Self {
        WorkspaceStateSettings {
            allow_builds: IndexMap::new(),
            auto_install_peers: true,
            catalogs: json!({}),
            dangerously_allow_all_builds: false,
            dedupe_direct_deps: false,
            dedupe_injected_deps: true,
            dedupe_peer_dependents: true,
            dedupe_peers: false,
            dev: true,
            exclude_links_from_lockfile: false,
            hoist_pattern: vec!["*".into()],
            hoist_workspace_packages: true,
            inject_workspace_packages: false,
            link_workspace_packages: Value::Bool(false),
            minimum_release_age: 1440,
            minimum_release_age_ignore_missing_time: true,
            node_linker: "isolated".into(),
            optional: true,
            peers_suffix_max_length: 1000,
            prefer_workspace_packages: false,
            production: true,
            public_hoist_pattern: Vec::new(),
            registry_routes: IndexMap::from([("@jsr".into(), "https://npm.jsr.io/".into())]),
            store_dir: store_dir.to_owned(),
            supported_architectures: None,
            virtual_store_dir_max_length: 120,
            workspace_package_patterns: Some(vec![".".into()]),
            extra: BTreeMap::new(),
        }
    }

    /// The `settings` object as the state file records it.
    pub fn to_json(&self) -> Value {
        let mut m: BTreeMap<String, Value> = self.extra.clone();
        if !self.allow_builds.is_empty() {
            m.insert("allowBuilds".into(), json!(self.allow_builds));
        }
        m.insert("autoInstallPeers".into(), json!(self.auto_install_peers));
        m.insert("catalogs".into(), self.catalogs.clone());
        let all = self.dangerously_allow_all_builds;
        m.insert("dangerouslyAllowAllBuilds".into(), json!(all));
        m.insert("dedupeDirectDeps".into(), json!(self.dedupe_direct_deps));
        m.insert(
            "dedupeInjectedDeps".into(),
            json!(self.dedupe_injected_deps),
        );
        m.insert(
            "dedupePeerDependents".into(),
            json!(self.dedupe_peer_dependents),
        );
        m.insert("dedupePeers".into(), json!(self.dedupe_peers));
        m.insert("dev".into(), json!(self.dev));
        let links = self.exclude_links_from_lockfile;
        m.insert("excludeLinksFromLockfile".into(), json!(links));
        // Not recorded with hoisting off (checked with pnpm 12.21).
        if !self.hoist_pattern.is_empty() {
            m.insert("hoistPattern".into(), json!(self.hoist_pattern));
        }
        let hoist_ws = self.hoist_workspace_packages;
        m.insert("hoistWorkspacePackages".into(), json!(hoist_ws));
        let inject = self.inject_workspace_packages;
        m.insert("injectWorkspacePackages".into(), json!(inject));
        let link_ws = &self.link_workspace_packages;
        m.insert("linkWorkspacePackages".into(), json!(link_ws));
        m.insert("minimumReleaseAge".into(), json!(self.minimum_release_age));
        let missing = self.minimum_release_age_ignore_missing_time;
        m.insert("minimumReleaseAgeIgnoreMissingTime".into(), json!(missing));
        m.insert("nodeLinker".into(), json!(self.node_linker));
        m.insert("optional".into(), json!(self.optional));
        let peers = self.peers_suffix_max_length;
        m.insert("peersSuffixMaxLength".into(), json!(peers));
        let prefer = self.prefer_workspace_packages;
        m.insert("preferWorkspacePackages".into(), json!(prefer));
        m.insert("production".into(), json!(self.production));
        m.insert(
            "publicHoistPattern".into(),
            json!(self.public_hoist_pattern),
        );
        m.insert("registryRoutes".into(), json!(self.registry_routes));
        m.insert("storeDir".into(), json!(self.store_dir));
        if let Some(archs) = &self.supported_architectures {
            m.insert("supportedArchitectures".into(), archs.clone());
        }
        let max = self.virtual_store_dir_max_length;
        m.insert("virtualStoreDirMaxLength".into(), json!(max));
        if let Some(patterns) = &self.workspace_package_patterns {
            m.insert("workspacePackagePatterns".into(), json!(patterns));
        }
        Value::Object(m.into_iter().collect())
    }
}

/// Everything the state file records.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkspaceState {
    /// Milliseconds since the Unix epoch.
    pub last_validated_timestamp: u64,
    pub projects: Vec<ProjectEntry>,
    pub pnpmfiles: Vec<String>,
    pub filtered_install: bool,
    pub settings: WorkspaceStateSettings,
    /// `None` leaves the block out: pnpm 12 then checks everything once.
    pub validation: Option<Validation>,
}

/// Renders the state file: pretty JSON, 2-space indent, trailing newline.
pub fn workspace_state(state: &WorkspaceState) -> String {
    let mut projects = Map::new();
    for p in &state.projects {
        let mut entry = Map::new();
        if let Some(name) = &p.name {
            entry.insert("name".into(), json!(name));
        }
        if let Some(version) = &p.version {
            entry.insert("version".into(), json!(version));
        }
        if p.has_modules_dir {
            entry.insert("hasModulesDir".into(), json!(true));
        }
        projects.insert(p.dir.clone(), Value::Object(entry));
    }
    let mut doc = json!({
        "lastValidatedTimestamp": state.last_validated_timestamp,
        "projects": projects,
        "pnpmfiles": state.pnpmfiles,
        "filteredInstall": state.filtered_install,
        "settings": state.settings.to_json(),
    });
    if let (Some(validation), Value::Object(doc)) = (&state.validation, &mut doc) {
        doc.insert("validation".into(), validation.to_json());
    }
    render(&doc)
}

/// A state document as the file holds it: pretty JSON, 2-space indent,
/// trailing newline (also for a document read back and amended).
pub fn render(doc: &Value) -> String {
    let mut out = serde_json::to_string_pretty(doc).expect("JSON values always serialize");
    out.push('\n');
    out
}
