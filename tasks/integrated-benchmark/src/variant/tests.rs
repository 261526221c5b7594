use std::fs;

use super::*;

const LOCK: &str = "lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  .:
    dependencies:
      a:
        specifier: ^1.0.0
        version: 1.0.0
      b:
        specifier: ^1.0.0
        version: 1.0.0

packages:

  a@1.0.0:
    resolution: {integrity: sha512-aaaa}

  b@1.0.0:
    resolution: {integrity: sha512-bbbb}

  only-b@1.0.0:
    resolution: {integrity: sha512-cccc}

  shared@1.0.0:
    resolution: {integrity: sha512-dddd}

snapshots:

  a@1.0.0:
    dependencies:
      shared: 1.0.0

  b@1.0.0:
    dependencies:
      only-b: 1.0.0
      shared: 1.0.0

  only-b@1.0.0: {}

  shared@1.0.0: {}
";

#[test]
fn removes_a_direct_dependency_and_only_what_it_alone_reached() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = dir.path().join("fixture");
    fs::create_dir_all(&fixture).unwrap();
    fs::write(fixture.join("pnpm-lock.yaml"), LOCK).unwrap();
    fs::write(
        fixture.join("package.json"),
        r#"{"name":"x","dependencies":{"a":"^1.0.0","b":"^1.0.0"}}"#,
    )
    .unwrap();
    let out = dir.path().join("out");

    let removed = write_smaller(&fixture, &out).unwrap();

    // Two names: the middle one (index 1) is picked.
    assert_eq!(removed.direct, vec!["b".to_string()]);
    assert_eq!((removed.snapshots, removed.packages), (2, 2));
    let lockfile = pacquet_lockfile::read_lockfile(&out.join("pnpm-lock.yaml"))
        .unwrap()
        .unwrap();
    let keys: Vec<&str> = lockfile.snapshots.keys().map(|k| k.as_str()).collect();
    assert_eq!(keys, ["a@1.0.0", "shared@1.0.0"]);
    let packages: Vec<&str> = lockfile.packages.keys().map(|k| k.as_str()).collect();
    assert_eq!(packages, ["a@1.0.0", "shared@1.0.0"]);
    let root = &lockfile.importers["."];
    assert!(!root.dependencies.as_ref().unwrap().contains_key("b"));
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("package.json")).unwrap()).unwrap();
    assert_eq!(manifest["dependencies"], serde_json::json!({"a": "^1.0.0"}));
}

#[test]
fn the_small_fixture_variant_is_a_consistent_lockfile() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/fixtures/small");
    let dir = tempfile::tempdir().unwrap();

    let removed = write_smaller(&fixture, dir.path()).unwrap();

    assert_eq!(removed.direct.len(), 1);
    assert!(removed.snapshots > 0);
    let lockfile = pacquet_lockfile::read_lockfile(&dir.path().join("pnpm-lock.yaml"))
        .unwrap()
        .unwrap();
    lockfile.check_edges().unwrap();
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("package.json")).unwrap())
            .unwrap();
    assert!(manifest["dependencies"].get(&removed.direct[0]).is_none());
}
