//! The difference of two plans, on two versions of a small lockfile: the
//! root drops `@s/old` (a scoped direct dependency) and moves `dep` from
//! 1.0.0 to 2.0.0; `keep` stays.

use pacquet_lockfile::Lockfile;
use pretty_assertions::assert_eq;

use super::{ShimRemoval, diff};
use crate::test_support::{host, url};
use crate::{Plan, PlanOptions, Tree, plan};

const OLD: &str = "lockfileVersion: '9.0'

importers:

  .:
    dependencies:
      '@s/old':
        specifier: 1.0.0
        version: 1.0.0
      dep:
        specifier: 1.0.0
        version: 1.0.0
      keep:
        specifier: 1.0.0
        version: 1.0.0

packages:

  '@s/old@1.0.0':
    resolution: {integrity: sha512-old}

  dep@1.0.0:
    resolution: {integrity: sha512-dep1}

  keep@1.0.0:
    resolution: {integrity: sha512-keep}

snapshots:

  '@s/old@1.0.0': {}

  dep@1.0.0: {}

  keep@1.0.0:
    dependencies:
      dep: 1.0.0
";

const NEW: &str = "lockfileVersion: '9.0'

importers:

  .:
    dependencies:
      dep:
        specifier: 2.0.0
        version: 2.0.0
      keep:
        specifier: 1.0.0
        version: 1.0.0

packages:

  dep@2.0.0:
    resolution: {integrity: sha512-dep2}

  keep@1.0.0:
    resolution: {integrity: sha512-keep}

snapshots:

  dep@2.0.0: {}

  keep@1.0.0: {}
";

fn plan_of(text: &str) -> Plan {
    let lockfile: Lockfile = serde_saphyr::from_str(text).unwrap();
    plan(&lockfile, &PlanOptions::new(host(), &url)).unwrap()
}

fn tree_of(plan: &Plan) -> Tree {
    Tree::from(plan.clone())
}

#[test]
fn same_plan_removes_nothing_and_keeps_everything() {
    let old = plan_of(OLD);
    let removals = diff(&tree_of(&old), &old, true);
    assert!(removals.links.is_empty() && removals.dirs.is_empty());
    assert!(removals.shims.is_empty() && removals.scopes.is_empty());
    assert_eq!(removals.kept_dirs.len(), old.dirs.len());
    assert!(removals.missing_dirs(&old.dirs).next().is_none());
    assert!(
        old.symlinks
            .iter()
            .all(|l| removals.has_link(&l.path, &l.target))
    );
}

#[test]
fn dropped_and_changed_links_go_with_their_shims() {
    let (old, new) = (plan_of(OLD), plan_of(NEW));
    let removals = diff(&tree_of(&old), &new, true);
    // `node_modules/dep` is relinked (new target), not deleted; its old
    // package's shims still go.
    assert_eq!(removals.links, ["node_modules/@s/old"]);
    assert_eq!(removals.scopes, ["node_modules/@s"]);
    let shim_links: Vec<&str> = removals.shims.iter().map(|s| s.link.as_str()).collect();
    assert!(shim_links.contains(&"node_modules/@s/old"));
    assert!(shim_links.contains(&"node_modules/dep"));
    assert!(removals.shims.contains(&ShimRemoval {
        link: "node_modules/dep".into(),
        package_dir: "node_modules/.pnpm/dep@1.0.0/node_modules/dep".into(),
    }));
    assert!(!removals.has_link("node_modules/dep", "../whatever"));
}

#[test]
fn orphaned_package_dirs_are_pruned_only_when_asked() {
    let (old, new) = (plan_of(OLD), plan_of(NEW));
    let mut pruned = diff(&tree_of(&old), &new, true).dirs;
    pruned.sort();
    assert_eq!(
        pruned,
        [
            "node_modules/.pnpm/@s+old@1.0.0",
            "node_modules/.pnpm/dep@1.0.0"
        ]
    );
    let kept = diff(&tree_of(&old), &new, false);
    assert!(kept.dirs.is_empty());
    // A kept directory is not made again; one inside a pruned slot is.
    let pruned = diff(&tree_of(&old), &new, true);
    assert!(
        pruned
            .kept_dirs
            .contains("node_modules/.pnpm/keep@1.0.0/node_modules")
    );
    assert!(
        !pruned
            .kept_dirs
            .iter()
            .any(|d| d.starts_with("node_modules/.pnpm/dep@1.0.0"))
    );
    assert!(!pruned.kept_dirs.contains("node_modules/@s"));
}

#[test]
fn settled_slots_are_kept_dirs_whose_links_all_stay() {
    let (old, new) = (plan_of(OLD), plan_of(NEW));
    let settled = |from: &Plan, to: &Plan| -> Vec<(String, bool)> {
        let flags = diff(&tree_of(from), to, true).settled_slots(to);
        to.slots
            .iter()
            .zip(flags)
            .map(|(s, f)| (s.dep_path.as_str().to_owned(), f))
            .collect()
    };
    // `dep@2.0.0` is new; `keep` stays and gains no link.
    assert_eq!(
        settled(&old, &new),
        [
            ("dep@2.0.0".to_owned(), false),
            ("keep@1.0.0".to_owned(), true)
        ]
    );
    // Back again: `keep` gains its link to `dep@1.0.0`.
    let back = settled(&new, &old);
    assert!(back.iter().all(|(_, f)| !f), "{back:?}");
    // Nothing changed: everything is settled.
    assert!(settled(&old, &old).iter().all(|(_, f)| *f));
}
