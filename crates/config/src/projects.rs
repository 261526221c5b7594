//! Workspace project discovery from the `packages:` globs
//! (docs/settings.md §5).

use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};

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
            excludes.push(compile(&pattern, raw, false)?);
        } else {
            // The manifest path is matched, so `pkgs/**` also finds `pkgs`.
            let manifest = match pattern.as_str() {
                "" => "package.json".to_owned(),
                dir => format!("{dir}/package.json"),
            };
            includes.push(Include {
                glob: compile(&manifest, raw, true)?,
                depth: (!pattern.contains("**")).then(|| depth(&pattern)),
            });
        }
    }
    let mut found = vec![root.to_path_buf()];
    if !includes.is_empty() {
        // Any `**` lifts the limit.
        let max_depth = includes
            .iter()
            .map(|i| i.depth)
            .collect::<Option<Vec<usize>>>()
            .and_then(|depths| depths.into_iter().max());
        walk(
            root,
            "",
            max_depth,
            &mut |rel: &str| {
                let manifest = match rel {
                    "" => "package.json".to_owned(),
                    dir => format!("{dir}/package.json"),
                };
                includes.iter().any(|i| i.glob.is_match(&manifest))
                    && !excludes.iter().any(|ex| ex.is_match(rel))
            },
            &mut found,
        )
        .map_err(|err| ConfigError::InvalidPackagePattern {
            pattern: patterns.join(", "),
            message: err.to_string(),
        })?;
    }
    // By the path as a string, as pnpm 12 orders projects:
    // `packages-private/x` before `packages/x` ('-' < '/'), where a
    // component-wise order would put `packages/x` first.
    found.sort_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
    found.dedup();
    Ok(found)
}

struct Include {
    glob: GlobMatcher,
    /// How deep a match can be; `None` with `**`.
    depth: Option<usize>,
}

/// Collects the directories under `dir` holding a `package.json` that
/// `wanted` accepts, not descending below `max_depth` levels or into
/// `node_modules` and `.git`.
fn walk(
    dir: &Path,
    rel: &str,
    max_depth: Option<usize>,
    wanted: &mut dyn FnMut(&str) -> bool,
    found: &mut Vec<PathBuf>,
) -> std::io::Result<()> {
    if !rel.is_empty() && dir.join("package.json").is_file() && wanted(rel) {
        found.push(dir.to_path_buf());
    }
    if max_depth.is_some_and(|max| depth(rel) >= max) {
        return Ok(());
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == "node_modules" || name == ".git" || !entry.file_type()?.is_dir() {
            continue;
        }
        let child = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        walk(&entry.path(), &child, max_depth, wanted, found)?;
    }
    Ok(())
}

fn depth(rel: &str) -> usize {
    if rel.is_empty() {
        0
    } else {
        rel.split('/').count()
    }
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

/// `literal_separator`: whether `*` stops at `/` (inclusions; exclusions
/// match across it).
fn compile(pattern: &str, raw: &str, literal_separator: bool) -> Result<GlobMatcher, ConfigError> {
    GlobBuilder::new(pattern)
        .literal_separator(literal_separator)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|err| ConfigError::InvalidPackagePattern {
            pattern: raw.to_owned(),
            message: err.to_string(),
        })
}
