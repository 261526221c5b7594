//! The deployed project's own files: those it would publish (pnpm's
//! packlist), or with `deployAllFiles` every file outside `node_modules`
//! (docs/deploy.md §2).

use std::path::{Path, PathBuf};

use crate::DeployError;

pub(crate) fn copy_project(src: &Path, dest: &Path, all_files: bool) -> Result<(), DeployError> {
    let files: Vec<String> = if all_files {
        let mut out = Vec::new();
        walk_all(src, "", &mut out).map_err(DeployError::io("read", src))?;
        out
    } else {
        let manifest = std::fs::read_to_string(src.join("package.json"))
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok());
        pacquet_sources::packlist(src, manifest.as_ref()).map_err(DeployError::io("read", src))?
    };
    for rel in files {
        let from = src.join(&rel);
        let to: PathBuf = dest.join(&rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(DeployError::io("create", parent))?;
        }
        // A copy, not a link: the deploy directory outlives the workspace
        // (it goes into an image).
        std::fs::copy(&from, &to).map_err(DeployError::io("copy", &from))?;
    }
    Ok(())
}

/// Every regular file under `dir` (symlinks followed, broken ones
/// skipped), `node_modules` left out at any depth.
fn walk_all(dir: &Path, rel: &str, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == "node_modules" {
            continue;
        }
        let child = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let Ok(meta) = std::fs::metadata(entry.path()) else {
            continue;
        };
        if meta.is_dir() {
            walk_all(&entry.path(), &child, out)?;
        } else if meta.is_file() {
            out.push(child);
        }
    }
    Ok(())
}
