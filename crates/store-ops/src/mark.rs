//! The mark phase of `store prune`: the index keys that registered projects
//! still use.
//!
//! pnpm 12.21 registers each project as a symlink in `<store>/projects/`.
//! Its prune drops links whose target is gone, and for the others reads the
//! project's `pnpm-workspace.yaml` (for `modulesDir`), `<modulesDir>/.modules.yaml`
//! (for `virtualStoreDir`) and the current lockfile
//! `<virtualStoreDir>/lock.yaml`; every package listed there keeps its row
//! and blobs, even blobs with a single link (copied or built packages). A
//! project without a current lockfile marks nothing.

use std::{
    collections::HashSet,
    io::ErrorKind,
    path::{Path, PathBuf},
};

use pacquet_lockfile::{Lockfile, read_lockfile};

use pacquet_planner::{HostPlatform, PlanOptions, fetch_source};

use crate::StoreOpsError;

/// The live projects registered in `store_dir` (`<store>/projects/*`,
/// symlinks to them). A link to a project that is gone is removed, as pnpm
/// does.
pub fn registered_projects(store_dir: &Path) -> Result<Vec<PathBuf>, StoreOpsError> {
    let mut live = Vec::new();
    let projects = store_dir.join("projects");
    let entries = match std::fs::read_dir(&projects) {
        Ok(entries) => entries,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(live),
        Err(e) => return Err(scan(&projects, e)),
    };
    for entry in entries {
        let link = entry.map_err(|e| scan(&projects, e))?.path();
        match std::fs::metadata(&link) {
            Ok(meta) if meta.is_dir() => live.push(link),
            Err(e) if e.kind() == ErrorKind::NotFound => {
                let _ = std::fs::remove_file(&link);
            }
            Ok(_) => {}
            Err(e) => return Err(scan(&link, e)),
        }
    }
    Ok(live)
}

/// Index keys used by `projects` (their current lockfiles).
pub fn used_keys(projects: &[PathBuf]) -> Result<HashSet<String>, StoreOpsError> {
    let mut keys = HashSet::new();
    for project in projects {
        if let Some(lockfile) = current_lockfile(project)? {
            keys.extend(lockfile_keys(&lockfile));
        }
    }
    Ok(keys)
}

fn scan(path: &Path, e: impl std::error::Error + Send + Sync + 'static) -> StoreOpsError {
    StoreOpsError::Scan {
        path: path.to_owned(),
        source: Box::new(e),
    }
}

/// `<vsd>/lock.yaml` of the project, where `vsd` comes from
/// `.modules.yaml` (relative to the modules dir) and defaults to the
/// project's configured virtual store dir.
fn current_lockfile(project: &Path) -> Result<Option<Lockfile>, StoreOpsError> {
    // Only the project's own files count, not this process's environment.
    let options = pacquet_config::LoadOptions {
        cwd: project.to_owned(),
        ..pacquet_config::LoadOptions::default()
    };
    let config = pacquet_config::load(&options).map_err(|e| scan(project, e))?;
    let modules = project.join(&config.modules_dir);
    // With the global virtual store, `virtualStoreDir` names the slots;
    // `lock.yaml` stays in the project's own `.pnpm`.
    if config.enable_global_virtual_store {
        let path = config.virtual_store_dir.join("lock.yaml");
        return read_lockfile(&path).map_err(|e| scan(&path, e));
    }
    let vsd = std::fs::read(modules.join(".modules.yaml"))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
        .and_then(|v| v.get("virtualStoreDir")?.as_str().map(|d| modules.join(d)))
        .unwrap_or(config.virtual_store_dir);
    let path = vsd.join("lock.yaml");
    read_lockfile(&path).map_err(|e| scan(&path, e))
}

/// The index keys of every package of `lockfile`. Packages fetched without
/// an integrity have two possible keys (`built`/`not-built`); both count.
fn lockfile_keys(lockfile: &Lockfile) -> Vec<String> {
    let (os, cpu, libc) = pacquet_config::host_platform();
    let host = HostPlatform {
        os: os.to_owned(),
        cpu: cpu.to_owned(),
        libc: libc.map(str::to_owned),
    };
    // Only the keys matter here, not the download URLs.
    let no_url = |_: &str, _: &str| String::new();
    let opts = PlanOptions::new(host, &no_url);
    let mut keys = Vec::new();
    for (id, info) in &lockfile.packages {
        let Ok((_, Some(key))) = fetch_source(id, info, &opts) else {
            continue;
        };
        if let Some(pkg_id) = key.strip_suffix("\tbuilt") {
            keys.push(format!("{pkg_id}\tnot-built"));
        }
        keys.push(key);
    }
    keys
}
