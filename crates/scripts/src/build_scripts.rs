//! Which dependencies need a build and what their build runs (docs/store.md §7).

use serde_json::Value;

/// The dependency lifecycle stages, in the order they run.
pub const LIFECYCLE_STAGES: [&str; 3] = ["preinstall", "install", "postinstall"];

/// Command pnpm runs as `install` for a package with a root `binding.gyp`
/// and neither an `install` nor a `preinstall` script.
pub const IMPLICIT_GYP_INSTALL: &str = "node-gyp rebuild";

fn script<'a>(manifest: &'a Value, stage: &str) -> Option<&'a str> {
    manifest
        .get("scripts")?
        .get(stage)?
        .as_str()
        .filter(|s| !s.is_empty())
}

/// `requiresBuild`: a non-empty `preinstall`/`install`/`postinstall`
/// script, or a `binding.gyp` at the package root.
pub fn requires_build(manifest: &Value, has_binding_gyp: bool) -> bool {
    has_binding_gyp
        || LIFECYCLE_STAGES
            .iter()
            .any(|s| script(manifest, s).is_some())
}

/// Whether the package's file list (paths relative to its root,
/// `/`-separated, as in the store index) alone makes it require a build: a
/// root `binding.gyp` or anything under `.hooks/`.
pub fn files_require_build<'a>(mut paths: impl Iterator<Item = &'a str>) -> bool {
    paths.any(|p| p == "binding.gyp" || p.starts_with(".hooks/") || p.starts_with(".hooks\\"))
}

/// The stages to run for a dependency and their commands, in order:
/// `preinstall`, `install` (or the implicit `node-gyp rebuild` when there
/// is a `binding.gyp` and neither `install` nor `preinstall`), `postinstall`.
pub fn dependency_scripts(manifest: &Value, has_binding_gyp: bool) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let pre = script(manifest, "preinstall");
    let install = script(manifest, "install");
    if let Some(cmd) = pre {
        out.push(("preinstall", cmd.to_string()));
    }
    match install {
        Some(cmd) => out.push(("install", cmd.to_string())),
        None if has_binding_gyp && pre.is_none() => {
            out.push(("install", IMPLICIT_GYP_INSTALL.to_string()))
        }
        None => {}
    }
    if let Some(cmd) = script(manifest, "postinstall") {
        out.push(("postinstall", cmd.to_string()));
    }
    out
}

#[cfg(test)]
mod tests;
