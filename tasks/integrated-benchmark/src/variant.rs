//! The "before" project of the `lockfile-change` scenario: the fixture with a
//! few direct dependencies removed from `package.json` and the lockfile, and
//! everything only they reached pruned, so that no resolution is needed and
//! the mirror already has every tarball of both sides.

use std::collections::{BTreeSet, VecDeque};
use std::fs;
use std::path::Path;

use pacquet_lockfile::{DepPath, DepRef, Lockfile};

use crate::Result;

/// What the smaller variant lacks compared with the fixture.
pub struct Removed {
    pub direct: Vec<String>,
    pub snapshots: usize,
    pub packages: usize,
}

/// One direct dependency of the root importer in every `STRIDE` (sorted by
/// name, at least one) is removed: 5 of alotta's 110, 1 of small's 15.
const STRIDE: usize = 20;

/// Writes `package.json` and `pnpm-lock.yaml` of the smaller variant into `out`.
pub fn write_smaller(fixture: &Path, out: &Path) -> Result<Removed> {
    let lock_path = fixture.join("pnpm-lock.yaml");
    let mut lockfile = pacquet_lockfile::read_lockfile(&lock_path)
        .map_err(|e| format!("{}: {e}", lock_path.display()))?
        .ok_or_else(|| format!("{} is missing", lock_path.display()))?;
    let manifest_path = fixture.join("package.json");
    let mut manifest: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(&manifest_path)
            .map_err(|e| format!("{}: {e}", manifest_path.display()))?,
    )
    .map_err(|e| format!("{}: {e}", manifest_path.display()))?;

    let direct = pick(&lockfile)?;
    let removed = remove(&mut lockfile, &mut manifest, &direct);
    fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    fs::write(out.join("pnpm-lock.yaml"), lockfile.to_yaml())
        .map_err(|e| format!("writing the variant lockfile: {e}"))?;
    let text = serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())? + "\n";
    fs::write(out.join("package.json"), text)
        .map_err(|e| format!("writing the variant package.json: {e}"))?;
    Ok(Removed { direct, ..removed })
}

fn pick(lockfile: &Lockfile) -> Result<Vec<String>> {
    let root = lockfile
        .importers
        .get(".")
        .ok_or("the lockfile has no root importer")?;
    let names: Vec<&str> = root
        .dependency_refs()
        .map(|(_, name, _)| name)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if names.len() < 2 {
        return Err("the fixture needs at least two direct dependencies".into());
    }
    // Middle of each stride; the middle one overall when there are fewer.
    let picked: Vec<String> = names
        .iter()
        .enumerate()
        .filter(|(i, _)| i % STRIDE == STRIDE / 2)
        .map(|(_, n)| n.to_string())
        .collect();
    Ok(if picked.is_empty() {
        vec![names[names.len() / 2].to_string()]
    } else {
        picked
    })
}

/// Drops `direct` from the root importer and the manifest, then keeps only
/// the snapshots and packages still reachable from some importer.
fn remove(lockfile: &mut Lockfile, manifest: &mut serde_json::Value, direct: &[String]) -> Removed {
    if let Some(root) = lockfile.importers.get_mut(".") {
        for group in [
            &mut root.dependencies,
            &mut root.dev_dependencies,
            &mut root.optional_dependencies,
        ]
        .into_iter()
        .flatten()
        {
            group.retain(|name, _| !direct.contains(name));
        }
    }
    for key in ["dependencies", "devDependencies", "optionalDependencies"] {
        if let Some(deps) = manifest.get_mut(key).and_then(|d| d.as_object_mut()) {
            deps.retain(|name, _| !direct.contains(name));
        }
    }

    let mut reachable: BTreeSet<DepPath> = BTreeSet::new();
    let mut queue: VecDeque<DepPath> = VecDeque::new();
    for importer in lockfile.importers.values() {
        for (_, _, r) in importer.dependency_refs() {
            if let DepRef::Snapshot(p) = r {
                queue.push_back(p);
            }
        }
    }
    while let Some(path) = queue.pop_front() {
        if !reachable.insert(path.clone()) {
            continue;
        }
        if let Some(snapshot) = lockfile.snapshots.get(&path) {
            for (_, r) in snapshot.dependency_refs() {
                if let DepRef::Snapshot(p) = r {
                    queue.push_back(p);
                }
            }
        }
    }
    let snapshots_before = lockfile.snapshots.len();
    lockfile.snapshots.retain(|k, _| reachable.contains(k));
    let ids: BTreeSet<String> = lockfile
        .snapshots
        .keys()
        .map(|k| k.package_id().to_string())
        .collect();
    let packages_before = lockfile.packages.len();
    lockfile.packages.retain(|k, _| ids.contains(k.as_str()));
    Removed {
        direct: Vec::new(),
        snapshots: snapshots_before - lockfile.snapshots.len(),
        packages: packages_before - lockfile.packages.len(),
    }
}

#[cfg(test)]
mod tests;
