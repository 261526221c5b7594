//! Workspace project discovery from the `packages:` globs.

use std::path::{Path, PathBuf};

use crate::ConfigError;

/// Directories under `root` that contain a `package.json` and match the
/// `packages:` globs (minus `!` exclusions), plus `root` itself. Anything
/// inside `node_modules` is skipped. Sorted and deduplicated.
pub fn find_workspace_projects(
    root: &Path,
    patterns: &[String],
) -> Result<Vec<PathBuf>, ConfigError> {
    let mut includes = Vec::new();
    let mut excludes = Vec::new();
    for raw in patterns {
        let (negated, pattern) = match raw.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, raw.as_str()),
        };
        let pattern = normalize(pattern);
        if negated {
            excludes.push(compile(&pattern, raw)?);
        } else {
            includes.push(pattern);
        }
    }
    let mut found = vec![root.to_path_buf()];
    let escaped_root = glob::Pattern::escape(&root.to_string_lossy());
    for pattern in &includes {
        let full = if pattern.is_empty() {
            format!("{escaped_root}/package.json")
        } else {
            format!("{escaped_root}/{pattern}/package.json")
        };
        let paths = glob::glob(&full).map_err(|err| ConfigError::InvalidPackagePattern {
            pattern: pattern.clone(),
            message: err.to_string(),
        })?;
        for manifest in paths.flatten() {
            let Some(dir) = manifest.parent() else {
                continue;
            };
            let Ok(relative) = dir.strip_prefix(root) else {
                continue;
            };
            if relative
                .components()
                .any(|c| c.as_os_str() == "node_modules")
            {
                continue;
            }
            let relative_text = relative.to_string_lossy();
            if excludes.iter().any(|ex| ex.matches(&relative_text)) {
                continue;
            }
            found.push(dir.to_path_buf());
        }
    }
    found.sort();
    found.dedup();
    Ok(found)
}

fn normalize(pattern: &str) -> String {
    let pattern = pattern.trim();
    let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
    let pattern = pattern.trim_end_matches('/');
    if pattern == "." {
        String::new()
    } else {
        pattern.to_owned()
    }
}

fn compile(pattern: &str, raw: &str) -> Result<glob::Pattern, ConfigError> {
    glob::Pattern::new(pattern).map_err(|err| ConfigError::InvalidPackagePattern {
        pattern: raw.to_owned(),
        message: err.to_string(),
    })
}
