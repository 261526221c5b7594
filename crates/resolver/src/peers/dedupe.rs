//! `dedupePeerDependents` (default `true`): snapshots of one package
//! (patch included) whose dependencies and bound peers are a subset of
//! another snapshot's are folded into it (docs/resolution.md §4).

use std::collections::{BTreeMap, HashMap, HashSet};

use super::{PeerResolution, SnapshotNode};

/// Folds each snapshot into the largest compatible one of its package,
/// rewriting the projects' dependencies (and, in the rounds that still
/// fold something afterwards, the snapshots' dependencies), then drops the
/// folded snapshots nothing refers to. The order is pnpm 12.21's: largest first by
/// (dependencies + bound peers, key), round after round.
pub fn dedupe_peer_dependents(resolution: &mut PeerResolution) {
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for key in resolution.snapshots.keys() {
        groups
            .entry(package_part(key).to_owned())
            .or_default()
            .push(key.clone());
    }
    let duplicates: Vec<Vec<String>> = groups.into_values().filter(|v| v.len() > 1).collect();
    if duplicates.is_empty() {
        return;
    }
    let folded = fold_all(resolution, &duplicates);
    if folded.is_empty() {
        return;
    }
    for importer in &mut resolution.importers {
        for key in importer.values_mut() {
            if let Some(target) = folded.get(key) {
                *key = target.clone();
            }
        }
    }
    prune_folded(resolution, &folded);
}

/// The part of a snapshot key that names the package and its patch: up to
/// the first `(` that does not start `(patch_hash=`.
fn package_part(key: &str) -> &str {
    let mut end = key[1..].find('(').map_or(key.len(), |i| i + 1);
    if key[end..].starts_with("(patch_hash=")
        && let Some(close) = key[end..].find(')')
    {
        end += close + 1;
        end += key[end..].find('(').unwrap_or(key.len() - end);
    }
    &key[..end]
}

/// Rounds of folding; the snapshots' own dependencies are rewritten after
/// a round only when some group was left with variants to try again, as
/// pnpm 12.21 does.
fn fold_all(
    resolution: &mut PeerResolution,
    duplicates: &[Vec<String>],
) -> HashMap<String, String> {
    let (folded, remaining) = fold_round(&resolution.snapshots, duplicates);
    if remaining.len() == duplicates.len() {
        return folded;
    }
    for node in resolution.snapshots.values_mut() {
        for key in node
            .dependencies
            .values_mut()
            .chain(node.optional_dependencies.values_mut())
        {
            if let Some(target) = folded.get(key) {
                *key = target.clone();
            }
        }
    }
    if folded.is_empty() {
        return folded;
    }
    let mut all = folded;
    all.extend(fold_all(resolution, &remaining));
    all
}

fn deps_count(node: &SnapshotNode) -> usize {
    node.dependencies.len() + node.optional_dependencies.len() + node.resolved_peers.len()
}

/// Whether `larger` can take `smaller`'s place: at least as many edges,
/// every dependency of `smaller` among `larger`'s, every peer `smaller`
/// bound bound by `larger` too.
fn absorbs(larger: &SnapshotNode, smaller: &SnapshotNode) -> bool {
    if deps_count(larger) < deps_count(smaller) {
        return false;
    }
    let children: HashSet<&String> = larger
        .dependencies
        .values()
        .chain(larger.optional_dependencies.values())
        .collect();
    smaller
        .dependencies
        .values()
        .chain(smaller.optional_dependencies.values())
        .all(|key| children.contains(key))
        && smaller
            .resolved_peers
            .iter()
            .all(|peer| larger.resolved_peers.contains(peer))
}

/// One round over every group: the folds made, and the groups with
/// variants that neither folded nor took a fold.
fn fold_round(
    snapshots: &BTreeMap<String, SnapshotNode>,
    duplicates: &[Vec<String>],
) -> (HashMap<String, String>, Vec<Vec<String>>) {
    let order = |a: &String, b: &String| {
        deps_count(&snapshots[a])
            .cmp(&deps_count(&snapshots[b]))
            .then_with(|| a.cmp(b))
    };
    let mut folded = HashMap::new();
    let mut remaining = Vec::new();
    for keys in duplicates {
        let mut unresolved: HashSet<&String> = keys.iter().collect();
        let mut current: Vec<&String> = keys.iter().collect();
        current.sort_by(|a, b| order(a, b));
        while let Some(largest) = current.pop() {
            let mut next = Vec::new();
            while let Some(candidate) = current.pop() {
                if absorbs(&snapshots[largest], &snapshots[candidate]) {
                    folded.insert(candidate.clone(), largest.clone());
                    unresolved.remove(largest);
                    unresolved.remove(candidate);
                } else {
                    next.push(candidate);
                }
            }
            current = next;
            current.sort_by(|a, b| order(a, b));
        }
        if !unresolved.is_empty() {
            let mut left: Vec<String> = unresolved.into_iter().cloned().collect();
            left.sort();
            remaining.push(left);
        }
    }
    (folded, remaining)
}

/// Drops the folded snapshots nothing refers to any more. (Their
/// dependencies stay reachable: the snapshot they were folded into has
/// them all. Hoisted peers are referred to by their consumers only, so
/// only folded snapshots are candidates.)
fn prune_folded(resolution: &mut PeerResolution, folded: &HashMap<String, String>) {
    loop {
        let referenced: HashSet<&String> = resolution
            .importers
            .iter()
            .flat_map(|deps| deps.values())
            .chain(resolution.snapshots.values().flat_map(|node| {
                node.dependencies
                    .values()
                    .chain(node.optional_dependencies.values())
            }))
            .collect();
        let orphans: Vec<String> = folded
            .keys()
            .filter(|key| resolution.snapshots.contains_key(*key) && !referenced.contains(key))
            .cloned()
            .collect();
        if orphans.is_empty() {
            return;
        }
        for key in orphans {
            resolution.snapshots.remove(&key);
        }
    }
}

#[cfg(test)]
mod tests;
