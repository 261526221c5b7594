//! `dedupeInjectedDeps` (on by default): an injected workspace project
//! whose dependencies all resolved to what that project itself has is
//! linked instead (docs/resolution.md §15).

use crate::graph::Graph;
use crate::peers::PeerResolution;

/// Turns the injected dependencies that can be links into links; returns
/// whether any did (the peers are then bound again).
pub fn dedupe(graph: &mut Graph, peers: &PeerResolution) -> bool {
    let mut changed = false;
    for index in 0..graph.importers.len() {
        for d in 0..graph.importers[index].deps.len() {
            let dep = &graph.importers[index].deps[d];
            let Some((_, path)) = dep.target.split_once("@file:") else {
                continue;
            };
            let Some(target) = graph.importers.iter().position(|i| i.id == path) else {
                continue;
            };
            let Some(node) = peers.importers[index]
                .get(&dep.alias)
                .and_then(|key| peers.snapshots.get(key))
            else {
                continue;
            };
            let own = &peers.importers[target];
            let same = node
                .dependencies
                .iter()
                .chain(&node.optional_dependencies)
                .all(|(alias, key)| own.get(alias) == Some(key));
            if same {
                graph.importers[index].deps[d].target = format!("link:{path}");
                changed = true;
            }
        }
    }
    if changed {
        graph.prune();
    }
    changed
}
