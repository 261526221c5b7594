//! `.bin` directories (docs/layout.md §5): one per slot whose dependencies (or
//! itself) have bins, `<virtualStoreDir>/node_modules/.bin` for privately
//! hoisted packages, and `<project>/node_modules/.bin` for direct and
//! publicly hoisted dependencies. Written in parallel, one directory per task.

use std::{
    path::{Path, PathBuf},
    sync::OnceLock,
};

use pacquet_bins::{BinSource, link_bins};
use rayon::prelude::*;
use serde_json::Value;

use super::InstallError;
use pacquet_planner::{LinkOwner, Plan, PlanOptions, layout::join};

/// One package offering bins to a directory.
struct Offer {
    package_name: String,
    package_dir: PathBuf,
    manifest: Value,
    direct: bool,
    node_path: Vec<PathBuf>,
}

pub fn link_all_bins(
    root: &Path,
    plan: &Plan,
    opts: &PlanOptions<'_>,
    manifests: &[OnceLock<Value>],
) -> Result<(), InstallError> {
    let vsd_modules = root.join(&opts.virtual_store_dir).join("node_modules");
    let hoisting = !opts.hoist_pattern.is_empty();
    let slot_offer = |i: usize, direct: bool| -> Option<Offer> {
        let slot = &plan.slots[i];
        if !slot.has_bin {
            return None;
        }
        let manifest = manifests[i].get()?.clone();
        let package_dir = root.join(&slot.package_dir);
        let slot_modules = root
            .join(&opts.virtual_store_dir)
            .join(&slot.dir_name)
            .join("node_modules");
        let mut node_path = vec![package_dir.join("node_modules"), slot_modules];
        if hoisting {
            node_path.push(vsd_modules.clone());
        }
        Some(Offer {
            package_name: slot.name().to_owned(),
            package_dir,
            manifest,
            direct,
            node_path,
        })
    };

    // bin dir → offers, in a stable order.
    let mut dirs: Vec<(PathBuf, Vec<Offer>)> = Vec::new();
    let mut slot_dirs: Vec<Vec<Offer>> = (0..plan.slots.len()).map(|_| Vec::new()).collect();
    let mut importer_dirs: Vec<Vec<Offer>> =
        (0..plan.importers.len()).map(|_| Vec::new()).collect();
    let mut private: Vec<Offer> = Vec::new();
    let root_importer = plan.importers.iter().position(|i| i.id == ".");
    for link in &plan.symlinks {
        let offer = match (link.target_slot, link.owner) {
            (Some(t), owner) => slot_offer(t, matches!(owner, LinkOwner::Importer(_))),
            // pnpm links no bins of workspace projects hoisted into the
            // virtual store (checked with the workspace fixture).
            (None, LinkOwner::PrivateHoist) => None,
            (None, _) => {
                linked_project_offer(root, &link.path, &link.target, &vsd_modules, hoisting)
            }
        };
        let Some(offer) = offer else { continue };
        match link.owner {
            LinkOwner::Slot(s) => slot_dirs[s].push(offer),
            LinkOwner::Importer(k) => importer_dirs[k].push(offer),
            LinkOwner::PrivateHoist => private.push(offer),
            LinkOwner::PublicHoist => {
                if let Some(k) = root_importer {
                    importer_dirs[k].push(offer);
                }
            }
        }
    }
    // pnpm 12 also links, into a project's `.bin`, the bins of the peers
    // its direct dependencies declare and got from the graph rather than
    // from the project (auto-installed peers), though they are not linked
    // in its `node_modules` (alotta: `webpack`, a peer of `babel-loader`).
    // Optional peers are never auto-installed, so their bins are not linked
    // even when the graph satisfies them (`jiti`, an optional peer of
    // eslint 9, next to tailwindcss 3).
    for (k, importer) in plan.importers.iter().enumerate() {
        let direct: std::collections::HashSet<&str> =
            importer.direct.iter().map(|d| d.alias.as_str()).collect();
        let mut offered = std::collections::HashSet::new();
        for dep in &importer.direct {
            let pacquet_planner::DirectTarget::Slot(i) = dep.target else {
                continue;
            };
            let Some(peers) = manifests[i]
                .get()
                .and_then(|m| m.get("peerDependencies"))
                .and_then(Value::as_object)
            else {
                continue;
            };
            for link in &plan.symlinks {
                if link.owner != LinkOwner::Slot(i) {
                    continue;
                }
                let alias = link
                    .path
                    .rsplit_once("/node_modules/")
                    .map_or("", |(_, a)| a);
                if !peers.contains_key(alias)
                    || direct.contains(alias)
                    || is_optional_peer(manifests[i].get(), alias)
                {
                    continue;
                }
                if let Some(t) = link.target_slot
                    && offered.insert(t)
                    && let Some(offer) = slot_offer(t, false)
                {
                    importer_dirs[k].push(offer);
                }
            }
        }
    }
    for (i, mut offers) in slot_dirs.into_iter().enumerate() {
        if let Some(own) = slot_offer(i, false) {
            offers.push(own);
        }
        if !offers.is_empty() {
            let dir = root
                .join(&plan.slots[i].package_dir)
                .join("node_modules/.bin");
            dirs.push((dir, offers));
        }
    }
    if !private.is_empty() {
        dirs.push((vsd_modules.join(".bin"), private));
    }
    for (k, offers) in importer_dirs.into_iter().enumerate() {
        if !offers.is_empty() {
            let modules = join(&plan.importers[k].dir, &opts.modules_dir);
            dirs.push((root.join(modules).join(".bin"), offers));
        }
    }

    dirs.par_iter().try_for_each(|(dir, offers)| {
        let sources: Vec<BinSource<'_>> = offers
            .iter()
            .map(|o| BinSource {
                package_name: &o.package_name,
                package_dir: &o.package_dir,
                manifest: &o.manifest,
                direct: o.direct,
                node_path: o.node_path.clone(),
            })
            .collect();
        link_bins(dir, &sources)?;
        Ok::<(), InstallError>(())
    })
}

/// A workspace project or `link:` directory: its `package.json` is read from
/// disk (it is not in the store).
fn linked_project_offer(
    root: &Path,
    link_path: &str,
    target: &str,
    vsd_modules: &Path,
    hoisting: bool,
) -> Option<Offer> {
    let link = root.join(link_path);
    let dir = link.parent()?.join(target);
    let text = std::fs::read_to_string(dir.join("package.json")).ok()?;
    let manifest: Value = serde_json::from_str(&text).ok()?;
    if manifest.get("bin").is_none() && manifest.pointer("/directories/bin").is_none() {
        return None;
    }
    let package_name = manifest.get("name")?.as_str()?.to_owned();
    let node_path = if hoisting {
        vec![vsd_modules.to_owned()]
    } else {
        Vec::new()
    };
    Some(Offer {
        package_name,
        package_dir: normalize(&dir),
        manifest,
        direct: true,
        node_path,
    })
}

/// Drops `.`/`..` components lexically (link targets are relative).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// `peerDependenciesMeta[alias].optional` of a manifest.
fn is_optional_peer(manifest: Option<&Value>, alias: &str) -> bool {
    manifest
        .and_then(|m| m.get("peerDependenciesMeta"))
        .and_then(|meta| meta.get(alias))
        .and_then(|entry| entry.get("optional"))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}
