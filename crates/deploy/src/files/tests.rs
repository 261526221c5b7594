use std::path::{Path, PathBuf};

use pacquet_lockfile::Lockfile;
use pacquet_planner::IncludedGroups;
use pretty_assertions::assert_eq;

use super::{DeployInput, WorkspaceProjectInfo, create_deploy_files};

const LOCKFILE: &str = "lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false
  injectWorkspacePackages: true

importers:

  .: {}

  packages/app:
    dependencies:
      lib:
        specifier: workspace:*
        version: link:../lib
      pq-dup:
        specifier: ^1.0.0
        version: 1.0.0
    devDependencies:
      pq-dev:
        specifier: 1.0.0
        version: 1.0.0

  packages/lib:
    dependencies:
      app:
        specifier: workspace:*
        version: link:../app
      pq-dup:
        specifier: 2.0.0
        version: 2.0.0
    devDependencies:
      pq-dev:
        specifier: 1.0.0
        version: 1.0.0

packages:

  pq-dev@1.0.0:
    resolution: {integrity: sha512-dev}

  pq-dup@1.0.0:
    resolution: {integrity: sha512-one}

  pq-dup@2.0.0:
    resolution: {integrity: sha512-two}

  unused@1.0.0:
    resolution: {integrity: sha512-unused}

snapshots:

  pq-dev@1.0.0: {}

  pq-dup@1.0.0: {}

  pq-dup@2.0.0: {}

  unused@1.0.0: {}
";

fn projects() -> Vec<WorkspaceProjectInfo> {
    let project = |dir: &str, name: &str, has_bin| WorkspaceProjectInfo {
        dir: PathBuf::from(dir),
        name: Some(name.to_owned()),
        has_bin,
    };
    vec![
        project("/ws", "root", false),
        project("/ws/packages/app", "app", false),
        project("/ws/packages/lib", "lib", true),
    ]
}

fn deploy(included: IncludedGroups) -> super::DeployFiles {
    let lockfile = Lockfile::parse(LOCKFILE, Path::new("pnpm-lock.yaml")).unwrap();
    let manifest = serde_json::json!({
        "name": "app",
        "version": "1.0.0",
        "dependencies": {"lib": "workspace:*", "pq-dup": "^1.0.0"},
        "devDependencies": {"pq-dev": "1.0.0"},
        "scripts": {"start": "node ."}
    });
    create_deploy_files(&DeployInput {
        lockfile: &lockfile,
        lockfile_dir: Path::new("/ws"),
        project_id: "packages/app",
        manifest: &manifest,
        deploy_dir: Path::new("/out/app"),
        projects: &projects(),
        included,
    })
    .unwrap()
}

/// Workspace projects become `file:` directory packages found from the
/// deploy directory; the deployed project refers to itself as `link:.`;
/// specifiers are pinned to the resolved versions; what nothing reaches
/// is dropped; injection is no longer a lockfile setting.
#[test]
fn workspace_projects_become_directory_packages() {
    let files = deploy(IncludedGroups::default());
    assert_eq!(
        files.lockfile.to_yaml(),
        "lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  .:
    dependencies:
      lib:
        specifier: lib@file:///ws/packages/lib
        version: lib@file:///ws/packages/lib
      pq-dup:
        specifier: 1.0.0
        version: 1.0.0
    devDependencies:
      pq-dev:
        specifier: 1.0.0
        version: 1.0.0

packages:

  lib@file:///ws/packages/lib:
    resolution: {directory: ../../ws/packages/lib, type: directory}
    hasBin: true

  pq-dev@1.0.0:
    resolution: {integrity: sha512-dev}

  pq-dup@1.0.0:
    resolution: {integrity: sha512-one}

  pq-dup@2.0.0:
    resolution: {integrity: sha512-two}

snapshots:

  lib@file:///ws/packages/lib:
    dependencies:
      app: link:.
      pq-dup: 2.0.0

  pq-dev@1.0.0: {}

  pq-dup@1.0.0: {}

  pq-dup@2.0.0: {}
"
    );
    assert_eq!(files.injected, ["lib@file:///ws/packages/lib"]);
    assert_eq!(
        serde_json::to_string(&files.manifest).unwrap(),
        r#"{"name":"app","version":"1.0.0","dependencies":{"lib":"lib@file:///ws/packages/lib","pq-dup":"1.0.0"},"devDependencies":{"pq-dev":"1.0.0"},"scripts":{"start":"node ."},"optionalDependencies":{}}"#
    );
}

/// `--prod`: the dev group is empty in the manifest, absent in the
/// lockfile, and its packages are gone.
#[test]
fn prod_leaves_the_dev_group_out() {
    let files = deploy(IncludedGroups {
        dev_dependencies: false,
        ..IncludedGroups::default()
    });
    let importer = &files.lockfile.importers["."];
    assert!(importer.dev_dependencies.is_none());
    assert!(!files.lockfile.packages.contains_key("pq-dev@1.0.0"));
    assert_eq!(files.manifest["devDependencies"], serde_json::json!({}));
}
