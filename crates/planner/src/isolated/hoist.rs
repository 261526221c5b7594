//! Hoisting decisions (docs/layout.md §4), in pnpm's `hoistedDependencies` order.

use foldhash::HashSet;
use std::borrow::Cow;

use super::graph::{Edge, Graph, WalkEntry};
use crate::HoistKind;
use pacquet_config::name_pattern::Matcher;

/// What a hoisting candidate points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Candidate<'a> {
    Node(usize),
    /// A workspace project, by importer id.
    Importer(&'a str),
}

/// Inputs of [`hoist`].
pub(crate) struct HoistInput<'a, 'g, 'm> {
    pub graph: &'a Graph<'g>,
    /// Walk entries (depth ≥ 0), in walk order.
    pub entries: &'a [WalkEntry],
    /// Children of the depth −1 pseudo-entry: direct deps of every importer
    /// (first wins per alias).
    pub root_children: Vec<(&'a str, usize)>,
    /// `(name, importer id)` of workspace projects to hoist; they come after
    /// the pseudo-entry and are not held back by the root's direct deps
    /// (pnpm 12.21 hoists a project that the root also depends on).
    pub workspace_projects: Vec<(&'a str, &'a str)>,
    /// Aliases of the root importer's direct deps that are packages, not
    /// `link:`s: nothing else of that name is hoisted (pnpm 12.21; a root
    /// `link:` holds back neither a package of its name elsewhere in the
    /// graph nor the workspace project itself).
    pub root_package_aliases: Vec<&'a str>,
    /// `.pnpm` directory name per node (sort key within a depth).
    pub dir_names: &'a [String],
    /// Nodes the install places: platform-skipped ones are not, nor optional
    /// ones with `--no-optional`.
    pub reached: &'a [bool],
    pub public: &'m Matcher,
    pub private: &'m Matcher,
}

/// `(target, alias, kind)` records in pnpm's order.
pub(crate) fn hoist<'a>(input: HoistInput<'a, '_, '_>) -> Vec<(Candidate<'a>, &'a str, HoistKind)> {
    let mut entries: Vec<&WalkEntry> = input.entries.iter().collect();
    entries.sort_by(|a, b| {
        a.depth
            .cmp(&b.depth)
            .then_with(|| input.dir_names[a.node].cmp(&input.dir_names[b.node]))
    });
    // A root `link:` does not hold its alias back: a package of that name
    // elsewhere in the graph is hoisted (pnpm 12.21).
    let mut taken: HashSet<Cow<'a, str>> = input
        .root_package_aliases
        .iter()
        .map(|a| folded(a))
        .collect();
    let mut out = Vec::new();
    let kind_of = |alias: &str| {
        if input.public.matches(alias) {
            Some(HoistKind::Public)
        } else if input.private.matches(alias) {
            Some(HoistKind::Private)
        } else {
            None
        }
    };
    // Aliases recorded from the pseudo-entry (workspace projects yield to them).
    let mut recorded: HashSet<Cow<'a, str>> = HashSet::default();
    let consider = |alias: &'a str, child: usize, taken: &mut HashSet<Cow<'a, str>>| {
        let kind = kind_of(alias)?;
        if !input.reached[child] || !taken.insert(folded(alias)) {
            return None;
        }
        Some((Candidate::Node(child), alias, kind))
    };
    // Direct dependencies named like a workspace project come first, in the
    // projects' order (pnpm 12; tailwindcss's `playgrounds/v3` depends on
    // `tailwindcss@3` while `packages/tailwindcss` is the project).
    let mut root_children = input.root_children;
    let rank = |alias: &str| {
        input
            .workspace_projects
            .iter()
            .position(|(name, _)| *name == alias)
            .unwrap_or(usize::MAX)
    };
    root_children.sort_by_key(|(alias, _)| rank(alias));
    for (alias, child) in root_children {
        if let Some(record) = consider(alias, child, &mut taken) {
            recorded.insert(folded(alias));
            out.push(record);
        }
    }
    for (name, id) in input.workspace_projects {
        let Some(kind) = kind_of(name) else { continue };
        if recorded.contains(&folded(name))
            || input
                .root_package_aliases
                .iter()
                .any(|a| a.eq_ignore_ascii_case(name))
        {
            continue;
        }
        taken.insert(folded(name));
        out.push((Candidate::Importer(id), name, kind));
    }
    for entry in entries {
        for (alias, edge) in &input.graph.children[entry.node] {
            if let Edge::Node(child) = edge
                && let Some(record) = consider(alias, *child, &mut taken)
            {
                out.push(record);
            }
        }
    }
    out
}

/// `alias` in lowercase, borrowed when it already is: nearly every alias
/// is, and a copy for each of the graph's edges showed in `perf`.
fn folded(alias: &str) -> Cow<'_, str> {
    if alias
        .bytes()
        .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
    {
        Cow::Owned(alias.to_lowercase())
    } else {
        Cow::Borrowed(alias)
    }
}

#[cfg(test)]
mod tests;
