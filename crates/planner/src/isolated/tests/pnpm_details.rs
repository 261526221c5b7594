//! Planner details found by installing real projects with pnpm 12.21 and
//! comparing: what `.modules.yaml` lists as skipped, and the order of
//! `hoistedDependencies` in a workspace.

use pacquet_lockfile::Lockfile;
use pretty_assertions::assert_eq;

use super::{host, url};
use crate::{PlanOptions, plan};

fn parse(text: &str) -> Lockfile {
    serde_saphyr::from_str(text).unwrap()
}

/// sharp 0.35's shape: an optional wasm32 package pulls in `@emnapi/runtime`
/// (no platform fields, `optional: true`), which pnpm 12 then lists as
/// skipped too; `tslib` is also reached from an installed package.
const BELOW_SKIPPED: &str = "lockfileVersion: '9.0'

importers:

  .:
    dependencies:
      sharp:
        specifier: 1.0.0
        version: 1.0.0

packages:

  sharp@1.0.0:
    resolution: {integrity: sha512-sharp}

  wasm-wrap@1.0.0:
    resolution: {integrity: sha512-wrap}
    cpu: [wasm32]

  wasm-core@1.0.0:
    resolution: {integrity: sha512-core}

  tslib@2.0.0:
    resolution: {integrity: sha512-tslib}

snapshots:

  sharp@1.0.0:
    dependencies:
      tslib: 2.0.0
    optionalDependencies:
      wasm-wrap: 1.0.0

  wasm-wrap@1.0.0:
    dependencies:
      wasm-core: 1.0.0
    optional: true

  wasm-core@1.0.0:
    dependencies:
      tslib: 2.0.0
    optional: true

  tslib@2.0.0: {}
";

#[test]
fn optional_packages_below_a_skipped_one_are_listed_as_skipped() {
    let plan = plan(&parse(BELOW_SKIPPED), &PlanOptions::new(host(), &url)).unwrap();
    assert_eq!(plan.skipped, vec!["wasm-wrap@1.0.0".to_owned()]);
    assert_eq!(plan.skipped_below, vec!["wasm-core@1.0.0".to_owned()]);
    let installed: Vec<&str> = plan.slots.iter().map(|s| s.dep_path.as_str()).collect();
    assert_eq!(installed, vec!["sharp@1.0.0", "tslib@2.0.0"]);
}

const WORKSPACE: &str = "lockfileVersion: '9.0'

importers:

  .:
    devDependencies:
      turbo:
        specifier: 1.0.0
        version: 1.0.0

  packages/app:
    dependencies:
      react:
        specifier: 18.0.0
        version: 18.0.0
    devDependencies:
      '@types/react':
        specifier: 18.0.0
        version: 18.0.0

packages:

  turbo@1.0.0:
    resolution: {integrity: sha512-turbo}

  react@18.0.0:
    resolution: {integrity: sha512-react}

  '@types/react@18.0.0':
    resolution: {integrity: sha512-types}

snapshots:

  turbo@1.0.0: {}

  react@18.0.0: {}

  '@types/react@18.0.0': {}
";

#[test]
fn a_projects_dev_dependencies_are_hoisted_before_its_dependencies() {
    let plan = plan(&parse(WORKSPACE), &PlanOptions::new(host(), &url)).unwrap();
    let aliases: Vec<&str> = plan.hoisted.iter().map(|h| h.alias.as_str()).collect();
    assert_eq!(aliases, vec!["@types/react", "react"]);
}

/// `core` is linked in `packages/a` and injected in `packages/b`: a link
/// takes no place among the direct dependencies, but `core` is the name of
/// a workspace project, so it hoists first, before `a`'s registry deps
/// (benchmarks/compat-projects/mono).
const LINKED_THEN_INJECTED: &str = "lockfileVersion: '9.0'

importers:

  .: {}

  packages/a:
    dependencies:
      core:
        specifier: workspace:*
        version: link:../core
      zed:
        specifier: 1.0.0
        version: 1.0.0

  packages/b:
    dependencies:
      core:
        specifier: workspace:*
        version: file:packages/core

  packages/core: {}

packages:

  core@file:packages/core:
    resolution: {directory: packages/core, type: directory}

  zed@1.0.0:
    resolution: {integrity: sha512-zed}

snapshots:

  core@file:packages/core: {}

  zed@1.0.0: {}
";

#[test]
fn a_direct_dependency_named_like_a_project_hoists_first() {
    let mut opts = PlanOptions::new(host(), &url);
    opts.importers = [
        (".", None),
        ("packages/a", Some("a")),
        ("packages/b", Some("b")),
        ("packages/core", Some("core")),
    ]
    .into_iter()
    .map(|(id, name)| crate::ImporterSelection::new(id, name))
    .collect();
    let plan = plan(&parse(LINKED_THEN_INJECTED), &opts).unwrap();
    let aliases: Vec<&str> = plan.hoisted.iter().map(|h| h.alias.as_str()).collect();
    assert_eq!(&aliases[..2], ["core", "zed"]);
    // Without project names, the link takes no place: `zed` comes first.
    let plan = plan_without_names();
    let aliases: Vec<&str> = plan.hoisted.iter().map(|h| h.alias.as_str()).collect();
    assert_eq!(&aliases[..2], ["zed", "core"]);
}

fn plan_without_names() -> crate::Plan {
    plan(
        &parse(LINKED_THEN_INJECTED),
        &PlanOptions::new(host(), &url),
    )
    .unwrap()
}

/// `host` has optional peers `dev-tool` (only a dev dependency of the root),
/// `shared` (also a dependency of `lib`) and `loose` (no project's direct
/// dependency): docs/layout.md §13.7.
const OPTIONAL_PEERS: &str = "lockfileVersion: '9.0'

importers:

  .:
    dependencies:
      host:
        specifier: 1.0.0
        version: 1.0.0(dev-tool@1.0.0)(loose@1.0.0)(shared@1.0.0)
      lib:
        specifier: 1.0.0
        version: 1.0.0
    devDependencies:
      dev-tool:
        specifier: 1.0.0
        version: 1.0.0
      shared:
        specifier: 1.0.0
        version: 1.0.0

packages:

  host@1.0.0:
    resolution: {integrity: sha512-host}
    peerDependencies:
      dev-tool: 1.0.0
      loose: 1.0.0
      shared: 1.0.0
    peerDependenciesMeta:
      dev-tool:
        optional: true
      loose:
        optional: true
      shared:
        optional: true

  lib@1.0.0:
    resolution: {integrity: sha512-lib}

  dev-tool@1.0.0:
    resolution: {integrity: sha512-dev}

  shared@1.0.0:
    resolution: {integrity: sha512-shared}

  loose@1.0.0:
    resolution: {integrity: sha512-loose}

snapshots:

  host@1.0.0(dev-tool@1.0.0)(loose@1.0.0)(shared@1.0.0):
    optionalDependencies:
      dev-tool: 1.0.0
      loose: 1.0.0
      shared: 1.0.0

  lib@1.0.0:
    dependencies:
      shared: 1.0.0

  dev-tool@1.0.0: {}

  shared@1.0.0: {}

  loose@1.0.0: {}
";

#[test]
fn optional_peers_only_other_edges_bring_are_left_out() {
    let lockfile = parse(OPTIONAL_PEERS);
    let mut opts = PlanOptions::new(host(), &url);
    opts.included.dev_dependencies = false;
    let partial = plan(&lockfile, &opts).unwrap();
    let installed: Vec<&str> = partial.slots.iter().map(|s| s.dep_path.as_str()).collect();
    assert_eq!(
        installed,
        vec![
            "host@1.0.0(dev-tool@1.0.0)(loose@1.0.0)(shared@1.0.0)",
            "lib@1.0.0",
            "loose@1.0.0",
            "shared@1.0.0"
        ]
    );
    let host_dir =
        "node_modules/.pnpm/host@1.0.0_dev-tool@1.0.0_loose@1.0.0_shared@1.0.0/node_modules";
    let siblings: Vec<&str> = partial
        .symlinks
        .iter()
        .filter_map(|l| l.path.strip_prefix(host_dir))
        .collect();
    assert_eq!(siblings, vec!["/loose", "/shared"]);
    let dropped = (
        "host@1.0.0(dev-tool@1.0.0)(loose@1.0.0)(shared@1.0.0)".to_owned(),
        "dev-tool".to_owned(),
    );
    assert_eq!(partial.unlinked_peers, vec![dropped]);
    assert_eq!(
        partial.unlinked_siblings,
        vec![format!("{host_dir}/dev-tool")]
    );

    // Every group: both peers come with the root's dev dependencies.
    let all = plan(&lockfile, &PlanOptions::new(host(), &url)).unwrap();
    assert_eq!(all.slots.len(), 5);
    assert!(all.unlinked_peers.is_empty());
}

/// `tool` (a dependency of `packages/app`) has the darwin-only `native` as
/// an optional dependency; `packages/native` depends on it directly (as a
/// dev dependency), so the snapshot is not `optional`. The root's dev
/// dependency `peer` is the optional peer of `tool`. docs/layout.md §13.7–8.
const WORKSPACE_GROUPS: &str = "lockfileVersion: '9.0'

importers:

  .:
    devDependencies:
      peer:
        specifier: 1.0.0
        version: 1.0.0

  packages/app:
    dependencies:
      tool:
        specifier: 1.0.0
        version: 1.0.0(peer@1.0.0)

  packages/native:
    devDependencies:
      native:
        specifier: 1.0.0
        version: 1.0.0

packages:

  tool@1.0.0:
    resolution: {integrity: sha512-tool}
    peerDependencies:
      peer: 1.0.0
    peerDependenciesMeta:
      peer:
        optional: true

  native@1.0.0:
    resolution: {integrity: sha512-native}
    os: [darwin]

  peer@1.0.0:
    resolution: {integrity: sha512-peer}

snapshots:

  tool@1.0.0(peer@1.0.0):
    optionalDependencies:
      native: 1.0.0
      peer: 1.0.0

  native@1.0.0: {}

  peer@1.0.0: {}
";

#[test]
fn production_only_installs_classify_by_the_edges_they_follow() {
    let lockfile = parse(WORKSPACE_GROUPS);
    let mut opts = PlanOptions::new(host(), &url);
    let ids = [".", "packages/app", "packages/native"];
    opts.importers = ids
        .map(|id| crate::ImporterSelection::new(id, None))
        .to_vec();

    // Everything: `native` is a direct dependency, installed with a warning.
    let all = plan(&lockfile, &opts).unwrap();
    let installed = |p: &crate::Plan| -> Vec<String> {
        p.slots.iter().map(|s| s.dep_path.to_string()).collect()
    };
    assert_eq!(
        installed(&all),
        vec!["native@1.0.0", "peer@1.0.0", "tool@1.0.0(peer@1.0.0)"]
    );
    assert!(all.skipped.is_empty());

    // `--prod`: reached through `tool`'s optional edge only, `native` is
    // optional and skipped; the root's dev dependency no longer provides
    // `tool`'s optional peer.
    opts.included.dev_dependencies = false;
    let prod = plan(&lockfile, &opts).unwrap();
    assert_eq!(installed(&prod), vec!["tool@1.0.0(peer@1.0.0)"]);
    assert_eq!(prod.skipped, vec!["native@1.0.0".to_owned()]);
    let dropped = ("tool@1.0.0(peer@1.0.0)".to_owned(), "peer".to_owned());
    assert_eq!(prod.unlinked_peers, vec![dropped]);
}
