//! One directory of the walk: its rules in ignore-walk's order, and the
//! question every entry is asked, answered from the top directory down
//! (docs/packlist.md §2).

use std::path::Path;

use serde_json::Value;

use super::rule::Rule;

/// Applied in every directory (docs/packlist.md §3).
const DEFAULTS: [&str; 22] = [
    ".npmignore",
    ".gitignore",
    "**/.git",
    "**/.svn",
    "**/.hg",
    "**/CVS",
    "**/.git/**",
    "**/.svn/**",
    "**/.hg/**",
    "**/CVS/**",
    "/.lock-wscript",
    "/.wafpickle-*",
    "/build/config.gypi",
    "npm-debug.log",
    "**/.npmrc",
    ".*.swp",
    ".DS_Store",
    "**/.DS_Store/**",
    "._*",
    "**/._*/**",
    "*.orig",
    "/archived-packages/**",
];

/// The package root's last word (docs/packlist.md §4), after its required
/// files.
const ROOT_STRICT: [&str; 13] = [
    "/.git",
    "!/package.json",
    "!/readme{,.*[^~$]}",
    "!/copying{,.*[^~$]}",
    "!/license{,.*[^~$]}",
    "!/licence{,.*[^~$]}",
    "/.git",
    "/node_modules",
    ".npmrc",
    "/package-lock.json",
    "/yarn.lock",
    "/pnpm-lock.yaml",
    "/bun.lockb",
];

pub(super) struct Level {
    /// The directory's own name (empty for the root).
    name: String,
    rules: Vec<Rule>,
}

impl Level {
    /// The package root, and the `files` entries that are files (required
    /// wherever they are).
    pub fn root(dir: &Path, manifest: Option<&Value>) -> std::io::Result<(Level, Vec<String>)> {
        let mut lines: Vec<String> = DEFAULTS.iter().map(|s| (*s).to_owned()).collect();
        let files = manifest
            .and_then(|m| m.get("files"))
            .and_then(Value::as_array);
        let mut required = Vec::new();
        let mut strict_front = Vec::new();
        match files {
            Some(entries) => {
                lines.push("*".to_owned());
                for entry in entries.iter().filter_map(Value::as_str) {
                    files_entry(dir, entry, &mut lines, &mut strict_front, &mut required);
                }
            }
            None => lines.extend(ignore_file(dir)?),
        }
        strict_front.reverse();
        lines.extend(strict_front);
        lines.extend(ROOT_STRICT.iter().map(|s| (*s).to_owned()));
        lines.extend(forced(manifest));
        let level = Level {
            name: String::new(),
            rules: lines.iter().filter_map(|l| Rule::parse(l)).collect(),
        };
        Ok((level, required))
    }

    /// A directory below the root: defaults, its own ignore file, then
    /// `/.git` and the required files directly in it.
    pub fn child(dir: &Path, name: &str, required: &[String]) -> std::io::Result<Level> {
        let mut lines: Vec<String> = DEFAULTS.iter().map(|s| (*s).to_owned()).collect();
        lines.extend(ignore_file(dir)?);
        lines.push("/.git".to_owned());
        lines.extend(required.iter().map(|file| format!("!{file}")));
        Ok(Level {
            name: name.to_owned(),
            rules: lines.iter().filter_map(|l| Rule::parse(l)).collect(),
        })
    }
}

/// One `files` entry: a file is required (a strict rule), a directory
/// includes its contents, anything else is a pattern.
fn files_entry(
    dir: &Path,
    entry: &str,
    lines: &mut Vec<String>,
    strict: &mut Vec<String>,
    required: &mut Vec<String>,
) {
    let mut file = entry
        .strip_prefix('.')
        .filter(|_| entry.starts_with("./"))
        .unwrap_or(entry)
        .to_owned();
    if file.ends_with("/*") {
        file.push('*');
    }
    let inverse = format!("!{file}");
    let on_disk = dir.join(file.trim_start_matches('!').trim_start_matches('/'));
    match std::fs::symlink_metadata(on_disk) {
        Ok(meta) if meta.is_file() => {
            strict.push(inverse);
            required.push(file.strip_prefix('/').unwrap_or(&file).to_owned());
        }
        Ok(meta) if meta.is_dir() => {
            lines.push(inverse.clone());
            lines.push(format!("{inverse}/**"));
        }
        Ok(_) => {}
        Err(_) => lines.push(inverse),
    }
}

/// `browser`, `main` and every `bin` target, always packed.
fn forced(manifest: Option<&Value>) -> Vec<String> {
    let Some(manifest) = manifest else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for key in ["browser", "main"] {
        if let Some(path) = manifest.get(key).and_then(Value::as_str) {
            out.push(format!("!/{path}"));
        }
    }
    let name = manifest.get("name").and_then(Value::as_str).unwrap_or("");
    let bins: Vec<&str> = match manifest.get("bin") {
        Some(Value::String(path)) if !name.is_empty() => vec![path],
        Some(Value::Object(map)) => map.values().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    out.extend(
        bins.into_iter()
            .map(|bin| format!("!/{}", normalize_bin(bin))),
    );
    out
}

/// npm's bin normalization: the path resolved against `/`, without it.
fn normalize_bin(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    parts.join("/")
}

/// `.npmignore`, else `.gitignore`, of `dir`, as rule lines.
fn ignore_file(dir: &Path) -> std::io::Result<Vec<String>> {
    for name in [".npmignore", ".gitignore"] {
        match std::fs::read(dir.join(name)) {
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                return Ok(text.lines().map(str::to_owned).collect());
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) if err.kind() == std::io::ErrorKind::IsADirectory => {}
            Err(err) => return Err(err),
        }
    }
    Ok(Vec::new())
}

/// The required files directly inside the child directory `name`.
pub(super) fn required_below(required: &[String], name: &str) -> Vec<String> {
    required
        .iter()
        .filter_map(|file| file.strip_prefix(name)?.strip_prefix('/'))
        .filter(|rest| !rest.contains('/'))
        .map(str::to_owned)
        .collect()
}

/// Whether `entry` (a name in the deepest directory of `levels`) is packed:
/// each directory from the top decides in turn, a directory's own rules
/// only able to flip what the ones above it decided.
pub(super) fn included(levels: &[Level], entry: &str, dir: bool) -> bool {
    decide(levels, levels.len() - 1, entry, dir, None)
}

fn decide(levels: &[Level], at: usize, entry: &str, dir: bool, base: Option<&str>) -> bool {
    let mut included = true;
    if at > 0 {
        let from_parent = format!("{}/{entry}", levels[at].name);
        included = decide(
            levels,
            at - 1,
            &from_parent,
            dir,
            Some(base.unwrap_or(entry)),
        );
        if !included {
            return false;
        }
    }
    for rule in &levels[at].rules {
        if rule.negate != included && rule_hits(rule, entry, dir, base) {
            included = rule.negate;
        }
    }
    included
}

/// ignore-walk's tests, in its order: the path with and without a leading
/// `/`; for directories also with a trailing `/`, as a possible prefix for
/// negations, and by the entry's own name for one-segment rules.
fn rule_hits(rule: &Rule, entry: &str, dir: bool, base: Option<&str>) -> bool {
    let rooted = format!("/{entry}");
    if rule.matches(&rooted) || rule.matches(entry) {
        return true;
    }
    if !dir {
        return false;
    }
    if rule.matches(&format!("{rooted}/"))
        || rule.matches(&format!("{entry}/"))
        || (rule.negate && (rule.matches_prefix(&rooted) || rule.matches_prefix(entry)))
    {
        return true;
    }
    let Some(base) = base.filter(|_| rule.relative) else {
        return false;
    };
    rule.matches(&format!("/{base}/"))
        || rule.matches(&format!("{base}/"))
        || (rule.negate && (rule.matches_prefix(&format!("/{base}")) || rule.matches_prefix(base)))
}
