//! pnpm's `preparePackage` for git and git-hosted packages: when the
//! package has a `prepare` script (or a prepublish-style script and no main
//! file), run `<pm> install` in it (which runs `prepare`), then its
//! `prepublish`/`prepack`/`publish` scripts, then drop `node_modules`.
//! The result is stored as the `…\tbuilt` row (`…\tnot-built` when
//! `ignoreScripts` skips the step).

use std::{path::Path, process::Command};

use pacquet_cas::Cas;
use pacquet_store_index::PackageFilesIndex;
use serde_json::Value;

use crate::{SourceError, dir_row::row_from_dir, read_manifest};

const PREPUBLISH_SCRIPTS: [&str; 3] = ["prepublish", "prepack", "publish"];

/// Prepares the package in `dir` if it needs it and may, then stores its
/// packed files.
pub fn prepare_and_store(
    cas: &Cas,
    may_prepare: Option<bool>,
    package_id: &str,
    dir: &Path,
) -> Result<PackageFilesIndex, SourceError> {
    let io = |what: &'static str| {
        move |source: std::io::Error| SourceError::SourceIo {
            package_id: package_id.to_owned(),
            what,
            source,
        }
    };
    let manifest = read_manifest(dir).map_err(io("read the package manifest"))?;
    let needed = should_be_built(manifest.as_ref(), dir);
    // With `ignoreScripts` the package is packed unprepared; the plan then
    // keys it `…\tnot-built`, as pnpm does.
    let manifest = match (needed, may_prepare) {
        (false, _) | (true, None) => manifest,
        (true, Some(false)) => {
            return Err(SourceError::GitDepPrepareNotAllowed {
                package_id: package_id.to_owned(),
            });
        }
        (true, Some(true)) => {
            run_prepare(package_id, dir, manifest.as_ref())?;
            // The scripts may have rewritten package.json.
            read_manifest(dir).map_err(io("read the prepared manifest"))?
        }
    };
    row_from_dir(cas, dir, manifest.as_ref(), needed).map_err(io("store the prepared files"))
}

/// pnpm's `packageShouldBeBuilt`.
fn should_be_built(manifest: Option<&Value>, dir: &Path) -> bool {
    let Some(scripts) = manifest
        .and_then(|m| m.get("scripts"))
        .and_then(Value::as_object)
    else {
        return false;
    };
    let has = |name: &str| {
        scripts
            .get(name)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty())
    };
    if has("prepare") {
        return true;
    }
    if !PREPUBLISH_SCRIPTS.iter().any(|s| has(s)) {
        return false;
    }
    let main = manifest
        .and_then(|m| m.get("main"))
        .and_then(Value::as_str)
        .unwrap_or("index.js");
    !dir.join(main).exists()
}

/// The package manager the package's own lockfile asks for (npm when none).
fn preferred_pm(dir: &Path) -> &'static str {
    let has = |file: &str| dir.join(file).exists();
    if has("package-lock.json") || has("npm-shrinkwrap.json") {
        "npm"
    } else if has("yarn.lock") {
        "yarn"
    } else if has("pnpm-lock.yaml") {
        "pnpm"
    } else if has("bun.lockb") || has("bun.lock") {
        "bun"
    } else {
        "npm"
    }
}

fn run_prepare(package_id: &str, dir: &Path, manifest: Option<&Value>) -> Result<(), SourceError> {
    let pm = preferred_pm(dir);
    let mut commands = vec![format!("{pm} install")];
    let scripts = manifest.and_then(|m| m.get("scripts"));
    for script in PREPUBLISH_SCRIPTS {
        let present = scripts
            .and_then(|s| s.get(script))
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty());
        if present {
            commands.push(if pm == "pnpm" {
                format!("pnpm run {script}")
            } else {
                format!("{pm} run {script}")
            });
        }
    }
    for command in commands {
        let output = Command::new("sh")
            .arg("-c")
            .arg(&command)
            .current_dir(dir)
            .output()
            .map_err(|source| SourceError::SourceIo {
                package_id: package_id.to_owned(),
                what: "start the prepare step",
                source,
            })?;
        if !output.status.success() {
            return Err(SourceError::PreparePackage {
                package_id: package_id.to_owned(),
                command,
                output: format!(
                    "{}{}",
                    String::from_utf8_lossy(&output.stdout),
                    String::from_utf8_lossy(&output.stderr)
                ),
            });
        }
    }
    match std::fs::remove_dir_all(dir.join("node_modules")) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(SourceError::SourceIo {
            package_id: package_id.to_owned(),
            what: "remove node_modules after the prepare step",
            source: e,
        }),
        _ => Ok(()),
    }
}
