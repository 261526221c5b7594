//! The commands a package exposes (`bin`, else `directories.bin`).

use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use crate::name::is_valid_bin_name;

/// One command of a package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BinCommand {
    /// Command name (file name in `.bin`), already validated.
    pub name: String,
    /// Absolute path of the target inside the package directory.
    pub target: PathBuf,
}

/// Commands `manifest` exposes, in manifest order:
///
/// * `bin` string: one command named like the package without its scope;
/// * `bin` map: its keys, an `@scope/` prefix stripped;
/// * otherwise `directories.bin`: every regular file below that directory
///   (recursively, sorted, symlinks not followed), named by its file name.
///
/// Names failing [`is_valid_bin_name`] are skipped. Absolute targets are
/// skipped; relative targets are normalized with `..` clamped at the package
/// root, as pnpm 12.21 does (`../x.js` becomes `<package_dir>/x.js`), so a
/// target never points outside `package_dir`. A target that normalizes to the
/// package root itself is skipped. Whether the target exists is not checked.
pub fn bin_commands(manifest: &Value, package_dir: &Path) -> Vec<BinCommand> {
    let mut out = Vec::new();
    match manifest.get("bin") {
        Some(Value::String(target)) => {
            let name = manifest.get("name").and_then(Value::as_str).unwrap_or("");
            push(&mut out, strip_scope(name), target, package_dir);
        }
        Some(Value::Object(map)) => {
            for (name, target) in map {
                if let Some(target) = target.as_str() {
                    push(&mut out, strip_scope(name), target, package_dir);
                }
            }
        }
        _ => {
            let dir = manifest.pointer("/directories/bin").and_then(Value::as_str);
            if let Some(dir) = dir.and_then(|d| inside(package_dir, d)) {
                walk_files(&dir, &mut out);
            }
        }
    }
    out
}

fn push(out: &mut Vec<BinCommand>, name: &str, target: &str, package_dir: &Path) {
    if !is_valid_bin_name(name) {
        return;
    }
    if let Some(target) = inside(package_dir, target) {
        out.push(BinCommand {
            name: name.to_owned(),
            target,
        });
    }
}

/// `@scope/name` → `name`; other names unchanged.
fn strip_scope(name: &str) -> &str {
    match name.strip_prefix('@').and_then(|rest| rest.split_once('/')) {
        Some((_, bare)) => bare,
        None => name,
    }
}

/// `package_dir` joined with the relative `path`, `..` clamped at the root.
/// `None` for absolute paths and for paths naming the root itself.
fn inside(package_dir: &Path, path: &str) -> Option<PathBuf> {
    let path = Path::new(path);
    if path.has_root() {
        return None;
    }
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(p) => parts.push(p),
            Component::ParentDir => {
                parts.pop();
            }
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    if parts.is_empty() {
        return None;
    }
    let mut out = package_dir.to_path_buf();
    out.extend(parts);
    Some(out)
}

/// Regular files below `dir`, depth first, entries sorted by name.
fn walk_files(dir: &Path, out: &mut Vec<BinCommand>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            walk_files(&entry.path(), out);
        } else if kind.is_file()
            && let Some(name) = entry.file_name().to_str()
            && is_valid_bin_name(name)
        {
            out.push(BinCommand {
                name: name.to_owned(),
                target: entry.path(),
            });
        }
    }
}

#[cfg(test)]
mod tests;
