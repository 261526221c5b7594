//! What an install reports at the end: counts, and the root project's
//! direct dependencies that are new since the previous install.

use pacquet_lockfile::{DepPath, DependencyGroup};
use pacquet_planner::{DirectTarget, ImporterPlan, Plan, Tree};

use super::{Run, link::Linked};
use crate::reporter::{DirectDependency, Event};

/// What an install did, for callers and tests.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct InstallSummary {
    /// Package directories in the virtual store.
    pub added: usize,
    /// Packages whose files came from the store.
    pub reused: usize,
    /// Packages downloaded.
    pub downloaded: usize,
    /// Optional packages skipped for the platform.
    pub skipped: usize,
}

/// Reports the summary event and returns the counts.
pub(super) fn finish(
    run: &Run<'_>,
    linked: &Linked,
    previous_direct: Option<Vec<DirectDependency>>,
) -> InstallSummary {
    let plan = run.plan;
    let mut direct = direct_dependencies(plan);
    if let Some(previous) = &previous_direct {
        // A dependency that only moved between groups is not new (pnpm 12).
        direct.retain(|d| {
            !previous
                .iter()
                .any(|p| (&p.alias, &p.name, &p.version) == (&d.alias, &d.name, &d.version))
        });
    }
    // A tarball's key does not say its version: pnpm 12.21 shows the
    // `version` its packages entry records.
    let packages = &run.checked.lockfile.packages;
    for d in &mut direct {
        let key = DepPath::parse(&format!("{}@{}", d.name, d.version));
        if let Some(version) = packages.get(&key).and_then(|p| p.version.as_ref()) {
            d.version = version.clone();
        }
    }
    let summary = InstallSummary {
        added: linked.imported,
        reused: plan.slots.len().saturating_sub(linked.downloaded),
        downloaded: linked.downloaded,
        skipped: plan.skipped.len() + plan.skipped_below.len(),
    };
    run.reporter.report(Event::Summary {
        added: summary.added,
        direct: &direct,
    });
    summary
}

/// The root project's direct dependencies, for the closing summary.
pub(crate) fn direct_dependencies(plan: &Plan) -> Vec<DirectDependency> {
    direct_of(&plan.importers, |i| &plan.slots[i].dep_path)
}

/// [`direct_dependencies`] of an installed tree.
pub(crate) fn tree_direct_dependencies(tree: &Tree) -> Vec<DirectDependency> {
    direct_of(&tree.importers, |i| &tree.slots[i].dep_path)
}

fn direct_of<'t>(
    importers: &[ImporterPlan],
    dep_path: impl Fn(usize) -> &'t DepPath,
) -> Vec<DirectDependency> {
    let Some(root) = importers.iter().find(|i| i.id == ".") else {
        return Vec::new();
    };
    root.direct
        .iter()
        .map(|d| {
            let (name, version) = match &d.target {
                DirectTarget::Slot(i) => {
                    let dep_path = dep_path(*i);
                    (dep_path.name().to_owned(), dep_path.version().to_owned())
                }
                DirectTarget::Link(dir) => (d.alias.clone(), format!("link:{dir}")),
            };
            DirectDependency {
                group: group_name(d.group),
                alias: d.alias.clone(),
                name,
                version,
            }
        })
        .collect()
}

fn group_name(group: DependencyGroup) -> &'static str {
    match group {
        DependencyGroup::Prod => "dependencies",
        DependencyGroup::Dev => "devDependencies",
        DependencyGroup::Optional => "optionalDependencies",
    }
}
