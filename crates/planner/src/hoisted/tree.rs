//! The hoister's input built from the lockfile (docs/hoisted.md §1): the
//! workspace root's dependencies, then every other project as a child
//! named by its encoded importer id, each project's and package's
//! dependencies merged across groups and sorted by alias. One node per
//! `(alias, snapshot)`, shared by every parent.

use std::collections::BTreeMap;

use foldhash::HashMap;

use pacquet_lockfile::{Lockfile, Resolution};

use super::hoister::{Id, Node, ROOT, Tree};
use crate::isolated::{
    graph::{Edge, Graph},
    select::DirectEdge,
};
use crate::{ImporterSelection, PlanError};

/// What building the tree reads.
pub(super) struct TreeInput<'a, 'l> {
    pub lockfile: &'l Lockfile,
    pub graph: &'a Graph<'l>,
    /// Graph node → installed (not skipped, reachable in the included groups).
    pub reached: &'a [bool],
    pub selections: &'a [ImporterSelection],
    pub importer_edges: &'a [Vec<DirectEdge<'l>>],
    pub include_optional: bool,
    /// `autoInstallPeers`: peers then constrain nothing.
    pub auto_install_peers: bool,
    /// `externalDependencies`: names reserved at the root.
    pub external: &'a [String],
}

pub(super) fn build(input: &TreeInput<'_, '_>) -> Result<Tree, PlanError> {
    let mut b = Builder {
        input,
        tree: Tree::default(),
        interned: HashMap::default(),
        canonical: HashMap::default(),
    };
    b.tree.add(Node::new(".", ".", ""));
    let mut projects: Vec<(&ImporterSelection, &Vec<DirectEdge<'_>>)> =
        input.selections.iter().zip(input.importer_edges).collect();
    // The root's dependencies first, then the other projects by id.
    projects.sort_by(|a, b| (a.0.id != ".", &a.0.id).cmp(&(b.0.id != ".", &b.0.id)));
    for (sel, edges) in projects {
        let merged = merge(edges.iter().map(|(_, alias, edge)| (*alias, edge)));
        let children = b.children(merged)?;
        if sel.id == "." {
            b.tree.nodes[ROOT].deps.extend(children);
            b.reserve_external();
        } else {
            let encoded = encode_uri_component(&sel.id);
            let reference = format!("workspace:{}", sel.id);
            let project = b.tree.add(Node::new(&encoded, &encoded, &reference));
            b.tree.nodes[project].deps = children;
            b.tree.nodes[ROOT].deps.push(project);
        }
    }
    Ok(b.tree)
}

/// Edges by alias, sorted; a later group's edge replaces an earlier one.
fn merge<'e, 'l: 'e>(
    edges: impl Iterator<Item = (&'l str, &'e Edge)>,
) -> BTreeMap<&'l str, &'e Edge> {
    edges.collect()
}

struct Builder<'a, 'l, 'i> {
    input: &'i TreeInput<'a, 'l>,
    tree: Tree,
    /// `(alias, graph node)` → tree node.
    interned: HashMap<(&'l str, usize), Id>,
    /// Package identity → the first snapshot key seen for it: every peer
    /// variant of one version shares that reference.
    canonical: HashMap<String, usize>,
}

impl<'l> Builder<'_, 'l, '_> {
    /// `externalDependencies`: a placeholder per name the root does not
    /// already have, after the root's dependencies, holding the slot so no
    /// package of that name is hoisted there; it has no files and is never
    /// placed ([`strip_external`] removes every root child of those names
    /// after hoisting).
    fn reserve_external(&mut self) {
        let mut names: Vec<&String> = self.input.external.iter().collect();
        names.sort();
        names.dedup();
        for name in names {
            let taken = self.tree.nodes[ROOT]
                .deps
                .iter()
                .any(|&d| self.tree.nodes[d].name == *name);
            if !taken {
                let id = self.tree.add(Node::new(name, name, "link:"));
                self.tree.nodes[ROOT].deps.push(id);
            }
        }
    }

    fn children(&mut self, merged: BTreeMap<&'l str, &Edge>) -> Result<Vec<Id>, PlanError> {
        let mut out = Vec::with_capacity(merged.len());
        for (alias, edge) in merged {
            // `link:` dependencies are symlinks, not part of the tree.
            let Edge::Node(node) = edge else { continue };
            if !self.input.reached[*node] {
                continue;
            }
            let id = self.node(alias, *node)?;
            if !out.contains(&id) {
                out.push(id);
            }
        }
        Ok(out)
    }

    fn node(&mut self, alias: &'l str, node: usize) -> Result<Id, PlanError> {
        if let Some(&id) = self.interned.get(&(alias, node)) {
            return Ok(id);
        }
        let graph = self.input.graph;
        let key = graph.keys[node];
        let identity = self.identity(node)?;
        let first = *self.canonical.entry(identity).or_insert(node);
        let mut n = Node::new(alias, key.name(), graph.keys[first].as_str());
        if !self.input.auto_install_peers {
            n.peer_names = self.peer_names(node)?;
        }
        n.source = Some(first);
        let id = self.tree.add(n);
        self.interned.insert((alias, node), id);
        let edges = graph.walk_children(node, self.input.include_optional);
        let merged = merge(edges.iter().map(|(alias, edge)| (*alias, edge)));
        let children = self.children(merged)?;
        self.tree.nodes[id].deps = children;
        Ok(id)
    }

    /// A package version without peer suffix or patch hash; an injected
    /// directory keeps its whole key (each variant is its own copy).
    fn identity(&self, node: usize) -> Result<String, PlanError> {
        let key = self.input.graph.keys[node];
        let info = crate::isolated::select::package_info(self.input.lockfile, key.package_id())?;
        Ok(match info.resolution {
            Resolution::Directory { .. } => key.as_str().to_owned(),
            _ => key.package_id().to_owned(),
        })
    }

    fn peer_names(&self, node: usize) -> Result<std::collections::BTreeSet<String>, PlanError> {
        let key = self.input.graph.keys[node];
        let info = crate::isolated::select::package_info(self.input.lockfile, key.package_id())?;
        let declared = info.peer_dependencies.iter().flatten().map(|(n, _)| n);
        let transitive = self.input.graph.snapshots[node]
            .transitive_peer_dependencies
            .iter()
            .flatten();
        Ok(declared.chain(transitive).cloned().collect())
    }
}

/// Drops the root's children named in `externalDependencies` from the
/// hoisted tree: another tool provides those, so pnpm 12 installs none of
/// them at the root, not even the root's own dependency of that name.
pub(super) fn strip_external(tree: &mut Tree, external: &[String]) {
    if external.is_empty() {
        return;
    }
    let nodes = &tree.nodes;
    let kept: Vec<Id> = nodes[ROOT]
        .deps
        .iter()
        .copied()
        .filter(|&d| !external.contains(&nodes[d].name))
        .collect();
    tree.nodes[ROOT].deps = kept;
}

/// JavaScript's `encodeURIComponent`.
pub(super) fn encode_uri_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'!'
            | b'~'
            | b'*'
            | b'\''
            | b'('
            | b')' => out.push(byte as char),
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}
