//! A filtered install (`--filter`, `--filter-prod`, `-w`,
//! `recursiveInstall: false`): which projects it installs, and what it
//! keeps of the previous install (docs/filtering.md §5).
//!
//! pnpm 12 installs the selected projects and always the workspace root.
//! Projects a previous install set up stay as they are: their importers
//! stay in `lock.yaml` and nothing of theirs is removed. Hoisting is
//! decided over the installed projects, with every workspace project's
//! name hoisted, and the previous `hoistedDependencies` entries the new
//! ones do not name are kept after them.

use std::path::{Path, PathBuf};

use pacquet_config::Config;
use pacquet_lockfile::Lockfile;
use pacquet_workspace_filter::{
    Filter, FilterOptions, Selection, WorkspaceProject, select_projects,
};

use crate::{InstallError, gates::Project};

/// The selectors a command was given.
#[derive(Debug, Clone, Default)]
pub struct ProjectFilter {
    pub filters: Vec<Filter>,
    /// Where the command runs: `./dir` and `{dir}` are relative to it.
    pub prefix: PathBuf,
}

/// Which projects an install covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Every project: an ordinary install.
    All,
    /// No project matched: nothing is installed.
    Nothing { unmatched: Vec<String> },
    /// These importer ids (root first), fewer than all projects.
    Projects {
        ids: Vec<String>,
        unmatched: Vec<String>,
    },
}

/// The projects `filter` selects among `projects`, as pnpm 12 selects them
/// (docs/filtering.md §3).
pub fn select(
    filter: &ProjectFilter,
    config: &Config,
    projects: &[Project],
) -> Result<Selection, InstallError> {
    let projects: Vec<WorkspaceProject> = projects
        .iter()
        .map(|p| WorkspaceProject {
            dir: p.dir.clone(),
            manifest: p.manifest.clone(),
        })
        .collect();
    let opts = FilterOptions {
        prefix: &filter.prefix,
        workspace_dir: &config.workspace_root,
        // `true` or `"deep"`, as pnpm reads it (`!!linkWorkspacePackages`).
        link_workspace_packages: !matches!(
            config.link_workspace_packages,
            serde_json::Value::Bool(false) | serde_json::Value::Null
        ),
        test_pattern: &config.test_pattern,
        changed_files_ignore_pattern: &config.changed_files_ignore_pattern,
        legacy_dir_filtering: config.legacy_dir_filtering,
    };
    Ok(select_projects(&projects, &filter.filters, &opts)?)
}

/// The scope of `filter` over `projects` (the workspace's, root first).
pub fn scope(
    filter: &ProjectFilter,
    config: &Config,
    projects: &[Project],
) -> Result<Scope, InstallError> {
    if filter.filters.is_empty() {
        return Ok(Scope::All);
    }
    let selection = select(filter, config, projects)?;
    if selection.selected.is_empty() {
        return Ok(Scope::Nothing {
            unmatched: selection.unmatched,
        });
    }
    // The root is installed whatever was selected.
    let ids: Vec<String> = projects
        .iter()
        .filter(|p| p.id == "." || selection.selected.contains(&p.dir))
        .map(|p| p.id.clone())
        .collect();
    if ids.len() == projects.len() {
        return Ok(Scope::All);
    }
    Ok(Scope::Projects {
        ids,
        unmatched: selection.unmatched,
    })
}

/// The importers `lock.yaml` lists after this install: those the previous
/// install left (and the lockfile still has), then the selected ones.
pub fn installed_importers(
    virtual_store_dir: &Path,
    wanted: &Lockfile,
    selected: &[String],
) -> Vec<String> {
    let path = virtual_store_dir.join("lock.yaml");
    let previous: Vec<String> = std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| Lockfile::parse(&text, &path).ok())
        .map(|lockfile| lockfile.importers.keys().cloned().collect())
        .unwrap_or_default();
    wanted
        .importers
        .keys()
        .filter(|id| selected.contains(id) || previous.contains(id))
        .cloned()
        .collect()
}
