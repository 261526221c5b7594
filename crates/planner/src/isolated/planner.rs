//! [`plan`]: lockfile + options → [`Plan`].

use foldhash::HashMap;

use indexmap::IndexMap;
use pacquet_config::name_pattern::Matcher;
use pacquet_lockfile::Lockfile;

use super::{
    graph::{Edge, Graph, WalkEntry},
    hoist::{Candidate, HoistInput, hoist},
    links::{HoistDirs, Links},
    select::{DirectEdge, ENTRY_ORDER, Selected, package_info, skipped_keys},
};
use crate::{
    HoistKind, ImporterSelection, Layout, Plan, PlanError, PlanOptions, Slot,
    builds::{build_permission, policy_permission, prepare_permission, slot_patch},
    fetch::fetch_source,
    layout::{dep_path_to_filename, join, join_all},
};

/// Decides everything an install does, without touching the filesystem.
pub fn plan(lockfile: &Lockfile, opts: &PlanOptions) -> Result<Plan, PlanError> {
    let Selected {
        graph,
        warnings,
        selections,
        importer_edges,
        entry_nodes,
        entries,
        reached,
        unlinked_peers,
    } = Selected::new(lockfile, opts)?;
    let include_optional = opts.included.optional_dependencies;
    let slots = SlotSet::new(lockfile, &graph, &reached, opts)?;

    let mut links = Links::default();
    for sel in &selections {
        links.dirs.assume_exists(&sel.dir);
    }
    let root_dir = selections
        .iter()
        .find(|s| s.id == ".")
        .map_or("", |s| s.dir.as_str());
    let root_modules = join(root_dir, &opts.modules_dir);
    let hidden_hoist_dir = join(&opts.virtual_store_dir, "node_modules");
    links.dirs.add(&root_modules);
    // The installer makes each global slot whole or not at all.
    if let Some(gvs) = &opts.global_virtual_store {
        links.dirs.assume_exists(&gvs.dir);
    }
    // pnpm 12 makes no virtual store for a lockfile without dependencies
    // (it writes no `lock.yaml` either).
    if !slots.slots.is_empty() || importer_edges.iter().any(|edges| !edges.is_empty()) {
        links.dirs.add(&opts.virtual_store_dir);
    }
    links.siblings(&graph, &slots.slots, &slots.nodes, &slots.slot_of, opts);
    // `--no-optional` leaves optional snapshots out even where a regular
    // edge leads to them: nothing of theirs is hoisted.
    let entries: Vec<_> = entries.into_iter().filter(|e| reached[e.node]).collect();
    let hoisting = Hoisting {
        graph: &graph,
        entries: &entries,
        reached: &reached,
        selections: &selections,
        importer_edges: &importer_edges,
        dir_names: &slots.dir_names,
    };
    let records = hoisting.decide(opts);
    let dedupe = opts.dedupe_direct_deps.then(|| {
        public_targets(
            &records,
            &slots.slots,
            &slots.slot_of,
            opts.hoisted_projects(&selections),
        )
    });
    let importers = links.importers(
        &graph,
        &selections,
        &importer_edges,
        &slots.slots,
        &slots.slot_of,
        &opts.modules_dir,
        dedupe,
    );
    if !records.is_empty() && !opts.hoist_pattern.is_empty() {
        // pnpm 12 makes it when anything is hoisted and private hoisting is
        // on, even if everything went public (`shamefullyHoist: true`).
        links.dirs.add(&hidden_hoist_dir);
    }
    let dirs = HoistDirs {
        public: &root_modules,
        private: &hidden_hoist_dir,
    };
    let hoisted = links.hoisted(
        records,
        dirs,
        &slots.slots,
        &slots.slot_of,
        opts.hoisted_projects(&selections),
    );
    let (skipped, skipped_below) = skipped_keys(&graph, &entry_nodes, &reached, include_optional);
    Ok(Plan {
        layout: Layout::Isolated,
        slots: slots.slots,
        dirs: links.dirs.into_vec(),
        symlinks: links.symlinks,
        hoisted,
        skipped,
        skipped_below,
        importers,
        warnings,
        hoisted_locations: Default::default(),
        bin_dirs: Vec::new(),
        slot_deps: Vec::new(),
        bin_only_deps: links.bin_only_deps,
        unlinked_peers,
        unlinked_siblings: links.unlinked_siblings,
    })
}

/// Alias → directory of what public hoisting puts in the root's
/// `node_modules`.
fn public_targets<'s>(
    records: &[(Candidate<'_>, &'s str, HoistKind)],
    slots: &'s [Slot],
    slot_of: &[usize],
    projects: &'s [ImporterSelection],
) -> HashMap<&'s str, &'s str> {
    let mut targets = HashMap::default();
    for (candidate, alias, kind) in records {
        if *kind != HoistKind::Public {
            continue;
        }
        let dir = match candidate {
            Candidate::Node(i) => slots[slot_of[*i]].package_dir.as_str(),
            Candidate::Importer(id) => match projects.iter().find(|p| p.id == *id) {
                Some(project) => project.dir.as_str(),
                None => continue,
            },
        };
        targets.insert(*alias, dir);
    }
    targets
}

/// The reached nodes as slots, in lockfile key order.
struct SlotSet {
    slots: Vec<Slot>,
    /// Slot → graph node.
    nodes: Vec<usize>,
    /// Graph node → slot (`usize::MAX` when not reached).
    slot_of: Vec<usize>,
    /// Graph node → `.pnpm` directory name (empty when not reached).
    dir_names: Vec<String>,
}

impl SlotSet {
    fn new(
        lockfile: &Lockfile,
        graph: &Graph,
        reached: &[bool],
        opts: &PlanOptions,
    ) -> Result<Self, PlanError> {
        let n = graph.keys.len();
        let global_names = opts.global_virtual_store.as_ref().map(|gvs| {
            let may_build = |k: &pacquet_lockfile::DepPath| {
                policy_permission(k, opts) == crate::BuildPermission::Allowed
            };
            crate::global_store::slot_names(lockfile, gvs, &may_build, !opts.ignore_scripts)
        });
        let global_names = global_names.transpose()?;
        // Sized once: growing the vector of (large) slots by doubling was
        // ~2.6 % of a lockfile-change install's CPU (alotta, `perf`: the
        // copies and the fresh pages they fault in).
        let count = reached.iter().filter(|&&r| r).count();
        let mut set = SlotSet {
            slots: Vec::with_capacity(count),
            nodes: Vec::with_capacity(count),
            slot_of: vec![usize::MAX; n],
            dir_names: vec![String::new(); n],
        };
        for node in (0..n).filter(|&i| reached[i]) {
            let dep_path = graph.keys[node];
            let info = package_info(lockfile, dep_path.package_id())?;
            // Hoisting orders by the `.pnpm` name, in the store too.
            let local_name =
                dep_path_to_filename(dep_path.as_str(), opts.virtual_store_dir_max_length);
            let dir_name = match &global_names {
                Some(names) => names
                    .get(dep_path.as_str())
                    .cloned()
                    .unwrap_or_else(|| local_name.clone()),
                None => local_name.clone(),
            };
            let package_dir =
                join_all(&[opts.slots_dir(), &dir_name, "node_modules", dep_path.name()]);
            let (fetch, store_key) = fetch_source(dep_path, info, opts)?;
            set.dir_names[node] = local_name;
            set.slot_of[node] = set.slots.len();
            set.nodes.push(node);
            set.slots.push(Slot {
                dep_path: dep_path.clone(),
                dir_name,
                package_dir,
                fetch,
                store_key,
                optional: graph.snapshots[node].optional == Some(true),
                has_bin: info.has_bin == Some(true),
                bundles: info.bundled_dependencies.is_some(),
                requires_build: info.requires_build == Some(true),
                build: build_permission(dep_path, opts),
                prepare: prepare_permission(dep_path, opts),
                patch: slot_patch(dep_path, opts)?,
            });
        }
        Ok(set)
    }
}

/// What the hoisting decision reads.
struct Hoisting<'a, 'l> {
    graph: &'a Graph<'l>,
    entries: &'a [WalkEntry],
    selections: &'a [ImporterSelection],
    importer_edges: &'a [Vec<DirectEdge<'l>>],
    dir_names: &'a [String],
    /// Nodes this install places.
    reached: &'a [bool],
}

impl<'a> Hoisting<'a, '_> {
    /// `hoistedDependencies` records, in pnpm's order.
    fn decide(&self, opts: &'a PlanOptions) -> Vec<(Candidate<'a>, &'a str, HoistKind)> {
        // One project per name: of projects sharing a name, the last one
        // takes the first one's place (pnpm 12 collects them into a map by
        // name; vitest has three projects of one name, benchmarks/compat-real).
        let workspace_projects = if opts.hoist_workspace_packages {
            let by_name: indexmap::IndexMap<&str, &str> = super::select::hoistable_projects(
                opts.hoisted_projects(self.selections),
                opts.projects_in_id_order,
            )
            .filter_map(|s| Some((s.name.as_deref()?, s.id.as_str())))
            .collect();
            by_name.into_iter().collect()
        } else {
            Vec::new()
        };
        let root_edges = || {
            self.selections
                .iter()
                .zip(self.importer_edges)
                .filter(|(s, _)| s.id == ".")
                .flat_map(|(_, edges)| edges.iter())
        };
        let root_package_aliases = root_edges()
            .filter(|(_, _, edge)| matches!(edge, super::graph::Edge::Node(_)))
            .map(|(_, alias, _)| *alias)
            .collect();
        let public = Matcher::new(&opts.public_hoist_pattern);
        let private = Matcher::new(&opts.hoist_pattern);
        hoist(HoistInput {
            graph: self.graph,
            entries: self.entries,
            root_children: self.root_children(),
            workspace_projects,
            root_package_aliases,
            dir_names: self.dir_names,
            reached: self.reached,
            public: &public,
            private: &private,
        })
    }

    /// Per importer `{...devDependencies, ...dependencies, ...optional}`,
    /// as pnpm builds the pseudo-entry (a workspace project's dev deps come
    /// before its prod deps in `hoistedDependencies`). An alias takes the
    /// place and the snapshot of its first appearance as a package (`hoist`
    /// then moves the names of workspace projects first).
    fn root_children(&self) -> Vec<(&'a str, usize)> {
        // `link:`s take no place: an alias first linked and later a package
        // sits where the package comes (vitest's `@vitest/cjs-lib`).
        let mut children: IndexMap<&str, usize> = IndexMap::new();
        for edges in self.importer_edges {
            for group in ENTRY_ORDER {
                for (g, alias, edge) in edges {
                    if let (true, Edge::Node(i)) = (*g == group, edge)
                        && self.reached[*i]
                    {
                        children.entry(alias).or_insert(*i);
                    }
                }
            }
        }
        children.into_iter().collect()
    }
}
