//! The lockfile pnpm 12 writes for a resolved graph (docs/resolution.md §4).

use std::collections::{BTreeMap, HashSet};

use pacquet_lockfile::{
    DepPath, Importer, ListOrScalar, Lockfile, LockfileSettings, PackageInfo, Resolution,
    ResolvedDependency, Snapshot, registry_tarball_url,
};

use pacquet_planner::layout::relative;

use crate::graph::{Graph, Group, Package};
use crate::peers::{PeerResolution, dep_ref};

/// The `settings` block and what decides registry resolutions.
pub struct LockfileOptions<'a> {
    pub settings: LockfileSettings,
    /// The registry serving a package name (ending in `/`).
    pub registry_for: &'a dyn Fn(&str) -> String,
    /// Recorded as they are, when there are any.
    pub overrides: &'a indexmap::IndexMap<String, String>,
}

pub fn build_lockfile(graph: &Graph, peers: &PeerResolution, opts: &LockfileOptions) -> Lockfile {
    let mut importers = BTreeMap::new();
    let mut catalogs: BTreeMap<String, BTreeMap<String, ResolvedDependency>> = BTreeMap::new();
    for (index, importer) in graph.importers.iter().enumerate() {
        let keys = &peers.importers[index];
        let mut out = Importer {
            dependencies_meta: importer.dependencies_meta.clone(),
            ..Importer::default()
        };
        for dep in &importer.deps {
            let group = match dep.group {
                Group::Prod => &mut out.dependencies,
                Group::Dev => &mut out.dev_dependencies,
                Group::Optional => &mut out.optional_dependencies,
            };
            let version = match dep.target.strip_prefix("link:") {
                // Relative to the project that depends on it.
                Some(target) => {
                    let from = if importer.id == "." { "" } else { &importer.id };
                    let to = if target == "." { "" } else { target };
                    let path = relative(from, to);
                    format!("link:{}", if path.is_empty() { "." } else { &path })
                }
                None => dep_ref(&dep.alias, &keys[&dep.alias]),
            };
            // The version without peers, whichever project used it last.
            if let Some(lookup) = &dep.catalog {
                catalogs.entry(lookup.catalog.clone()).or_default().insert(
                    dep.alias.clone(),
                    ResolvedDependency {
                        specifier: lookup.specifier.clone(),
                        version: crate::graph::id_version(&dep.target).to_owned(),
                    },
                );
            }
            group.get_or_insert_with(BTreeMap::new).insert(
                dep.alias.clone(),
                ResolvedDependency {
                    specifier: dep.specifier.clone(),
                    version,
                },
            );
        }
        importers.insert(importer.id.clone(), out);
    }
    // The two sections are built side by side (each about half of this
    // function's ~3 ms on alotta).
    let (packages, snapshots) = std::thread::scope(|s| {
        let snapshots = s.spawn(|| snapshots_section(graph, peers));
        let packages = packages_section(graph, peers, opts);
        let snapshots = snapshots
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (packages, snapshots)
    });
    Lockfile {
        lockfile_version: "9.0".to_owned(),
        settings: Some(opts.settings.clone()),
        catalogs: (!catalogs.is_empty()).then_some(catalogs),
        overrides: (!opts.overrides.is_empty()).then(|| opts.overrides.clone()),
        importers,
        packages,
        snapshots,
        ..Lockfile::default()
    }
}

/// `packages`: one entry per package a snapshot installs.
fn packages_section(
    graph: &Graph,
    peers: &PeerResolution,
    opts: &LockfileOptions,
) -> BTreeMap<DepPath, PackageInfo> {
    let mut packages = BTreeMap::new();
    for node in peers.snapshots.values() {
        let Some(package) = graph.packages.get(&node.pkg) else {
            continue;
        };
        packages
            .entry(DepPath::parse(&node.pkg))
            .or_insert_with(|| package_info(&node.pkg, package, graph.git.get(&node.pkg), opts));
    }
    packages
}

/// `snapshots`: one entry per resolved snapshot of a known package.
fn snapshots_section(graph: &Graph, peers: &PeerResolution) -> BTreeMap<DepPath, Snapshot> {
    let optional = optional_snapshots(graph, peers);
    let refs = |m: &BTreeMap<String, String>| {
        (!m.is_empty()).then(|| m.iter().map(|(a, k)| (a.clone(), dep_ref(a, k))).collect())
    };
    let mut snapshots = BTreeMap::new();
    for (key, node) in &peers.snapshots {
        if !graph.packages.contains_key(&node.pkg) {
            continue;
        }
        snapshots.insert(
            DepPath::parse(key),
            Snapshot {
                dependencies: refs(&node.dependencies),
                optional_dependencies: refs(&node.optional_dependencies),
                transitive_peer_dependencies: (!node.transitive_peers.is_empty())
                    .then(|| node.transitive_peers.iter().cloned().collect()),
                optional: optional.contains(key.as_str()).then_some(true),
                ..Snapshot::default()
            },
        );
    }
    snapshots
}

/// Snapshots reached from the projects only through optional edges.
fn optional_snapshots<'p>(graph: &Graph, peers: &'p PeerResolution) -> HashSet<&'p str> {
    let mut required: HashSet<&str> = HashSet::new();
    let mut stack: Vec<&str> = Vec::new();
    let mut all: HashSet<&str> = HashSet::new();
    let mut all_stack: Vec<&str> = Vec::new();
    for (index, importer) in graph.importers.iter().enumerate() {
        for dep in &importer.deps {
            let key = peers.importers[index][&dep.alias].as_str();
            all_stack.push(key);
            if dep.group != Group::Optional {
                stack.push(key);
            }
        }
    }
    while let Some(key) = stack.pop() {
        if !required.insert(key) {
            continue;
        }
        if let Some(node) = peers.snapshots.get(key) {
            stack.extend(node.dependencies.values().map(String::as_str));
        }
    }
    while let Some(key) = all_stack.pop() {
        if !all.insert(key) {
            continue;
        }
        if let Some(node) = peers.snapshots.get(key) {
            all_stack.extend(
                node.dependencies
                    .values()
                    .chain(node.optional_dependencies.values())
                    .map(String::as_str),
            );
        }
    }
    all.difference(&required).copied().collect()
}

/// `git`: the resolution of a git dependency.
fn package_info(
    id: &str,
    package: &Package,
    git: Option<&Resolution>,
    opts: &LockfileOptions,
) -> PackageInfo {
    let manifest = &package.manifest;
    let directory = crate::graph::id_version(id)
        .strip_prefix("file:")
        .filter(|path| !crate::graph::is_tarball_path(path));
    let integrity = manifest
        .integrity
        .clone()
        .or_else(|| manifest.shasum.as_deref().and_then(sha1_integrity));
    let default_url = registry_tarball_url(
        &(opts.registry_for)(&manifest.name),
        &manifest.name,
        &manifest.version,
    );
    let resolution = match (&manifest.tarball, integrity) {
        _ if let Some(git) = git => git.clone(),
        _ if directory.is_some() => Resolution::Directory {
            directory: directory.unwrap_or_default().to_owned(),
        },
        (Some(tarball), integrity) if !same_url(tarball, &default_url) => Resolution::Tarball {
            tarball: tarball.clone(),
            integrity,
            git_hosted: None,
            path: None,
        },
        (_, Some(integrity)) => Resolution::Registry { integrity },
        (tarball, None) => Resolution::Tarball {
            tarball: tarball.clone().unwrap_or(default_url),
            integrity: None,
            git_hosted: None,
            path: None,
        },
    };
    let mut peer_dependencies: Vec<(String, String)> = package
        .peers
        .iter()
        .map(|(name, peer)| (name.clone(), peer.range.clone()))
        .collect();
    peer_dependencies.sort();
    let mut peer_meta: Vec<(String, serde_json::Value)> = package
        .peers
        .iter()
        .filter(|(_, peer)| peer.optional)
        .map(|(name, _)| (name.clone(), serde_json::json!({"optional": true})))
        .collect();
    peer_meta.sort_by(|a, b| a.0.cmp(&b.0));
    // pnpm drops engines that allow anything.
    let engines: Option<indexmap::IndexMap<String, String>> = manifest
        .engines
        .as_ref()
        .map(|e| {
            e.iter()
                .filter(|(_, v)| v.trim() != "*")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .filter(|e: &indexmap::IndexMap<String, String>| !e.is_empty());
    PackageInfo {
        engines,
        cpu: manifest.cpu.clone(),
        os: manifest.os.clone(),
        libc: manifest.libc.clone().map(|values| ListOrScalar {
            values,
            scalar: false,
        }),
        deprecated: manifest.deprecated.clone(),
        has_bin: manifest.has_bin.then_some(true),
        bundled_dependencies: manifest.bundled_dependencies.clone(),
        peer_dependencies: (!peer_dependencies.is_empty())
            .then(|| peer_dependencies.into_iter().collect()),
        peer_dependencies_meta: (!peer_meta.is_empty()).then(|| peer_meta.into_iter().collect()),
        // A key that does not say the version (a `file:` tarball) is
        // followed by it; a directory's is not (pnpm 12.21).
        version: (directory.is_none() && crate::graph::id_version(id) != manifest.version)
            .then(|| manifest.version.clone()),
        ..PackageInfo::new(resolution)
    }
}

/// Registry URLs compared with `%2f`/`%2F` for a scope's slash read as `/`.
/// (docs/resolution.md §7 says pnpm also ignores http/https; not checked
/// against pnpm 12.21 yet, so not done.)
fn same_url(a: &str, b: &str) -> bool {
    let norm = |u: &str| u.replace("%2f", "/").replace("%2F", "/");
    norm(a) == norm(b)
}

/// `sha1-<base64>` from a hex `shasum`, for registries without `integrity`.
fn sha1_integrity(shasum: &str) -> Option<String> {
    use base64::Engine;
    let bytes = hex::decode(shasum).ok()?;
    Some(format!(
        "sha1-{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    ))
}
