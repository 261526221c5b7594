//! One `--filter` selector, parsed as pnpm 12 parses it
//! (docs/filtering.md §1).

use std::path::{Path, PathBuf};

/// What one selector asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selector {
    /// `!`: the matched projects are taken out of the selection.
    pub exclude: bool,
    /// `^` next to `...`: the matched projects themselves are left out,
    /// only their dependencies or dependents are selected.
    pub exclude_self: bool,
    /// Trailing `...`: the matched projects' dependencies too.
    pub include_dependencies: bool,
    /// Leading `...`: the matched projects' dependents too.
    pub include_dependents: bool,
    /// A project-name pattern (`*` matches anything).
    pub name_pattern: Option<String>,
    /// `{dir}` or `./dir`, joined onto the prefix (lexically).
    pub parent_dir: Option<PathBuf>,
    /// `[<since>]`: projects with files changed since this git revision.
    pub diff: Option<String>,
    /// Given with `--filter-prod`: the walks follow production
    /// dependencies only.
    pub follow_prod_deps_only: bool,
}

/// Parses `raw` as pnpm does; directories are relative to `prefix` (the
/// directory the command runs in).
pub fn parse_selector(raw: &str, prefix: &Path) -> Selector {
    let mut rest = raw;
    let exclude = match rest.strip_prefix('!') {
        Some(r) => {
            rest = r;
            true
        }
        None => false,
    };
    let mut exclude_self = false;
    let include_dependencies = rest.ends_with("...");
    if include_dependencies {
        rest = &rest[..rest.len() - 3];
        if let Some(r) = rest.strip_suffix('^') {
            exclude_self = true;
            rest = r;
        }
    }
    let include_dependents = rest.starts_with("...");
    if include_dependents {
        rest = &rest[3..];
        if let Some(r) = rest.strip_prefix('^') {
            exclude_self = true;
            rest = r;
        }
    }
    match split_parts(rest) {
        Some(parts) => Selector {
            exclude,
            exclude_self,
            include_dependencies,
            include_dependents,
            name_pattern: parts.name.map(str::to_owned),
            parent_dir: parts.dir.map(|dir| lexical_join(prefix, dir)),
            diff: parts.since.map(str::to_owned),
            follow_prod_deps_only: false,
        },
        // What the grammar does not cover is a path (`./x`, `..`), keeping
        // only `!`, or else a name pattern, keeping nothing else: pnpm's
        // fallbacks.
        None if is_location(rest) => Selector {
            exclude,
            parent_dir: Some(lexical_join(prefix, rest)),
            ..Selector::default()
        },
        None => Selector {
            name_pattern: Some(rest.to_owned()),
            ..Selector::default()
        },
    }
}

struct Parts<'a> {
    name: Option<&'a str>,
    dir: Option<&'a str>,
    since: Option<&'a str>,
}

/// `name? {dir}? [since]?`, where a name does not start with `.` and holds
/// no braces or brackets after its first character, `dir` has no `}` and
/// `since` no `]`, all non-empty. `None` when `s` is not of that shape.
fn split_parts(s: &str) -> Option<Parts<'_>> {
    // Past its first character a name stops at the first brace or bracket,
    // and what follows it must start with one, so the only two splits
    // worth trying are the longest name and no name.
    let mut lengths = Vec::with_capacity(2);
    if let Some(first) = s.chars().next()
        && first != '.'
    {
        let tail = &s[first.len_utf8()..];
        let run = tail.find(['{', '}', '[', ']']).unwrap_or(tail.len());
        lengths.push(first.len_utf8() + run);
    }
    lengths.push(0);
    lengths.into_iter().find_map(|len| {
        let (name, rest) = s.split_at(len);
        let (dir, since) = groups(rest)?;
        Some(Parts {
            name: (!name.is_empty()).then_some(name),
            dir,
            since,
        })
    })
}

type Groups<'a> = (Option<&'a str>, Option<&'a str>);

/// `({dir})?([since])?` covering all of `s`.
fn groups(s: &str) -> Option<Groups<'_>> {
    let (dir, rest) = match s.strip_prefix('{') {
        Some(r) => {
            let end = r.find('}')?;
            if end == 0 {
                return None;
            }
            (Some(&r[..end]), &r[end + 1..])
        }
        None => (None, s),
    };
    let since = match rest.strip_prefix('[') {
        Some(r) => {
            let end = r.find(']')?;
            if end == 0 || end + 1 != r.len() {
                return None;
            }
            Some(&r[..end])
        }
        None if rest.is_empty() => None,
        None => return None,
    };
    Some((dir, since))
}

/// `.`, `..`, or a path starting with `./`, `../` (or their backslash
/// forms).
fn is_location(s: &str) -> bool {
    let rest = match s.strip_prefix("..").or_else(|| s.strip_prefix('.')) {
        Some(rest) => rest,
        None => return false,
    };
    rest.is_empty() || rest.starts_with('/') || rest.starts_with('\\')
}

/// `prefix/path` with `.` and `..` resolved without touching the disk.
pub(crate) fn lexical_join(prefix: &Path, path: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for component in prefix.join(path.replace('\\', "/")).components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests;
