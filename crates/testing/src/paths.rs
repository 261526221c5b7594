//! Where the repository, the fixture packages and the fixture projects live.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Root of the cargo workspace (the repository root).
pub fn workspace_root() -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    crate_dir
        .ancestors()
        .nth(2)
        .expect("crates/testing has two ancestors")
        .to_path_buf()
}

/// `crates/testing/packages`: fixture package sources, `<name>/<version>/`.
pub fn packages_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("packages")
}

/// `crates/testing/projects`: fixture projects with committed lockfiles.
pub fn projects_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("projects")
}

/// Directory of the fixture project `name`; panics if there is none.
pub fn project_dir(name: &str) -> PathBuf {
    let dir = projects_dir().join(name);
    assert!(
        dir.join("package.json").is_file(),
        "no fixture project {name:?} in {}",
        projects_dir().display()
    );
    dir
}

/// Names of all fixture projects, sorted.
pub fn project_names() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(projects_dir())
        .expect("read projects dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("package.json").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Copies fixture project `name` into `dest` (created if missing). Nothing
/// registry-specific is written; see [`crate::prepare_project`] for that.
pub fn copy_project(name: &str, dest: &Path) {
    copy_dir(&project_dir(name), dest)
        .unwrap_or_else(|e| panic!("copy project {name} to {}: {e}", dest.display()));
}

/// Copies fixture project `name` into `dest` and writes `dest/.npmrc`
/// pointing every package at `registry_url`, the only place the (per-run)
/// port of the loopback registry is recorded.
pub fn prepare_project(name: &str, dest: &Path, registry_url: &str) {
    copy_project(name, dest);
    substitute_registry(dest, registry_url).unwrap_or_else(|e| {
        panic!(
            "substitute {REGISTRY_PLACEHOLDER} in {}: {e}",
            dest.display()
        )
    });
    write_npmrc(dest, registry_url);
}

/// Stands for the registry URL (with its trailing `/`) in committed
/// `package.json`, `pnpm-lock.yaml` and `pnpm-workspace.yaml` files that
/// name tarball URLs, since the port changes every run.
pub const REGISTRY_PLACEHOLDER: &str = "{{REGISTRY}}/";

/// Replaces [`REGISTRY_PLACEHOLDER`] by `registry_url` in every
/// `package.json`, `pnpm-lock.yaml` and `pnpm-workspace.yaml` under `dir`
/// (outside `node_modules`).
pub fn substitute_registry(dir: &Path, registry_url: &str) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let name = entry.file_name();
        if entry.file_type()?.is_dir() {
            if name != "node_modules" {
                substitute_registry(&path, registry_url)?;
            }
        } else if name == "package.json"
            || name == "pnpm-lock.yaml"
            || name == "pnpm-workspace.yaml"
        {
            let text = fs::read_to_string(&path)?;
            if text.contains(REGISTRY_PLACEHOLDER) {
                fs::write(&path, text.replace(REGISTRY_PLACEHOLDER, registry_url))?;
            }
        }
    }
    Ok(())
}

/// Writes `<dir>/.npmrc` with `registry=<url>` (pnpm reads the registry from
/// the workspace root's `.npmrc`; so does pacquet).
pub fn write_npmrc(dir: &Path, registry_url: &str) {
    let body = format!("registry={registry_url}\n");
    fs::write(dir.join(".npmrc"), body).expect("write .npmrc");
}

/// Recursive copy keeping file modes and symlinks; skips `node_modules`.
pub fn copy_dir(src: &Path, dest: &Path) -> io::Result<()> {
    fs::create_dir_all(dest)?;
    let mut entries: Vec<_> = fs::read_dir(src)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name();
        if name == "node_modules" {
            continue;
        }
        let from = entry.path();
        let to = dest.join(&name);
        let kind = entry.file_type()?;
        if kind.is_dir() {
            copy_dir(&from, &to)?;
        } else if kind.is_symlink() {
            copy_symlink(&from, &to)?;
        } else {
            fs::copy(&from, &to)?;
        }
    }
    Ok(())
}

#[cfg(unix)]
fn copy_symlink(from: &Path, to: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(fs::read_link(from)?, to)
}

/// Windows tells file links from directory links.
#[cfg(windows)]
fn copy_symlink(from: &Path, to: &Path) -> std::io::Result<()> {
    let target = fs::read_link(from)?;
    if fs::metadata(from).is_ok_and(|m| m.is_dir()) {
        std::os::windows::fs::symlink_dir(target, to)
    } else {
        std::os::windows::fs::symlink_file(target, to)
    }
}
