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
    let parsed = Overrides::new(overrides);
    let mut out = manifest.clone();
    let (name, version) = (manifest.name.as_deref(), manifest.version.as_deref());
    for deps in [
        &mut out.dependencies,
        &mut out.dev_dependencies,
        &mut out.optional_dependencies,
        &mut out.peer_dependencies,
    ] {
        parsed.apply(name, version, deps);
    }
    out
}

/// Parsed `overrides`, for any manifest's dependency maps.
#[derive(Debug, Clone, Default)]
pub struct Overrides(Vec<Override>);

impl Overrides {
    /// Entries whose key does not parse are left out.
    pub fn new(overrides: &IndexMap<String, String>) -> Self {
        Overrides(
            overrides
                .iter()
                .filter_map(|(k, v)| parse_override(k, v))
                .collect(),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The override package `name@version` gets for its dependency `dep`
    /// on `spec`: `Some("-")` drops it. Those naming the package as their
    /// parent come first.
    fn find(
        &self,
        name: Option<&str>,
        version: Option<&str>,
        dep: &str,
        spec: &str,
    ) -> Option<&str> {
        let own: Vec<&Override> = self
            .0
            .iter()
            .filter(|o| {
                o.parent
                    .as_ref()
                    .is_some_and(|p| parent_matches(p, name, version))
            })
            .collect();
        let generic: Vec<&Override> = self.0.iter().filter(|o| o.parent.is_none()).collect();
        pick(&own, dep, spec)
            .or_else(|| pick(&generic, dep, spec))
            .map(|o| o.value.as_str())
    }

    /// Overrides the specifiers of `deps`, a dependency field of package
    /// `name@version`, in place.
    pub fn apply(
        &self,
        name: Option<&str>,
        version: Option<&str>,
        deps: &mut IndexMap<String, String>,
    ) {
        if self.0.is_empty() {
            return;
        }
        let names: Vec<String> = deps.keys().cloned().collect();
        for dep in names {
            match self.find(name, version, &dep, &deps[&dep]) {
                Some("-") => {
                    deps.shift_remove(&dep);
                }
                Some(value) => deps[&dep] = value.to_owned(),
                None => {}
            }
        }
    }

    /// Overrides the peers of a published package as pnpm's manifest hook
    /// does: a range replaces the peer's range; anything else (`link:`, a
    /// tag) becomes a dependency, the peer staying as it was.
    pub fn apply_to_peers(
        &self,
        name: &str,
        version: &str,
        peers: &mut IndexMap<String, String>,
        dependencies: &mut IndexMap<String, String>,
    ) {
        if self.0.is_empty() {
            return;
        }
        let names: Vec<String> = peers.keys().cloned().collect();
        for dep in names {
            match self.find(Some(name), Some(version), &dep, &peers[&dep]) {
                Some("-") => {
                    peers.shift_remove(&dep);
                }
                Some(value) if Range::parse(value).is_ok() => peers[&dep] = value.to_owned(),
                Some(value) => {
                    dependencies.insert(dep, value.to_owned());
                }
                None => {}
            }
        }
    }
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

fn parent_matches(parent: &Selector, name: Option<&str>, version: Option<&str>) -> bool {
    if name != Some(parent.name.as_str()) {
        return false;
    }
    let Some(range) = &parent.range else {
        return true;
    };
    match (Range::parse(range), version.map(Version::parse)) {
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
