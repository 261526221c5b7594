//! `autoInstallPeers`: peers nothing in a project's tree provides are
//! installed for the project, out of its manifest (docs/resolution.md §5).

use std::collections::{BTreeMap, HashSet};

use nodejs_semver::{Range, Version};
use pacquet_lockfile::ProjectManifest;

use crate::ResolveError;
use crate::graph::{Graph, Walker, id_is_of, id_version, merged_range};
use crate::peers::{PeerOptions, PeerResolution, resolve_peers};
use crate::source::Metadata;

/// Installs the missing peers of importer `index` until nothing more can
/// be installed; returns the required peers whose ranges conflicted, and
/// the peer resolution of the graph as it is left (what resolving peers
/// again would give while nothing else is added).
/// `fresh` (`autoInstallPeers`): a required peer no version in the tree
/// satisfies is picked from the registry; without it, only versions
/// already in the tree are hoisted.
pub async fn install_missing<M: Metadata>(
    walker: &mut Walker<'_, M>,
    index: usize,
    manifest: &ProjectManifest,
    opts: PeerOptions,
    fresh: bool,
) -> Result<(Vec<String>, PeerResolution), ResolveError> {
    let mut tried: HashSet<String> = HashSet::new();
    let mut conflicts = Vec::new();
    loop {
        let resolution = resolve_peers(&walker.graph, opts);
        // name → (consumer ranges, some consumer requires it)
        let mut wanted: BTreeMap<String, (Vec<String>, bool)> = BTreeMap::new();
        for missing in &resolution.missing[index] {
            let entry = wanted.entry(missing.peer.clone()).or_default();
            entry.0.push(missing.range.clone());
            entry.1 |= !missing.optional;
        }
        // Required peers first: what they bring into the tree is where the
        // optional ones are then taken from (`alotta`: `supports-color`
        // 8.1.1 arrives with a hoisted peer's subtree).
        let any_required = wanted
            .iter()
            .any(|(name, (_, required))| *required && !tried.contains(name));
        let mut install = Vec::new();
        for (name, (ranges, required)) in wanted {
            if any_required && !required {
                continue;
            }
            if !tried.insert(name.clone()) {
                continue;
            }
            let ranges: Vec<&str> = ranges.iter().map(String::as_str).collect();
            let Some(merged) = merged_range(&ranges) else {
                if required && fresh {
                    conflicts.push(name.clone());
                }
                continue;
            };
            // An optional peer some consumer got from a package in the tree
            // comes from that package, whatever the ranges; otherwise from the
            // highest version in the tree that satisfies them.
            let provided = (!required)
                .then(|| resolution.providers[index].get(&name))
                .flatten()
                .map(|id| id_version(id).to_owned());
            let present = provided
                .or_else(|| highest_in_tree(&walker.graph, &name, &merged).map(|v| v.to_string()));
            match (present, required) {
                (Some(version), _) => install.push((name, version)),
                (None, true) if fresh => install.push((name, merged)),
                (None, _) => {}
            }
        }
        if install.is_empty() {
            return Ok((conflicts, resolution));
        }
        // What provided a peer in the tree so far is in the project's
        // scope while the hoisted peers' subtrees are resolved, as pnpm 12
        // hoists those providers (docs/resolution.md §3).
        let providers = &mut walker.graph.importers[index].peer_providers;
        providers.extend(resolution.providers[index].keys().cloned());
        walker.add_auto_peers(index, manifest, &install).await?;
    }
}

/// The highest version of `name` anywhere in the graph that satisfies
/// `range`.
fn highest_in_tree(graph: &Graph, name: &str, range: &str) -> Option<Version> {
    let range = Range::parse(range).ok()?;
    graph
        .packages
        .keys()
        .filter(|id| id_is_of(id, name))
        .filter_map(|id| Version::parse(id_version(id)).ok())
        .filter(|v| v.satisfies(&range))
        .max()
}
