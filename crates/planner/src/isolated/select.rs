//! What the plan covers: the selected importers, their edges in the
//! included dependency groups, and the optional packages no target
//! platform can install.

use pacquet_lockfile::{DepRef, DependencyGroup, Importer, Lockfile, PackageInfo};

use super::graph::{Edge, Graph, PeerScope, WalkEntry, reachable_through_skipped, walk};
use super::names::check_names;
use crate::{
    ImporterSelection, PlanError, PlanOptions, PlatformWarning,
    platform::{PlatformTargets, infer_platform},
};

/// What every layout plans from: the snapshot graph with its skipped
/// packages marked, the selected importers with their included edges, and
/// what pnpm's walker reaches from them.
pub(crate) struct Selected<'l> {
    pub graph: Graph<'l>,
    pub warnings: Vec<PlatformWarning>,
    pub selections: Vec<ImporterSelection>,
    pub importer_edges: Vec<Vec<DirectEdge<'l>>>,
    pub entry_nodes: Vec<usize>,
    pub entries: Vec<WalkEntry>,
    /// Graph node → installed.
    pub reached: Vec<bool>,
    /// `(snapshot key, alias)`: optional peers left unlinked.
    pub unlinked_peers: Vec<(String, String)>,
}

impl<'l> Selected<'l> {
    pub(crate) fn new(lockfile: &'l Lockfile, opts: &PlanOptions) -> Result<Self, PlanError> {
        check_names(lockfile)?;
        let mut graph = Graph::new(lockfile)?;
        let selections = select_importers(lockfile, opts)?;
        let include_optional = opts.included.optional_dependencies;
        let (importer_edges, entry_nodes) = importer_edges(lockfile, &selections, opts, &graph)?;
        // Installing some groups only, a package the left-out groups needed
        // may now be reached through optional edges alone: it is then
        // optional for this install (tailwindcss `--prod`: the platform
        // packages other projects depend on directly).
        let required = (!opts.included.all()).then(|| required_nodes(&graph, &importer_edges));
        let warnings = mark_skipped(lockfile, &mut graph, opts, required.as_deref())?;
        if include_optional {
            let scopes = peer_scopes(lockfile, &selections, opts, &graph, &importer_edges)?;
            graph.unlink_unreached_optional_peers(&entry_nodes, &scopes);
        }
        let unlinked_peers = graph
            .dropped_peers
            .iter()
            .map(|&(node, alias)| (graph.keys[node].to_string(), alias.to_owned()))
            .collect();
        let entries = walk(&graph, &entry_nodes, include_optional, true);
        let mut reached = vec![false; graph.keys.len()];
        // Installed: what the walk reaches without optional peers, when
        // optional dependencies are off.
        let installed = (!include_optional).then(|| walk(&graph, &entry_nodes, false, false));
        for e in installed.as_ref().unwrap_or(&entries) {
            reached[e.node] = true;
        }
        Ok(Selected {
            graph,
            warnings,
            selections,
            importer_edges,
            entry_nodes,
            entries,
            reached,
            unlinked_peers,
        })
    }
}

/// One direct dependency of an importer: group, alias, resolved edge.
pub(crate) type DirectEdge<'l> = (DependencyGroup, &'l str, Edge);

/// The order pnpm builds an importer's pseudo-entry in:
/// `{...devDependencies, ...dependencies, ...optionalDependencies}`.
pub(crate) const ENTRY_ORDER: [DependencyGroup; 3] = [
    DependencyGroup::Dev,
    DependencyGroup::Prod,
    DependencyGroup::Optional,
];

pub(crate) fn package_info<'l>(
    lockfile: &'l Lockfile,
    package_id: &str,
) -> Result<&'l PackageInfo, PlanError> {
    lockfile
        .packages
        .get(package_id)
        .ok_or_else(|| PlanError::MissingPackage {
            dep_path: package_id.to_owned(),
        })
}

fn declared_platform(info: &PackageInfo) -> [Option<Vec<String>>; 3] {
    let libc = info.libc.as_ref().map(|l| l.values.clone());
    [info.os.clone(), info.cpu.clone(), libc]
}

/// An optional package's platform: the lockfile's fields, the missing ones
/// filled from its name (docs/lockfile.md §7) when the entry declares some
/// field or the name names an OS. pnpm 12 skips `@rollup/rollup-linux-x64-musl`
/// on glibc though its entry has only `os` and `cpu`.
fn wanted_platform(info: &PackageInfo, name: &str) -> [Option<Vec<String>>; 3] {
    let declared = declared_platform(info);
    if declared.iter().all(Option::is_some) {
        return declared;
    }
    let inferred = infer_platform(name);
    let declares_any = declared.iter().any(Option::is_some);
    if inferred.iter().all(Option::is_none) || (!declares_any && inferred[0].is_none()) {
        return declared;
    }
    let [os, cpu, libc] = declared;
    let [ios, icpu, ilibc] = inferred.map(|v| v.map(|v| vec![v]));
    [os.or(ios), cpu.or(icpu), libc.or(ilibc)]
}

/// Flags optional snapshots that no target platform can install, or whose
/// `engines.node` excludes the running Node.js (docs/lockfile.md §7);
/// returns a warning for each non-optional one (`engineStrict`: an error).
pub(crate) fn mark_skipped(
    lockfile: &Lockfile,
    graph: &mut Graph,
    opts: &PlanOptions,
    required: Option<&[bool]>,
) -> Result<Vec<PlatformWarning>, PlanError> {
    let targets = PlatformTargets::new(&opts.host, &opts.supported_architectures);
    let mut warnings = Vec::new();
    for i in 0..graph.keys.len() {
        let info = package_info(lockfile, graph.keys[i].package_id())?;
        let optional = graph.snapshots[i].optional == Some(true) || required.is_some_and(|r| !r[i]);
        let [os, cpu, libc] = if optional {
            wanted_platform(info, graph.keys[i].name())
        } else {
            declared_platform(info)
        };
        let installable = targets.is_installable(os.as_deref(), cpu.as_deref(), libc.as_deref());
        let engine = engine_mismatch(info, opts.node_version.as_deref());
        if installable && engine.is_none() {
            continue;
        }
        if optional {
            graph.skipped[i] = true;
            continue;
        }
        let package = graph.keys[i].package_id();
        let message = engine.map(|(wanted, current)| {
            format!("Unsupported engine for {package}: wanted: {wanted} (current: {current})")
        });
        if opts.engine_strict
            && let Some(message) = message
        {
            return Err(PlanError::UnsupportedEngine { message });
        }
        warnings.push(PlatformWarning {
            dep_path: graph.keys[i].to_string(),
            message,
        });
    }
    Ok(warnings)
}

/// `(wanted, current)` as pnpm prints them when `engines.node` excludes
/// `node_version` (`{"node":">=999"}`, `{"node":"20.20.2"}`). A range that
/// does not parse excludes every version, as in node-semver.
fn engine_mismatch(info: &PackageInfo, node_version: Option<&str>) -> Option<(String, String)> {
    let current = node_version?;
    let wanted = info.engines.as_ref()?.get("node")?;
    let version = nodejs_semver::Version::parse(current).ok()?;
    let satisfied =
        nodejs_semver::Range::parse(wanted).is_ok_and(|range| range.satisfies(&version));
    (!satisfied).then(|| {
        let quote = |s: &str| serde_json::Value::String(s.to_owned()).to_string();
        (
            format!("{{\"node\":{}}}", quote(wanted)),
            format!("{{\"node\":{}}}", quote(current)),
        )
    })
}

pub(crate) fn select_importers(
    lockfile: &Lockfile,
    opts: &PlanOptions,
) -> Result<Vec<ImporterSelection>, PlanError> {
    if opts.importers.is_empty() {
        return Ok(lockfile
            .importers
            .keys()
            .map(|id| ImporterSelection::new(id, None))
            .collect());
    }
    for sel in &opts.importers {
        if !lockfile.importers.contains_key(&sel.id) {
            return Err(PlanError::MissingImporter {
                importer: sel.id.clone(),
            });
        }
    }
    Ok(opts.importers.clone())
}

/// The importer's edges in the included groups (prod, dev, optional order).
pub(crate) fn included_edges<'l>(
    importer: &'l Importer,
    opts: &PlanOptions,
    graph: &Graph,
) -> Result<Vec<DirectEdge<'l>>, PlanError> {
    importer
        .dependency_refs()
        .filter(|(g, _, _)| opts.included.importer_group(*g))
        .map(|(g, alias, r): (DependencyGroup, &str, DepRef)| Ok((g, alias, graph.resolve(r)?)))
        .collect()
}

/// The packages a chain of non-optional edges reaches from the selected
/// importers' `dependencies` and `devDependencies` (as included).
fn required_nodes(graph: &Graph, importer_edges: &[Vec<DirectEdge<'_>>]) -> Vec<bool> {
    let entries: Vec<usize> = importer_edges
        .iter()
        .flatten()
        .filter(|(group, _, _)| *group != DependencyGroup::Optional)
        .filter_map(|(_, _, e)| match e {
            Edge::Node(n) => Some(*n),
            Edge::Link(_) => None,
        })
        .collect();
    // Nothing is marked skipped yet: every node is walked through.
    graph.reach(&entries, &|node, i| i >= graph.prod_children[node])
}

/// Per selected importer: the packages its included groups start from, and
/// the packages that could have provided its optional peers from a group
/// this install leaves out: its own direct dependencies in those groups and
/// the workspace root's (pnpm resolves peers from the root too,
/// `resolvePeersFromWorkspaceRoot`).
fn peer_scopes(
    lockfile: &Lockfile,
    selections: &[ImporterSelection],
    opts: &PlanOptions,
    graph: &Graph,
    importer_edges: &[Vec<DirectEdge<'_>>],
) -> Result<Vec<PeerScope>, PlanError> {
    let left_out = |id: &str| -> Result<Vec<usize>, PlanError> {
        let mut out = Vec::new();
        let Some(importer) = lockfile.importers.get(id) else {
            return Ok(out);
        };
        for (group, _, r) in importer.dependency_refs() {
            if !opts.included.importer_group(group)
                && let Edge::Node(node) = graph.resolve(r)?
            {
                out.push(node);
            }
        }
        Ok(out)
    };
    let root = left_out(".")?;
    let mut scopes = Vec::with_capacity(selections.len());
    for (sel, edges) in selections.iter().zip(importer_edges) {
        let entries = edges
            .iter()
            .filter_map(|(_, _, e)| match e {
                Edge::Node(n) => Some(*n),
                Edge::Link(_) => None,
            })
            .collect();
        let mut excluded = left_out(&sel.id)?;
        if sel.id != "." {
            excluded.extend(&root);
        }
        scopes.push(PeerScope {
            entries,
            left_out: excluded,
        });
    }
    Ok(scopes)
}

/// Each importer's included edges, and the walker's entry nodes in pnpm's
/// order (per importer: dev, prod, optional).
pub(crate) fn importer_edges<'l>(
    lockfile: &'l Lockfile,
    selections: &[ImporterSelection],
    opts: &PlanOptions,
    graph: &Graph,
) -> Result<(Vec<Vec<DirectEdge<'l>>>, Vec<usize>), PlanError> {
    let mut importer_edges = Vec::with_capacity(selections.len());
    let mut entry_nodes = Vec::new();
    for sel in selections {
        let edges = included_edges(&lockfile.importers[&sel.id], opts, graph)?;
        for group in ENTRY_ORDER {
            for (g, _, edge) in &edges {
                if *g == group
                    && let Edge::Node(i) = edge
                {
                    entry_nodes.push(*i);
                }
            }
        }
        importer_edges.push(edges);
    }
    Ok((importer_edges, entry_nodes))
}

/// `.modules.yaml`'s `skipped`: the optional snapshots no platform can
/// install, then those reachable only through them, each sorted.
pub(crate) fn skipped_keys(
    graph: &Graph,
    entry_nodes: &[usize],
    reached: &[bool],
    include_optional: bool,
) -> (Vec<String>, Vec<String>) {
    // Only what the installed groups reach: `--prod` leaves the dev
    // dependencies' platform packages out of `skipped` and `lock.yaml`
    // (checked with pnpm 12.21 on vue-core, benchmarks/compat-real).
    let mut in_reach = vec![false; graph.keys.len()];
    for i in reachable_through_skipped(graph, entry_nodes, include_optional) {
        in_reach[i] = true;
    }
    let mut skipped: Vec<String> = (0..graph.keys.len())
        .filter(|&i| graph.skipped[i] && in_reach[i])
        .map(|i| graph.keys[i].to_string())
        .collect();
    skipped.sort();
    let mut below: Vec<String> = reachable_through_skipped(graph, entry_nodes, include_optional)
        .into_iter()
        .filter(|&i| !reached[i] && !graph.skipped[i] && graph.snapshots[i].optional == Some(true))
        .map(|i| graph.keys[i].to_string())
        .collect();
    below.sort();
    (skipped, below)
}

/// The projects other than the root in the order pnpm 12 hoists them into
/// the root `node_modules`: path-component order (`packages/a` before
/// `packages-extra/c`, crates/testing/projects/workspace-peers), where
/// everything else takes them in string order.
pub(crate) fn hoistable_projects(
    selections: &[ImporterSelection],
    by_id: bool,
) -> impl Iterator<Item = &ImporterSelection> {
    let mut projects: Vec<&ImporterSelection> = selections.iter().filter(|s| s.id != ".").collect();
    if by_id {
        projects.sort_by(|a, b| a.id.cmp(&b.id));
    } else {
        projects.sort_by(|a, b| std::path::Path::new(&a.id).cmp(std::path::Path::new(&b.id)));
    }
    projects.into_iter()
}
