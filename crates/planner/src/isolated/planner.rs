//! [`plan`]: lockfile + options → [`Plan`].

use indexmap::IndexMap;
use pacquet_lockfile::{DepRef, DependencyGroup, Importer, Lockfile};

use super::{
    dirs::{DirSet, parent},
    graph::{Edge, Graph, reachable_through_skipped, walk},
    hoist::{Candidate, HoistInput, hoist},
    names::check_names,
    pattern::Matcher,
};
use crate::{
    DirectDep, DirectTarget, HoistKind, HoistTarget, Hoisted, ImporterPlan, ImporterSelection,
    LinkOwner, Plan, PlanError, PlanOptions, PlatformWarning, Slot, Symlink,
    builds::{build_permission, prepare_permission},
    fetch::fetch_source,
    layout::{dep_path_to_filename, join, normalize, relative},
    platform::{PlatformTargets, infer_platform},
};

/// Decides everything an install does, without touching the filesystem.
pub fn plan(lockfile: &Lockfile, opts: &PlanOptions) -> Result<Plan, PlanError> {
    check_names(lockfile)?;
    let mut graph = Graph::new(lockfile)?;
    let warnings = mark_skipped(lockfile, &mut graph, opts)?;
    let selections = select_importers(lockfile, opts)?;
    let include_optional = opts.included.optional_dependencies;

    // Direct deps per importer, and the walker's entry nodes
    // (devDependencies, dependencies, optionalDependencies per importer).
    let mut importer_edges = Vec::with_capacity(selections.len());
    let mut entry_nodes = Vec::new();
    for sel in &selections {
        let importer = &lockfile.importers[&sel.id];
        let edges = included_edges(importer, opts, &graph)?;
        for group in [
            DependencyGroup::Dev,
            DependencyGroup::Prod,
            DependencyGroup::Optional,
        ] {
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
    let entries = walk(&graph, &entry_nodes, include_optional);

    // Slots of the reached nodes, in key order.
    let n = graph.keys.len();
    let mut reached = vec![false; n];
    for e in &entries {
        reached[e.node] = true;
    }
    let mut dir_names = vec![String::new(); n];
    let mut slot_of = vec![usize::MAX; n];
    let mut slots = Vec::with_capacity(entries.len());
    let mut slot_nodes = Vec::with_capacity(entries.len());
    for node in (0..n).filter(|&i| reached[i]) {
        slot_nodes.push(node);
        let dep_path = graph.keys[node];
        let info = package_info(lockfile, dep_path.package_id())?;
        let dir_name = dep_path_to_filename(dep_path.as_str(), opts.virtual_store_dir_max_length);
        let package_dir = join(
            &join(&opts.virtual_store_dir, &dir_name),
            &join("node_modules", dep_path.name()),
        );
        let (fetch, store_key) = fetch_source(dep_path, info, opts)?;
        dir_names[node] = dir_name.clone();
        slot_of[node] = slots.len();
        slots.push(Slot {
            dep_path: dep_path.clone(),
            dir_name,
            package_dir,
            fetch,
            store_key,
            optional: graph.snapshots[node].optional == Some(true),
            has_bin: info.has_bin == Some(true),
            requires_build: info.requires_build == Some(true),
            build: build_permission(dep_path, opts),
            prepare: prepare_permission(dep_path, opts),
        });
    }

    let mut dirs = DirSet::default();
    for sel in &selections {
        dirs.assume_exists(&sel.dir);
    }
    let root_dir = selections
        .iter()
        .find(|s| s.id == ".")
        .map_or("", |s| s.dir.as_str());
    let root_modules = join(root_dir, &opts.modules_dir);
    let hidden_hoist_dir = join(&opts.virtual_store_dir, "node_modules");
    dirs.add(&root_modules);
    dirs.add(&opts.virtual_store_dir);

    // Slot siblings.
    let mut symlinks = Vec::new();
    let mut link = |dirs: &mut DirSet, path: String, target_dir: &str, owner, target_slot| {
        dirs.add(parent(&path));
        let target = relative(parent(&path), target_dir);
        symlinks.push(Symlink {
            path,
            target,
            owner,
            target_slot,
        });
    };
    for (s, (slot, &node)) in slots.iter().zip(&slot_nodes).enumerate() {
        let slot_modules = join(
            &join(&opts.virtual_store_dir, &slot.dir_name),
            "node_modules",
        );
        dirs.add(parent(&slot.package_dir));
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
                    link(&mut dirs, path, target, LinkOwner::Slot(s), Some(c));
                }
                // Snapshot `link:` refs are relative to the lockfile dir.
                Edge::Link(dir) => {
                    let target = normalize(dir);
                    link(&mut dirs, path, &target, LinkOwner::Slot(s), None);
                }
            }
        }
    }

    // Importer direct deps.
    let mut importers = Vec::with_capacity(selections.len());
    for (imp, (sel, edges)) in selections.iter().zip(&importer_edges).enumerate() {
        let modules = join(&sel.dir, &opts.modules_dir);
        dirs.add(&modules);
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
            let owner = LinkOwner::Importer(imp);
            link(
                &mut dirs,
                join(&modules, alias),
                target_dir,
                owner,
                target_slot,
            );
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

    // Hoisting.
    // Per importer `{...devDependencies, ...dependencies, ...optional}`,
    // as pnpm builds the pseudo-entry (a workspace project's dev deps come
    // before its prod deps in `hoistedDependencies`).
    // An alias keeps the place of its first appearance, even as a `link:`,
    // and takes the first snapshot any importer gives it (a workspace
    // package linked in one project and injected in another hoists first).
    let mut root_children: IndexMap<&str, Option<usize>> = IndexMap::new();
    for edges in &importer_edges {
        for group in [
            DependencyGroup::Dev,
            DependencyGroup::Prod,
            DependencyGroup::Optional,
        ] {
            for (g, alias, edge) in edges {
                if *g != group {
                    continue;
                }
                let slot = root_children.entry(alias).or_insert(None);
                if let (None, Edge::Node(i)) = (*slot, edge) {
                    *slot = Some(*i);
                }
            }
        }
    }
    let workspace_projects = if opts.hoist_workspace_packages {
        let projects = selections.iter().filter(|s| s.id != ".");
        projects
            .filter_map(|s| Some((s.name.as_deref()?, s.id.as_str())))
            .collect()
    } else {
        Vec::new()
    };
    let root_aliases = selections
        .iter()
        .zip(&importer_edges)
        .filter(|(s, _)| s.id == ".")
        .flat_map(|(_, edges)| edges.iter().map(|(_, alias, _)| *alias))
        .collect();
    let public = Matcher::new(&opts.public_hoist_pattern);
    let private = Matcher::new(&opts.hoist_pattern);
    let records = hoist(HoistInput {
        graph: &graph,
        entries: &entries,
        root_children: root_children
            .into_iter()
            .filter_map(|(alias, node)| Some((alias, node?)))
            .collect(),
        workspace_projects,
        root_aliases,
        dir_names: &dir_names,
        public: &public,
        private: &private,
    });
    if !records.is_empty() && !opts.hoist_pattern.is_empty() {
        // pnpm 12 makes it when anything is hoisted and private hoisting is
        // on, even if everything went public (`shamefullyHoist: true`).
        dirs.add(&hidden_hoist_dir);
    }
    let mut hoisted = Vec::with_capacity(records.len());
    for (candidate, alias, kind) in records {
        let base = match kind {
            HoistKind::Public => &root_modules,
            HoistKind::Private => &hidden_hoist_dir,
        };
        let owner = match kind {
            HoistKind::Public => LinkOwner::PublicHoist,
            HoistKind::Private => LinkOwner::PrivateHoist,
        };
        let target_slot = match candidate {
            Candidate::Node(i) => Some(slot_of[i]),
            Candidate::Importer(_) => None,
        };
        let (target, target_dir) = match candidate {
            Candidate::Node(i) => (
                HoistTarget::Slot(slot_of[i]),
                &slots[slot_of[i]].package_dir,
            ),
            Candidate::Importer(id) => {
                let sel = selections
                    .iter()
                    .find(|s| s.id == id)
                    .expect("selected importer");
                (HoistTarget::Importer(id.to_owned()), &sel.dir)
            }
        };
        link(&mut dirs, join(base, alias), target_dir, owner, target_slot);
        hoisted.push(Hoisted {
            target,
            alias: alias.to_owned(),
            kind,
        });
    }

    let mut skipped: Vec<String> = (0..n)
        .filter(|&i| graph.skipped[i])
        .map(|i| graph.keys[i].to_string())
        .collect();
    skipped.sort();
    let mut skipped_below: Vec<String> =
        reachable_through_skipped(&graph, &entry_nodes, include_optional)
            .into_iter()
            .filter(|&i| {
                !reached[i] && !graph.skipped[i] && graph.snapshots[i].optional == Some(true)
            })
            .map(|i| graph.keys[i].to_string())
            .collect();
    skipped_below.sort();
    Ok(Plan {
        slots,
        dirs: dirs.into_vec(),
        symlinks,
        hoisted,
        skipped,
        skipped_below,
        importers,
        warnings,
    })
}

fn package_info<'l>(
    lockfile: &'l Lockfile,
    package_id: &str,
) -> Result<&'l pacquet_lockfile::PackageInfo, PlanError> {
    lockfile
        .packages
        .get(package_id)
        .ok_or_else(|| PlanError::MissingPackage {
            dep_path: package_id.to_owned(),
        })
}

/// Flags optional snapshots that no target platform can install; returns a
/// warning for each non-optional one.
fn mark_skipped(
    lockfile: &Lockfile,
    graph: &mut Graph,
    opts: &PlanOptions,
) -> Result<Vec<PlatformWarning>, PlanError> {
    let targets = PlatformTargets::new(&opts.host, &opts.supported_architectures);
    let mut warnings = Vec::new();
    for i in 0..graph.keys.len() {
        let info = package_info(lockfile, graph.keys[i].package_id())?;
        let optional = graph.snapshots[i].optional == Some(true);
        let declared = info.os.is_some() || info.cpu.is_some() || info.libc.is_some();
        let installable = if optional && !declared {
            let [os, cpu, libc] = infer_platform(graph.keys[i].name()).map(|v| v.map(|v| vec![v]));
            targets.is_installable(os.as_deref(), cpu.as_deref(), libc.as_deref())
        } else {
            targets.is_installable(
                info.os.as_deref(),
                info.cpu.as_deref(),
                info.libc.as_deref(),
            )
        };
        if installable {
            continue;
        }
        if optional {
            graph.skipped[i] = true;
        } else {
            warnings.push(PlatformWarning {
                dep_path: graph.keys[i].to_string(),
            });
        }
    }
    Ok(warnings)
}

fn select_importers(
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
fn included_edges<'l>(
    importer: &'l Importer,
    opts: &PlanOptions,
    graph: &Graph,
) -> Result<Vec<(DependencyGroup, &'l str, Edge)>, PlanError> {
    let included = |g: DependencyGroup| match g {
        DependencyGroup::Prod => opts.included.dependencies,
        DependencyGroup::Dev => opts.included.dev_dependencies,
        DependencyGroup::Optional => opts.included.optional_dependencies,
    };
    importer
        .dependency_refs()
        .filter(|(g, _, _)| included(*g))
        .map(|(g, alias, r): (DependencyGroup, &str, DepRef)| Ok((g, alias, graph.resolve(r)?)))
        .collect()
}
