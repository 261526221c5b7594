//! The files `npm pack` would put in a package's tarball, which is what pnpm
//! imports for `file:` directories and for prepared git packages: the
//! `files` field (or everything minus `.npmignore`/`.gitignore`), always
//! `package.json`, readmes, licences, `main` and `bin` targets, never VCS
//! dirs, `node_modules`, lockfiles and editor litter.

use std::path::Path;

use serde_json::Value;

use super::glob::glob_match;

/// Names excluded at any depth, matched against one path segment.
const ALWAYS_EXCLUDED: [&str; 15] = [
    ".git",
    "CVS",
    ".svn",
    ".hg",
    ".lock-wscript",
    ".wafpickle-*",
    ".*.swp",
    ".DS_Store",
    "._*",
    "npm-debug.log",
    ".npmrc",
    "config.gypi",
    "*.orig",
    "node_modules",
    ".npmignore",
];

/// Files excluded at the package root only.
const ROOT_EXCLUDED: [&str; 5] = [
    ".gitignore",
    "package-lock.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lockb",
];

/// Root files kept whatever `files` says (case-insensitive prefix match).
const ALWAYS_INCLUDED_PREFIXES: [&str; 3] = ["readme", "license", "licence"];

/// Relative, `/`-separated paths of the packed files of `dir`, sorted.
pub fn packlist(dir: &Path, manifest: Option<&Value>) -> std::io::Result<Vec<String>> {
    let mut all = Vec::new();
    walk(dir, "", &mut all)?;
    let rules = match manifest
        .and_then(|m| m.get("files"))
        .and_then(Value::as_array)
    {
        Some(entries) => Rules::Files(
            entries
                .iter()
                .filter_map(Value::as_str)
                .map(normalize_entry)
                .filter(|e| !e.is_empty())
                .collect(),
        ),
        None => Rules::Ignore(read_ignore_file(dir)),
    };
    let forced = forced_files(manifest);
    let mut out: Vec<String> = all
        .into_iter()
        .filter(|path| !excluded(path))
        .filter(|path| {
            forced.iter().any(|f| f == path) || is_always_included(path) || rules.keeps(path)
        })
        .collect();
    out.sort();
    Ok(out)
}

enum Rules {
    /// `files` entries, normalized.
    Files(Vec<String>),
    /// Lines of the root ignore file.
    Ignore(Vec<IgnoreRule>),
}

impl Rules {
    fn keeps(&self, path: &str) -> bool {
        match self {
            Rules::Files(entries) => entries.iter().any(|entry| {
                // An entry names a file, a directory (its whole subtree) or a glob.
                prefixes(path).any(|p| p == entry || glob_match(entry, p))
            }),
            Rules::Ignore(rules) => {
                let mut ignored = false;
                for rule in rules {
                    if rule.matches(path) {
                        ignored = !rule.negated;
                    }
                }
                !ignored
            }
        }
    }
}

/// One line of `.npmignore`/`.gitignore`.
struct IgnoreRule {
    pattern: String,
    negated: bool,
    /// Trailing `/`: matches directories only.
    dir_only: bool,
    /// Contains a `/`: relative to the package root.
    anchored: bool,
}

impl IgnoreRule {
    fn parse(line: &str) -> Option<IgnoreRule> {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let (negated, line) = match line.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let (dir_only, line) = match line.strip_suffix('/') {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let anchored = line.contains('/');
        let pattern = line.trim_start_matches('/').to_owned();
        (!pattern.is_empty()).then_some(IgnoreRule {
            pattern,
            negated,
            dir_only,
            anchored,
        })
    }

    /// Matches the file itself or any directory above it.
    fn matches(&self, path: &str) -> bool {
        let dirs = prefixes(path).filter(|p| p.len() < path.len());
        let candidates: Vec<&str> = if self.dir_only {
            dirs.collect()
        } else {
            prefixes(path).collect()
        };
        candidates.iter().any(|candidate| {
            if self.anchored {
                glob_match(&self.pattern, candidate)
            } else {
                let name = candidate.rsplit('/').next().unwrap_or(candidate);
                glob_match(&self.pattern, name)
            }
        })
    }
}

/// `.npmignore`, else `.gitignore`, at the package root.
fn read_ignore_file(dir: &Path) -> Vec<IgnoreRule> {
    let text = std::fs::read_to_string(dir.join(".npmignore"))
        .or_else(|_| std::fs::read_to_string(dir.join(".gitignore")))
        .unwrap_or_default();
    text.lines().filter_map(IgnoreRule::parse).collect()
}

/// `./lib/` → `lib`.
fn normalize_entry(entry: &str) -> String {
    entry
        .trim()
        .trim_start_matches("./")
        .trim_start_matches('/')
        .trim_end_matches('/')
        .to_owned()
}

/// `main` and `bin` targets.
fn forced_files(manifest: Option<&Value>) -> Vec<String> {
    let Some(manifest) = manifest else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(main) = manifest.get("main").and_then(Value::as_str) {
        out.push(normalize_entry(main));
    }
    match manifest.get("bin") {
        Some(Value::String(bin)) => out.push(normalize_entry(bin)),
        Some(Value::Object(map)) => {
            out.extend(map.values().filter_map(Value::as_str).map(normalize_entry));
        }
        _ => {}
    }
    out
}

fn is_always_included(path: &str) -> bool {
    if path == "package.json" {
        return true;
    }
    if path.contains('/') {
        return false;
    }
    let lower = path.to_ascii_lowercase();
    ALWAYS_INCLUDED_PREFIXES
        .iter()
        .any(|p| lower.starts_with(p))
}

fn excluded(path: &str) -> bool {
    if ROOT_EXCLUDED.contains(&path) {
        return true;
    }
    path.split('/')
        .any(|segment| ALWAYS_EXCLUDED.iter().any(|p| glob_match(p, segment)))
}

/// `a/b/c` → `a`, `a/b`, `a/b/c`.
fn prefixes(path: &str) -> impl Iterator<Item = &str> {
    path.match_indices('/')
        .map(move |(i, _)| &path[..i])
        .chain(std::iter::once(path))
}

/// Every regular file under `dir`; symlinks are not followed.
fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        let kind = entry.file_type()?;
        if kind.is_dir() {
            // Nothing below these can be packed; skip the walk.
            if name == ".git" || name == "node_modules" {
                continue;
            }
            walk(&entry.path(), &rel, out)?;
        } else if kind.is_file() {
            out.push(rel);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
