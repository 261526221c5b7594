//! Hoisting decisions (layout.md §4), in pnpm's `hoistedDependencies` order.

use std::collections::HashSet;

use super::{
    HoistKind,
    graph::{Edge, Graph, WalkEntry},
    pattern::Matcher,
};

/// What a hoisting candidate points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Candidate<'a> {
    Node(usize),
    /// A workspace project, by importer id.
    Importer(&'a str),
}

/// Inputs of [`hoist`].
pub(crate) struct HoistInput<'a, 'g> {
    pub graph: &'a Graph<'g>,
    /// Walk entries (depth ≥ 0), in walk order.
    pub entries: &'a [WalkEntry],
    /// Children of the depth −1 pseudo-entry: workspace projects, then direct
    /// deps of every importer (first wins per alias).
    pub root_children: Vec<(&'a str, Candidate<'a>)>,
    /// Aliases of the root importer's direct deps.
    pub root_aliases: Vec<&'a str>,
    /// `.pnpm` directory name per node (sort key within a depth).
    pub dir_names: &'a [String],
    pub public: &'a Matcher,
    pub private: &'a Matcher,
}

/// `(target, alias, kind)` records in pnpm's order.
pub(crate) fn hoist<'a>(input: HoistInput<'a, '_>) -> Vec<(Candidate<'a>, &'a str, HoistKind)> {
    let mut entries: Vec<&WalkEntry> = input.entries.iter().collect();
    entries.sort_by(|a, b| {
        a.depth
            .cmp(&b.depth)
            .then_with(|| input.dir_names[a.node].cmp(&input.dir_names[b.node]))
    });
    let mut taken: HashSet<String> = input
        .root_aliases
        .iter()
        .map(|a| a.to_lowercase())
        .collect();
    let mut out = Vec::new();
    let mut consider = |alias: &'a str, target: Candidate<'a>, out: &mut Vec<_>| {
        let kind = if input.public.matches(alias) {
            HoistKind::Public
        } else if input.private.matches(alias) {
            HoistKind::Private
        } else {
            return;
        };
        if let Candidate::Node(i) = target
            && input.graph.skipped[i]
        {
            return;
        }
        if !taken.insert(alias.to_lowercase()) {
            return;
        }
        out.push((target, alias, kind));
    };
    for (alias, target) in input.root_children {
        consider(alias, target, &mut out);
    }
    for entry in entries {
        for (alias, edge) in &input.graph.children[entry.node] {
            if let Edge::Node(child) = edge {
                consider(alias, Candidate::Node(*child), &mut out);
            }
        }
    }
    out
}
