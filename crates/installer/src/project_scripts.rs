//! The projects' own lifecycle scripts, as pnpm 12.21 runs them on
//! `install --frozen-lockfile` (checked by running pnpm on small
//! workspaces, see `crates/cli/tests/lifecycle.rs`):
//!
//! * before anything else, even before the lockfile is checked, the root
//!   project runs `pnpm:devPreinstall` and `preinstall`;
//! * after the dependencies are built and `.modules.yaml` is written, every
//!   project runs `preinstall` (the root skips it: it already ran),
//!   `install`, `postinstall`, `preprepare`, `prepare`, `postprepare`, one
//!   stage after the other. A project starts once the workspace projects it
//!   depends on (any dependency group) are done; up to `childConcurrency`
//!   projects run at once. The first failure stops new projects from
//!   starting and fails the install once the running ones finish;
//! * `--ignore-scripts` runs none of them.
//!
//! A script sees the dependency script environment with `PATH` =
//! `<project>/node_modules/.bin`, then `<root>/node_modules/.bin`.

use std::path::{Path, PathBuf};

use pacquet_config::Config;
use pacquet_scripts::{BuildNode, BuildOptions, ScriptEvent, ScriptRun};

use crate::build::ScriptSettings;
use serde_json::Value;

use super::{InstallError, gates::Project};
use pacquet_planner::{DirectTarget, Plan};

/// Run by the root project before the install starts.
const EARLY_ROOT_STAGES: [&str; 2] = ["pnpm:devPreinstall", "preinstall"];
/// Run by every project after its dependencies are built.
const PROJECT_STAGES: [&str; 6] = [
    "preinstall",
    "install",
    "postinstall",
    "preprepare",
    "prepare",
    "postprepare",
];

/// Where scripts run and how their output is reported.
pub struct ProjectScripts<'a> {
    pub config: &'a Config,
    pub report: &'a (dyn Fn(&ScriptEvent<'_>) + Sync),
}

impl ProjectScripts<'_> {
    /// `pnpm:devPreinstall` and `preinstall` of the root project.
    pub fn run_early(&self) -> Result<(), InstallError> {
        if self.config.ignore_scripts {
            return Ok(());
        }
        let root = self.config.workspace_root.as_path();
        let Some(manifest) = read_manifest(root) else {
            return Ok(());
        };
        let bin_dirs = self.bin_dirs();
        let settings = ScriptSettings::from_config(self.config);
        for (stage, command) in scripts(&manifest, &EARLY_ROOT_STAGES) {
            let id = root.to_string_lossy();
            pacquet_scripts::run_stage(&ScriptRun {
                package_dir: root,
                name: str_field(&manifest, "name"),
                version: str_field(&manifest, "version"),
                pkg_id: &id,
                stage,
                command: &command,
                init_cwd: root,
                extra_bin_dirs: &bin_dirs,
                reporter: Some(self.report),
                manifest: &manifest,
                user_agent: settings.user_agent.as_deref(),
                shell: settings.shell.as_deref(),
                modules_dir: &self.config.modules_dir,
                unsafe_perm: settings.unsafe_perm,
                extra_env: &settings.env,
                ..ScriptRun::default()
            })?;
        }
        Ok(())
    }

    /// The projects' scripts after the dependencies are built, dependencies
    /// among the projects first.
    pub fn run_after_build(&self, projects: &[Project], plan: &Plan) -> Result<(), InstallError> {
        if self.config.ignore_scripts {
            return Ok(());
        }
        let root = self.config.workspace_root.as_path();
        let nodes: Vec<BuildNode> = projects
            .iter()
            .map(|project| {
                let manifest = read_manifest(&project.dir).unwrap_or(Value::Null);
                let stages = if project.id == "." {
                    // The root's `preinstall` ran before the install.
                    scripts(&manifest, &PROJECT_STAGES[1..])
                } else {
                    scripts(&manifest, &PROJECT_STAGES)
                };
                BuildNode {
                    name: str_field(&manifest, "name").to_owned(),
                    version: str_field(&manifest, "version").to_owned(),
                    // pnpm names a failing project by its directory.
                    pkg_id: project.dir.to_string_lossy().into_owned(),
                    package_dir: project.dir.clone(),
                    manifest,
                    stages,
                    deps: workspace_deps(project, projects, plan),
                    optional: false,
                    bin_dirs: Vec::new(),
                }
            })
            .collect();
        if nodes.iter().all(|n| n.stages.is_empty()) {
            return Ok(());
        }
        let bin_dirs = self.bin_dirs();
        let settings = ScriptSettings::from_config(self.config);
        let opts = BuildOptions {
            modules_dir: &self.config.modules_dir,
            ..settings.build_options(
                self.config.child_concurrency.max(1),
                root,
                &bin_dirs,
                self.report,
            )
        };
        pacquet_scripts::run_dependency_builds(&nodes, &opts)?;
        Ok(())
    }

    /// With `--ignore-scripts`, the ids of the projects whose install-time
    /// scripts were skipped (pnpm lists them in `pendingBuilds`).
    pub fn skipped_projects(&self, projects: &[Project]) -> Vec<String> {
        if !self.config.ignore_scripts {
            return Vec::new();
        }
        projects
            .iter()
            .filter(|p| {
                read_manifest(&p.dir).is_some_and(|m| !scripts(&m, &PROJECT_STAGES).is_empty())
            })
            .map(|p| p.id.clone())
            .collect()
    }

    /// `PATH` entries after the project's own `node_modules/.bin`.
    fn bin_dirs(&self) -> Vec<PathBuf> {
        let root = self.config.workspace_root.as_path();
        vec![root.join(&self.config.modules_dir).join(".bin")]
    }
}

/// Indices of the projects `project` links to through `link:` (which is
/// what `workspace:` specifiers resolve to).
fn workspace_deps(project: &Project, projects: &[Project], plan: &Plan) -> Vec<usize> {
    let Some(importer) = plan.importers.iter().find(|i| i.id == project.id) else {
        return Vec::new();
    };
    importer
        .direct
        .iter()
        .filter_map(|dep| match &dep.target {
            DirectTarget::Link(dir) => {
                let id = if dir.is_empty() || dir == "." {
                    "."
                } else {
                    dir.as_str()
                };
                projects.iter().position(|p| p.id == id)
            }
            DirectTarget::Slot(_) => None,
        })
        .collect()
}

/// The manifest as JSON, for the scripts and `npm_package_*`. A project
/// whose `package.json` cannot be read was already reported by the
/// lockfile checks; here it just has no scripts.
fn read_manifest(dir: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(dir.join("package.json")).ok()?;
    serde_json::from_str(text.strip_prefix('\u{feff}').unwrap_or(&text)).ok()
}

fn str_field<'a>(manifest: &'a Value, field: &str) -> &'a str {
    manifest.get(field).and_then(Value::as_str).unwrap_or("")
}

/// The non-empty scripts of `stages`, in that order.
fn scripts(manifest: &Value, stages: &[&'static str]) -> Vec<(&'static str, String)> {
    stages
        .iter()
        .filter_map(|&stage| {
            let command = manifest.get("scripts")?.get(stage)?.as_str()?;
            (!command.is_empty()).then(|| (stage, command.to_owned()))
        })
        .collect()
}
