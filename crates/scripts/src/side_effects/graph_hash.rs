//! The dependency hash of every node of a package graph, as pnpm 12.21
//! computes it for side-effects cache keys (docs/store.md §9) and global
//! virtual store slots (docs/layout.md §16.2): `objectHash({id, deps})` over
//! the node's package and its children's hashes, with each dependency cycle
//! hashed as one strongly connected component so that no entry point or
//! walk order changes a hash.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;

use super::{HashInput, object_hash};

/// One graph node: its `id` and its children (alias → node key; a key with
/// no node hashes as `""`). One child per alias: pnpm spreads
/// `dependencies` and `optionalDependencies` into one object.
#[derive(Debug, Clone)]
pub struct GraphNode {
    pub full_pkg_id: String,
    pub children: IndexMap<String, String>,
}

/// The hash of every node of `graph`, keyed like it.
pub fn graph_hashes(graph: &HashMap<String, GraphNode>) -> HashMap<String, String> {
    // Sorted keys make the walk, and so any tie, independent of the map.
    let mut keys: Vec<&str> = graph.keys().map(String::as_str).collect();
    keys.sort_unstable();
    let index: HashMap<&str, usize> = keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    let nodes: Vec<Indexed> = keys
        .iter()
        .map(|k| {
            let node = &graph[*k];
            Indexed {
                id: &node.full_pkg_id,
                children: node
                    .children
                    .iter()
                    .map(|(alias, child)| (alias.as_str(), index.get(child.as_str()).copied()))
                    .collect(),
            }
        })
        .collect();
    let mut hashes: Vec<Option<String>> = vec![None; nodes.len()];
    for component in components(&nodes) {
        hash_component(&nodes, &component, &mut hashes);
    }
    keys.iter()
        .zip(hashes)
        .map(|(k, h)| ((*k).to_owned(), h.unwrap_or_default()))
        .collect()
}

struct Indexed<'g> {
    id: &'g str,
    /// Alias and child node (`None`: no such node).
    children: Vec<(&'g str, Option<usize>)>,
}

/// Strongly connected components, each after every component it depends
/// on.
fn components(nodes: &[Indexed]) -> Vec<Vec<usize>> {
    let edges: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| n.children.iter().filter_map(|(_, child)| *child).collect())
        .collect();
    pacquet_lockfile::strongly_connected_components(&edges)
}

fn hash_of(hashes: &[Option<String>], child: Option<usize>) -> String {
    child.and_then(|c| hashes[c].clone()).unwrap_or_default()
}

/// `objectHash({id, deps})`.
pub(super) fn id_and_deps(id: &str, deps: Vec<(String, HashInput)>) -> String {
    object_hash(&HashInput::Object(vec![
        ("id".to_owned(), HashInput::Str(id.to_owned())),
        ("deps".to_owned(), HashInput::Object(deps)),
    ]))
}

/// Hashes one component whose dependencies outside it are hashed already.
///
/// A node on no cycle is `objectHash({id, deps: {alias: hash(child)}})`.
/// The members of a cycle start from that hash over their children outside
/// the cycle (their *color*), refine the colors by the colors of their
/// children inside it (`objectHash({color, deps})`) until the number of
/// distinct colors stops growing, hash the cycle as one object keyed by
/// color, and each gets `objectHash({member: color, component})`.
fn hash_component(nodes: &[Indexed], members: &[usize], hashes: &mut [Option<String>]) {
    let position: HashMap<usize, usize> =
        members.iter().enumerate().map(|(i, &m)| (m, i)).collect();
    let inside = |member: usize, colors: &[String]| -> Vec<(String, HashInput)> {
        nodes[member]
            .children
            .iter()
            .filter_map(|&(alias, child)| {
                let at = position.get(&child?)?;
                Some((alias.to_owned(), HashInput::Str(colors[*at].clone())))
            })
            .collect()
    };
    let mut colors: Vec<String> = members
        .iter()
        .map(|&m| {
            let node = &nodes[m];
            let outside = node
                .children
                .iter()
                .filter(|(_, child)| !child.is_some_and(|c| position.contains_key(&c)))
                .map(|&(alias, child)| (alias.to_owned(), HashInput::Str(hash_of(hashes, child))))
                .collect();
            id_and_deps(node.id, outside)
        })
        .collect();
    let first = members[0];
    if members.len() == 1 && !nodes[first].children.iter().any(|c| c.1 == Some(first)) {
        // On no cycle: every child is outside, the color is the hash.
        hashes[first] = colors.pop();
        return;
    }
    let mut distinct = count_distinct(&colors);
    loop {
        let refined: Vec<String> = members
            .iter()
            .zip(&colors)
            .map(|(&m, color)| {
                object_hash(&HashInput::Object(vec![
                    ("color".to_owned(), HashInput::Str(color.clone())),
                    ("deps".to_owned(), HashInput::Object(inside(m, &colors))),
                ]))
            })
            .collect();
        let now = count_distinct(&refined);
        if now == distinct {
            break;
        }
        colors = refined;
        distinct = now;
    }
    // Members of one color have the same children's colors, so one entry
    // per color says all.
    let mut seen = HashSet::new();
    let entries = members
        .iter()
        .zip(&colors)
        .filter(|(_, color)| seen.insert(color.as_str()))
        .map(|(&m, color)| (color.clone(), HashInput::Object(inside(m, &colors))))
        .collect();
    let component = object_hash(&HashInput::Object(entries));
    for (&m, color) in members.iter().zip(&colors) {
        hashes[m] = Some(object_hash(&HashInput::Object(vec![
            ("member".to_owned(), HashInput::Str(color.clone())),
            ("component".to_owned(), HashInput::Str(component.clone())),
        ])));
    }
}

fn count_distinct(colors: &[String]) -> usize {
    colors.iter().collect::<HashSet<_>>().len()
}
