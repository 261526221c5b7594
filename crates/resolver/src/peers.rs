//! Peer dependencies: which instance of each peer every package gets, and
//! the snapshot keys that follow (docs/resolution.md §4, §6).
//!
//! Each package is resolved in the scope of its parent: the parent's
//! children, then the grandparent's, up to the project's direct
//! dependencies. A peer found in that scope is *external*: it becomes part
//! of the package's key (`name@1.0.0(peer@2.0.0)`), and so does every peer
//! of its descendants found above it. Packages with no peer anywhere below
//! them have one key whatever their scope, and are resolved once.
//!
//! The walk first binds instances to instances; keys are computed after,
//! because a peer may be bound to an ancestor whose own key is not known
//! yet (`eslint` → `@eslint-community/eslint-utils` → peer `eslint`).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;

use nodejs_semver::{Range, Version};

use crate::graph::{Graph, Peer, PkgId, id_name, id_version, is_link};
use crate::suffix::peers_suffix;

mod cycles;
mod dedupe;

pub use dedupe::dedupe_peer_dependents;

use cycles::CycleCut;

/// One snapshot: a package with its peers resolved.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SnapshotNode {
    pub pkg: PkgId,
    /// alias → snapshot key of the dependency (its own bound peers
    /// included).
    pub dependencies: BTreeMap<String, String>,
    pub optional_dependencies: BTreeMap<String, String>,
    /// Peers bound or missing below it that are not its own.
    pub transitive_peers: BTreeSet<String>,
    /// The peers bound for it, its own and its descendants' (the names
    /// its key's suffix is made of).
    pub resolved_peers: BTreeSet<String>,
}

/// Peers resolved for the whole graph.
#[derive(Debug, Default)]
pub struct PeerResolution {
    pub snapshots: BTreeMap<String, SnapshotNode>,
    /// Per importer (same order as the graph's), alias → snapshot key.
    pub importers: Vec<BTreeMap<String, String>>,
    /// Per importer, the peers nothing in its tree provides.
    pub missing: Vec<Vec<MissingPeer>>,
    /// Peers bound to a version outside their range.
    pub unmet: Vec<UnmetPeer>,
    /// Per importer, the last package (in walk order) some consumer got a
    /// peer from that is not the project's own dependency, by peer name:
    /// where a missing optional peer is taken from (docs/resolution.md §5).
    pub providers: Vec<FastMap<String, PkgId>>,
}

/// A peer bound to a version its consumer's range leaves out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnmetPeer {
    pub peer: String,
    /// The version it was bound to.
    pub found: String,
    /// The consumer's `name@version`.
    pub consumer: PkgId,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MissingPeer {
    pub peer: String,
    pub range: String,
    pub optional: bool,
}

/// Options that change keys.
#[derive(Debug, Clone, Copy)]
pub struct PeerOptions {
    pub peers_suffix_max_length: usize,
    /// `dedupePeers`: a peer is named `name@version` in a suffix, without
    /// the peers of its own (docs/resolution.md §6).
    pub dedupe_peers: bool,
    /// `resolvePeersFromWorkspaceRoot`: the workspace root's dependencies
    /// are in every other project's scope, last (docs/resolution.md §4).
    pub from_workspace_root: bool,
}

/// A level of scope: the children of one package (or a project's direct
/// dependencies), in front of its parent's scope.
struct Frame {
    parent: Option<Rc<Frame>>,
    entries: FastMap<String, PkgId>,
    id: usize,
}

impl Frame {
    /// The package `alias` names in this scope, and the frame it was found
    /// in (which is where it is resolved).
    fn lookup(self: &Rc<Frame>, alias: &str) -> Option<(PkgId, Rc<Frame>)> {
        let mut frame = self;
        loop {
            if let Some(pkg) = frame.entries.get(alias) {
                return Some((pkg.clone(), Rc::clone(frame)));
            }
            frame = frame.parent.as_ref()?;
        }
    }
}

type InstanceId = usize;

/// The walk's own maps and sets, keyed by package ids and names, hashed
/// with foldhash: SipHash was ~5 % of alotta's resolution.
pub(crate) type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
type FastSet<K> = HashSet<K, foldhash::fast::RandomState>;

/// A package in one scope, bound to other instances.
#[derive(Debug, Default)]
struct Instance {
    pkg: PkgId,
    /// `(alias, instance, optional)` of its dependencies.
    children: Vec<(String, InstanceId, bool)>,
    /// `(peer, instance, optional)` of its own peers found in scope.
    own_peers: Vec<(String, InstanceId, bool)>,
    /// Peers bound above it, its own and its descendants': name → instance.
    /// Shared, so that [`Walker::cache_hit`] reads a candidate's while it
    /// resolves instead of copying every name (a quarter of
    /// `resolve_peers`' samples on alotta, `perf`).
    external: Rc<BTreeMap<String, InstanceId>>,
    /// Peers nothing in scope provides, its own and below: name → ranges.
    missing: BTreeMap<String, Vec<(String, bool)>>,
    /// No peer anywhere below: the key is the package id.
    pure: bool,
}

struct Walker<'g> {
    graph: &'g Graph,
    /// The dependency edges that close a cycle, which the walk leaves out.
    cut: CycleCut<'g>,
    /// Packages with a peer somewhere below them (or their own), through
    /// the edges the walk follows.
    impure: FastSet<&'g str>,
    instances: Vec<Instance>,
    /// The instance of a package in a scope (frame id).
    memo: FastMap<(PkgId, usize), InstanceId>,
    /// The one instance of each pure package.
    pure: FastMap<PkgId, InstanceId>,
    /// Finished instances per package, reusable where the scope binds the
    /// same external peers and lacks the same missing ones.
    cache: FastMap<PkgId, Vec<InstanceId>>,
    next_frame: usize,
    unmet: Vec<UnmetPeer>,
    /// The impure packages being resolved, outermost first: a peer bound to
    /// one of its consumer's ancestors gets the ancestor's instance (the
    /// dependency edges the walk follows have no cycle).
    path: Vec<(PkgId, InstanceId)>,
    /// Frames of the projects' own dependencies.
    root_frames: FastSet<usize>,
    /// See [`PeerResolution::providers`], for the project being walked.
    providers: FastMap<String, PkgId>,
    /// What an edge that closes a cycle points at: its target resolved in
    /// the scope of the project whose walk first met such an edge.
    back_edges: BackEdges,
}

/// Targets of cut edges (see [`CycleCut`]): each resolved once, in a
/// project's own scope, after that project's dependencies are walked.
#[derive(Default)]
struct BackEdges {
    resolved: FastMap<PkgId, InstanceId>,
    /// Not resolved yet; resolved last first.
    pending: Vec<PkgId>,
    queued: FastSet<PkgId>,
    /// `(instance, index in its children, target)` to fill in once the
    /// target is resolved.
    holes: Vec<(InstanceId, usize, PkgId)>,
}

/// Stands for a cut edge's target until it is resolved.
const HOLE: InstanceId = InstanceId::MAX;

/// Resolves the peers of every package reachable from the projects.
pub fn resolve_peers(graph: &Graph, opts: PeerOptions) -> PeerResolution {
    let cut = CycleCut::new(graph);
    let impure = impure_packages(graph, &cut);
    let mut walker = Walker {
        graph,
        cut,
        impure,
        instances: Vec::new(),
        memo: FastMap::default(),
        pure: FastMap::default(),
        cache: FastMap::default(),
        next_frame: 0,
        unmet: Vec::new(),
        path: Vec::new(),
        root_frames: FastSet::default(),
        providers: FastMap::default(),
        back_edges: BackEdges::default(),
    };
    // Other projects resolve peers from the workspace root's dependencies
    // last (`resolvePeersFromWorkspaceRoot`).
    let workspace_root = graph.importers.iter().find(|i| i.id == ".").map(|root| {
        let entries = scope_entries(
            root.auto_peers
                .iter()
                .map(|(alias, target)| (alias, target))
                .chain(root.deps.iter().map(|d| (&d.alias, &d.target))),
        );
        walker.frame(None, entries)
    });
    walker
        .root_frames
        .extend(workspace_root.iter().map(|f| f.id));
    let mut roots = Vec::new();
    let mut providers = Vec::new();
    for importer in &graph.importers {
        let outer = workspace_root
            .clone()
            .filter(|_| opts.from_workspace_root && importer.id != ".");
        let root = walker.frame(
            outer,
            scope_entries(
                importer
                    .auto_peers
                    .iter()
                    .map(|(alias, target)| (alias, target))
                    .chain(importer.deps.iter().map(|d| (&d.alias, &d.target))),
            ),
        );
        walker.root_frames.insert(root.id);
        let auto: Vec<InstanceId> = importer
            .auto_peers
            .iter()
            .map(|(_, target)| walker.resolve(target, &root))
            .collect();
        let direct: Vec<(String, InstanceId)> = importer
            .deps
            .iter()
            .map(|dep| (dep.alias.clone(), walker.resolve(&dep.target, &root)))
            .collect();
        walker.resolve_back_edges(&root);
        roots.push((auto, direct));
        providers.push(std::mem::take(&mut walker.providers));
    }
    walker.fill_back_edge_holes();
    let mut keys = Keys {
        instances: &walker.instances,
        keys: vec![None; walker.instances.len()],
        cycle: components(
            &walker
                .instances
                .iter()
                .map(|i| i.external.values().copied().collect::<Vec<_>>())
                .collect::<Vec<_>>(),
        ),
        cyclic_names: cyclic_peer_names(&walker.instances),
        max_length: opts.peers_suffix_max_length,
        dedupe_peers: opts.dedupe_peers,
        patched: &graph.patched,
    };
    let mut out = PeerResolution {
        unmet: std::mem::take(&mut walker.unmet),
        providers,
        ..PeerResolution::default()
    };
    for id in 0..walker.instances.len() {
        if is_link(&walker.instances[id].pkg) {
            continue;
        }
        let key = keys.key(id);
        if out.snapshots.contains_key(&key) {
            continue;
        }
        let instance = &walker.instances[id];
        let mut node = SnapshotNode {
            pkg: instance.pkg.clone(),
            ..SnapshotNode::default()
        };
        for (alias, target, optional) in instance.children.iter().chain(&instance.own_peers) {
            let map = if *optional {
                &mut node.optional_dependencies
            } else {
                &mut node.dependencies
            };
            map.insert(alias.clone(), keys.key(*target));
        }
        let own = &graph.packages[&instance.pkg].peers;
        node.resolved_peers = instance.external.keys().cloned().collect();
        node.transitive_peers = instance
            .external
            .keys()
            .chain(instance.missing.keys())
            .filter(|name| !own.contains_key(*name))
            .cloned()
            .collect();
        out.snapshots.insert(key, node);
    }
    for (auto, direct) in roots {
        let mut missing: BTreeMap<String, Vec<(String, bool)>> = BTreeMap::new();
        for id in auto.iter().chain(direct.iter().map(|(_, id)| id)) {
            for (name, ranges) in &walker.instances[*id].missing {
                missing
                    .entry(name.clone())
                    .or_default()
                    .extend(ranges.iter().cloned());
            }
        }
        out.missing.push(
            missing
                .into_iter()
                .flat_map(|(peer, ranges)| {
                    ranges
                        .into_iter()
                        .map(move |(range, optional)| MissingPeer {
                            peer: peer.clone(),
                            range,
                            optional,
                        })
                })
                .collect(),
        );
        out.importers.push(
            direct
                .into_iter()
                .map(|(alias, id)| (alias, keys.key(id)))
                .collect(),
        );
    }
    pacquet_teardown::discard(keys);
    pacquet_teardown::discard(walker);
    out
}

impl<'g> Walker<'g> {
    fn frame(&mut self, parent: Option<Rc<Frame>>, entries: FastMap<String, PkgId>) -> Rc<Frame> {
        self.next_frame += 1;
        Rc::new(Frame {
            parent,
            entries,
            id: self.next_frame,
        })
    }

    fn new_instance(&mut self, pkg: &PkgId, pure: bool) -> InstanceId {
        self.instances.push(Instance {
            pkg: pkg.clone(),
            pure,
            ..Instance::default()
        });
        self.instances.len() - 1
    }

    /// The instance of `pkg` as a child in `scope` (the frame holding it
    /// and its siblings).
    fn resolve(&mut self, pkg: &PkgId, scope: &Rc<Frame>) -> InstanceId {
        // A workspace directory: its own importer resolves its dependencies.
        if is_link(pkg) {
            if let Some(id) = self.pure.get(pkg) {
                return *id;
            }
            let id = self.new_instance(pkg, true);
            self.pure.insert(pkg.clone(), id);
            return id;
        }
        let package = &self.graph.packages[pkg];
        if !self.impure.contains(pkg.as_str()) {
            if let Some(id) = self.pure.get(pkg) {
                return *id;
            }
            let id = self.new_instance(pkg, true);
            self.pure.insert(pkg.clone(), id);
            let children: Vec<_> = package
                .children
                .iter()
                .enumerate()
                .map(|(index, edge)| {
                    let child = if self.cut.cuts(pkg, &edge.target) {
                        self.back_edge(&edge.target, (id, index), scope)
                    } else {
                        self.resolve(&edge.target, scope)
                    };
                    (edge.alias.clone(), child, edge.optional)
                })
                .collect();
            self.instances[id].children = children;
            return id;
        }
        if let Some((_, id)) = self.path.iter().rev().find(|(p, _)| p == pkg) {
            return *id;
        }
        let memo_key = (pkg.clone(), scope.id);
        if let Some(id) = self.memo.get(&memo_key) {
            return *id;
        }
        if let Some(id) = self.cache_hit(pkg, scope) {
            self.memo.insert(memo_key, id);
            return id;
        }
        let id = self.new_instance(pkg, false);
        self.memo.insert(memo_key, id);
        self.path.push((pkg.clone(), id));
        let children_scope = scope_entries(package.children.iter().map(|e| (&e.alias, &e.target)));
        let frame = self.frame(Some(Rc::clone(scope)), children_scope.clone());
        let mut external = BTreeMap::new();
        let mut missing: BTreeMap<String, Vec<(String, bool)>> = BTreeMap::new();
        let mut children = Vec::new();
        // Children in alias order, as pnpm walks them: the order decides
        // which provider of a peer is recorded last.
        let mut edges: Vec<_> = package.children.iter().collect();
        edges.sort_by(|a, b| a.alias.cmp(&b.alias));
        for edge in edges {
            // An edge that closes a cycle brings nothing into the key.
            if self.cut.cuts(pkg, &edge.target) {
                let child = self.back_edge(&edge.target, (id, children.len()), &frame);
                children.push((edge.alias.clone(), child, edge.optional));
                continue;
            }
            let child = self.resolve(&edge.target, &frame);
            children.push((edge.alias.clone(), child, edge.optional));
            let child = &self.instances[child];
            for (name, target) in child.external.iter() {
                if !children_scope.contains_key(name) {
                    external.insert(name.clone(), *target);
                }
            }
            for (name, ranges) in &child.missing {
                missing
                    .entry(name.clone())
                    .or_default()
                    .extend(ranges.iter().cloned());
            }
        }
        let mut own_peers = Vec::new();
        for (name, Peer { range, optional }) in &package.peers {
            // A peer that is also a dependency is that dependency.
            if children_scope.contains_key(name) {
                continue;
            }
            match scope.lookup(name) {
                Some((target, found_in)) => {
                    // A project's version is its manifest's.
                    let version = match target.strip_prefix("link:") {
                        Some(path) => self
                            .graph
                            .project_versions
                            .get(path)
                            .map_or("", String::as_str),
                        None => id_version(&target),
                    };
                    if !in_range(version, range) {
                        self.unmet.push(UnmetPeer {
                            peer: name.clone(),
                            found: version.to_owned(),
                            consumer: pkg.clone(),
                        });
                    }
                    if !self.root_frames.contains(&found_in.id) && !is_link(&target) {
                        self.providers.insert(name.clone(), target.clone());
                    }
                    let peer = self.resolve(&target, &found_in);
                    own_peers.push((name.clone(), peer, *optional));
                    external.insert(name.clone(), peer);
                }
                None => missing
                    .entry(name.clone())
                    .or_default()
                    .push((range.clone(), *optional)),
            }
        }
        external.remove(id_name(pkg));
        self.path.pop();
        let instance = &mut self.instances[id];
        instance.children = children;
        instance.own_peers = own_peers;
        instance.external = Rc::new(external);
        instance.missing = missing;
        self.cache.entry(pkg.clone()).or_default().push(id);
        id
    }

    /// The instance a cut edge from `at` (instance, child index) to `pkg`
    /// points at: `pkg` resolved in a project's own scope, or [`HOLE`]
    /// until then. A package with no peer below it has one instance.
    fn back_edge(&mut self, pkg: &PkgId, at: (InstanceId, usize), scope: &Rc<Frame>) -> InstanceId {
        if let Some(id) = self.back_edges.resolved.get(pkg) {
            return *id;
        }
        if !self.impure.contains(pkg.as_str()) {
            return self.resolve(pkg, scope);
        }
        self.back_edges.holes.push((at.0, at.1, pkg.clone()));
        if self.back_edges.queued.insert(pkg.clone()) {
            self.back_edges.pending.push(pkg.clone());
        }
        HOLE
    }

    /// Resolves the targets of the cut edges met so far in `root`, a
    /// project's scope; they may meet more.
    fn resolve_back_edges(&mut self, root: &Rc<Frame>) {
        while let Some(pkg) = self.back_edges.pending.pop() {
            let id = self.resolve(&pkg, root);
            self.back_edges.resolved.insert(pkg, id);
        }
    }

    fn fill_back_edge_holes(&mut self) {
        for (owner, index, pkg) in std::mem::take(&mut self.back_edges.holes) {
            self.instances[owner].children[index].1 = self.back_edges.resolved[&pkg];
        }
    }

    /// A finished instance of `pkg` whose external peers `scope` binds to
    /// the same instances, and whose missing peers `scope` still lacks.
    fn cache_hit(&mut self, pkg: &PkgId, scope: &Rc<Frame>) -> Option<InstanceId> {
        let candidates = self.cache.get(pkg)?.clone();
        'next: for candidate in candidates {
            if self.instances[candidate]
                .missing
                .keys()
                .any(|name| scope.lookup(name).is_some())
            {
                continue;
            }
            let wanted = Rc::clone(&self.instances[candidate].external);
            for (name, &instance) in wanted.iter() {
                let Some((target, found_in)) = scope.lookup(name) else {
                    continue 'next;
                };
                if self.resolve(&target, &found_in) != instance {
                    continue 'next;
                }
            }
            return Some(candidate);
        }
        None
    }
}

/// `pkgIdWithPatchHash`: `name@version`, with `(patch_hash=…)` when a
/// patch applies.
fn with_patch_hash(patched: &HashMap<PkgId, String>, pkg: &str) -> String {
    match patched.get(pkg) {
        Some(hash) => format!("{pkg}(patch_hash={hash})"),
        None => pkg.to_owned(),
    }
}

/// Snapshot keys of instances, computed once each.
struct Keys<'w> {
    instances: &'w [Instance],
    keys: Vec<Option<String>>,
    /// The strongly connected component of each instance in the graph of
    /// external peer edges.
    cycle: Vec<usize>,
    /// Names in a cycle of the graph of package names to their peers'.
    cyclic_names: HashSet<String>,
    max_length: usize,
    dedupe_peers: bool,
    /// Patch hashes by package id.
    patched: &'w HashMap<PkgId, String>,
}

impl Keys<'_> {
    /// `name@version`, with `(patch_hash=…)` when a patch applies.
    fn bare(&self, pkg: &str) -> String {
        with_patch_hash(self.patched, pkg)
    }

    fn key(&mut self, id: InstanceId) -> String {
        if let Some(key) = &self.keys[id] {
            return key.clone();
        }
        let instance = &self.instances[id];
        if instance.pure || instance.external.is_empty() {
            let key = self.bare(&instance.pkg);
            self.keys[id] = Some(key.clone());
            return key;
        }
        let segments: Vec<String> = instance
            .external
            .iter()
            .map(|(name, peer)| {
                let pkg = &self.instances[*peer].pkg;
                // A workspace directory is named by its path.
                if let Some(path) = pkg.strip_prefix("link:") {
                    return format!("{name}@{}", path.replace('/', "+"));
                }
                // Peers of each other, directly or through their names,
                // are named without their own peers.
                if self.dedupe_peers
                    || self.cycle[*peer] == self.cycle[id]
                    || self.cyclic_names.contains(name)
                {
                    self.bare(&self.instances[*peer].pkg)
                } else {
                    self.key(*peer)
                }
            })
            .collect();
        let key = format!(
            "{}{}",
            self.bare(&instance.pkg),
            peers_suffix(segments.iter(), self.max_length)
        );
        self.keys[id] = Some(key.clone());
        key
    }
}

/// The names that take part in a cycle (of two or more names, or a name
/// its own peer) of the graph from each package name to the names of its
/// external peers.
fn cyclic_peer_names(instances: &[Instance]) -> HashSet<String> {
    let mut index: FastMap<&str, usize> = FastMap::default();
    let mut names: Vec<&str> = Vec::new();
    let mut edges: Vec<BTreeSet<usize>> = Vec::new();
    for instance in instances.iter().filter(|i| !i.external.is_empty()) {
        let from = intern_name(id_name(&instance.pkg), &mut index, &mut names, &mut edges);
        for peer in instance.external.keys() {
            let to = intern_name(peer, &mut index, &mut names, &mut edges);
            edges[from].insert(to);
        }
    }
    let adjacency: Vec<Vec<usize>> = edges.iter().map(|e| e.iter().copied().collect()).collect();
    let component = components(&adjacency);
    let mut size: FastMap<usize, usize> = FastMap::default();
    for c in &component {
        *size.entry(*c).or_default() += 1;
    }
    (0..names.len())
        .filter(|&n| size[&component[n]] > 1 || edges[n].contains(&n))
        .map(|n| names[n].to_owned())
        .collect()
}

fn intern_name<'a>(
    name: &'a str,
    index: &mut FastMap<&'a str, usize>,
    names: &mut Vec<&'a str>,
    edges: &mut Vec<BTreeSet<usize>>,
) -> usize {
    *index.entry(name).or_insert_with(|| {
        names.push(name);
        edges.push(BTreeSet::new());
        names.len() - 1
    })
}

/// The strongly connected component of each node of a graph given as
/// adjacency lists.
fn components(edges: &[Vec<usize>]) -> Vec<usize> {
    let mut component = vec![0; edges.len()];
    for (index, members) in pacquet_lockfile::strongly_connected_components(edges)
        .into_iter()
        .enumerate()
    {
        for member in members {
            component[member] = index;
        }
    }
    component
}

/// A scope level's entries: by alias, and by real name where no unaliased
/// entry has that name (docs/resolution.md §4).
fn scope_entries<'e>(
    edges: impl Iterator<Item = (&'e String, &'e PkgId)>,
) -> FastMap<String, PkgId> {
    let mut entries: FastMap<String, PkgId> = FastMap::default();
    let mut aliased = Vec::new();
    for (alias, target) in edges {
        let name = id_name(target);
        if name != alias {
            aliased.push((name.to_owned(), target.clone()));
        }
        entries.insert(alias.clone(), target.clone());
    }
    for (name, target) in aliased {
        entries.entry(name).or_insert(target);
    }
    entries
}

/// Whether a bound peer's version meets its range; a prerelease passes
/// when its release does, and a range that is not semver allows anything.
fn in_range(version: &str, range: &str) -> bool {
    let range = range.trim();
    let range = range.strip_prefix("workspace:").unwrap_or(range);
    let range = match range.strip_prefix("npm:") {
        Some(rest) => rest[1.min(rest.len())..]
            .find('@')
            .map_or("*", |at| &rest[at + 2..]),
        None => range,
    };
    let (Ok(range), Ok(version)) = (Range::parse(range), Version::parse(version)) else {
        return true;
    };
    satisfies_as_peer(&version, &range)
}

/// node-semver, a prerelease also passing when its release does: how pnpm
/// checks a peer's version (docs/resolution.md §4).
pub fn satisfies_as_peer(version: &Version, range: &Range) -> bool {
    version.satisfies(range)
        || (version.is_prerelease()
            && Version::parse(format!(
                "{}.{}.{}",
                version.major(),
                version.minor(),
                version.patch()
            ))
            .is_ok_and(|release| release.satisfies(range)))
}

/// How a snapshot refers to a dependency: the version (with suffixes) when
/// the alias is the package's name, else the whole key.
pub fn dep_ref(alias: &str, key: &str) -> String {
    match key
        .strip_prefix(alias)
        .and_then(|rest| rest.strip_prefix('@'))
    {
        Some(version) => version.to_owned(),
        None => key.to_owned(),
    }
}

/// Packages with a peer dependency of their own or anywhere below them,
/// through the edges `cut` keeps.
fn impure_packages<'g>(graph: &'g Graph, cut: &CycleCut<'_>) -> FastSet<&'g str> {
    let mut parents: FastMap<&str, Vec<&str>> = FastMap::default();
    let mut stack: Vec<&str> = Vec::new();
    for (id, package) in &graph.packages {
        for edge in package.children.iter().filter(|e| !cut.cuts(id, &e.target)) {
            parents
                .entry(edge.target.as_str())
                .or_default()
                .push(id.as_str());
        }
        if !package.peers.is_empty() {
            stack.push(id.as_str());
        }
    }
    let mut impure: FastSet<&str> = stack.iter().copied().collect();
    while let Some(id) = stack.pop() {
        for parent in parents.get(id).into_iter().flatten() {
            if impure.insert(parent) {
                stack.push(parent);
            }
        }
    }
    impure
}
