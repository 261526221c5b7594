//! pnpm's `overrides` as they apply to the projects' own `package.json`
//! files, so the importer check compares what pnpm 12 resolved from.
//!
//! Keys: `name`, `name@range`, `parent>name`, `parent@range>name`. Values: a
//! specifier, `-` (drop the dependency), `$name` (the root project's own
//! specifier for `name`), or `link:`/`file:` paths (relative to the root in
//! the settings; the caller rebases them per project, see [`apply_overrides`]).
//! Checked against pnpm 12.21: a range selector applies when the
//! dependency's specifier is a subset of it; a parent selector applies to a
//! project with that name; `peerDependencies` are overridden too.

use indexmap::IndexMap;
use nodejs_semver::{Range, Version};

use crate::{LockfileError, ProjectManifest};

/// `name` or `name@range`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Selector {
    name: String,
    range: Option<String>,
}

/// One parsed `overrides` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Override {
    parent: Option<Selector>,
    target: Selector,
    value: String,
}

/// Replaces `catalog:` / `catalog:<name>` values with the specifier the
/// catalog (`default` for a bare `catalog:`) gives the overridden package,
/// which is what pnpm 12 records in the lockfile (`rollup: 'catalog:'` is
/// recorded as `rollup: ^4.62.4`). A value the catalog lacks stays as
/// written, so the settings check reports the mismatch.
pub fn resolve_override_catalogs(
    overrides: &IndexMap<String, String>,
    catalogs: &IndexMap<String, IndexMap<String, String>>,
) -> IndexMap<String, String> {
    overrides
        .iter()
        .map(|(key, value)| {
            let resolved = value.strip_prefix("catalog:").and_then(|catalog| {
                let catalog = if catalog.is_empty() {
                    "default"
                } else {
                    catalog
                };
                let name = parse_override(key, value)?.target.name;
                catalogs.get(catalog)?.get(&name).cloned()
            });
            (key.clone(), resolved.unwrap_or_else(|| value.clone()))
        })
        .collect()
}

/// Replaces `$name` values with the root manifest's specifier for `name`
/// (its `dependencies`, `devDependencies`, then `optionalDependencies`),
/// which is what pnpm 12 records in the lockfile.
pub fn resolve_override_references(
    overrides: &IndexMap<String, String>,
    root: &ProjectManifest,
) -> Result<IndexMap<String, String>, LockfileError> {
    overrides
        .iter()
        .map(|(key, value)| {
            let Some(name) = value.strip_prefix('$') else {
                return Ok((key.clone(), value.clone()));
            };
            [
                &root.dependencies,
                &root.dev_dependencies,
                &root.optional_dependencies,
            ]
            .into_iter()
            .find_map(|deps| deps.get(name))
            .map(|spec| (key.clone(), spec.clone()))
            .ok_or_else(|| LockfileError::OverrideReference {
                key: key.clone(),
                name: name.to_owned(),
            })
        })
        .collect()
}

/// `manifest` with `overrides` applied to its dependency fields. Values are
/// used as given: `link:`/`file:` paths must already be relative to the
/// project, as pnpm writes them into its importer.
pub fn apply_overrides(
    manifest: &ProjectManifest,
    overrides: &IndexMap<String, String>,
) -> ProjectManifest {
    let parsed: Vec<Override> = overrides
        .iter()
        .filter_map(|(k, v)| parse_override(k, v))
        .collect();
    let own: Vec<&Override> = parsed
        .iter()
        .filter(|o| {
            o.parent
                .as_ref()
                .is_some_and(|p| parent_matches(p, manifest))
        })
        .collect();
    let generic: Vec<&Override> = parsed.iter().filter(|o| o.parent.is_none()).collect();
    let mut out = manifest.clone();
    for deps in [
        &mut out.dependencies,
        &mut out.dev_dependencies,
        &mut out.optional_dependencies,
        &mut out.peer_dependencies,
    ] {
        let names: Vec<String> = deps.keys().cloned().collect();
        for name in names {
            let spec = deps[&name].clone();
            let Some(o) = pick(&own, &name, &spec).or_else(|| pick(&generic, &name, &spec)) else {
                continue;
            };
            if o.value == "-" {
                deps.shift_remove(&name);
            } else {
                deps[&name] = o.value.clone();
            }
        }
    }
    out
}

/// The override for `name` at `spec`: one with a matching range first.
fn pick<'o>(candidates: &[&'o Override], name: &str, spec: &str) -> Option<&'o Override> {
    let matching = || candidates.iter().filter(|o| o.target.name == name);
    matching()
        .find(|o| {
            o.target
                .range
                .as_deref()
                .is_some_and(|r| is_sub_range(r, spec))
        })
        .or_else(|| matching().find(|o| o.target.range.is_none()))
        .copied()
}

/// pnpm's `isSubRange`: `spec` equals `range` or allows only versions
/// `range` allows.
fn is_sub_range(range: &str, spec: &str) -> bool {
    if range == spec {
        return true;
    }
    match (Range::parse(range), Range::parse(spec)) {
        (Ok(range), Ok(spec)) => range.allows_all(&spec),
        _ => false,
    }
}

fn parent_matches(parent: &Selector, manifest: &ProjectManifest) -> bool {
    if manifest.name.as_deref() != Some(parent.name.as_str()) {
        return false;
    }
    let Some(range) = &parent.range else {
        return true;
    };
    match (
        Range::parse(range),
        manifest.version.as_deref().map(Version::parse),
    ) {
        (Ok(range), Some(Ok(version))) => range.satisfies(&version),
        _ => false,
    }
}

/// Splits `parent>target`; a `>` that starts a range (`foo@>1`) is not a
/// separator.
fn parse_override(key: &str, value: &str) -> Option<Override> {
    let split = key.char_indices().find(|&(i, c)| {
        c == '>' && {
            let before = &key[..i];
            let after = &key[i + 1..];
            !before.ends_with(['@', '<', '>', '=', ' ', '|'])
                && !after.starts_with(['=', ' ', '<', '>'])
                && !after.starts_with(|c: char| c.is_ascii_digit())
        }
    });
    let (parent, target) = match split {
        Some((i, _)) => (
            Some(parse_selector(&key[..i])?),
            parse_selector(&key[i + 1..])?,
        ),
        None => (None, parse_selector(key)?),
    };
    Some(Override {
        parent,
        target,
        value: value.to_owned(),
    })
}

fn parse_selector(s: &str) -> Option<Selector> {
    let at = if let Some(rest) = s.strip_prefix('@') {
        rest.find('@').map(|i| i + 1)
    } else {
        s.find('@')
    };
    let (name, range) = match at {
        Some(i) => (&s[..i], Some(s[i + 1..].to_owned())),
        None => (s, None),
    };
    (!name.is_empty()).then(|| Selector {
        name: name.to_owned(),
        range: range.filter(|r| !r.is_empty()),
    })
}

#[cfg(test)]
mod tests;
