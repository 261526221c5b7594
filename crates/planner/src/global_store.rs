//! Slot names of the global virtual store (`enableGlobalVirtualStore`):
//! `<@scope|@>/<name>/<version>/<graph hash>` under `<storeDir>/links`, the
//! hash over the package and, recursively, its dependencies
//! (docs/layout.md §16.2).

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use pacquet_lockfile::{DepPath, DepRef, Lockfile, Resolution};
use pacquet_scripts::side_effects::{HashInput, object_hash, object_hash_hex_in_order};

use crate::layout::normalize;

/// Where the slots go and what their names depend on besides the graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobalVirtualStore {
    /// `globalVirtualStoreDir`, relative to the workspace root.
    pub dir: String,
    /// The same directory as configured (absolute, not normalized): shims
    /// name it so.
    pub configured: String,
    /// The workspace root, absolute and `/`-separated: `link:` edges and
    /// local directories are named by it.
    pub lockfile_dir: String,
    /// `<platform>;<arch>;node<major>`, part of the hash of packages that
    /// build or depend on one that does (`None`: Node.js unknown).
    pub engine: Option<String>,
}

impl GlobalVirtualStore {
    /// `slot`'s package directory as pnpm 12.21 names it in builds and in
    /// `injectedDeps`: under the directory as configured.
    pub fn named_package_dir(&self, slot: &crate::Slot) -> String {
        format!(
            "{}/{}/node_modules/{}",
            self.configured,
            slot.dir_name,
            slot.name()
        )
    }
}

/// One graph node: `<pkgIdWithPatchHash>:<integrity>` and its children.
struct Node {
    full_pkg_id: String,
    children: IndexMap<String, String>,
}

/// Snapshot key → slot path relative to [`GlobalVirtualStore::dir`], for
/// every snapshot of the lockfile. `builds` says which snapshots may run
/// their scripts (the `allowBuilds` policy).
pub fn slot_names(
    lockfile: &Lockfile,
    gvs: &GlobalVirtualStore,
    builds: &dyn Fn(&DepPath) -> bool,
) -> Result<HashMap<String, String>, crate::PlanError> {
    let graph = graph(lockfile, &gvs.lockfile_dir);
    let built: Vec<&str> = lockfile
        .snapshots
        .keys()
        .filter(|k| builds(k))
        .map(DepPath::as_str)
        .collect();
    let with_engine = dependents(&graph, built);
    let mut hashes = HashMap::new();
    let mut names = HashMap::with_capacity(lockfile.snapshots.len());
    // Key order: inside a cycle a node's hash depends on where the walk
    // entered it, so the order is part of the name.
    for key in lockfile.snapshots.keys() {
        let key = key.as_str();
        let engine = match (&gvs.engine, with_engine.contains(key)) {
            (Some(engine), true) => HashInput::Str(engine.clone()),
            _ => HashInput::Null,
        };
        let deps = deps_hash(&graph, &mut hashes, &mut HashSet::new(), key);
        let dep_path = DepPath::parse(key);
        let info = lockfile.packages.get(dep_path.package_id());
        let local = info.is_some_and(|i| matches!(i.resolution, Resolution::Directory { .. }))
            || (info.is_none_or(|i| i.version.is_none())
                && dep_path.version().starts_with("file:"));
        let mut payload = vec![
            ("engine".to_owned(), engine),
            ("deps".to_owned(), HashInput::Str(deps)),
        ];
        // A local directory's slot belongs to this workspace alone.
        if local {
            payload.push((
                "project".to_owned(),
                HashInput::Str(gvs.lockfile_dir.clone()),
            ));
        }
        let hash = object_hash_hex_in_order(&HashInput::Object(payload));
        let version = if local {
            "directory"
        } else {
            info.and_then(|i| i.version.as_deref())
                .unwrap_or(dep_path.version())
        };
        // The version is a directory of the slot's path (pnpm 12.21 refuses
        // the same).
        if version.split(['/', '\\']).any(|segment| segment == "..") {
            return Err(crate::PlanError::TraversalVersion {
                dep_path: key.to_owned(),
                version: version.to_owned(),
            });
        }
        let name = dep_path.name();
        let scope = if name.starts_with('@') { "" } else { "@/" };
        names.insert(key.to_owned(), format!("{scope}{name}/{version}/{hash}"));
    }
    Ok(names)
}

fn graph(lockfile: &Lockfile, lockfile_dir: &str) -> HashMap<String, Node> {
    let mut graph = HashMap::with_capacity(lockfile.snapshots.len());
    let mut link_nodes = Vec::new();
    for (key, snapshot) in &lockfile.snapshots {
        let mut children = IndexMap::new();
        // Each section sorted by alias, dependencies first.
        for section in [&snapshot.dependencies, &snapshot.optional_dependencies] {
            for (alias, reference) in section.iter().flatten() {
                let child = match DepRef::resolve(alias, reference) {
                    DepRef::Snapshot(child) => child.as_str().to_owned(),
                    DepRef::Link(dir) => {
                        let node = format!("link:/{}", normalize(&format!("{lockfile_dir}/{dir}")));
                        link_nodes.push(node.clone());
                        node
                    }
                };
                children.insert(alias.clone(), child);
            }
        }
        let mut pkg_id = key.package_id().to_owned();
        if let Some(patch) = key.patch_hash() {
            pkg_id.push_str(&format!("(patch_hash={patch})"));
        }
        let integrity = lockfile
            .packages
            .get(key.package_id())
            .and_then(|i| i.resolution.integrity());
        let full_pkg_id = match integrity {
            Some(integrity) => format!("{pkg_id}:{integrity}"),
            None => pkg_id,
        };
        graph.insert(
            key.as_str().to_owned(),
            Node {
                full_pkg_id,
                children,
            },
        );
    }
    for node in link_nodes {
        graph.insert(
            node.clone(),
            Node {
                full_pkg_id: node,
                children: IndexMap::new(),
            },
        );
    }
    graph
}

/// `objectHash({id, deps: {alias: hash(child)}})`. A node met again below
/// itself (by package id) hashes with no deps, and that truncated hash is
/// what the memo keeps for it, as pnpm does; a missing node is `""`.
fn deps_hash(
    graph: &HashMap<String, Node>,
    memo: &mut HashMap<String, String>,
    parents: &mut HashSet<String>,
    key: &str,
) -> String {
    if let Some(hash) = memo.get(key) {
        return hash.clone();
    }
    let Some(node) = graph.get(key) else {
        return String::new();
    };
    let mut deps = Vec::new();
    if !node.children.is_empty() && !parents.contains(&node.full_pkg_id) {
        parents.insert(node.full_pkg_id.clone());
        for (alias, child) in &node.children {
            let hash = deps_hash(graph, memo, parents, child);
            deps.push((alias.clone(), HashInput::Str(hash)));
        }
        parents.remove(&node.full_pkg_id);
    }
    let hash = object_hash(&HashInput::Object(vec![
        ("id".to_owned(), HashInput::Str(node.full_pkg_id.clone())),
        ("deps".to_owned(), HashInput::Object(deps)),
    ]));
    memo.insert(key.to_owned(), hash.clone());
    hash
}

/// `built` and every node that depends on one of them, directly or not:
/// one fixed point over the whole graph, so a cycle answers alike from
/// every entry.
fn dependents<'g>(graph: &'g HashMap<String, Node>, built: Vec<&'g str>) -> HashSet<&'g str> {
    let mut parents: HashMap<&str, Vec<&str>> = HashMap::new();
    for (key, node) in graph {
        for child in node.children.values() {
            parents
                .entry(child.as_str())
                .or_default()
                .push(key.as_str());
        }
    }
    let mut found: HashSet<&str> = built.iter().copied().collect();
    let mut pending = built;
    while let Some(child) = pending.pop() {
        for &parent in parents.get(child).into_iter().flatten() {
            if found.insert(parent) {
                pending.push(parent);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests;
