//! `[<since>]`: the projects whose files changed since a git revision
//! (docs/filtering.md §4).

use std::path::{Path, PathBuf};
use std::process::Command;

use globset::{GlobBuilder, GlobMatcher};
use indexmap::IndexMap;

use crate::FilterError;

/// Projects with a changed source file, and projects whose only changed
/// files match `testPattern` (selected, but their dependents are not).
pub(crate) struct Changed {
    pub sources: Vec<PathBuf>,
    pub tests_only: Vec<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    Source,
    Test,
}

pub(crate) fn changed_projects(
    project_dirs: &[PathBuf],
    since: &str,
    workspace_dir: &Path,
    test_pattern: &[String],
    ignore_pattern: &[String],
) -> Result<Changed, FilterError> {
    let repo_root = repo_root(workspace_dir);
    let changed_dirs = changed_dirs(since, workspace_dir, test_pattern, ignore_pattern)?;
    let mut by_project: IndexMap<&Path, Option<Change>> =
        project_dirs.iter().map(|d| (d.as_path(), None)).collect();
    for (dir, change) in changed_dirs {
        // The nearest project at or above the changed file's directory.
        let full = repo_root.join(&dir);
        let Some(project) = full.ancestors().find(|a| by_project.contains_key(a)) else {
            continue;
        };
        let entry = by_project.get_mut(project).expect("found above");
        if *entry != Some(Change::Source) {
            *entry = Some(change);
        }
    }
    let mut out = Changed {
        sources: Vec::new(),
        tests_only: Vec::new(),
    };
    for (dir, change) in by_project {
        match change {
            Some(Change::Source) => out.sources.push(dir.to_path_buf()),
            Some(Change::Test) => out.tests_only.push(dir.to_path_buf()),
            None => {}
        }
    }
    Ok(out)
}

/// The directories (relative to the repository root) of the files `git
/// diff --name-only <since>` lists under the workspace, each marked a
/// source change unless every file of it matches a test pattern.
fn changed_dirs(
    since: &str,
    workspace_dir: &Path,
    test_pattern: &[String],
    ignore_pattern: &[String],
) -> Result<IndexMap<PathBuf, Change>, FilterError> {
    let output = Command::new("git")
        // `--end-of-options`: a revision that looks like an option is
        // refused as a revision.
        .args(["diff", "--name-only", "--end-of-options", since, "--"])
        .arg(workspace_dir)
        .current_dir(workspace_dir)
        .output()
        .map_err(|e| FilterError::Changed {
            stderr: e.to_string(),
        })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(FilterError::Changed {
            stderr: stderr.trim_end_matches(['\n', '\r']).to_owned(),
        });
    }
    let ignore = compile(ignore_pattern)?;
    let tests = compile(test_pattern)?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut dirs: IndexMap<PathBuf, Change> = IndexMap::new();
    for line in stdout.lines().filter(|l| !l.is_empty()) {
        // git quotes paths with unusual characters.
        let file = line.strip_prefix('"').unwrap_or(line);
        let file = file.strip_suffix('"').unwrap_or(file);
        if ignore.iter().any(|g| g.is_match(file)) {
            continue;
        }
        let dir = Path::new(file)
            .parent()
            .unwrap_or(Path::new(""))
            .to_path_buf();
        if dirs.get(&dir) == Some(&Change::Source) {
            continue;
        }
        let change = if tests.iter().any(|g| g.is_match(file)) {
            Change::Test
        } else {
            Change::Source
        };
        dirs.insert(dir, change);
    }
    Ok(dirs)
}

fn compile(patterns: &[String]) -> Result<Vec<GlobMatcher>, FilterError> {
    patterns
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| {
            GlobBuilder::new(p)
                .literal_separator(true)
                .build()
                .map(|g| g.compile_matcher())
                .map_err(|e| FilterError::InvalidPattern {
                    pattern: p.clone(),
                    message: e.to_string(),
                })
        })
        .collect()
}

/// The directory holding `.git` at or above `workspace_dir`; without one,
/// the workspace's parent.
fn repo_root(workspace_dir: &Path) -> PathBuf {
    workspace_dir
        .ancestors()
        .find(|d| d.join(".git").exists())
        .or_else(|| workspace_dir.parent())
        .unwrap_or(workspace_dir)
        .to_path_buf()
}
