//! The node_modules hoister pnpm 12 runs for `nodeLinker: hoisted`
//! (docs/hoisted.md §2): `@yarnpkg/nm`'s `hoist`, one decision per child
//! in the tree's order. Every package moves as close to the root as it can without
//! taking a name another version needs, shadowing a version an ancestor
//! provides, or separating it from the peer its parent gave it.
//!
//! Nodes live in an arena. A node reached through several parents is
//! shared until the walk descends into it, which first gives that parent
//! its own copy ("decoupling"), so decisions are made per path.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

// The planners hash with foldhash: SipHash (std's default) was 12 % of
// planning alotta in the hoisted layout (`cargo bench -p pacquet-planner`).
use foldhash::{HashMap, HashSet};

use indexmap::IndexMap;

/// Index of a node in [`Tree::nodes`].
pub(crate) type Id = usize;

/// The root of every tree.
pub(crate) const ROOT: Id = 0;

/// Per hoisting root locator (`.@`, `<encoded id>@workspace:<id>`): names
/// whose children may not be hoisted past it (`hoistingLimits`).
pub(crate) type HoistingLimits = BTreeMap<String, BTreeSet<String>>;

#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// Directory name in `node_modules` (the alias).
    pub name: String,
    /// Package name.
    pub ident_name: String,
    /// Snapshot key (the first peer variant seen for the package),
    /// `workspace:<id>` for a project, `""` for the root.
    pub reference: String,
    /// Names the node expects from its parent (empty under
    /// `autoInstallPeers`).
    pub peer_names: BTreeSet<String>,
    /// Children in order; the order breaks ties and is the walk order.
    pub deps: Vec<Id>,
    /// The lockfile graph node whose files this node holds (`None` for the
    /// root and projects).
    pub source: Option<usize>,
    /// Names hoisted (or deduplicated) away from this node, resolved above.
    hoisted: IndexMap<String, Id>,
    decoupled: bool,
}

impl Node {
    pub(crate) fn new(name: &str, ident_name: &str, reference: &str) -> Node {
        Node {
            name: name.to_owned(),
            ident_name: ident_name.to_owned(),
            reference: reference.to_owned(),
            peer_names: BTreeSet::new(),
            deps: Vec::new(),
            source: None,
            hoisted: IndexMap::new(),
            decoupled: false,
        }
    }

    fn locator(&self) -> String {
        format!("{}@{}", self.ident_name, self.reference)
    }

    /// The reference without its peer suffix.
    fn version_key(&self) -> &str {
        self.reference
            .find('(')
            .map_or(self.reference.as_str(), |i| &self.reference[..i])
    }
}

/// The package graph being hoisted; [`ROOT`] is the workspace root.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    pub nodes: Vec<Node>,
}

impl Tree {
    pub(crate) fn add(&mut self, node: Node) -> Id {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn same_locator(&self, a: Id, b: Id) -> bool {
        let (a, b) = (&self.nodes[a], &self.nodes[b]);
        a.ident_name == b.ident_name && a.reference == b.reference
    }

    /// Same package version; peer variants count as one.
    fn same_ident(&self, a: Id, b: Id) -> bool {
        let (a, b) = (&self.nodes[a], &self.nodes[b]);
        a.ident_name == b.ident_name && a.version_key() == b.version_key()
    }

    fn is_peer_of(&self, parent: Id, child: Id) -> bool {
        self.nodes[parent]
            .peer_names
            .contains(&self.nodes[child].name)
    }

    /// `child` as a copy only `parent` holds, at the same place among
    /// `parent`'s children.
    fn decouple(&mut self, parent: Id, child: Id) -> Id {
        if self.nodes[child].decoupled {
            return child;
        }
        let mut copy = self.nodes[child].clone();
        copy.decoupled = true;
        let copy = self.add(copy);
        if let Some(slot) = self.nodes[parent].deps.iter_mut().find(|d| **d == child) {
            *slot = copy;
        }
        copy
    }

    fn remove_dep(&mut self, parent: Id, child: Id) {
        self.nodes[parent].deps.retain(|d| *d != child);
    }
}

/// Hoists `tree` in place.
pub(crate) fn hoist(tree: &mut Tree, limits: &HoistingLimits) {
    tree.nodes[ROOT].decoupled = true;
    let mut path = HashSet::from_iter([tree.nodes[ROOT].locator()]);
    hoist_to(tree, ROOT, limits, &mut path, true);
}

/// Hoists into `root`, then makes each child that stayed the root of its
/// own subtree, skipping locators already on the path (cycles).
fn hoist_to(
    tree: &mut Tree,
    root: Id,
    limits: &HoistingLimits,
    path: &mut HashSet<String>,
    is_top: bool,
) {
    let used = if is_top {
        IndexMap::new()
    } else {
        used_dependencies(tree, root)
    };
    hoist_into_root(tree, root, limits, &used);
    let children = tree.nodes[root].deps.clone();
    for child in children {
        if tree.is_peer_of(root, child) {
            continue;
        }
        let locator = tree.nodes[child].locator();
        if !path.insert(locator.clone()) {
            continue;
        }
        let child = tree.decouple(root, child);
        hoist_to(tree, child, limits, path, false);
        path.remove(&locator);
    }
}

/// The names `root`'s subtree resolves from above `root` (providers hoisted
/// away earlier): a candidate must not take such a name with another
/// version.
fn used_dependencies(tree: &Tree, root: Id) -> IndexMap<String, Id> {
    let mut used = IndexMap::new();
    let mut seen = HashSet::default();
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        if !seen.insert(node) {
            continue;
        }
        let n = &tree.nodes[node];
        for (name, dep) in &n.hoisted {
            used.insert(name.clone(), *dep);
        }
        for &dep in &n.deps {
            if !n.peer_names.contains(&tree.nodes[dep].name) {
                pending.push(dep);
            }
        }
    }
    used
}

/// What one hoisting root's passes share.
struct Pass<'a> {
    root: Id,
    border: &'a BTreeSet<String>,
    preferred: &'a HashMap<String, VecDeque<String>>,
    used: &'a IndexMap<String, Id>,
}

/// Passes over `root`'s subtree until nothing moves and no name's
/// preferred version changes.
fn hoist_into_root(
    tree: &mut Tree,
    root: Id,
    limits: &HoistingLimits,
    used: &IndexMap<String, Id>,
) {
    let mut slots = RootSlots {
        by_name: tree.nodes[root]
            .deps
            .iter()
            .map(|&d| (tree.nodes[d].name.clone(), d))
            .collect(),
        moved: Vec::new(),
    };
    let mut preferred = preferred_versions(tree, root);
    let empty = BTreeSet::new();
    let locator = tree.nodes[root].locator();
    let border = limits.get(&locator).unwrap_or(&empty);
    loop {
        let pass = Pass {
            root,
            border,
            preferred: &preferred,
            used,
        };
        // Waves, as in `@yarnpkg/nm`: the root's children's subtrees first;
        // a package moved to the root is walked in the next wave, so the
        // root's children keep the order packages reached it.
        let mut changed = hoist_subtree(tree, root, &[], &pass, &mut slots, false);
        while !slots.moved.is_empty() {
            for moved in std::mem::take(&mut slots.moved) {
                // Still the root's child of that name (an O(1) check).
                if slots.by_name.get(&tree.nodes[moved].name) == Some(&moved) {
                    changed |= hoist_child(tree, moved, root, &[root], &pass, &mut slots, false);
                }
            }
        }
        // A name whose preferred version did not reach the root lets the
        // next one try.
        let mut shifted = false;
        for (name, versions) in preferred.iter_mut() {
            if versions.len() > 1 && !slots.by_name.contains_key(name) {
                versions.pop_front();
                shifted = true;
            }
        }
        if !changed && !shifted {
            break;
        }
    }
}

/// Per name, the references that may take the root's slot, most used
/// first; the root's own children come first and alone.
fn preferred_versions(tree: &Tree, root: Id) -> HashMap<String, VecDeque<String>> {
    #[derive(Default)]
    struct Usage {
        dependents: HashSet<String>,
        peer_dependents: HashSet<String>,
    }
    /// A step of the depth-first walk: a node reached from a dependent,
    /// or a peer a node expects.
    enum Step {
        Dependent(String, Id),
        Peer(String, Id),
    }
    let mut usage: IndexMap<(String, String), Usage> = IndexMap::new();
    let mut seen = HashSet::from_iter([root]);
    let root_node = &tree.nodes[root];
    let mut stack: Vec<Step> = root_node
        .deps
        .iter()
        .rev()
        .filter(|&&d| !tree.is_peer_of(root, d))
        .map(|&d| Step::Dependent(root_node.reference.clone(), d))
        .collect();
    while let Some(step) = stack.pop() {
        let (dependent, node, peer) = match step {
            Step::Dependent(dependent, node) => (dependent, node, false),
            Step::Peer(dependent, node) => (dependent, node, true),
        };
        let n = &tree.nodes[node];
        let entry = usage
            .entry((n.name.clone(), n.reference.clone()))
            .or_default();
        if peer {
            entry.peer_dependents.insert(dependent);
            continue;
        }
        entry.dependents.insert(dependent);
        if !seen.insert(node) {
            continue;
        }
        for &child in n.deps.iter().rev() {
            let from = n.reference.clone();
            stack.push(if n.peer_names.contains(&tree.nodes[child].name) {
                Step::Peer(from, child)
            } else {
                Step::Dependent(from, child)
            });
        }
    }
    let mut preferred: HashMap<String, VecDeque<String>> = HashMap::default();
    preferred.insert(
        root_node.name.clone(),
        VecDeque::from([root_node.reference.clone()]),
    );
    for &d in &root_node.deps {
        if !tree.is_peer_of(root, d) {
            let n = &tree.nodes[d];
            preferred.insert(n.name.clone(), VecDeque::from([n.reference.clone()]));
        }
    }
    let mut keys: Vec<(&(String, String), usize)> = usage
        .iter()
        .map(|(k, u)| (k, u.dependents.len() + u.peer_dependents.len()))
        .collect();
    // Stable: equal counts keep discovery order.
    keys.sort_by_key(|k| std::cmp::Reverse(k.1));
    for ((name, reference), _) in keys {
        if root_node.peer_names.contains(name) {
            continue;
        }
        let versions = preferred.entry(name.clone()).or_default();
        if !versions.contains(reference) {
            versions.push_back(reference.clone());
        }
    }
    preferred
}

/// The root's children during its passes.
struct RootSlots {
    /// By name: what a name resolves to at the root.
    by_name: HashMap<String, Id>,
    /// Moved to the root in this wave, to walk in the next.
    moved: Vec<Id>,
}

/// One depth-first pass below `node`; whether anything moved. As in
/// `@yarnpkg/nm`, every child of a node below the root is decided against
/// the tree as it is, the ones that go are moved (in child order), and only
/// then is each child that stayed walked: a node's children reach the root
/// before its grandchildren (docs/hoisted.md §2).
fn hoist_subtree(
    tree: &mut Tree,
    node: Id,
    ancestors: &[Id],
    pass: &Pass<'_>,
    slots: &mut RootSlots,
    under_border: bool,
) -> bool {
    let blocked = under_border || pass.border.contains(&tree.nodes[node].name);
    let mut path = ancestors.to_vec();
    path.push(node);
    let mut changed = false;
    if node == pass.root {
        for child in tree.nodes[node].deps.clone() {
            changed |= hoist_child(tree, child, node, &path, pass, slots, blocked);
        }
        return changed;
    }
    let mut decided: Vec<(Id, Decision)> = Vec::new();
    for child in tree.nodes[node].deps.clone() {
        // The same alias and package above: requiring it here resolves there.
        let cycle = path
            .iter()
            .any(|&a| tree.nodes[a].name == tree.nodes[child].name && tree.same_locator(a, child));
        if cycle {
            tree.remove_dep(node, child);
            changed = true;
            continue;
        }
        decided.push((
            child,
            decide(tree, child, &path, pass, &slots.by_name, blocked),
        ));
    }
    settle_dependent_moves(&mut decided);
    for (child, decision) in &decided {
        let child = *child;
        match decision {
            Decision::Move => {
                let name = tree.nodes[child].name.clone();
                tree.remove_dep(node, child);
                tree.nodes[node].hoisted.insert(name.clone(), child);
                tree.nodes[pass.root].deps.push(child);
                slots.by_name.insert(name, child);
                slots.moved.push(child);
                changed = true;
            }
            Decision::Dedupe => {
                let name = tree.nodes[child].name.clone();
                tree.remove_dep(node, child);
                tree.nodes[node].hoisted.insert(name, child);
                changed = true;
            }
            Decision::Wait | Decision::Stay | Decision::MoveWith(_) => {}
        }
    }
    for (child, decision) in decided {
        if matches!(decision, Decision::Wait | Decision::Stay) {
            let child = tree.decouple(node, child);
            changed |= hoist_subtree(tree, child, &path, pass, slots, blocked);
        }
    }
    changed
}

/// A child that may move only with the siblings providing its peers moves
/// if they all do, and stays otherwise (`@yarnpkg/nm`'s `DEPENDS`).
fn settle_dependent_moves(decided: &mut [(Id, Decision)]) {
    loop {
        let staying: HashSet<Id> = decided
            .iter()
            .filter(|(_, d)| matches!(d, Decision::Wait | Decision::Stay))
            .map(|&(id, _)| id)
            .collect();
        let mut settled = false;
        for (_, decision) in decided.iter_mut() {
            if let Decision::MoveWith(providers) = decision
                && providers.iter().any(|p| staying.contains(p))
            {
                *decision = Decision::Stay;
                settled = true;
            }
        }
        if !settled {
            break;
        }
    }
    for (_, decision) in decided.iter_mut() {
        if matches!(decision, Decision::MoveWith(_)) {
            *decision = Decision::Move;
        }
    }
}

/// Where a child of a node below the root goes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Decision {
    /// The root's slot is free and this version is the preferred one.
    Move,
    /// Moves if these siblings, which provide its peers, move too.
    MoveWith(Vec<Id>),
    /// The root's slot is free but another version is preferred.
    Wait,
    /// The root holds this very package: drop the copy here.
    Dedupe,
    /// Stays where it is (conflict, shadowing, peer, hoisting limit).
    Stay,
}

/// Walks below `child`, one of the root's own children.
fn hoist_child(
    tree: &mut Tree,
    child: Id,
    node: Id,
    path: &[Id],
    pass: &Pass<'_>,
    slots: &mut RootSlots,
    blocked: bool,
) -> bool {
    let cycle = path
        .iter()
        .any(|&a| tree.nodes[a].name == tree.nodes[child].name && tree.same_locator(a, child));
    if cycle {
        tree.remove_dep(node, child);
        return true;
    }
    let child = tree.decouple(node, child);
    slots.by_name.insert(tree.nodes[child].name.clone(), child);
    hoist_subtree(tree, child, path, pass, slots, blocked)
}

fn decide(
    tree: &Tree,
    child: Id,
    path: &[Id],
    pass: &Pass<'_>,
    index: &HashMap<String, Id>,
    blocked: bool,
) -> Decision {
    if blocked {
        return Decision::Stay;
    }
    let name = &tree.nodes[child].name;
    let decision = match index.get(name) {
        None if is_preferred(tree, child, pass.preferred) => Decision::Move,
        None => Decision::Wait,
        Some(&at_root) if tree.same_locator(at_root, child) => Decision::Dedupe,
        Some(_) => Decision::Stay,
    };
    if decision == Decision::Wait || decision == Decision::Stay {
        return decision;
    }
    // A version the subtree already resolves from above, or one an
    // ancestor below the root shadows, keeps this copy here.
    let used_elsewhere = pass
        .used
        .get(name)
        .is_some_and(|&p| !tree.same_ident(p, child));
    let shadowed = path[1..].iter().any(|&a| {
        tree.nodes[a]
            .deps
            .iter()
            .any(|&d| tree.nodes[d].name == *name && !tree.same_ident(d, child))
    });
    if used_elsewhere || shadowed {
        return Decision::Stay;
    }
    if decision == Decision::Move {
        return match peer_check(tree, child, path, pass.root, index) {
            PeerCheck::Kept => Decision::Move,
            PeerCheck::WithSiblings(providers) => Decision::MoveWith(providers),
            PeerCheck::Shadowed => Decision::Stay,
        };
    }
    decision
}

fn is_preferred(tree: &Tree, child: Id, preferred: &HashMap<String, VecDeque<String>>) -> bool {
    let n = &tree.nodes[child];
    match preferred.get(&n.name).and_then(|v| v.front()) {
        Some(first) => *first == n.reference,
        None => true,
    }
}

/// What moving `candidate` to the root does to its peers.
enum PeerCheck {
    /// Each resolves to the package the nearest ancestor provides.
    Kept,
    /// They would, if these siblings (providers of some) moved too.
    WithSiblings(Vec<Id>),
    /// Some would resolve to another package.
    Shadowed,
}

fn peer_check(
    tree: &Tree,
    candidate: Id,
    path: &[Id],
    root: Id,
    index: &HashMap<String, Id>,
) -> PeerCheck {
    let c = &tree.nodes[candidate];
    if tree.nodes[root].peer_names.contains(&c.name) {
        return PeerCheck::Shadowed;
    }
    let parent = *path.last().expect("a path ends at the parent");
    let mut siblings = Vec::new();
    for peer in &c.peer_names {
        let provider = path.iter().rev().find_map(|&a| {
            tree.nodes[a]
                .deps
                .iter()
                .copied()
                .find(|&d| tree.nodes[d].name == *peer)
                .map(|d| (a, d))
        });
        let Some((holder, provider)) = provider else {
            continue;
        };
        if index
            .get(peer)
            .is_some_and(|&at_root| tree.same_locator(at_root, provider))
        {
            continue;
        }
        if holder != parent {
            return PeerCheck::Shadowed;
        }
        siblings.push(provider);
    }
    if siblings.is_empty() {
        PeerCheck::Kept
    } else {
        PeerCheck::WithSiblings(siblings)
    }
}
