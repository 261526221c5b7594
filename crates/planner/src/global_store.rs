//! Slot names of the global virtual store (`enableGlobalVirtualStore`):
//! `<@scope|@>/<name>/<version>/<graph hash>` under `<storeDir>/links`, the
//! hash over the package and, recursively, its dependencies
//! (docs/layout.md §16.2).

use std::collections::{HashMap, HashSet};

use pacquet_lockfile::{DepPath, DepRef, Lockfile, Resolution};
use pacquet_scripts::side_effects::{GraphNode, HashInput, graph_hashes, object_hash_hex_in_order};

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

/// Snapshot key → slot path relative to [`GlobalVirtualStore::dir`], for
/// every snapshot of the lockfile. `builds` says which snapshots the
/// `allowBuilds` policy lets build; `scripts_run` is false under
/// `ignoreScripts`.
pub fn slot_names(
    lockfile: &Lockfile,
    gvs: &GlobalVirtualStore,
    builds: &dyn Fn(&DepPath) -> bool,
    scripts_run: bool,
) -> Result<HashMap<String, String>, crate::PlanError> {
    let graph = graph(lockfile, &gvs.lockfile_dir);
    let built: Vec<&str> = lockfile
        .snapshots
        .keys()
        .filter(|k| builds(k))
        .map(DepPath::as_str)
        .collect();
    let built_here: HashSet<&str> = if scripts_run {
        built.iter().copied().collect()
    } else {
        HashSet::new()
    };
    let with_engine = dependents(&graph, built);
    let hashes = graph_hashes(&graph);
    let mut names = HashMap::with_capacity(lockfile.snapshots.len());
    for key in lockfile.snapshots.keys() {
        let key = key.as_str();
        let engine = match (&gvs.engine, with_engine.contains(key)) {
            (Some(engine), true) => HashInput::Str(engine.clone()),
            _ => HashInput::Null,
        };
        let deps = hashes.get(key).cloned().unwrap_or_default();
        let dep_path = DepPath::parse(key);
        let info = lockfile.packages.get(dep_path.package_id());
        let local = info.is_some_and(|i| matches!(i.resolution, Resolution::Directory { .. }))
            || (info.is_none_or(|i| i.version.is_none())
                && dep_path.version().starts_with("file:"));
        let mut payload = vec![
            ("engine".to_owned(), engine),
            ("deps".to_owned(), HashInput::Str(deps)),
        ];
        // A package whose scripts may run here gets a slot of its own
        // (checked with pnpm 12.21, also for one with no scripts).
        if built_here.contains(key) {
            payload.push(("built".to_owned(), HashInput::Bool(true)));
        }
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

fn graph(lockfile: &Lockfile, lockfile_dir: &str) -> HashMap<String, GraphNode> {
    let mut graph = HashMap::with_capacity(lockfile.snapshots.len());
    let mut link_nodes = Vec::new();
    for (key, snapshot) in &lockfile.snapshots {
        let mut children = indexmap::IndexMap::new();
        // Each section sorted by alias, dependencies first; an alias in both
        // keeps its place and takes the optional edge, as in pnpm's map.
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
            GraphNode {
                full_pkg_id,
                children,
            },
        );
    }
    for node in link_nodes {
        graph.insert(
            node.clone(),
            GraphNode {
                full_pkg_id: node,
                children: Default::default(),
            },
        );
    }
    graph
}

/// `built` and every node that depends on one of them, directly or not:
/// one fixed point over the whole graph, so a cycle answers alike from
/// every entry.
fn dependents<'g>(graph: &'g HashMap<String, GraphNode>, built: Vec<&'g str>) -> HashSet<&'g str> {
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
