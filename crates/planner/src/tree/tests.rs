//! A tree survives its binary form exactly, and a damaged file is refused.

use pacquet_lockfile::Lockfile;
use pretty_assertions::assert_eq;

use super::{Tree, decode, encode};
use crate::test_support::{host, url};
use crate::{DirectTarget, Layout, LinkOwner, Plan, PlanOptions, plan};

/// A root with a scoped dependency, a dev dependency with a dependency of
/// its own, and a workspace project linked with `link:`.
const LOCKFILE: &str = "lockfileVersion: '9.0'

importers:

  .:
    dependencies:
      '@s/a':
        specifier: 1.0.0
        version: 1.0.0
      app:
        specifier: link:packages/app
        version: link:packages/app
    devDependencies:
      b:
        specifier: ^2.0.0
        version: 2.1.0

  packages/app:
    dependencies:
      c:
        specifier: 3.0.0
        version: 3.0.0

packages:

  '@s/a@1.0.0':
    resolution: {integrity: sha512-a}

  b@2.1.0:
    resolution: {integrity: sha512-b}

  c@3.0.0:
    resolution: {integrity: sha512-c}

snapshots:

  '@s/a@1.0.0': {}

  b@2.1.0:
    dependencies:
      c: 3.0.0

  c@3.0.0: {}
";

fn plan_with(layout: Layout) -> Plan {
    let lockfile: Lockfile = serde_saphyr::from_str(LOCKFILE).unwrap();
    let mut opts = PlanOptions::new(host(), &url);
    opts.layout = layout;
    opts.importers = vec![
        crate::ImporterSelection::new(".", Some("root")),
        crate::ImporterSelection::new("packages/app", Some("app")),
    ];
    plan(&lockfile, &opts).unwrap()
}

#[test]
fn a_decoded_tree_is_the_plan_s_tree() {
    for layout in [Layout::Isolated, Layout::Hoisted] {
        let plan = plan_with(layout);
        let decoded = decode(&encode(&plan)).expect("decodes");
        assert_eq!(decoded, Tree::from(plan.clone()));
        assert_eq!(decoded.layout, layout);
    }
}

#[test]
fn the_example_has_every_kind_of_entry() {
    // Otherwise the round trip above would not cover them.
    let plan = plan_with(Layout::Isolated);
    let owners = |pick: fn(&LinkOwner) -> bool| plan.symlinks.iter().any(|l| pick(&l.owner));
    assert!(owners(|o| matches!(o, LinkOwner::Slot(_))));
    assert!(owners(|o| matches!(o, LinkOwner::Importer(_))));
    assert!(owners(|o| matches!(o, LinkOwner::PrivateHoist)));
    assert!(plan.symlinks.iter().any(|l| l.target_slot.is_none()));
    let targets = || plan.importers.iter().flat_map(|i| &i.direct);
    assert!(targets().any(|d| matches!(d.target, DirectTarget::Link(_))));
    assert!(targets().any(|d| matches!(d.target, DirectTarget::Slot(_))));
}

#[test]
fn damaged_bytes_are_refused() {
    let bytes = encode(&plan_with(Layout::Isolated));
    // Cut anywhere.
    for len in 0..bytes.len() {
        assert_eq!(decode(&bytes[..len]), None, "cut at {len}");
    }
    // A byte too many.
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(decode(&longer), None);
    // Another format.
    let mut other = bytes.clone();
    other[6] = 2;
    assert_eq!(decode(&other), None);
}

#[test]
fn an_index_outside_the_tree_is_refused() {
    let mut plan = plan_with(Layout::Isolated);
    let slots = plan.slots.len();
    let link = plan
        .symlinks
        .iter_mut()
        .find(|l| l.target_slot.is_some())
        .unwrap();
    link.target_slot = Some(slots);
    assert_eq!(decode(&encode(&plan)), None);
}
