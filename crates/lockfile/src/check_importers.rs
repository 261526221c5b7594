//! Frozen-lockfile gate 4: every project has an importer that satisfies its
//! `package.json` (pnpm's `satisfiesPackageManifest`, with pnpm 12's texts).

use std::collections::BTreeMap;

use indexmap::IndexMap;

use crate::git_spec::specs_equal;
use crate::{Importer, Lockfile, LockfileError, ProjectManifest, ResolvedDependency};

/// Configuration that changes what an importer must contain.
#[derive(Debug, Clone)]
pub struct ImporterCheckOptions {
    /// Undeclared `peerDependencies` count as dependencies (default true).
    pub auto_install_peers: bool,
    /// `link:` dependencies are not recorded, so they are ignored.
    pub exclude_links_from_lockfile: bool,
    /// Name patterns (`*` wildcards) of optional dependencies to drop.
    pub ignored_optional_dependencies: Vec<String>,
}

impl Default for ImporterCheckOptions {
    fn default() -> Self {
        ImporterCheckOptions {
            auto_install_peers: true,
            exclude_links_from_lockfile: false,
            ignored_optional_dependencies: Vec::new(),
        }
    }
}

/// Checks each `(importer id, manifest)` in the given order and fails on the
/// first project whose importer is missing or outdated, as pnpm 12 does.
/// A project without any dependency needs no importer.
pub fn check_importers(
    lockfile: &Lockfile,
    projects: &[(&str, &ProjectManifest)],
    opts: &ImporterCheckOptions,
) -> Result<(), LockfileError> {
    for (id, manifest) in projects {
        let manifest = without_ignored_optionals(manifest, &opts.ignored_optional_dependencies);
        let Some(importer) = lockfile.importers.get(*id) else {
            if manifest.has_dependencies() {
                return Err(LockfileError::NoImporter {
                    importer_id: (*id).to_owned(),
                });
            }
            continue;
        };
        if let Err(reason) = satisfies(importer, &manifest, id, opts) {
            return Err(LockfileError::Outdated { reason });
        }
    }
    Ok(())
}

/// `manifest` without the optional dependencies `ignoredOptionalDependencies`
/// names (`*` globs), which pnpm drops from `dependencies` too.
pub fn without_ignored_optionals(
    manifest: &ProjectManifest,
    patterns: &[String],
) -> ProjectManifest {
    let mut m = manifest.clone();
    remove_ignored_optionals(patterns, &mut m.optional_dependencies, &mut m.dependencies);
    m
}

/// Removes from `optional` the names `patterns` (`*` globs) match, and the
/// same names from `dependencies`, as pnpm's manifest hook does.
pub fn remove_ignored_optionals(
    patterns: &[String],
    optional: &mut indexmap::IndexMap<String, String>,
    dependencies: &mut indexmap::IndexMap<String, String>,
) {
    if patterns.is_empty() {
        return;
    }
    let ignored: Vec<String> = optional
        .keys()
        .filter(|n| patterns.iter().any(|p| glob_match(p, n)))
        .cloned()
        .collect();
    for name in ignored {
        optional.shift_remove(&name);
        dependencies.shift_remove(&name);
    }
}

/// `*` matches any run of characters; everything else is literal.
pub(crate) fn glob_match(pattern: &str, name: &str) -> bool {
    let Some((head, rest)) = pattern.split_once('*') else {
        return pattern == name;
    };
    let Some(mut remaining) = name.strip_prefix(head) else {
        return false;
    };
    let parts: Vec<&str> = rest.split('*').collect();
    let (last, middle) = parts.split_last().unwrap_or((&"", &[]));
    for part in middle {
        match remaining.find(part) {
            Some(i) => remaining = &remaining[i + part.len()..],
            None => return false,
        }
    }
    remaining.len() >= last.len() && remaining.ends_with(last)
}

fn is_link(spec: &str) -> bool {
    spec.starts_with("link:")
}

/// `Err(reason)` holds the "Failure reason" block of the message. The
/// checks run in pnpm's order, so the first difference is the one reported.
fn satisfies(
    importer: &Importer,
    pkg: &ProjectManifest,
    id: &str,
    opts: &ImporterCheckOptions,
) -> Result<(), String> {
    let exclude_links = opts.exclude_links_from_lockfile;
    let (existing, prod) = manifest_specifiers(pkg, opts.auto_install_peers);
    check_specifiers(importer, existing, id, exclude_links)?;
    check_publish_directory(importer, pkg)?;
    check_dependencies_meta(importer, pkg)?;
    for (field, wanted, locked) in field_checks(importer, pkg, prod) {
        check_field(field, wanted, locked, exclude_links)?;
    }
    Ok(())
}

/// Every specifier of the manifest, and the ones that belong in the
/// `dependencies` group. With `autoInstallPeers`, a peer declared nowhere
/// else is installed as a dependency.
fn manifest_specifiers(
    pkg: &ProjectManifest,
    auto_install_peers: bool,
) -> (IndexMap<&str, &str>, IndexMap<&str, &str>) {
    // Later groups win, as in `{...dev, ...deps, ...optional}`.
    let mut existing: IndexMap<&str, &str> = IndexMap::new();
    for group in [
        &pkg.dev_dependencies,
        &pkg.dependencies,
        &pkg.optional_dependencies,
    ] {
        for (k, v) in group {
            existing.insert(k, v);
        }
    }
    let mut prod: IndexMap<&str, &str> = IndexMap::new();
    if auto_install_peers {
        for (k, v) in &pkg.peer_dependencies {
            if !existing.contains_key(k.as_str()) {
                prod.insert(k, v);
            }
        }
        for (k, v) in &pkg.peer_dependencies {
            existing.entry(k).or_insert(v);
        }
    }
    for (k, v) in &pkg.dependencies {
        prod.insert(k, v);
    }
    (existing, prod)
}

/// The importer's specifiers, all groups together, against the manifest's.
fn check_specifiers(
    importer: &Importer,
    mut existing: IndexMap<&str, &str>,
    id: &str,
    exclude_links: bool,
) -> Result<(), String> {
    let mut specs: BTreeMap<&str, &str> = BTreeMap::new();
    for group in [
        &importer.dev_dependencies,
        &importer.dependencies,
        &importer.optional_dependencies,
    ] {
        for (k, v) in group.iter().flatten() {
            specs.insert(k, &v.specifier);
        }
    }
    if exclude_links {
        existing.retain(|_, v| !is_link(v));
        specs.retain(|_, v| !is_link(v));
    }
    let existing: BTreeMap<&str, &str> = existing.into_iter().collect();
    let same = existing.len() == specs.len()
        && existing
            .iter()
            .zip(&specs)
            .all(|((ka, va), (kb, vb))| ka == kb && specs_equal(va, vb));
    if !same {
        return Err(specifier_diff(id, &specs, &existing));
    }
    Ok(())
}

fn check_publish_directory(importer: &Importer, pkg: &ProjectManifest) -> Result<(), String> {
    // Absent means `true` on both sides (checked with pnpm 12.21, which
    // refuses query's lockfile this way).
    let (locked, wanted) = (
        importer.link_directory.unwrap_or(true),
        pkg.link_directory.unwrap_or(true),
    );
    if locked != wanted {
        return Err(format!(
            "  \"linkDirectory\" in the lockfile ({locked}) doesn't match \"publishConfig.linkDirectory\" in package.json ({wanted})"
        ));
    }
    if importer.publish_directory != pkg.publish_directory {
        return Err(format!(
            "  `publishDirectory` in the lockfile ({:?}) doesn't match `publishConfig.directory` in package.json ({:?})",
            importer.publish_directory, pkg.publish_directory
        ));
    }
    Ok(())
}

/// A missing `dependenciesMeta` equals an empty one.
fn check_dependencies_meta(importer: &Importer, pkg: &ProjectManifest) -> Result<(), String> {
    let empty = serde_json::Value::Object(serde_json::Map::new());
    let lock_meta = importer.dependencies_meta.as_ref().unwrap_or(&empty);
    let pkg_meta = pkg.dependencies_meta.as_ref().unwrap_or(&empty);
    if lock_meta != pkg_meta {
        return Err(format!(
            "  importer dependencies meta ({lock_meta}) doesn't match package manifest dependencies meta ({pkg_meta})"
        ));
    }
    Ok(())
}

/// What each importer group must hold: a dependency listed in several
/// manifest groups is expected only in the first of `optionalDependencies`,
/// `dependencies` (peers included), `devDependencies`.
fn field_checks<'a>(
    importer: &'a Importer,
    pkg: &'a ProjectManifest,
    prod: IndexMap<&'a str, &'a str>,
) -> [FieldCheck<'a>; 3] {
    [
        (
            "dependencies",
            prod.into_iter()
                .filter(|(k, _)| !pkg.optional_dependencies.contains_key(*k))
                .collect(),
            &importer.dependencies,
        ),
        (
            "devDependencies",
            pkg.dev_dependencies
                .iter()
                .filter(|(k, _)| {
                    !pkg.optional_dependencies.contains_key(*k)
                        && !pkg.dependencies.contains_key(*k)
                })
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect(),
            &importer.dev_dependencies,
        ),
        (
            "optionalDependencies",
            pkg.optional_dependencies
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect(),
            &importer.optional_dependencies,
        ),
    ]
}

/// One importer group against its manifest entries, both ways: a wanted
/// entry missing or different, then a locked entry no longer wanted.
fn check_field(
    field: &str,
    mut wanted: IndexMap<&str, &str>,
    locked: &Option<BTreeMap<String, ResolvedDependency>>,
    exclude_links: bool,
) -> Result<(), String> {
    if exclude_links {
        wanted.retain(|_, v| !is_link(v));
    }
    let locked_spec = |name: &str| {
        locked
            .as_ref()
            .and_then(|m| m.get(name))
            .map(|d| d.specifier.as_str())
    };
    for (name, spec) in &wanted {
        let lock = locked_spec(name);
        if !lock.is_some_and(|l| specs_equal(l, spec)) {
            return Err(field_mismatch(field, name, lock.unwrap_or(ABSENT), spec));
        }
    }
    for (name, dep) in locked.iter().flatten() {
        let skipped = exclude_links && is_link(&dep.specifier);
        if !wanted.contains_key(name.as_str()) && !skipped {
            return Err(field_mismatch(field, name, &dep.specifier, ABSENT));
        }
    }
    Ok(())
}

/// (field name, manifest entries to find, the importer's entries).
type FieldCheck<'a> = (
    &'static str,
    IndexMap<&'a str, &'a str>,
    &'a Option<BTreeMap<String, ResolvedDependency>>,
);

const ABSENT: &str = "(absent)";

fn field_mismatch(field: &str, name: &str, lock: &str, manifest: &str) -> String {
    format!(
        "  importer {field}.{name} specifier {lock:?} doesn't match package manifest specifier ({manifest:?})"
    )
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// pnpm 12's added/removed/mismatched listing.
fn specifier_diff(
    id: &str,
    locked: &BTreeMap<&str, &str>,
    wanted: &BTreeMap<&str, &str>,
) -> String {
    let added: Vec<String> = wanted
        .iter()
        .filter(|(k, _)| !locked.contains_key(*k))
        .map(|(k, v)| format!("{k}@{v}"))
        .collect();
    let removed: Vec<String> = locked
        .iter()
        .filter(|(k, _)| !wanted.contains_key(*k))
        .map(|(k, v)| format!("{k}@{v}"))
        .collect();
    let mismatched: Vec<String> = wanted
        .iter()
        .filter_map(|(k, v)| {
            let lock = locked.get(k)?;
            (!specs_equal(lock, v)).then(|| format!("  - {k} (lockfile: {lock}, manifest: {v})"))
        })
        .collect();
    let mut out = format!(
        "  specifiers in the lockfile don't match specifiers in package.json:\n* in importers[\"{id}\"]:"
    );
    if !added.is_empty() {
        let head = count(
            added.len(),
            "dependency was added",
            "dependencies were added",
        );
        out.push_str(&format!("\n* {head}: {}", added.join(", ")));
    }
    if !removed.is_empty() {
        let head = count(
            removed.len(),
            "dependency was removed",
            "dependencies were removed",
        );
        out.push_str(&format!("\n* {head}: {}", removed.join(", ")));
    }
    if !mismatched.is_empty() {
        let head = count(
            mismatched.len(),
            "dependency is mismatched",
            "dependencies are mismatched",
        );
        out.push_str(&format!("\n* {head}:\n{}", mismatched.join("\n")));
    }
    out
}

#[cfg(test)]
mod tests;
