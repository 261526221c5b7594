//! Which dependency edges the peer walk does not follow: the edges that
//! close a cycle, chosen the same way wherever the walk enters the cycle
//! (docs/resolution.md §4, "Dependency cycles").
//!
//! The members of each strongly connected component of the package graph
//! are ordered by package id (with its patch hash); an edge from a member to
//! a member that does not sort after it is cut, and so is a package's edge
//! to itself. What is left of each component has no cycle, so no walk meets
//! a package twice on one path and a package's subtree is the same at
//! every occurrence.

use std::cmp::Ordering;
use std::collections::HashMap;

use super::{FastMap, with_patch_hash};
use crate::graph::{Graph, PkgId};

pub(super) struct CycleCut<'g> {
    /// The component of each package that is in a cycle with another.
    /// Asked for every edge the peer walk follows (~40k on alotta).
    component: FastMap<&'g str, usize>,
    patched: &'g HashMap<PkgId, String>,
}

impl<'g> CycleCut<'g> {
    pub(super) fn new(graph: &'g Graph) -> Self {
        let ids: Vec<&str> = graph.packages.keys().map(String::as_str).collect();
        let index: FastMap<&str, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
        let edges: Vec<Vec<usize>> = graph
            .packages
            .values()
            .map(|package| {
                package
                    .children
                    .iter()
                    .filter_map(|edge| index.get(edge.target.as_str()).copied())
                    .collect()
            })
            .collect();
        let mut component = FastMap::default();
        for (n, members) in pacquet_lockfile::strongly_connected_components(&edges)
            .into_iter()
            .filter(|members| members.len() > 1)
            .enumerate()
        {
            for member in members {
                component.insert(ids[member], n);
            }
        }
        CycleCut {
            component,
            patched: &graph.patched,
        }
    }

    /// Whether the walk leaves out the dependency edge `from → to`.
    pub(super) fn cuts(&self, from: &str, to: &str) -> bool {
        if from == to {
            return true;
        }
        match (self.component.get(from), self.component.get(to)) {
            (Some(a), Some(b)) if a == b => self.order(to, from) != Ordering::Greater,
            _ => false,
        }
    }

    /// Package ids as pnpm orders them: `name@version`, followed by
    /// `(patch_hash=…)` when a patch applies.
    fn order(&self, a: &str, b: &str) -> Ordering {
        if self.patched.contains_key(a) || self.patched.contains_key(b) {
            with_patch_hash(self.patched, a).cmp(&with_patch_hash(self.patched, b))
        } else {
            a.cmp(b)
        }
    }
}
