//! Agent skills a dependency ships (docs/layout.md §15): pnpm 12.21 lists
//! the direct dependencies whose files hold a `SKILL.md` below `skills/` as
//! `pendingSkills` in `.modules.yaml`, awaiting approval, and says so after
//! the install.

use std::sync::atomic::{AtomicBool, Ordering};

use pacquet_planner::{DirectTarget, Plan};
use pacquet_store_index::FileInfo;

/// Whether a package with these files provides an agent skill: a
/// `skills/<dir>[/<dir>…]/SKILL.md` (exact case; `skills/SKILL.md` is not
/// one).
pub(crate) fn provides_skills(files: &[(String, FileInfo)]) -> bool {
    files
        .iter()
        .any(|(path, _)| pacquet_store_index::is_skill_file(path))
}

/// `name@version` of every importer's direct dependency whose package
/// provides skills, sorted, each once.
pub(crate) fn pending(plan: &Plan, provides: &[AtomicBool]) -> Vec<String> {
    let mut pending: Vec<String> = plan
        .importers
        .iter()
        .flat_map(|importer| &importer.direct)
        .filter_map(|dep| match dep.target {
            DirectTarget::Slot(i) if provides[i].load(Ordering::Relaxed) => {
                Some(plan.slots[i].dep_path.package_id().to_owned())
            }
            _ => None,
        })
        .collect();
    pending.sort();
    pending.dedup();
    pending
}

/// `pendingSkills` of the `.modules.yaml` in `modules_dir` (the no-op
/// repeat install repeats the notice, as pnpm 12.21 does).
pub(crate) fn recorded_pending(modules_dir: &std::path::Path) -> Vec<String> {
    let Ok(text) = std::fs::read(modules_dir.join(".modules.yaml")) else {
        return Vec::new();
    };
    let doc: serde_json::Value = serde_json::from_slice(&text).unwrap_or_default();
    doc.get("pendingSkills")
        .and_then(|v| v.as_array())
        .map(|list| {
            list.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
