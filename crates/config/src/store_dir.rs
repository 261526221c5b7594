//! Store directory resolution (store.md §1).

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

/// The default store root: `<pnpm home>/store`.
///
/// pnpm also applies a same-filesystem rule (store.md §1.2) that moves the
/// store next to the project when the pnpm home is on another filesystem;
/// pacquet does not implement it.
pub fn default_root(pnpm_home: &Path) -> PathBuf {
    pnpm_home.join("store")
}
