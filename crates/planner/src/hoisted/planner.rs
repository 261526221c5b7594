//! [`plan`] for the hoisted layout: lockfile → hoister tree → hoisted tree
//! → package directories (one [`Slot`] per place a package lands), the
//! projects' `link:` dependencies and hoisted workspace projects.

use std::collections::BTreeMap;

use foldhash::HashMap;

use pacquet_config::name_pattern::Matcher;
use pacquet_lockfile::Lockfile;

use super::{
    hoister::{Id, ROOT, Tree, hoist},
    limits::borders,
    tree::{TreeInput, build, strip_external},
};
use crate::isolated::{
    dirs::{DirSet, parent},
    graph::{Edge, Graph},
    select::{DirectEdge, Selected, hoistable_projects, package_info, skipped_keys},
};
use crate::{
    BinDir, DirectDep, DirectTarget, HoistKind, HoistTarget, Hoisted, ImporterPlan,
    ImporterSelection, Layout, LinkOwner, Plan, PlanError, PlanOptions, Slot, Symlink,
    builds::{build_permission, prepare_permission, slot_patch},
    fetch::fetch_source,
    layout::{join, normalize, relative},
};

/// Decides the hoisted install, without touching the filesystem.
pub fn plan(lockfile: &Lockfile, opts: &PlanOptions) -> Result<Plan, PlanError> {
    let Selected {
        graph,
        warnings,
        selections,
        importer_edges: edges,
        entry_nodes,
        reached,
        unlinked_peers,
        ..
    } = Selected::new(lockfile, opts)?;
    let include_optional = opts.included.optional_dependencies;
    let mut tree = build(&TreeInput {
        lockfile,
        graph: &graph,
        reached: &reached,
        selections: &selections,
        importer_edges: &edges,
        include_optional,
        auto_install_peers: opts.auto_install_peers,
        external: &opts.external_dependencies,
    })?;
    let limits = borders(opts.hoisting_limits, &selections, &edges);
    hoist(&mut tree, &limits);
    strip_external(&mut tree, &opts.external_dependencies);

    let mut placer = Placer {
        lockfile,
        graph: &graph,
        tree: &tree,
        opts,
        selections: &selections,
        slots: Vec::new(),
        dirs: DirSet::default(),
        locations: BTreeMap::new(),
        bin_dirs: Vec::new(),
        slot_nodes: Vec::new(),
    };
    for sel in &selections {
        placer.dirs.assume_exists(&sel.dir);
    }
    let root_modules = join(root_dir(&selections), &opts.modules_dir);
    placer.place(&tree.nodes[ROOT].deps, &root_modules)?;
    let Placer {
        slots,
        mut dirs,
        locations,
        bin_dirs,
        slot_nodes,
        ..
    } = placer;
    let slot_deps = slot_deps(&graph, &slot_nodes, include_optional);

    let mut links = ProjectLinks {
        dirs: &mut dirs,
        symlinks: Vec::new(),
    };
    let importers = links.importers(&graph, &selections, &edges, &slots, &opts.modules_dir);
    let hoisted = links.workspace_projects(&selections, &slots, &importers, &root_modules, opts);
    let symlinks = links.symlinks;
    let (skipped, skipped_below) = skipped_keys(&graph, &entry_nodes, &reached, include_optional);
    Ok(Plan {
        layout: Layout::Hoisted,
        slots,
        dirs: dirs.into_vec(),
        symlinks,
        hoisted,
        skipped,
        skipped_below,
        importers,
        warnings,
        hoisted_locations: locations,
        bin_dirs,
        slot_deps,
        bin_only_deps: Vec::new(),
        unlinked_peers,
        unlinked_siblings: Vec::new(),
    })
}

/// Each slot's dependencies at their first location (in walk order), as
/// pnpm 12 links a hoisted package's children for ordering its builds.
fn slot_deps(graph: &Graph, slot_nodes: &[usize], include_optional: bool) -> Vec<(usize, usize)> {
    let mut first: HashMap<usize, usize> =
        HashMap::with_capacity_and_hasher(slot_nodes.len(), Default::default());
    for (s, &n) in slot_nodes.iter().enumerate() {
        first.entry(n).or_insert(s);
    }
    let mut edges = Vec::new();
    for (s, &n) in slot_nodes.iter().enumerate() {
        let children = &graph.children[n];
        let count = if include_optional {
            children.len()
        } else {
            graph.prod_children[n]
        };
        for (_, edge) in &children[..count] {
            if let Edge::Node(c) = edge
                && let Some(&t) = first.get(c)
                && t != s
            {
                edges.push((s, t));
            }
        }
    }
    edges
}

fn root_dir(selections: &[ImporterSelection]) -> &str {
    selections
        .iter()
        .find(|s| s.id == ".")
        .map_or("", |s| s.dir.as_str())
}

/// Turns the hoisted tree into package directories.
struct Placer<'a, 'l> {
    lockfile: &'l Lockfile,
    graph: &'a Graph<'l>,
    tree: &'a Tree,
    opts: &'a PlanOptions<'a>,
    selections: &'a [ImporterSelection],
    slots: Vec<Slot>,
    dirs: DirSet,
    locations: BTreeMap<String, Vec<String>>,
    bin_dirs: Vec<BinDir>,
    /// The graph node of each slot.
    slot_nodes: Vec<usize>,
}

impl Placer<'_, '_> {
    /// Places `deps` in `modules`, depth first in the tree's order.
    fn place(&mut self, deps: &[Id], modules: &str) -> Result<(), PlanError> {
        let mut here = Vec::new();
        for &d in deps {
            let node = &self.tree.nodes[d];
            if let Some(id) = node.reference.strip_prefix("workspace:") {
                let dir = self
                    .selections
                    .iter()
                    .find(|s| s.id == id)
                    .map_or(id, |s| s.dir.as_str());
                let project_modules = join(dir, &self.opts.modules_dir);
                self.place(&node.deps, &project_modules)?;
                continue;
            }
            let Some(graph_node) = node.source else {
                continue;
            };
            let location = join(modules, &node.name);
            let s = self.slot(graph_node, &location)?;
            here.push(s);
            self.dirs.add(parent(&location));
            self.place(&node.deps, &join(&location, "node_modules"))?;
            self.locations
                .entry(node.reference.clone())
                .or_default()
                .push(location);
        }
        if !here.is_empty() {
            self.bin_dirs.push(BinDir {
                modules_dir: modules.to_owned(),
                slots: here,
            });
        }
        Ok(())
    }

    fn slot(&mut self, node: usize, location: &str) -> Result<usize, PlanError> {
        let dep_path = self.graph.keys[node];
        let info = package_info(self.lockfile, dep_path.package_id())?;
        let (fetch, store_key) = fetch_source(dep_path, info, self.opts)?;
        self.slots.push(Slot {
            dep_path: dep_path.clone(),
            dir_name: String::new(),
            package_dir: location.to_owned(),
            fetch,
            store_key,
            optional: self.graph.snapshots[node].optional == Some(true),
            has_bin: info.has_bin == Some(true),
            bundles: info.bundled_dependencies.is_some(),
            requires_build: info.requires_build == Some(true),
            build: build_permission(dep_path, self.opts),
            prepare: prepare_permission(dep_path, self.opts),
            patch: slot_patch(dep_path, self.opts)?,
        });
        self.slot_nodes.push(node);
        Ok(self.slots.len() - 1)
    }
}

/// The symlinks of the hoisted layout: projects' `link:` dependencies and
/// workspace projects linked into the root `node_modules`.
struct ProjectLinks<'d> {
    dirs: &'d mut DirSet,
    symlinks: Vec<Symlink>,
}

impl ProjectLinks<'_> {
    fn link(&mut self, path: String, target_dir: &str, owner: LinkOwner) {
        self.dirs.add(parent(&path));
        let target = relative(parent(&path), target_dir);
        self.symlinks.push(Symlink {
            path,
            target,
            owner,
            target_slot: None,
        });
    }

    /// Each project's direct dependencies: the package directory node
    /// resolution finds from the project (its own `node_modules`, else the
    /// root's), or a `link:` symlink.
    fn importers(
        &mut self,
        graph: &Graph,
        selections: &[ImporterSelection],
        importer_edges: &[Vec<DirectEdge<'_>>],
        slots: &[Slot],
        modules_dir: &str,
    ) -> Vec<ImporterPlan> {
        let by_dir: HashMap<&str, usize> = slots
            .iter()
            .enumerate()
            .map(|(i, s)| (s.package_dir.as_str(), i))
            .collect();
        let root_modules = join(root_dir(selections), modules_dir);
        let mut importers = Vec::with_capacity(selections.len());
        for (k, (sel, edges)) in selections.iter().zip(importer_edges).enumerate() {
            let modules = join(&sel.dir, modules_dir);
            let mut direct = Vec::with_capacity(edges.len());
            for (group, alias, edge) in edges {
                let target = match edge {
                    Edge::Node(i) if graph.skipped[*i] => continue,
                    Edge::Node(_) => {
                        let own = by_dir.get(join(&modules, alias).as_str());
                        let found = own.or_else(|| by_dir.get(join(&root_modules, alias).as_str()));
                        let Some(&s) = found else { continue };
                        DirectTarget::Slot(s)
                    }
                    Edge::Link(path) => {
                        let dir = normalize(&join(&sel.dir, path));
                        self.link(join(&modules, alias), &dir, LinkOwner::Importer(k));
                        DirectTarget::Link(dir)
                    }
                };
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

    /// `hoistWorkspacePackages`: every named project not already a name in
    /// the root `node_modules`, linked there (docs/hoisted.md §4).
    fn workspace_projects(
        &mut self,
        selections: &[ImporterSelection],
        slots: &[Slot],
        importers: &[ImporterPlan],
        root_modules: &str,
        opts: &PlanOptions,
    ) -> Vec<Hoisted> {
        if !opts.hoist_workspace_packages {
            return Vec::new();
        }
        let public = Matcher::new(&opts.public_hoist_pattern);
        let private = Matcher::new(&opts.hoist_pattern);
        let mut taken: foldhash::HashSet<String> = slots
            .iter()
            .filter_map(|s| s.package_dir.strip_prefix(root_modules)?.strip_prefix('/'))
            .map(str::to_lowercase)
            .collect();
        if let Some(root) = importers.iter().find(|i| i.id == ".") {
            taken.extend(root.direct.iter().map(|d| d.alias.to_lowercase()));
        }
        let mut hoisted = Vec::new();
        for sel in hoistable_projects(opts.hoisted_projects(selections), opts.projects_in_id_order)
        {
            let Some(name) = sel.name.as_deref() else {
                continue;
            };
            let kind = if public.matches(name) {
                HoistKind::Public
            } else if private.matches(name) {
                HoistKind::Private
            } else {
                continue;
            };
            if !taken.insert(name.to_lowercase()) {
                continue;
            }
            self.link(join(root_modules, name), &sel.dir, LinkOwner::PrivateHoist);
            hoisted.push(Hoisted {
                target: HoistTarget::Importer(sel.id.clone()),
                alias: name.to_owned(),
                kind,
            });
        }
        hoisted
    }
}
