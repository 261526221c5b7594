//! `depsHash`: a hash of a snapshot's identity and, recursively, of all its
//! dependencies (docs/store.md §9).

use std::collections::{HashMap, HashSet};

use pacquet_lockfile::{DepPath, DepRef, Lockfile, Resolution, ResolutionValue};

use super::{HashInput, object_hash};

/// Hashes already computed (by snapshot key) and the snapshots being
/// computed. Reuse one memo for all packages of an install.
#[derive(Debug, Default, Clone)]
pub struct DepsHashMemo {
    done: HashMap<String, String>,
    in_progress: HashSet<String>,
}

impl DepsHashMemo {
    pub fn new() -> Self {
        Self::default()
    }
}

/// `objectHash({ id: "<pkgId>:<integrity>", deps: { <alias>: depsHash(child) } })`
/// over the snapshot's `dependencies` then `optionalDependencies` (lockfile
/// order; optional dependencies skipped on this platform included). A child
/// that closes a cycle contributes `""`; `link:` edges have no snapshot and
/// are left out. A resolution without integrity stands in with
/// `objectHash(resolution)`.
pub fn deps_hash(lockfile: &Lockfile, dep_path: &DepPath, memo: &mut DepsHashMemo) -> String {
    if let Some(hash) = memo.done.get(dep_path.as_str()) {
        return hash.clone();
    }
    memo.in_progress.insert(dep_path.as_str().to_string());
    let mut deps = Vec::new();
    if let Some(snapshot) = lockfile.snapshots.get(dep_path.as_str()) {
        for (alias, edge) in snapshot.dependency_refs() {
            let DepRef::Snapshot(child) = edge else {
                continue;
            };
            let hash = if memo.in_progress.contains(child.as_str()) {
                String::new()
            } else {
                deps_hash(lockfile, &child, memo)
            };
            deps.push((alias.to_string(), HashInput::Str(hash)));
        }
    }
    let input = HashInput::Object(vec![
        (
            "id".to_string(),
            HashInput::Str(node_id(lockfile, dep_path)),
        ),
        ("deps".to_string(), HashInput::Object(deps)),
    ]);
    let hash = object_hash(&input);
    memo.in_progress.remove(dep_path.as_str());
    memo.done
        .insert(dep_path.as_str().to_string(), hash.clone());
    hash
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
