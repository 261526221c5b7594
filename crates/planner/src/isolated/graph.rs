//! Snapshots as an indexed graph: resolved edges, skip flags, reachability
//! in the order of pnpm's lockfile walker.

use std::collections::HashMap;

use pacquet_lockfile::{DepPath, DepRef, Lockfile, Snapshot};

use crate::PlanError;

/// A resolved snapshot edge.
#[derive(Debug, Clone)]
pub(crate) enum Edge {
    /// Index of the child snapshot.
    Node(usize),
    /// `link:` path as written.
    Link(String),
}

/// The lockfile's snapshots by index (key order), with resolved edges.
pub(crate) struct Graph<'l> {
    pub keys: Vec<&'l DepPath>,
    pub snapshots: Vec<&'l Snapshot>,
    /// Per node: `(alias, edge)` from `dependencies` then `optionalDependencies`.
    pub children: Vec<Vec<(&'l str, Edge)>>,
    /// Number of leading entries of `children` that come from `dependencies`.
    pub prod_children: Vec<usize>,
    pub skipped: Vec<bool>,
    /// `(node, alias)`: optional-peer edges dropped by
    /// [`Graph::unlink_unreached_optional_peers`].
    pub dropped_peers: Vec<(usize, &'l str)>,
    index: HashMap<&'l str, usize>,
}

impl<'l> Graph<'l> {
    pub(crate) fn new(lockfile: &'l Lockfile) -> Result<Self, PlanError> {
        let keys: Vec<&DepPath> = lockfile.snapshots.keys().collect();
        let snapshots: Vec<&Snapshot> = lockfile.snapshots.values().collect();
        let index: HashMap<&str, usize> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| (k.as_str(), i))
            .collect();
        let mut children = Vec::with_capacity(keys.len());
        let mut prod_children = Vec::with_capacity(keys.len());
        for snapshot in &snapshots {
            let prod = snapshot.dependencies.as_ref().map_or(0, |d| d.len());
            let mut edges = Vec::with_capacity(prod);
            for (alias, r) in snapshot.dependency_refs() {
                edges.push((alias, resolve_edge(&index, r)?));
            }
            children.push(edges);
            prod_children.push(prod);
        }
        let skipped = vec![false; keys.len()];
        Ok(Graph {
            keys,
            snapshots,
            children,
            prod_children,
            skipped,
            dropped_peers: Vec::new(),
            index,
        })
    }

    /// Resolves an importer edge.
    pub(crate) fn resolve(&self, r: DepRef<'_>) -> Result<Edge, PlanError> {
        resolve_edge(&self.index, r)
    }

    /// Children followed by the walker: `dependencies`, plus
    /// `optionalDependencies` when included.
    pub(crate) fn walk_children(&self, node: usize, optional: bool) -> &[(&'l str, Edge)] {
        let all = &self.children[node];
        if optional {
            all
        } else {
            &all[..self.prod_children[node]]
        }
    }
}

impl<'l> Graph<'l> {
    /// Drops the `optionalDependencies` edges that resolve an optional peer
    /// to a direct dependency of a group this install leaves out
    /// (`excluded`), unless the install reaches that package anyway, into
    /// [`Graph::dropped_peers`]. pnpm 12 does not install an optional peer
    /// the left-out group provides: with `--prod`, a peer satisfied by the
    /// root's dev dependency is left out, and `lock.yaml` records the
    /// snapshot without the edge (docs/layout.md §13.7).
    pub(crate) fn unlink_unreached_optional_peers(
        &mut self,
        lockfile: &Lockfile,
        entry_nodes: &[usize],
        excluded: &[usize],
    ) -> Result<(), PlanError> {
        if excluded.is_empty() {
            return Ok(());
        }
        let mut is_excluded = vec![false; self.keys.len()];
        for &node in excluded {
            is_excluded[node] = true;
        }
        // Per node and child: an optional peer edge to an excluded package.
        let mut droppable: Vec<Vec<bool>> = Vec::with_capacity(self.keys.len());
        let mut any = false;
        for (node, key) in self.keys.iter().enumerate() {
            let info = crate::isolated::select::package_info(lockfile, key.package_id())?;
            let peers = info.peer_dependencies.as_ref();
            let flags: Vec<bool> = self.children[node]
                .iter()
                .enumerate()
                .map(|(i, (alias, edge))| {
                    i >= self.prod_children[node]
                        && peers.is_some_and(|p| p.contains_key(*alias))
                        && matches!(edge, Edge::Node(c) if is_excluded[*c])
                })
                .collect();
            any |= flags.contains(&true);
            droppable.push(flags);
        }
        if !any {
            return Ok(());
        }
        // Reached without the droppable edges. One to a package reached
        // anyway stays (and adds nothing: that package is walked already).
        let mut reached = vec![false; self.keys.len()];
        let mut stack: Vec<usize> = entry_nodes.to_vec();
        while let Some(node) = stack.pop() {
            if std::mem::replace(&mut reached[node], true) || self.skipped[node] {
                continue;
            }
            for (i, (_, edge)) in self.children[node].iter().enumerate() {
                if let Edge::Node(child) = edge
                    && !droppable[node][i]
                    && !reached[*child]
                {
                    stack.push(*child);
                }
            }
        }
        for (node, flags) in droppable.iter_mut().enumerate() {
            for (i, flag) in flags.iter_mut().enumerate() {
                if matches!(self.children[node][i].1, Edge::Node(c) if reached[c]) {
                    *flag = false;
                }
            }
        }
        let mut dropped = Vec::new();
        for (node, flags) in droppable.iter().enumerate() {
            if !flags.contains(&true) {
                continue;
            }
            let mut i = 0;
            self.children[node].retain(|(alias, _)| {
                let keep = !flags[i];
                i += 1;
                if !keep {
                    dropped.push((node, *alias));
                }
                keep
            });
        }
        self.dropped_peers = dropped;
        Ok(())
    }
}

fn resolve_edge(index: &HashMap<&str, usize>, r: DepRef<'_>) -> Result<Edge, PlanError> {
    match r {
        DepRef::Link(path) => Ok(Edge::Link(path.to_owned())),
        DepRef::Snapshot(dep_path) => index
            .get(dep_path.as_str())
            .map(|&i| Edge::Node(i))
            .ok_or_else(|| PlanError::MissingDependency {
                dep_path: dep_path.to_string(),
            }),
    }
}

/// Nodes reachable from `entry_nodes` when skipped nodes are walked through
/// too, in no particular order.
pub(crate) fn reachable_through_skipped(
    graph: &Graph,
    entry_nodes: &[usize],
    optional: bool,
) -> Vec<usize> {
    let mut seen = vec![false; graph.keys.len()];
    let mut stack: Vec<usize> = entry_nodes.to_vec();
    let mut out = Vec::new();
    while let Some(node) = stack.pop() {
        if std::mem::replace(&mut seen[node], true) {
            continue;
        }
        out.push(node);
        for (_, edge) in graph.walk_children(node, optional) {
            if let Edge::Node(child) = edge
                && !seen[*child]
            {
                stack.push(*child);
            }
        }
    }
    out
}

/// One node of the hoisting walk: a snapshot and its depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WalkEntry {
    pub depth: u32,
    pub node: usize,
}

/// pnpm's `lockfileWalker` + hoisting `getDependencies`: every non-skipped
/// node reachable from `entry_nodes`, with the depth pnpm assigns it.
/// A node is claimed by the step that first lists it; the steps of one
/// level are expanded depth-first, in order.
pub(crate) fn walk(graph: &Graph, entry_nodes: &[usize], optional: bool) -> Vec<WalkEntry> {
    let mut walked = graph.skipped.clone();
    let mut out = Vec::with_capacity(graph.keys.len());
    let first = claim(&mut walked, entry_nodes.iter().copied());
    expand(graph, optional, &mut walked, first, 0, &mut out);
    out
}

fn claim(walked: &mut [bool], nodes: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut step = Vec::new();
    for node in nodes {
        if !walked[node] {
            walked[node] = true;
            step.push(node);
        }
    }
    step
}

fn expand(
    graph: &Graph,
    optional: bool,
    walked: &mut [bool],
    step: Vec<usize>,
    depth: u32,
    out: &mut Vec<WalkEntry>,
) {
    let mut next_steps = Vec::with_capacity(step.len());
    for node in step {
        out.push(WalkEntry { depth, node });
        let children = graph.walk_children(node, optional).iter();
        let nodes = children.filter_map(|(_, e)| match e {
            Edge::Node(i) => Some(*i),
            Edge::Link(_) => None,
        });
        next_steps.push(claim(walked, nodes));
    }
    for next in next_steps {
        if !next.is_empty() {
            expand(graph, optional, walked, next, depth + 1, out);
        }
    }
}
