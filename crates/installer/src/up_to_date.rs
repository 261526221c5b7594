//! The no-op repeat install, answered from the state files and a few `stat`
//! calls (pnpm's `optimisticRepeatInstall`): when the last install recorded
//! in `.pnpm-workspace-state-v1.json` used the same settings and projects,
//! and neither the lockfile nor any manifest nor `pnpm-workspace.yaml` has
//! changed since it validated them, there is nothing to do.

use std::{
    path::{Path, PathBuf},
    time::UNIX_EPOCH,
};

use pacquet_config::Config;
use serde_json::Value;

use super::{LOCKFILE_NAME, write_state};

/// Whether `node_modules` already is what an install would make.
pub fn is_up_to_date(config: &Config, modules_dir: &Path, virtual_store_dir: &Path) -> bool {
    check(config, modules_dir, virtual_store_dir).unwrap_or(false)
}

fn check(config: &Config, modules_dir: &Path, virtual_store_dir: &Path) -> Option<bool> {
    let state_path = modules_dir.join(write_state::WORKSPACE_STATE_FILE);
    let state: Value = serde_json::from_slice(&std::fs::read(state_path).ok()?).ok()?;
    let validated_at = state.get("lastValidatedTimestamp")?.as_u64()?;
    // A filtered install left projects out (docs/filtering.md §5).
    if state.get("filteredInstall") == Some(&Value::Bool(true)) {
        return Some(false);
    }

    let store_dir = config.store_dir.to_string_lossy();
    if state.get("settings")? != &write_state::settings(config, &store_dir).to_json() {
        return Some(false);
    }
    let recorded: Vec<&str> = state
        .get("projects")?
        .as_object()?
        .keys()
        .map(String::as_str)
        .collect();
    let mut projects = project_dirs(config)?;
    projects.sort();
    let mut recorded_sorted = recorded.clone();
    recorded_sorted.sort();
    if projects.len() != recorded_sorted.len()
        || projects
            .iter()
            .zip(&recorded_sorted)
            .any(|(p, r)| p.to_str() != Some(r))
    {
        return Some(false);
    }

    let root = &config.workspace_root;
    let mut inputs: Vec<PathBuf> = projects.iter().map(|p| p.join("package.json")).collect();
    inputs.push(root.join(LOCKFILE_NAME));
    let workspace_manifest = root.join("pnpm-workspace.yaml");
    if workspace_manifest.exists() {
        inputs.push(workspace_manifest);
    }
    // An edited patch file changes the install (docs/lockfile.md §9.5).
    inputs.extend(config.patched_dependencies.values().map(|p| root.join(p)));
    let unchanged = inputs
        .iter()
        .all(|path| modified_ms(path).is_some_and(|m| m < validated_at));
    // The layout the state describes must still be there.
    let present = modules_dir.join(".modules.yaml").is_file()
        && virtual_store_dir.join("lock.yaml").is_file();
    Some(unchanged && present)
}

fn project_dirs(config: &Config) -> Option<Vec<PathBuf>> {
    if config.is_workspace {
        pacquet_config::find_workspace_projects(&config.workspace_root, &config.packages).ok()
    } else {
        Some(vec![config.workspace_root.clone()])
    }
}

fn modified_ms(path: &Path) -> Option<u64> {
    let modified = std::fs::metadata(path).ok()?.modified().ok()?;
    Some(modified.duration_since(UNIX_EPOCH).ok()?.as_millis() as u64)
}
