//! The environment pnpm 12 gives a dependency's lifecycle script
//! (recorded in `tests/fixtures/pnpm12-postinstall-env.json`).

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Directories prepended to `PATH`, in pnpm's order: the package's own
/// `<modules_dir>/.bin` (a project's `modulesDir`, else `node_modules`), then `<dir>/.bin` for every ancestor directory
/// named `node_modules` (its slot's, then the project's), then
/// `node_gyp_bin` (pnpm's bundled `node-gyp-bin`), then `extra_bin_dirs`
/// (pnpm: `<root>/node_modules/.pnpm/node_modules/.bin`,
/// `<root>/node_modules/.bin`).
pub fn lifecycle_path_dirs(
    package_dir: &Path,
    modules_dir: &str,
    node_gyp_bin: Option<&Path>,
    extra_bin_dirs: &[PathBuf],
) -> Vec<PathBuf> {
    let mut dirs = vec![package_dir.join(modules_dir).join(".bin")];
    for ancestor in package_dir.ancestors().skip(1) {
        if ancestor.file_name().is_some_and(|n| n == "node_modules") {
            dirs.push(ancestor.join(".bin"));
        }
    }
    dirs.extend(node_gyp_bin.map(Path::to_path_buf));
    dirs.extend(extra_bin_dirs.iter().cloned());
    dirs
}

/// The extra `PATH` entries pnpm 12 gives a dependency's scripts in the
/// hoisted layout: `<dir>/node_modules/.bin` for the package directory and
/// every directory above it below `lockfile_dir`, then
/// `<lockfile_dir>/node_modules/.bin` (so `<root>/node_modules` itself
/// contributes `<root>/node_modules/node_modules/.bin`, as in pnpm).
pub fn bin_dirs_in_parent_dirs(package_dir: &Path, lockfile_dir: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for dir in package_dir.ancestors() {
        if dir == lockfile_dir || !dir.starts_with(lockfile_dir) {
            break;
        }
        dirs.push(dir.join("node_modules/.bin"));
    }
    dirs.push(lockfile_dir.join("node_modules/.bin"));
    dirs
}

/// `npm_package_*` variables derived from the manifest: `name`,
/// `version`, and flattened `bin`, `config` and `engines`
/// (`npm_package_engines_npm_x` for `engines["npm-x"]`). `npm_package_json`
/// is added by the runner.
pub fn package_env_vars(manifest: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for field in ["name", "version"] {
        if let Some(v) = manifest.get(field).and_then(Value::as_str) {
            out.push((format!("npm_package_{field}"), v.to_string()));
        }
    }
    match manifest.get("bin") {
        Some(Value::String(path)) => {
            if let Some(name) = manifest.get("name").and_then(Value::as_str) {
                let bare = name.rsplit('/').next().unwrap_or(name);
                out.push((format!("npm_package_bin_{}", env_key(bare)), path.clone()));
            }
        }
        Some(bin @ Value::Object(_)) => flatten("npm_package_bin", bin, &mut out),
        _ => {}
    }
    for field in ["config", "engines"] {
        if let Some(v @ Value::Object(_)) = manifest.get(field) {
            flatten(&format!("npm_package_{field}"), v, &mut out);
        }
    }
    out
}

fn flatten(prefix: &str, value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                flatten(&format!("{prefix}_{}", env_key(k)), v, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                flatten(&format!("{prefix}_{i}"), v, out);
            }
        }
        Value::String(s) => out.push((prefix.to_string(), s.clone())),
        Value::Null => {}
        other => out.push((prefix.to_string(), other.to_string())),
    }
}

/// Characters other than ASCII letters, digits and `_` become `_`.
fn env_key(key: &str) -> String {
    key.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Absolute path of `node` on `PATH` (for `NODE`/`npm_node_execpath`).
pub(crate) fn node_execpath() -> Option<&'static Path> {
    static NODE: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    NODE.get_or_init(|| {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .map(|d| d.join("node"))
            .find(|p| p.is_file())
    })
    .as_deref()
}
