//! One deploy, start to end: select the project, check the target, write
//! the deploy files beside the project's own, then install them with the
//! source workspace's settings adjusted as pnpm 12.21 adjusts them
//! (docs/deploy.md §5).

use std::path::{Path, PathBuf};

use pacquet_config::Config;
use pacquet_installer::{
    InstallRequest, InstallSummary, LOCKFILE_NAME, ProjectFilter, importer_id, install,
    read_projects, reporter::Reporter, select_projects,
};
use pacquet_planner::IncludedGroups;
use serde_json::Value;

use crate::{
    DeployError, DeployInput, DeploySettings, WorkspaceProjectInfo,
    copy::copy_project,
    create_deploy_files, render_workspace_yaml,
    target::{Places, prepare, validate},
};

/// What `pacquet deploy` was asked.
pub struct DeployRequest<'a> {
    /// The source workspace's settings (`--prod` and the like applied).
    pub config: &'a Config,
    /// `--filter`: must select exactly one project; without selectors, the
    /// project in the current directory.
    pub filter: &'a ProjectFilter,
    /// The deploy directory, absolute.
    pub target: PathBuf,
    /// `--force`: empty a non-empty target inside the workspace.
    pub force: bool,
}

pub fn deploy(
    req: &DeployRequest<'_>,
    runtime: &tokio::runtime::Handle,
    reporter: &dyn Reporter,
) -> Result<InstallSummary, DeployError> {
    let config = req.config;
    if !config.is_workspace {
        return Err(DeployError::NotInWorkspace);
    }
    if !config.patched_dependencies.is_empty() {
        return Err(DeployError::Unsupported {
            setting: "patchedDependencies",
        });
    }
    let root = &config.workspace_root;
    let projects = read_projects(config)?;
    let dir = selected_project(req, config, &projects)?;
    let project = projects
        .iter()
        .find(|p| p.dir == dir)
        .expect("selected among the projects");
    validate(
        &Places {
            target: &req.target,
            workspace: root,
            project: &project.dir,
            cwd: &req.filter.prefix,
        },
        req.force,
    )?;
    let lockfile = pacquet_lockfile::read_lockfile(&root.join(LOCKFILE_NAME))?
        .ok_or(DeployError::NoLockfile)?;
    let manifest_path = project.dir.join("package.json");
    let manifest: Value = std::fs::read_to_string(&manifest_path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    let infos: Vec<WorkspaceProjectInfo> = projects
        .iter()
        .map(|p| WorkspaceProjectInfo {
            dir: p.dir.clone(),
            name: p.manifest.name.clone(),
            has_bin: declares_bins(&p.dir),
        })
        .collect();
    let included = IncludedGroups {
        dependencies: config.production,
        dev_dependencies: config.dev,
        optional_dependencies: config.optional,
    };
    let files = create_deploy_files(&DeployInput {
        lockfile: &lockfile,
        lockfile_dir: root,
        project_id: &importer_id(root, &project.dir),
        manifest: &manifest,
        deploy_dir: &req.target,
        projects: &infos,
        included,
    })?;

    prepare(&req.target, req.force)?;
    copy_project(&project.dir, &req.target, config.deploy_all_files)?;
    let mut allow_builds = config.allow_builds.clone();
    for key in &files.injected {
        allow_builds.insert(key.clone(), true);
    }
    let settings = DeploySettings {
        ignored_optional_dependencies: config.ignored_optional_dependencies.clone(),
        auto_install_peers: config.auto_install_peers,
        dedupe_peers: config.dedupe_peers,
        peers_suffix_max_length: config.peers_suffix_max_length,
        exclude_links_from_lockfile: config.exclude_links_from_lockfile,
        allow_builds: allow_builds.iter().map(|(k, v)| (k.clone(), *v)).collect(),
    };
    let manifest_text = serde_json::to_string_pretty(&files.manifest).expect("JSON") + "\n";
    for (name, text) in [
        ("package.json", manifest_text),
        (LOCKFILE_NAME, files.lockfile.to_yaml()),
        ("pnpm-workspace.yaml", render_workspace_yaml(&settings)),
    ] {
        let path = req.target.join(name);
        std::fs::write(&path, text).map_err(DeployError::io("write", &path))?;
    }

    let deploy_config = deploy_config(config, &req.target, allow_builds);
    let request = InstallRequest {
        config: &deploy_config,
        frozen_lockfile: true,
        filter: None,
        root_only: true,
        lockfile_only: false,
        fix_lockfile: false,
        edited: Vec::new(),
        update: None,
    };
    Ok(install(&request, runtime, reporter)?)
}

/// The one project the request selects.
fn selected_project(
    req: &DeployRequest<'_>,
    config: &Config,
    projects: &[pacquet_installer::Project],
) -> Result<PathBuf, DeployError> {
    if req.filter.filters.is_empty() {
        return projects
            .iter()
            .find(|p| p.dir == req.filter.prefix)
            .map(|p| p.dir.clone())
            .ok_or(DeployError::NothingToDeploy);
    }
    let selection = select_projects(req.filter, config, projects)?;
    match selection.selected.as_slice() {
        [] => Err(DeployError::NothingToDeploy),
        [one] => Ok(one.clone()),
        _ => Err(DeployError::CannotDeployMany),
    }
}

/// The settings of the install in the deploy directory: the source
/// workspace's, with the deploy directory as the only project and what the
/// deploy files already carry (overrides, extensions, injection) off.
fn deploy_config(
    config: &Config,
    target: &Path,
    allow_builds: indexmap::IndexMap<String, bool>,
) -> Config {
    let mut c = config.clone();
    c.cwd = target.to_path_buf();
    c.workspace_root = target.to_path_buf();
    c.virtual_store_dir = target.join(&c.modules_dir).join(".pnpm");
    c.enable_global_virtual_store = false;
    c.optimistic_repeat_install = false;
    c.dedupe_peer_dependents = false;
    c.dedupe_injected_deps = false;
    c.inject_workspace_packages = false;
    c.overrides.clear();
    // The deploy lockfile has no catalogs: the manifest holds versions.
    c.catalogs.clear();
    c.package_extensions = None;
    c.ignore_pnpmfile = true;
    c.ignored_optional_dependencies_set = true;
    c.allow_builds = allow_builds;
    c
}

/// Whether a project's manifest declares commands.
fn declares_bins(dir: &Path) -> bool {
    let manifest: Option<Value> = std::fs::read_to_string(dir.join("package.json"))
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok());
    let Some(manifest) = manifest else {
        return false;
    };
    match manifest.get("bin") {
        Some(Value::String(s)) if !s.is_empty() => true,
        Some(Value::Object(map)) if !map.is_empty() => true,
        _ => manifest
            .get("directories")
            .and_then(|d| d.get("bin"))
            .is_some_and(Value::is_string),
    }
}
