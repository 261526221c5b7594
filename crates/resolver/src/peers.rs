//! Peer dependencies: which instance of each peer every package gets, and
//! the snapshot keys that follow (docs/resolution.md §3).
//!
//! Each package is resolved in the scope of its parent: the parent's
//! children, then the grandparent's, up to the project's direct
//! dependencies. A peer found in that scope is *external*: it becomes part
//! of the package's key (`name@1.0.0(peer@2.0.0)`), and so does every peer
//! of its descendants found above it. Packages with no peer anywhere below
//! them have one key whatever their scope, and are resolved once.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;

use nodejs_semver::{Range, Version};

use crate::graph::{Graph, Peer, PkgId, id_name, id_version};
use crate::suffix::peers_suffix;

/// One snapshot: a package with its peers resolved.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SnapshotNode {
    pub pkg: PkgId,
    /// alias → snapshot key of the dependency (resolved peers included).
    pub dependencies: BTreeMap<String, String>,
    pub optional_dependencies: BTreeMap<String, String>,
    /// Peers of descendants that nothing above them provides.
    pub transitive_peers: BTreeSet<String>,
}

/// Peers resolved for the whole graph.
#[derive(Debug, Default)]
pub struct PeerResolution {
    pub snapshots: BTreeMap<String, SnapshotNode>,
    /// Per importer (same order as the graph's), alias → snapshot key.
    pub importers: Vec<BTreeMap<String, String>>,
    /// Peers nothing provides.
    pub missing: Vec<MissingPeer>,
    /// Some peer was bound to a version outside its range.
    pub unmet: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MissingPeer {
    pub importer: usize,
    pub dependent: PkgId,
    pub peer: String,
    pub range: String,
    pub optional: bool,
}

/// Options that change keys.
#[derive(Debug, Clone, Copy)]
pub struct PeerOptions {
    pub peers_suffix_max_length: usize,
}

/// A level of scope: the children of one package (or a project's direct
/// dependencies), in front of its parent's scope.
struct Frame {
    parent: Option<Rc<Frame>>,
    entries: HashMap<String, PkgId>,
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

#[derive(Debug, Clone)]
struct Resolved {
    key: String,
    /// Peers taken from above the package: alias → snapshot key.
    external: BTreeMap<String, String>,
    /// Peers nothing in scope provides, of the package and below it.
    missing: BTreeSet<String>,
}

struct Walker<'g> {
    graph: &'g Graph,
    opts: PeerOptions,
    /// Packages with a peer somewhere below them (or their own).
    impure: HashSet<&'g str>,
    memo: HashMap<(PkgId, usize), Resolved>,
    in_progress: HashSet<(PkgId, usize)>,
    /// Earlier results per package, reusable where the scope gives the same
    /// external peers and lacks the same missing ones.
    cache: HashMap<PkgId, Vec<Resolved>>,
    next_frame: usize,
    out: PeerResolution,
    importer: usize,
}

/// Resolves the peers of every package reachable from the projects.
pub fn resolve_peers(graph: &Graph, opts: PeerOptions) -> PeerResolution {
    let mut walker = Walker {
        graph,
        opts,
        impure: impure_packages(graph),
        memo: HashMap::new(),
        in_progress: HashSet::new(),
        cache: HashMap::new(),
        next_frame: 0,
        out: PeerResolution::default(),
        importer: 0,
    };
    for (index, importer) in graph.importers.iter().enumerate() {
        walker.importer = index;
        let root = walker.frame(
            None,
            scope_entries(
                importer
                    .auto_peers
                    .iter()
                    .map(|(alias, target)| (alias, target))
                    .chain(importer.deps.iter().map(|d| (&d.alias, &d.target))),
            ),
        );
        for (_, target) in &importer.auto_peers {
            walker.resolve(target, &root, &mut Vec::new());
        }
        let mut keys = BTreeMap::new();
        for dep in &importer.deps {
            let resolved = walker.resolve(&dep.target, &root, &mut Vec::new());
            keys.insert(dep.alias.clone(), resolved.key);
        }
        walker.out.importers.push(keys);
    }
    walker.out
}

impl<'g> Walker<'g> {
    fn frame(&mut self, parent: Option<Rc<Frame>>, entries: HashMap<String, PkgId>) -> Rc<Frame> {
        self.next_frame += 1;
        Rc::new(Frame {
            parent,
            entries,
            id: self.next_frame,
        })
    }

    /// Resolves `pkg` as a child in `scope` (the frame holding it and its
    /// siblings). `path` holds the packages above it, to cut cycles.
    fn resolve(&mut self, pkg: &PkgId, scope: &Rc<Frame>, path: &mut Vec<PkgId>) -> Resolved {
        let Some(package) = self.graph.packages.get(pkg) else {
            return leaf(pkg);
        };
        if !self.impure.contains(pkg.as_str()) {
            if !self.out.snapshots.contains_key(pkg) {
                let node = self.pure_snapshot(pkg);
                self.out.snapshots.insert(pkg.clone(), node);
                for edge in &package.children {
                    let target = edge.target.clone();
                    self.resolve(&target, scope, path);
                }
            }
            return leaf(pkg);
        }
        let memo_key = (pkg.clone(), scope.id);
        if let Some(done) = self.memo.get(&memo_key) {
            return done.clone();
        }
        if path.contains(pkg) || self.in_progress.contains(&memo_key) {
            return leaf(pkg);
        }
        if let Some(hit) = self.cache_hit(pkg, scope, path) {
            self.memo.insert(memo_key, hit.clone());
            return hit;
        }
        self.in_progress.insert(memo_key.clone());
        path.push(pkg.clone());
        let children = scope_entries(package.children.iter().map(|e| (&e.alias, &e.target)));
        let frame = self.frame(Some(Rc::clone(scope)), children.clone());
        let mut external = BTreeMap::new();
        let mut missing = BTreeSet::new();
        let mut node = SnapshotNode {
            pkg: pkg.clone(),
            ..SnapshotNode::default()
        };
        for edge in &package.children {
            let child = self.resolve(&edge.target, &frame, path);
            if edge.optional {
                node.optional_dependencies
                    .insert(edge.alias.clone(), child.key.clone());
            } else {
                node.dependencies
                    .insert(edge.alias.clone(), child.key.clone());
            }
            for (alias, key) in child.external {
                if !children.contains_key(&alias) {
                    external.insert(alias, key);
                }
            }
            missing.extend(child.missing);
        }
        for (peer, Peer { range, optional }) in &package.peers {
            let optional = *optional;
            match scope.lookup(peer) {
                Some((target, found_in)) => {
                    self.out.unmet |= !in_range(id_version(&target), range);
                    let resolved = self.resolve(&target, &found_in, path);
                    if optional {
                        node.optional_dependencies
                            .insert(peer.clone(), resolved.key.clone());
                    } else {
                        node.dependencies.insert(peer.clone(), resolved.key.clone());
                    }
                    external.insert(peer.clone(), resolved.key);
                }
                None => {
                    missing.insert(peer.clone());
                    self.out.missing.push(MissingPeer {
                        importer: self.importer,
                        dependent: pkg.clone(),
                        peer: peer.clone(),
                        range: range.clone(),
                        optional,
                    });
                }
            }
        }
        external.remove(&package.manifest.name);
        let suffix = peers_suffix(external.values(), self.opts.peers_suffix_max_length);
        let key = format!("{pkg}{suffix}");
        node.transitive_peers = external
            .keys()
            .chain(&missing)
            .filter(|name| !package.peers.contains_key(*name))
            .cloned()
            .collect();
        self.out.snapshots.entry(key.clone()).or_insert(node);
        path.pop();
        self.in_progress.remove(&memo_key);
        let resolved = Resolved {
            key,
            external,
            missing,
        };
        self.cache
            .entry(pkg.clone())
            .or_default()
            .push(resolved.clone());
        self.memo.insert(memo_key, resolved.clone());
        resolved
    }

    /// An earlier result for `pkg` whose external peers resolve to the same
    /// keys in `scope`, and whose missing peers are still missing.
    fn cache_hit(
        &mut self,
        pkg: &PkgId,
        scope: &Rc<Frame>,
        path: &mut Vec<PkgId>,
    ) -> Option<Resolved> {
        let candidates = self.cache.get(pkg)?.clone();
        'next: for candidate in candidates {
            for name in &candidate.missing {
                if scope.lookup(name).is_some() {
                    continue 'next;
                }
            }
            for (alias, key) in &candidate.external {
                let Some((target, found_in)) = scope.lookup(alias) else {
                    continue 'next;
                };
                if self.resolve(&target, &found_in, path).key != *key {
                    continue 'next;
                }
            }
            return Some(candidate);
        }
        None
    }

    fn pure_snapshot(&self, pkg: &PkgId) -> SnapshotNode {
        let package = &self.graph.packages[pkg];
        let mut node = SnapshotNode {
            pkg: pkg.clone(),
            ..SnapshotNode::default()
        };
        for edge in &package.children {
            let target = edge.target.clone();
            if edge.optional {
                node.optional_dependencies
                    .insert(edge.alias.clone(), target);
            } else {
                node.dependencies.insert(edge.alias.clone(), target);
            }
        }
        node
    }
}

/// A scope level's entries: by alias, and by real name where no unaliased
/// entry has that name (docs/resolution.md §4).
fn scope_entries<'e>(
    edges: impl Iterator<Item = (&'e String, &'e PkgId)>,
) -> HashMap<String, PkgId> {
    let mut entries: HashMap<String, PkgId> = HashMap::new();
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
    if version.satisfies(&range) {
        return true;
    }
    version.is_prerelease()
        && Version::parse(format!(
            "{}.{}.{}",
            version.major(),
            version.minor(),
            version.patch()
        ))
        .is_ok_and(|release| release.satisfies(&range))
}

fn leaf(pkg: &PkgId) -> Resolved {
    Resolved {
        key: pkg.clone(),
        external: BTreeMap::new(),
        missing: BTreeSet::new(),
    }
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

/// Packages with a peer dependency of their own or anywhere below them.
fn impure_packages(graph: &Graph) -> HashSet<&str> {
    let mut parents: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut stack: Vec<&str> = Vec::new();
    for (id, package) in &graph.packages {
        for edge in &package.children {
            parents
                .entry(edge.target.as_str())
                .or_default()
                .push(id.as_str());
        }
        if !package.peers.is_empty() {
            stack.push(id.as_str());
        }
    }
    let mut impure: HashSet<&str> = stack.iter().copied().collect();
    while let Some(id) = stack.pop() {
        for parent in parents.get(id).into_iter().flatten() {
            if impure.insert(parent) {
                stack.push(parent);
            }
        }
    }
    impure
}
