//! `depsHash`: a hash of a snapshot's identity and, recursively, of all its
//! dependencies (docs/store.md §9).

use std::collections::HashMap;

use pacquet_lockfile::{DepPath, DepRef, Lockfile, Resolution, ResolutionValue};

use super::graph_hash::id_and_deps;
use super::{GraphNode, HashInput, graph_hashes, object_hash};

/// The hashes of every snapshot of one lockfile, computed on first use.
/// Reuse one memo for all packages of an install.
#[derive(Debug, Default, Clone)]
pub struct DepsHashMemo {
    done: Option<HashMap<String, String>>,
}

impl DepsHashMemo {
    pub fn new() -> Self {
        Self::default()
    }
}

/// `objectHash({ id: "<pkgId>:<integrity>", deps: { <alias>: depsHash(child) } })`
/// over the snapshot's `dependencies` and `optionalDependencies` (optional
/// dependencies skipped on this platform included), each dependency cycle
/// hashed as one component (docs/store.md §9). `link:` edges have no
/// snapshot and are left out. A resolution without integrity stands in with
/// `objectHash(resolution)`.
pub fn deps_hash(lockfile: &Lockfile, dep_path: &DepPath, memo: &mut DepsHashMemo) -> String {
    let done = memo
        .done
        .get_or_insert_with(|| graph_hashes(&graph(lockfile)));
    done.get(dep_path.as_str()).cloned().unwrap_or_else(|| {
        // Not a snapshot of this lockfile: the package alone.
        id_and_deps(&node_id(lockfile, dep_path), Vec::new())
    })
}

/// One node per snapshot, and one without children for a dependency whose
/// snapshot is missing.
fn graph(lockfile: &Lockfile) -> HashMap<String, GraphNode> {
    let mut graph = HashMap::with_capacity(lockfile.snapshots.len());
    let mut missing = Vec::new();
    for (key, snapshot) in &lockfile.snapshots {
        let children = snapshot
            .dependency_refs()
            .filter_map(|(alias, edge)| match edge {
                DepRef::Snapshot(child) => {
                    if !lockfile.snapshots.contains_key(child.as_str()) {
                        missing.push(child.clone());
                    }
                    Some((alias.to_string(), child.as_str().to_owned()))
                }
                DepRef::Link(_) => None,
            })
            .collect();
        graph.insert(
            key.as_str().to_owned(),
            GraphNode {
                full_pkg_id: node_id(lockfile, key),
                children,
            },
        );
    }
    for child in missing {
        graph.insert(
            child.as_str().to_owned(),
            GraphNode {
                full_pkg_id: node_id(lockfile, &child),
                children: Default::default(),
            },
        );
    }
    graph
}

/// `<pkgId>:<integrity>`, or `<pkgId>:<objectHash(resolution)>`.
fn node_id(lockfile: &Lockfile, dep_path: &DepPath) -> String {
    let pkg_id = dep_path.package_id();
    let info = lockfile.packages.get(pkg_id);
    let resolution_part = match info.map(|i| &i.resolution) {
        Some(resolution) => match resolution.integrity() {
            Some(integrity) => integrity.to_string(),
            None => object_hash(&resolution_hash_input(resolution)),
        },
        None => String::new(),
    };
    format!("{pkg_id}:{resolution_part}")
}

/// The resolution as the lockfile writes it, for hashing.
pub fn resolution_hash_input(resolution: &Resolution) -> HashInput {
    let fields = resolution
        .fields()
        .into_iter()
        .map(|(key, value)| {
            let value = match value {
                ResolutionValue::Str(s) => HashInput::Str(s.to_owned()),
                ResolutionValue::Bool(b) => HashInput::Bool(b),
                ResolutionValue::Json(v) => HashInput::from_json(v),
            };
            (key.to_owned(), value)
        })
        .collect();
    HashInput::Object(fields)
}
