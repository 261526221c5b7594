//! Snapshots as an indexed graph: resolved edges, skip flags, reachability
//! in the order of pnpm's lockfile walker.

use foldhash::HashMap;

use pacquet_lockfile::{DepPath, DepRef, Lockfile, Snapshot};

use crate::PlanError;

/// One installed project as seen by optional-peer pruning: the packages its
/// included groups start from, and those that could have provided its
/// optional peers from a left-out group.
pub(crate) struct PeerScope {
    pub entries: Vec<usize>,
    pub left_out: Vec<usize>,
}

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
    /// Per node: the package's `peerDependencies`.
    peers: Vec<Option<&'l indexmap::IndexMap<String, String>>>,
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
        let peers = keys
            .iter()
            .map(|k| {
                let info = lockfile.packages.get(k.package_id());
                info.and_then(|i| i.peer_dependencies.as_ref())
            })
            .collect();
        Ok(Graph {
            keys,
            snapshots,
            children,
            prod_children,
            skipped,
            dropped_peers: Vec::new(),
            peers,
            index,
        })
    }

    /// Whether child `i` of `node` resolves an optional peer: listed under
    /// `optionalDependencies`, named in the package's `peerDependencies`.
    pub(crate) fn is_optional_peer(&self, node: usize, i: usize) -> bool {
        i >= self.prod_children[node]
            && self.peers[node].is_some_and(|p| p.contains_key(self.children[node][i].0))
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
    /// to a direct dependency, in a group this install leaves out, of the
    /// project the dependent is installed for, unless the install reaches
    /// that package anyway; into [`Graph::dropped_peers`]. pnpm 12 does not
    /// install an optional peer the left-out group provides: with `--prod`,
    /// a peer satisfied by a project's dev dependency is left out, and
    /// `lock.yaml` records the snapshot without the edge (docs/layout.md
    /// §13.7).
    pub(crate) fn unlink_unreached_optional_peers(
        &mut self,
        entry_nodes: &[usize],
        scopes: &[PeerScope],
    ) {
        if scopes.iter().all(|scope| scope.left_out.is_empty()) {
            return;
        }
        // Per node and child: an optional peer edge.
        let peer_edge: Vec<Vec<bool>> = (0..self.keys.len())
            .map(|node| {
                (0..self.children[node].len())
                    .map(|i| {
                        self.is_optional_peer(node, i)
                            && matches!(self.children[node][i].1, Edge::Node(_))
                    })
                    .collect()
            })
            .collect();
        if !peer_edge.iter().any(|f| f.contains(&true)) {
            return;
        }
        let mut droppable: Vec<Vec<bool>> =
            peer_edge.iter().map(|f| vec![false; f.len()]).collect();
        let mut is_excluded = vec![false; self.keys.len()];
        for PeerScope { entries, left_out } in scopes {
            if left_out.is_empty() {
                continue;
            }
            for &node in left_out {
                is_excluded[node] = true;
            }
            let skip = |node: usize, i: usize| {
                peer_edge[node][i]
                    && matches!(self.children[node][i].1, Edge::Node(c) if is_excluded[c])
            };
            let reached = self.reach(entries, &skip);
            for (node, flags) in droppable.iter_mut().enumerate() {
                if !reached[node] {
                    continue;
                }
                for (i, flag) in flags.iter_mut().enumerate() {
                    *flag |= skip(node, i);
                }
            }
            for &node in left_out {
                is_excluded[node] = false;
            }
        }
        // Reached without the droppable edges. One to a package reached
        // anyway stays (and adds nothing: that package is walked already).
        let reached = self.reach(entry_nodes, &|node, i| droppable[node][i]);
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
    }

    /// Nodes reached from `entries` without the edges `skip` names
    /// (`(node, child index)`), skipped nodes not walked through.
    pub(crate) fn reach(
        &self,
        entries: &[usize],
        skip: &dyn Fn(usize, usize) -> bool,
    ) -> Vec<bool> {
        let mut reached = vec![false; self.keys.len()];
        let mut stack: Vec<usize> = entries.to_vec();
        while let Some(node) = stack.pop() {
            if std::mem::replace(&mut reached[node], true) || self.skipped[node] {
                continue;
            }
            for (i, (_, edge)) in self.children[node].iter().enumerate() {
                if let Edge::Node(child) = edge
                    && !reached[*child]
                    && !skip(node, i)
                {
                    stack.push(*child);
                }
            }
        }
        reached
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
/// `peers`: without optional dependencies, optional peer edges are still
/// followed (pnpm 12's hoisting walk orders by them: tailwindcss with
/// `--no-optional`, docs/layout.md §13.4); what only they reach is not
/// installed, which the caller filters.
pub(crate) fn walk(
    graph: &Graph,
    entry_nodes: &[usize],
    optional: bool,
    peers: bool,
) -> Vec<WalkEntry> {
    let mut walked = graph.skipped.clone();
    let mut out = Vec::with_capacity(graph.keys.len());
    let first = claim(&mut walked, entry_nodes.iter().copied());
    let follow = Follow { optional, peers };
    expand(graph, follow, &mut walked, first, 0, &mut out);
    out
}

/// Which snapshot edges [`walk`] follows.
#[derive(Clone, Copy)]
struct Follow {
    optional: bool,
    peers: bool,
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
    follow: Follow,
    walked: &mut [bool],
    step: Vec<usize>,
    depth: u32,
    out: &mut Vec<WalkEntry>,
) {
    let mut next_steps = Vec::with_capacity(step.len());
    for node in step {
        out.push(WalkEntry { depth, node });
        let children = graph.children[node].iter().enumerate();
        let nodes = children.filter_map(|(i, (_, e))| match e {
            Edge::Node(c)
                if follow.optional
                    || i < graph.prod_children[node]
                    || (follow.peers && graph.is_optional_peer(node, i)) =>
            {
                Some(*c)
            }
            _ => None,
        });
        next_steps.push(claim(walked, nodes));
    }
    for next in next_steps {
        if !next.is_empty() {
            expand(graph, follow, walked, next, depth + 1, out);
        }
    }
}
