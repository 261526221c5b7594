//! The planner on small hand-written lockfiles.

use pacquet_lockfile::Lockfile;
use pretty_assertions::assert_eq;

use super::{host, url};
use crate::{FetchSource, HoistKind, IncludedGroups, Plan, PlanError, PlanOptions, plan};

const LOCKFILE: &str = "lockfileVersion: '9.0'

importers:

  .:
    dependencies:
      app:
        specifier: 1.0.0
        version: 1.0.0
      local:
        specifier: file:local
        version: file:local
    devDependencies:
      '@types/node':
        specifier: 20.0.0
        version: 20.0.0
      eslint:
        specifier: 9.0.0
        version: 9.0.0
    optionalDependencies:
      native-win:
        specifier: 1.0.0
        version: 1.0.0

packages:

  '@types/node@20.0.0':
    resolution: {integrity: sha512-types}

  app@1.0.0:
    resolution: {integrity: sha512-app}
    hasBin: true

  dep@2.0.0:
    resolution: {integrity: sha512-dep}
    os: [darwin]

  eslint@9.0.0:
    resolution: {integrity: sha512-eslint}

  eslint-scope@8.0.0:
    resolution: {integrity: sha512-scope}

  gitpkg@https://codeload.github.com/o/r/tar.gz/abc:
    resolution: {tarball: https://codeload.github.com/o/r/tar.gz/abc}
    version: 1.0.0

  local@file:local:
    resolution: {directory: local, type: directory}
    version: 0.0.0

  native-win@1.0.0:
    resolution: {integrity: sha512-win}
    os: [win32]

  remote@https://pkgs.example.com/remote-1.0.0.tgz:
    resolution: {integrity: sha512-remote, tarball: https://pkgs.example.com/remote-1.0.0.tgz}
    version: 1.0.0

  tgz@file:tgz-1.0.0.tgz:
    resolution: {integrity: sha512-tgz, tarball: file:tgz-1.0.0.tgz}
    version: 1.0.0

snapshots:

  '@types/node@20.0.0': {}

  app@1.0.0:
    dependencies:
      app: 1.0.0
      dep: 2.0.0
      gitpkg: https://codeload.github.com/o/r/tar.gz/abc
      remote: https://pkgs.example.com/remote-1.0.0.tgz
      tgz: file:tgz-1.0.0.tgz
    optionalDependencies:
      native-win: 1.0.0

  dep@2.0.0: {}

  eslint@9.0.0:
    dependencies:
      eslint-scope: 8.0.0

  eslint-scope@8.0.0: {}

  gitpkg@https://codeload.github.com/o/r/tar.gz/abc: {}

  local@file:local: {}

  native-win@1.0.0:
    optional: true

  remote@https://pkgs.example.com/remote-1.0.0.tgz: {}

  tgz@file:tgz-1.0.0.tgz: {}
";

fn lockfile() -> Lockfile {
    serde_saphyr::from_str(LOCKFILE).unwrap()
}

fn run(configure: impl FnOnce(&mut PlanOptions)) -> Plan {
    let mut opts = PlanOptions::new(host(), &url);
    configure(&mut opts);
    plan(&lockfile(), &opts).unwrap()
}

fn links(plan: &Plan) -> Vec<String> {
    plan.symlinks
        .iter()
        .map(|l| format!("{} -> {}", l.path, l.target))
        .collect()
}

fn slot<'p>(plan: &'p Plan, key: &str) -> &'p crate::Slot {
    plan.slots
        .iter()
        .find(|s| s.dep_path.as_str() == key)
        .unwrap()
}

#[test]
fn fetch_sources_and_store_keys() {
    let plan = run(|_| {});
    let app = slot(&plan, "app@1.0.0");
    assert_eq!(
        app.fetch,
        FetchSource::Registry {
            url: "https://r.example/app/-/1.0.0.tgz".into(),
            integrity: "sha512-app".into()
        }
    );
    assert!(app.has_bin);
    assert_eq!(app.store_key.as_deref(), Some("sha512-app\tapp@1.0.0"));
    let remote = slot(&plan, "remote@https://pkgs.example.com/remote-1.0.0.tgz");
    assert_eq!(
        remote.store_key.as_deref(),
        Some("sha512-remote\thttps://pkgs.example.com/remote-1.0.0.tgz")
    );
    assert!(matches!(remote.fetch, FetchSource::Tarball { .. }));
    let tgz = slot(&plan, "tgz@file:tgz-1.0.0.tgz");
    assert_eq!(
        tgz.fetch,
        FetchSource::LocalTarball {
            path: "tgz-1.0.0.tgz".into(),
            integrity: "sha512-tgz".into()
        }
    );
    assert_eq!(
        tgz.store_key.as_deref(),
        Some("sha512-tgz\tfile:tgz-1.0.0.tgz")
    );
    assert_eq!(tgz.dir_name, "tgz@file+tgz-1.0.0.tgz");
    let local = slot(&plan, "local@file:local");
    assert_eq!(
        local.fetch,
        FetchSource::Directory {
            path: "local".into()
        }
    );
    assert_eq!(local.store_key, None);
    let git = slot(&plan, "gitpkg@https://codeload.github.com/o/r/tar.gz/abc");
    assert!(matches!(git.fetch, FetchSource::GitHostedTarball { .. }));
    assert_eq!(
        git.store_key.as_deref(),
        Some("https://codeload.github.com/o/r/tar.gz/abc\tbuilt")
    );
}

/// pnpm 12.21 keeps git packages it did not prepare under `\tnot-built`.
#[test]
fn ignore_scripts_keys_git_packages_not_built() {
    let plan = run(|o| o.ignore_scripts = true);
    let git = slot(&plan, "gitpkg@https://codeload.github.com/o/r/tar.gz/abc");
    assert_eq!(
        git.store_key.as_deref(),
        Some("https://codeload.github.com/o/r/tar.gz/abc\tnot-built")
    );
}

#[test]
fn skipped_optional_is_not_linked_and_mismatch_warns() {
    let plan = run(|_| {});
    assert_eq!(plan.skipped, vec!["native-win@1.0.0".to_owned()]);
    assert!(
        plan.slots
            .iter()
            .all(|s| s.dep_path.as_str() != "native-win@1.0.0")
    );
    assert!(links(&plan).iter().all(|l| !l.contains("native-win")));
    // dep@2.0.0 is darwin-only but not optional: installed with a warning.
    assert_eq!(plan.warnings.len(), 1);
    assert_eq!(plan.warnings[0].dep_path, "dep@2.0.0");
    assert!(
        plan.slots
            .iter()
            .any(|s| s.dep_path.as_str() == "dep@2.0.0")
    );
}

#[test]
fn a_package_never_links_to_itself() {
    let plan = run(|_| {});
    let own = "node_modules/.pnpm/app@1.0.0/node_modules/app";
    assert_eq!(plan.symlinks.iter().filter(|l| l.path == own).count(), 0);
}

#[test]
fn scoped_direct_dep_target() {
    let plan = run(|_| {});
    assert!(
        links(&plan).contains(
            &"node_modules/@types/node -> ../.pnpm/@types+node@20.0.0/node_modules/@types/node"
                .to_owned()
        )
    );
    assert!(plan.dirs.contains(&"node_modules/@types".to_owned()));
    assert!(
        plan.dirs
            .contains(&"node_modules/.pnpm/@types+node@20.0.0/node_modules/@types".to_owned())
    );
}

#[test]
fn prod_only_drops_dev_subgraph() {
    let plan = run(|o| {
        o.included = IncludedGroups {
            dependencies: true,
            dev_dependencies: false,
            optional_dependencies: true,
        }
    });
    assert!(
        plan.slots
            .iter()
            .all(|s| !s.dep_path.as_str().starts_with("eslint"))
    );
    assert!(links(&plan).iter().all(|l| !l.contains("eslint")));
    assert!(
        plan.importers[0]
            .direct
            .iter()
            .all(|d| d.alias != "@types/node")
    );
}

#[test]
fn public_hoisting_and_hoisting_off() {
    let plan = run(|o| o.public_hoist_pattern = vec!["*eslint*".into()]);
    let scope = plan
        .hoisted
        .iter()
        .find(|h| h.alias == "eslint-scope")
        .unwrap();
    assert_eq!(scope.kind, HoistKind::Public);
    assert!(
        links(&plan).contains(
            &"node_modules/eslint-scope -> .pnpm/eslint-scope@8.0.0/node_modules/eslint-scope"
                .to_owned()
        )
    );
    let dep = plan.hoisted.iter().find(|h| h.alias == "dep").unwrap();
    assert_eq!(dep.kind, HoistKind::Private);

    // Everything public (`shamefullyHoist`): pnpm 12 still makes the
    // private hoisting directory, empty.
    let all_public = run(|o| o.public_hoist_pattern = vec!["*".into()]);
    assert!(
        all_public
            .hoisted
            .iter()
            .all(|h| h.kind == HoistKind::Public)
    );
    assert!(
        all_public
            .dirs
            .contains(&"node_modules/.pnpm/node_modules".to_owned())
    );

    let off = run(|o| o.hoist_pattern.clear());
    assert!(off.hoisted.is_empty());
    assert!(
        !off.dirs
            .contains(&"node_modules/.pnpm/node_modules".to_owned())
    );
}

#[test]
fn long_names_follow_the_max_length() {
    let plan = run(|o| o.virtual_store_dir_max_length = 40);
    let git = slot(&plan, "gitpkg@https://codeload.github.com/o/r/tar.gz/abc");
    assert_eq!(git.dir_name.len(), 40);
}

#[test]
fn missing_snapshot_is_an_error() {
    let text = LOCKFILE.replace("      dep: 2.0.0\n", "      dep: 9.9.9\n");
    let lockfile: Lockfile = serde_saphyr::from_str(&text).unwrap();
    let opts = PlanOptions::new(host(), &url);
    let err = plan(&lockfile, &opts).unwrap_err();
    assert!(
        matches!(err, PlanError::MissingDependency { ref dep_path } if dep_path == "dep@9.9.9")
    );
}

#[test]
fn missing_tarball_integrity_is_an_error() {
    let text = LOCKFILE.replace(
        "{integrity: sha512-remote, tarball: https://pkgs.example.com/remote-1.0.0.tgz}",
        "{tarball: https://pkgs.example.com/remote-1.0.0.tgz}",
    );
    let lockfile: Lockfile = serde_saphyr::from_str(&text).unwrap();
    let opts = PlanOptions::new(host(), &url);
    let err = plan(&lockfile, &opts).unwrap_err();
    assert!(matches!(err, PlanError::MissingTarballIntegrity { .. }));
}

#[test]
fn unknown_importer_is_an_error() {
    let mut opts = PlanOptions::new(host(), &url);
    opts.importers = vec![crate::ImporterSelection::new("packages/x", None)];
    let err = plan(&lockfile(), &opts).unwrap_err();
    assert!(matches!(err, PlanError::MissingImporter { .. }));
}

#[test]
fn symlinks_know_their_owner_and_target_slot() {
    use crate::LinkOwner;
    let plan = run(|_| {});
    let app = plan
        .slots
        .iter()
        .position(|s| s.dep_path.as_str() == "app@1.0.0")
        .unwrap();
    let dep = plan
        .slots
        .iter()
        .position(|s| s.dep_path.as_str() == "dep@2.0.0")
        .unwrap();
    let sibling = plan
        .symlinks
        .iter()
        .find(|l| l.path == "node_modules/.pnpm/app@1.0.0/node_modules/dep")
        .unwrap();
    assert_eq!(sibling.owner, LinkOwner::Slot(app));
    assert_eq!(sibling.target_slot, Some(dep));
    let direct = plan
        .symlinks
        .iter()
        .find(|l| l.path == "node_modules/app")
        .unwrap();
    assert_eq!(direct.owner, LinkOwner::Importer(0));
    assert_eq!(direct.target_slot, Some(app));
    let hoisted = plan
        .symlinks
        .iter()
        .find(|l| l.path == "node_modules/.pnpm/node_modules/dep")
        .unwrap();
    assert_eq!(hoisted.owner, LinkOwner::PrivateHoist);
    assert_eq!(hoisted.target, "../dep@2.0.0/node_modules/dep");
}

/// `link:` refs inside snapshots are relative to the lockfile directory.
#[test]
fn snapshot_link_refs_are_linked() {
    let text = LOCKFILE.replace(
        "  dep@2.0.0: {}\n",
        "  dep@2.0.0:\n    dependencies:\n      tool: link:tools/tool\n",
    );
    let lockfile: Lockfile = serde_saphyr::from_str(&text).unwrap();
    let opts = PlanOptions::new(host(), &url);
    let plan = plan(&lockfile, &opts).unwrap();
    assert!(links(&plan).contains(
        &"node_modules/.pnpm/dep@2.0.0/node_modules/tool -> ../../../../tools/tool".to_owned()
    ));
}

/// An optional entry that declares some platform fields gets the missing
/// ones from its name: pnpm 12 skips a `-musl` package with only `os` and
/// `cpu` on glibc, and installs one whose name names nothing.
#[test]
fn missing_platform_fields_are_inferred_from_the_name() {
    let text = "lockfileVersion: '9.0'

importers:

  .:
    optionalDependencies:
      tool-linux-x64-musl:
        specifier: 1.0.0
        version: 1.0.0
      tool-linux-x64-gnu:
        specifier: 1.0.0
        version: 1.0.0
      plain:
        specifier: 1.0.0
        version: 1.0.0

packages:

  plain@1.0.0:
    resolution: {integrity: sha512-plain}
    os: [linux]

  tool-linux-x64-gnu@1.0.0:
    resolution: {integrity: sha512-gnu}
    cpu: [x64]
    os: [linux]

  tool-linux-x64-musl@1.0.0:
    resolution: {integrity: sha512-musl}
    cpu: [x64]
    os: [linux]

snapshots:

  plain@1.0.0:
    optional: true

  tool-linux-x64-gnu@1.0.0:
    optional: true

  tool-linux-x64-musl@1.0.0:
    optional: true
";
    let lockfile = Lockfile::parse(text, std::path::Path::new("pnpm-lock.yaml")).unwrap();
    let opts = PlanOptions::new(host(), &url);
    let plan = plan(&lockfile, &opts).unwrap();
    assert_eq!(plan.skipped, vec!["tool-linux-x64-musl@1.0.0".to_owned()]);
}

/// `hoistedDependencies` order in a workspace: a direct dependency named
/// like a workspace project is considered first (tailwindcss), and of
/// projects sharing a name only the last is hoisted, in the first one's
/// place (vitest).
#[test]
fn workspace_names_order_the_hoisted_dependencies() {
    let text = "lockfileVersion: '9.0'

importers:

  .: {}

  packages/tw: {}

  play:
    dependencies:
      c:
        specifier: 1.0.0
        version: 1.0.0
      tw:
        specifier: 1.0.0
        version: 1.0.0

  x1: {}

  x2: {}

packages:

  c@1.0.0:
    resolution: {integrity: sha512-c}

  tw@1.0.0:
    resolution: {integrity: sha512-tw}

snapshots:

  c@1.0.0: {}

  tw@1.0.0: {}
";
    let lockfile = Lockfile::parse(text, std::path::Path::new("pnpm-lock.yaml")).unwrap();
    let mut opts = PlanOptions::new(host(), &url);
    opts.importers = [
        (".", None),
        ("packages/tw", Some("tw")),
        ("play", Some("play")),
        ("x1", Some("dup")),
        ("x2", Some("dup")),
    ]
    .into_iter()
    .map(|(id, name)| crate::ImporterSelection::new(id, name))
    .collect();
    let plan = plan(&lockfile, &opts).unwrap();
    let records: Vec<String> = plan
        .hoisted
        .iter()
        .map(|h| format!("{:?} {}", h.target, h.alias))
        .collect();
    assert_eq!(
        records,
        [
            "Slot(1) tw",
            "Slot(0) c",
            "Importer(\"play\") play",
            "Importer(\"x2\") dup",
        ]
    );
}

/// `dedupeDirectDeps`: a project links no dependency the root's
/// `node_modules` already has under the same alias with the same target
/// (docs/layout.md §3); another version keeps its link.
#[test]
fn dedupe_direct_deps_skips_what_the_root_has() {
    let text = "lockfileVersion: '9.0'

importers:

  .:
    dependencies:
      a:
        specifier: 1.0.0
        version: 1.0.0
      b:
        specifier: 1.0.0
        version: 1.0.0

  p:
    dependencies:
      a:
        specifier: 1.0.0
        version: 1.0.0
      b:
        specifier: 2.0.0
        version: 2.0.0

packages:

  a@1.0.0:
    resolution: {integrity: sha512-a}

  b@1.0.0:
    resolution: {integrity: sha512-b1}

  b@2.0.0:
    resolution: {integrity: sha512-b2}

snapshots:

  a@1.0.0: {}

  b@1.0.0: {}

  b@2.0.0: {}
";
    let lockfile = Lockfile::parse(text, std::path::Path::new("pnpm-lock.yaml")).unwrap();
    let project_links = |dedupe: bool| {
        let mut opts = PlanOptions::new(host(), &url);
        opts.importers = vec![
            crate::ImporterSelection::new(".", None),
            crate::ImporterSelection::new("p", Some("p")),
        ];
        opts.dedupe_direct_deps = dedupe;
        let plan = plan(&lockfile, &opts).unwrap();
        let aliases: Vec<String> = plan.importers[1]
            .direct
            .iter()
            .map(|d| d.alias.clone())
            .collect();
        let linked = links(&plan)
            .into_iter()
            .filter(|l| l.starts_with("p/"))
            .count();
        (aliases, linked)
    };
    assert_eq!(project_links(false), (vec!["a".into(), "b".into()], 2));
    assert_eq!(project_links(true), (vec!["b".into()], 1));
}
