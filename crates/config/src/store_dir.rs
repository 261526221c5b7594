//! Store directory resolution (docs/store.md §1).

use std::path::{Path, PathBuf};

/// The last path component every v11 store directory ends with.
pub const STORE_VERSION: &str = "v11";

/// Where an explicit `storeDir` came from; pnpm 12 resolves it differently
/// per source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreDirOrigin {
    /// `--store-dir`/`--config.store-dir`: `~/` expanded, relative to the
    /// workspace root.
    Cli,
    /// `pnpm_config_store_dir`: `~/` expanded, relative to the cwd.
    Env,
    /// `pnpm-workspace.yaml`: no `~/` expansion, relative to the workspace
    /// root.
    WorkspaceYaml,
    /// Global `config.yaml`: `~/` expanded, relative to the workspace root.
    GlobalYaml,
}

/// Resolves an explicit `storeDir` value to the store root (before the
/// version suffix). The path is joined, not normalized, like pnpm does.
pub fn resolve_explicit_root(
    raw: &str,
    origin: StoreDirOrigin,
    home: Option<&Path>,
    workspace_root: &Path,
    cwd: &Path,
) -> PathBuf {
    let expand = origin != StoreDirOrigin::WorkspaceYaml;
    let path = match (raw.strip_prefix("~/"), home) {
        (Some(rest), Some(home)) if expand => home.join(rest),
        _ if expand && raw == "~" && home.is_some() => {
            home.map(Path::to_path_buf).unwrap_or_default()
        }
        _ => PathBuf::from(raw),
    };
    if path.is_absolute() {
        return path;
    }
    match origin {
        StoreDirOrigin::Env => cwd.join(path),
        _ => workspace_root.join(path),
    }
}

/// Appends `v11` unless it already is the last component.
pub fn with_version_suffix(root: PathBuf) -> PathBuf {
    if root.file_name().is_some_and(|name| name == STORE_VERSION) {
        root
    } else {
        root.join(STORE_VERSION)
    }
}

/// The default store root: `<pnpm home>/store`, unless the project lives
/// on another filesystem than the pnpm home (docs/store.md §1.2).
pub fn default_root(pnpm_home: &Path, project_root: &Path) -> PathBuf {
    same_filesystem_root(project_root, pnpm_home, device_of)
        .unwrap_or_else(|| pnpm_home.join("store"))
}

/// The same-filesystem rule, decided by device ids instead of pnpm's trial
/// hard links: `None` keeps the home store; otherwise the store goes to
/// `<mount point>/.pnpm-store`, or `<project>/node_modules/.pnpm-store`
/// when the project itself is the mount point (pnpm 12).
pub fn same_filesystem_root(
    project_root: &Path,
    pnpm_home: &Path,
    device: impl Fn(&Path) -> Option<u64>,
) -> Option<PathBuf> {
    let project_device = device(project_root)?;
    let home_device = pnpm_home.ancestors().find_map(&device)?;
    if project_device == home_device {
        return None;
    }
    let ancestors: Vec<&Path> = project_root.ancestors().collect();
    let mount = ancestors
        .into_iter()
        .rev()
        .find(|dir| device(dir) == Some(project_device))?;
    if mount == project_root {
        Some(project_root.join("node_modules").join(".pnpm-store"))
    } else {
        Some(mount.join(".pnpm-store"))
    }
}

#[cfg(unix)]
fn device_of(path: &Path) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|meta| meta.dev())
}

#[cfg(not(unix))]
fn device_of(_path: &Path) -> Option<u64> {
    None
}

#[cfg(test)]
mod tests;
