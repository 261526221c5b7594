//! The symlinks of the isolated layout, with the directories they live in:
//! slot siblings, importers' direct dependencies, hoisted aliases.

use foldhash::HashMap;

use super::{
    dirs::{DirSet, parent},
    graph::{Edge, Graph},
    hoist::Candidate,
    select::DirectEdge,
};
use crate::{
    DirectDep, DirectTarget, HoistKind, HoistTarget, Hoisted, ImporterPlan, ImporterSelection,
    LinkOwner, PlanOptions, Slot, Symlink,
    layout::{join, join_all, normalize, relative},
};

/// Symlinks being planned and the directories they need.
#[derive(Default)]
pub(super) struct Links {
    pub dirs: DirSet,
    pub symlinks: Vec<Symlink>,
    /// See [`crate::Plan::bin_only_deps`].
    pub bin_only_deps: Vec<(usize, usize, String)>,
    /// See [`crate::Plan::unlinked_siblings`].
    pub unlinked_siblings: Vec<String>,
}

impl Links {
    /// `path` → `target_dir` (both root-relative), stored relative to the
    /// link's directory, which is created first.
    fn link(&mut self, path: String, target_dir: &str, owner: LinkOwner, slot: Option<usize>) {
        let target = relative(parent(&path), target_dir);
        self.push(path, target, owner, slot);
    }

    /// A link whose `target` is already relative to its directory.
    fn push(&mut self, path: String, target: String, owner: LinkOwner, slot: Option<usize>) {
        self.dirs.add(parent(&path));
        self.symlinks.push(Symlink {
            path,
            target,
            owner,
            target_slot: slot,
        });
    }

    /// Each slot's dependencies, as siblings in its `node_modules`.
    /// `slot_of[node]` is the slot of a graph node.
    pub fn siblings(
        &mut self,
        graph: &Graph,
        slots: &[Slot],
        slot_nodes: &[usize],
        slot_of: &[usize],
        opts: &PlanOptions,
    ) {
        let include_optional = opts.included.optional_dependencies;
        // Sized once, as the slots are: each slot has a directory and a
        // link per dependency.
        let links: usize = slot_nodes
            .iter()
            .map(|&node| graph.walk_children(node, include_optional).len())
            .sum();
        self.symlinks.reserve(links);
        self.dirs.reserve(2 * slots.len());
        for (s, (slot, &node)) in slots.iter().zip(slot_nodes).enumerate() {
            let slot_modules = join_all(&[opts.slots_dir(), &slot.dir_name, "node_modules"]);
            self.dirs.add(parent(&slot.package_dir));
            for (alias, edge) in graph.walk_children(node, include_optional) {
                if *alias == slot.name() {
                    continue;
                }
                let path = join(&slot_modules, alias);
                match edge {
                    Edge::Node(child) if graph.skipped[*child] => {}
                    Edge::Node(child) => {
                        let c = slot_of[*child];
                        let target = &slots[c].package_dir;
                        self.link(path, target, LinkOwner::Slot(s), Some(c));
                    }
                    // Snapshot `link:` refs are relative to the lockfile dir.
                    Edge::Link(dir) => match &opts.global_virtual_store {
                        // From a slot in the store back into the workspace
                        // the way passes the workspace's own directories,
                        // which only its absolute path names.
                        Some(gvs) if path.starts_with("../") => {
                            let abs = |p: &str| normalize(&join(&gvs.lockfile_dir, p));
                            let target = relative(&abs(parent(&path)), &abs(dir));
                            self.push(path, target, LinkOwner::Slot(s), None);
                        }
                        _ => self.link(path, &normalize(dir), LinkOwner::Slot(s), None),
                    },
                }
            }
            if !include_optional {
                let optional =
                    &graph.walk_children(node, true)[graph.walk_children(node, false).len()..];
                for (alias, edge) in optional {
                    if *alias == slot.name() {
                        continue;
                    }
                    let path = join(&slot_modules, alias);
                    if let Edge::Node(child) = edge
                        && slot_of[*child] != usize::MAX
                    {
                        self.bin_only_deps.push((s, slot_of[*child], path.clone()));
                    }
                    self.unlinked_siblings.push(path);
                }
            }
        }
        for &(node, alias) in &graph.dropped_peers {
            let s = slot_of[node];
            if s != usize::MAX && alias != slots[s].name() {
                let slot_modules =
                    join_all(&[opts.slots_dir(), &slots[s].dir_name, "node_modules"]);
                self.unlinked_siblings.push(join(&slot_modules, alias));
            }
        }
    }

    /// Each importer's direct dependencies in its `node_modules`.
    ///
    /// With `dedupe` (`dedupeDirectDeps`, the root and another project
    /// installed), another project gets no link, and so no command, for an
    /// alias the root's `node_modules` already resolves to the same
    /// directory: a direct dependency of the root, or an alias hoisted
    /// there (docs/layout.md §3).
    #[allow(clippy::too_many_arguments)]
    pub fn importers(
        &mut self,
        graph: &Graph,
        selections: &[ImporterSelection],
        importer_edges: &[Vec<DirectEdge<'_>>],
        slots: &[Slot],
        slot_of: &[usize],
        modules_dir: &str,
        dedupe: Option<HashMap<&str, &str>>,
    ) -> Vec<ImporterPlan> {
        let dedupe =
            dedupe.filter(|_| selections.len() > 1 && selections.iter().any(|s| s.id == "."));
        let mut root_targets: HashMap<String, String> = HashMap::default();
        let mut importers = Vec::with_capacity(selections.len());
        for (imp, (sel, edges)) in selections.iter().zip(importer_edges).enumerate() {
            let modules = join(&sel.dir, modules_dir);
            // Another project gets a `node_modules` only for something to
            // put there, as with pnpm 12 (a project without dependencies
            // has none).
            if sel.id == "." {
                self.dirs.add(&modules);
            }
            let mut direct = Vec::with_capacity(edges.len());
            for (group, alias, edge) in edges {
                let target = match edge {
                    Edge::Node(i) if graph.skipped[*i] => continue,
                    Edge::Node(i) => DirectTarget::Slot(slot_of[*i]),
                    Edge::Link(path) => DirectTarget::Link(normalize(&join(&sel.dir, path))),
                };
                let (target_dir, target_slot) = match &target {
                    DirectTarget::Slot(s) => (slots[*s].package_dir.as_str(), Some(*s)),
                    DirectTarget::Link(dir) => (dir.as_str(), None),
                };
                if let Some(hoisted) = &dedupe {
                    if sel.id == "." {
                        root_targets.insert((*alias).to_owned(), target_dir.to_owned());
                    } else {
                        let at_root = root_targets
                            .get(*alias)
                            .map(String::as_str)
                            .or_else(|| hoisted.get(alias).copied());
                        if at_root == Some(target_dir) {
                            continue;
                        }
                    }
                }
                let path = join(&modules, alias);
                self.link(path, target_dir, LinkOwner::Importer(imp), target_slot);
                direct.push(DirectDep {
                    alias: (*alias).to_owned(),
                    group: *group,
                    target,
                });
            }
            importers.push(ImporterPlan {
                id: sel.id.clone(),
                dir: sel.dir.clone(),
                direct,
            });
        }
        importers
    }

    /// The hoisting decisions as links: public ones in the root
    /// `node_modules`, private ones in `<virtualStoreDir>/node_modules`.
    pub fn hoisted(
        &mut self,
        records: Vec<(Candidate<'_>, &str, HoistKind)>,
        dirs: HoistDirs<'_>,
        slots: &[Slot],
        slot_of: &[usize],
        selections: &[ImporterSelection],
    ) -> Vec<Hoisted> {
        let mut hoisted = Vec::with_capacity(records.len());
        for (candidate, alias, kind) in records {
            let (base, owner) = match kind {
                HoistKind::Public => (dirs.public, LinkOwner::PublicHoist),
                HoistKind::Private => (dirs.private, LinkOwner::PrivateHoist),
            };
            let (target, target_dir, target_slot) = match candidate {
                Candidate::Node(i) => {
                    let s = slot_of[i];
                    (HoistTarget::Slot(s), &slots[s].package_dir, Some(s))
                }
                Candidate::Importer(id) => {
                    let sel = selections
                        .iter()
                        .find(|s| s.id == id)
                        .expect("selected importer");
                    (HoistTarget::Importer(id.to_owned()), &sel.dir, None)
                }
            };
            self.link(join(base, alias), target_dir, owner, target_slot);
            hoisted.push(Hoisted {
                target,
                alias: alias.to_owned(),
                kind,
            });
        }
        hoisted
    }
}

/// Where hoisted links go.
#[derive(Clone, Copy)]
pub(super) struct HoistDirs<'a> {
    /// The root project's `node_modules`.
    pub public: &'a str,
    /// `<virtualStoreDir>/node_modules`.
    pub private: &'a str,
}
