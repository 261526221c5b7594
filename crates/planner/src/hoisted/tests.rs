//! The hoisted planner on fixture lockfiles, against the `hoistedLocations`
//! pnpm 12.21 wrote for them (the compat suite compares whole trees).

use std::path::Path;

use pacquet_lockfile::Lockfile;
use pretty_assertions::assert_eq;

use super::hoister::{HoistingLimits, Node, ROOT, Tree, hoist};
use crate::test_support::host;
use crate::{ImporterSelection, Layout, Plan, PlanOptions, plan};

fn registry_url(name: &str, version: &str) -> String {
    format!("http://registry.test/{name}/-/{name}-{version}.tgz")
}

fn plan_project(name: &str, importers: Vec<ImporterSelection>) -> Plan {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testing/projects")
        .join(name)
        .join("pnpm-lock.yaml");
    let text = std::fs::read_to_string(&path).expect("fixture lockfile");
    let lockfile = Lockfile::parse(&text, &path).expect("lockfile parses");
    let mut opts = PlanOptions::new(host(), &registry_url);
    opts.layout = Layout::Hoisted;
    opts.importers = importers;
    plan(&lockfile, &opts).expect("plan succeeds")
}

fn locations(plan: &Plan) -> Vec<(String, Vec<String>)> {
    plan.hoisted_locations
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn loc(key: &str, dirs: &[&str]) -> (String, Vec<String>) {
    (key.to_owned(), dirs.iter().map(|d| d.to_string()).collect())
}

/// Two versions of one package: the one the root asks for keeps the root
/// slot, the other is nested under each package that needs it.
#[test]
fn conflicting_versions_nest_under_their_dependents() {
    let plan = plan_project("hoisting", Vec::new());
    assert_eq!(
        locations(&plan),
        vec![
            loc("@pq/deep-leaf@1.0.0", &["node_modules/@pq/deep-leaf"]),
            loc("pq-bin-sh@1.0.0", &["node_modules/pq-bin-sh"]),
            loc("pq-cycle-a@1.0.0", &["node_modules/pq-cycle-a"]),
            loc("pq-cycle-b@1.0.0", &["node_modules/pq-cycle-b"]),
            loc("pq-deep-1@1.0.0", &["node_modules/pq-deep-1"]),
            loc("pq-deep-2@1.0.0", &["node_modules/pq-deep-2"]),
            loc("pq-deep-3@1.0.0", &["node_modules/pq-deep-3"]),
            loc("pq-deep-4@1.0.0", &["node_modules/pq-deep-4"]),
            loc("pq-dup-parent-a@1.0.0", &["node_modules/pq-dup-parent-a"]),
            loc("pq-dup-parent-b@1.0.0", &["node_modules/pq-dup-parent-b"]),
            loc(
                "pq-dup@1.0.0",
                &[
                    "node_modules/pq-deep-1/node_modules/pq-dup",
                    "node_modules/pq-dup-parent-a/node_modules/pq-dup",
                ],
            ),
            loc("pq-dup@2.0.0", &["node_modules/pq-dup"]),
            loc("pq-plain@1.0.0", &["node_modules/pq-plain"]),
        ]
    );
    assert_eq!(plan.layout, Layout::Hoisted);
    assert!(plan.symlinks.is_empty());
}

/// Projects' dependencies go to the root unless another version holds the
/// name there; workspace projects are linked into the root.
#[test]
fn workspace_dependencies_hoist_to_the_root() {
    let sel = |id: &str, name: &str| ImporterSelection::new(id, Some(name));
    let plan = plan_project(
        "workspace",
        vec![
            ImporterSelection::new(".", None),
            sel("packages/app", "@pq-ws/app"),
            sel("packages/lib", "@pq-ws/lib"),
            sel("packages/util", "pq-util"),
        ],
    );
    assert_eq!(
        locations(&plan),
        vec![
            loc("@pq/plain@1.0.0", &["node_modules/@pq/plain"]),
            loc("pq-bin-sh@1.0.0", &["node_modules/pq-bin-sh"]),
            loc("pq-bin-string@1.0.0", &["node_modules/pq-bin-string"]),
            loc("pq-dup@1.0.0", &["node_modules/pq-dup"]),
            loc("pq-dup@2.0.0", &["packages/util/node_modules/pq-dup"]),
            loc("pq-plain@1.0.0", &["node_modules/pq-plain"]),
        ]
    );
    let mut links: Vec<String> = plan
        .symlinks
        .iter()
        .map(|l| format!("{} -> {}", l.path, l.target))
        .collect();
    links.sort();
    assert_eq!(
        links,
        vec![
            "node_modules/@pq-ws/app -> ../../packages/app",
            "node_modules/@pq-ws/lib -> ../../packages/lib",
            "node_modules/pq-util -> ../packages/util",
            "packages/app/node_modules/@pq-ws/lib -> ../../../lib",
            "packages/app/node_modules/pq-util -> ../../util",
            "packages/util/node_modules/local-dir -> ../../../local",
        ]
    );
}

fn node(tree: &mut Tree, name: &str, reference: &str) -> usize {
    tree.add(Node::new(name, name, reference))
}

/// The most used version of a name takes the root slot when the root does
/// not ask for one.
#[test]
fn the_most_used_version_takes_the_root() {
    let mut tree = Tree::default();
    node(&mut tree, ".", "");
    let [a, b, c] = ["a", "b", "c"].map(|n| node(&mut tree, n, &format!("{n}@1.0.0")));
    let x1 = node(&mut tree, "x", "x@1.0.0");
    let x2 = node(&mut tree, "x", "x@2.0.0");
    tree.nodes[ROOT].deps = vec![a, b, c];
    tree.nodes[a].deps = vec![x1];
    tree.nodes[b].deps = vec![x2];
    tree.nodes[c].deps = vec![x2];
    hoist(&mut tree, &HoistingLimits::new());
    let names = |id: usize| -> Vec<String> {
        let n = &tree.nodes[id];
        n.deps
            .iter()
            .map(|&d| tree.nodes[d].reference.clone())
            .collect()
    };
    assert_eq!(names(ROOT), ["a@1.0.0", "b@1.0.0", "c@1.0.0", "x@2.0.0"]);
    let a_now = tree.nodes[ROOT].deps[0];
    assert_eq!(names(a_now), ["x@1.0.0"]);
}

/// Build order edges: a package depends on each dependency at its first
/// location, nested copies included.
#[test]
fn slot_deps_point_at_first_locations() {
    let plan = plan_project("hoisting", Vec::new());
    let dir = |s: usize| plan.slots[s].package_dir.as_str();
    let mut edges: Vec<(&str, &str)> = plan
        .slot_deps
        .iter()
        .map(|&(from, to)| (dir(from), dir(to)))
        .collect();
    edges.sort();
    let wanted = [
        (
            "node_modules/pq-dup-parent-a",
            "node_modules/pq-deep-1/node_modules/pq-dup",
        ),
        ("node_modules/pq-dup-parent-b", "node_modules/pq-dup"),
        ("node_modules/pq-cycle-a", "node_modules/pq-cycle-b"),
        ("node_modules/pq-cycle-b", "node_modules/pq-cycle-a"),
    ];
    for edge in wanted {
        assert!(edges.contains(&edge), "{edge:?} in {edges:#?}");
    }
    // A cycle never makes a package wait for itself.
    for &(from, to) in &plan.slot_deps {
        assert_ne!(from, to);
    }
}
