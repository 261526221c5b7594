//! Expected texts were produced by pnpm 12.21 on the same inputs.

use std::path::Path;

use pretty_assertions::assert_eq;

use super::glob_match;
use crate::{ImporterCheckOptions, Lockfile, LockfileError, ProjectManifest, check_importers};

fn fixture_lockfile(name: &str) -> Lockfile {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .join("pnpm-lock.yaml");
    let text = std::fs::read_to_string(&path).expect("fixture");
    Lockfile::parse(&text, &path).expect("parses")
}

fn manifest(json: &str) -> ProjectManifest {
    ProjectManifest::from_json(json, Path::new("package.json")).expect("valid json")
}

fn check_root(
    lockfile: &str,
    json: &str,
    opts: &ImporterCheckOptions,
) -> Result<(), LockfileError> {
    let lf = fixture_lockfile(lockfile);
    let m = manifest(json);
    check_importers(&lf, &[(".", &m)], opts)
}

fn reason(lockfile: &str, json: &str) -> String {
    match check_root(lockfile, json, &ImporterCheckOptions::default()) {
        Err(LockfileError::Outdated { reason }) => reason,
        other => panic!("expected OUTDATED_LOCKFILE, got {other:?}"),
    }
}

const ALIASES: &str = r#"{"name":"aliases","version":"1.0.0","dependencies":{"ms-alias":"npm:ms@2.1.3","@sindresorhus/is":"4.6.0","scoped-alias":"npm:@sindresorhus/is@4.6.0","lodash":"npm:lodash@^4.17.21"}}"#;

#[test]
fn up_to_date_manifest_passes() {
    assert!(check_root("aliases", ALIASES, &ImporterCheckOptions::default()).is_ok());
}

#[test]
fn added_removed_and_mismatched_are_listed() {
    let err = check_root(
        "aliases",
        r#"{"dependencies":{"ms-alias":"npm:ms@2.1.2","@sindresorhus/is":"4.6.1","new1":"^1","new2":"2"}}"#,
        &ImporterCheckOptions::default(),
    )
    .expect_err("outdated");
    assert_eq!(
        err.to_string(),
        "Cannot install with \"frozen-lockfile\" because pnpm-lock.yaml is not up to date with package.json.

  Failure reason:
  specifiers in the lockfile don't match specifiers in package.json:
* in importers[\".\"]:
* 2 dependencies were added: new1@^1, new2@2
* 2 dependencies were removed: lodash@npm:lodash@^4.17.21, scoped-alias@npm:@sindresorhus/is@4.6.0
* 2 dependencies are mismatched:
  - @sindresorhus/is (lockfile: 4.6.0, manifest: 4.6.1)
  - ms-alias (lockfile: npm:ms@2.1.3, manifest: npm:ms@2.1.2)"
    );
    let code = miette::Diagnostic::code(&err).map(|c| c.to_string());
    assert_eq!(code.as_deref(), Some("ERR_PNPM_OUTDATED_LOCKFILE"));
}

#[test]
fn singular_wording() {
    let r = reason(
        "workspace",
        r#"{"devDependencies":{"is-positive":"^3.1.1"},"dependencies":{"a":"1"}}"#,
    );
    assert_eq!(
        r,
        "  specifiers in the lockfile don't match specifiers in package.json:
* in importers[\".\"]:
* 1 dependency was added: a@1
* 1 dependency is mismatched:
  - is-positive (lockfile: ^3.1.0, manifest: ^3.1.1)"
    );
    let r = reason("workspace", r#"{}"#);
    assert!(
        r.ends_with("* 1 dependency was removed: is-positive@^3.1.0"),
        "{r}"
    );
}

#[test]
fn odd_shapes_count_as_absent() {
    let r = reason("aliases", r#"{"dependencies":[]}"#);
    assert!(r.ends_with("* 4 dependencies were removed: @sindresorhus/is@4.6.0, lodash@npm:lodash@^4.17.21, ms-alias@npm:ms@2.1.3, scoped-alias@npm:@sindresorhus/is@4.6.0"), "{r}");
}

#[test]
fn moving_a_dependency_between_groups_is_detected() {
    let moved_to_dev = r#"{"dependencies":{"ms-alias":"npm:ms@2.1.3","@sindresorhus/is":"4.6.0","scoped-alias":"npm:@sindresorhus/is@4.6.0"},"devDependencies":{"lodash":"npm:lodash@^4.17.21"}}"#;
    assert_eq!(
        reason("aliases", moved_to_dev),
        "  importer dependencies.lodash specifier \"npm:lodash@^4.17.21\" doesn't match package manifest specifier (\"(absent)\")"
    );
    let moved_to_optional = moved_to_dev.replace("devDependencies", "optionalDependencies");
    assert_eq!(
        reason("aliases", &moved_to_optional),
        "  importer dependencies.lodash specifier \"npm:lodash@^4.17.21\" doesn't match package manifest specifier (\"(absent)\")"
    );
    assert_eq!(
        reason("workspace", r#"{"dependencies":{"is-positive":"^3.1.0"}}"#),
        "  importer dependencies.is-positive specifier \"(absent)\" doesn't match package manifest specifier (\"^3.1.0\")"
    );
}

#[test]
fn dev_and_prod_duplicate_counts_as_prod() {
    let both = r#"{"dependencies":{"ms-alias":"npm:ms@2.1.3","@sindresorhus/is":"4.6.0","scoped-alias":"npm:@sindresorhus/is@4.6.0","lodash":"npm:lodash@^4.17.21"},"devDependencies":{"lodash":"npm:lodash@^4.17.21"}}"#;
    assert!(check_root("aliases", both, &ImporterCheckOptions::default()).is_ok());
}

#[test]
fn publish_directory_and_meta_are_compared() {
    let with_pub = ALIASES.replacen('{', r#"{"publishConfig":{"directory":"dist"},"#, 1);
    assert_eq!(
        reason("aliases", &with_pub),
        "  `publishDirectory` in the lockfile (None) doesn't match `publishConfig.directory` in package.json (Some(\"dist\"))"
    );
    // The lockfile says nothing of `linkDirectory`: it means `true`.
    let unlinked = ALIASES.replacen('{', r#"{"publishConfig":{"linkDirectory":false},"#, 1);
    assert_eq!(
        reason("aliases", &unlinked),
        "  \"linkDirectory\" in the lockfile (true) doesn't match \"publishConfig.linkDirectory\" in package.json (false)"
    );
    let linked = ALIASES.replacen('{', r#"{"publishConfig":{"linkDirectory":true},"#, 1);
    assert!(check_root("aliases", &linked, &ImporterCheckOptions::default()).is_ok());
    let with_meta = ALIASES.replacen(
        '{',
        r#"{"dependenciesMeta":{"ms-alias":{"injected":true}},"#,
        1,
    );
    assert_eq!(
        reason("aliases", &with_meta),
        "  importer dependencies meta ({}) doesn't match package manifest dependencies meta ({\"ms-alias\":{\"injected\":true}})"
    );
}

#[test]
fn peers_count_only_with_auto_install_peers() {
    let with_peer = ALIASES.replacen('{', r#"{"peerDependencies":{"react":"^18"},"#, 1);
    let r = reason("aliases", &with_peer);
    assert!(r.ends_with("* 1 dependency was added: react@^18"), "{r}");
    let opts = ImporterCheckOptions {
        auto_install_peers: false,
        ..Default::default()
    };
    assert!(check_root("aliases", &with_peer, &opts).is_ok());
    // A peer that is also a regular dependency is not added twice.
    let both = ALIASES.replacen('{', r#"{"peerDependencies":{"lodash":"*"},"#, 1);
    assert!(check_root("aliases", &both, &ImporterCheckOptions::default()).is_ok());
}

#[test]
fn links_are_ignored_when_excluded_from_the_lockfile() {
    let with_link = ALIASES.replacen(
        r#""dependencies":{"#,
        r#""dependencies":{"x":"link:../x","#,
        1,
    );
    assert!(check_root("aliases", &with_link, &ImporterCheckOptions::default()).is_err());
    let opts = ImporterCheckOptions {
        exclude_links_from_lockfile: true,
        ..Default::default()
    };
    assert!(check_root("aliases", &with_link, &opts).is_ok());
}

#[test]
fn ignored_optional_dependencies_are_dropped_from_the_manifest() {
    let with_optional = ALIASES.replacen('{', r#"{"optionalDependencies":{"fsevents":"^2"},"#, 1);
    assert!(check_root("aliases", &with_optional, &ImporterCheckOptions::default()).is_err());
    let opts = ImporterCheckOptions {
        ignored_optional_dependencies: vec!["fse*".into()],
        ..Default::default()
    };
    assert!(check_root("aliases", &with_optional, &opts).is_ok());
}

#[test]
fn workspace_checks_stop_at_the_first_outdated_importer() {
    let lf = fixture_lockfile("workspace");
    let root = manifest(r#"{"devDependencies":{"is-positive":"^3.1.0"}}"#);
    let a = manifest(r#"{"dependencies":{"b":"workspace:*","is-odd":"^3.0.2"}}"#);
    let b = manifest(
        r#"{"dependencies":{"is-number":"^7.0.1"},"devDependencies":{"@scope/c":"workspace:^"}}"#,
    );
    let c =
        manifest(r#"{"publishConfig":{"directory":"dist"},"dependencies":{"a":"workspace:../a"}}"#);
    let opts = ImporterCheckOptions::default();
    let err = check_importers(
        &lf,
        &[(".", &root), ("packages/a", &a), ("packages/b", &b)],
        &opts,
    )
    .expect_err("a is outdated");
    assert_eq!(
        err.to_string(),
        "Cannot install with \"frozen-lockfile\" because pnpm-lock.yaml is not up to date with package.json.

  Failure reason:
  specifiers in the lockfile don't match specifiers in package.json:
* in importers[\"packages/a\"]:
* 1 dependency is mismatched:
  - is-odd (lockfile: ^3.0.1, manifest: ^3.0.2)"
    );
    assert!(check_importers(&lf, &[(".", &root), ("packages/c", &c)], &opts).is_ok());
}

#[test]
fn missing_importer_fails_only_with_dependencies() {
    let lf = fixture_lockfile("workspace");
    let with_deps = manifest(r#"{"dependencies":{"is-odd":"^3.0.1"}}"#);
    let err = check_importers(
        &lf,
        &[("packages/d", &with_deps)],
        &ImporterCheckOptions::default(),
    )
    .expect_err("no importer");
    assert_eq!(
        err.to_string(),
        "Cannot install with \"frozen-lockfile\" because pnpm-lock.yaml has no `importers[\"packages/d\"]` entry. Regenerate the lockfile with `pnpm install --lockfile-only`."
    );
    let code = miette::Diagnostic::code(&err).map(|c| c.to_string());
    assert_eq!(
        code.as_deref(),
        Some("ERR_PNPM_PACKAGE_MANAGER_NO_IMPORTER")
    );
    let empty = manifest(r#"{"name":"d","version":"1.0.0"}"#);
    assert!(
        check_importers(
            &lf,
            &[("packages/d", &empty)],
            &ImporterCheckOptions::default()
        )
        .is_ok()
    );
}

#[test]
fn glob_patterns() {
    assert!(glob_match("fsevents", "fsevents"));
    assert!(glob_match("*", "anything"));
    assert!(glob_match("@esbuild/*", "@esbuild/linux-x64"));
    assert!(glob_match("a*b*c", "axxbyyc"));
    assert!(!glob_match("a*b*c", "axxbyy"));
    assert!(!glob_match("fse*", "xfsevents"));
    assert!(!glob_match("ab*ba", "aba"));
}

fn fixture_manifest(name: &str) -> ProjectManifest {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .join("package.json");
    ProjectManifest::from_path(&path).expect("manifest")
}

#[test]
fn recorded_projects_satisfy_their_lockfiles() {
    let meta = fixture_manifest("meta");
    assert_eq!(meta.publish_directory.as_deref(), Some("out"));
    assert!(
        check_importers(
            &fixture_lockfile("meta"),
            &[(".", &meta)],
            &ImporterCheckOptions::default()
        )
        .is_ok()
    );
    let settings = fixture_manifest("settings");
    let opts = ImporterCheckOptions {
        auto_install_peers: false,
        exclude_links_from_lockfile: true,
        ignored_optional_dependencies: vec!["zz".into(), "aa".into()],
    };
    assert!(check_importers(&fixture_lockfile("settings"), &[(".", &settings)], &opts).is_ok());
    // The `link:` optional dependency is only ignored because links are excluded.
    let keep_links = ImporterCheckOptions {
        exclude_links_from_lockfile: false,
        ..opts
    };
    assert!(
        check_importers(
            &fixture_lockfile("settings"),
            &[(".", &settings)],
            &keep_links
        )
        .is_err()
    );
}

#[test]
fn unreadable_manifests_are_reported() {
    let err =
        ProjectManifest::from_path(Path::new("/nonexistent/package.json")).expect_err("missing");
    assert!(
        matches!(&err, LockfileError::NoPkgManifest { dir } if dir == Path::new("/nonexistent"))
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("package.json")).unwrap();
    let err = ProjectManifest::from_path(&dir.path().join("package.json")).expect_err("a dir");
    assert!(matches!(err, LockfileError::ReadManifest { .. }));
    let err = ProjectManifest::from_json("{", Path::new("package.json")).expect_err("bad json");
    assert!(matches!(err, LockfileError::ParseManifest { .. }));
}

#[test]
fn hosted_git_spellings_are_equivalent() {
    let sha = "1d7e288222b53a0cab90a331f1865220ec29560c";
    let url = format!("https://codeload.github.com/kevva/is-negative/tar.gz/{sha}");
    let text = format!(
        "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      is-negative:\n        specifier: github:kevva/is-negative#{sha}\n        version: {url}\n\npackages:\n\n  is-negative@{url}:\n    resolution: {{tarball: {url}}}\n    version: 2.0.0\n\nsnapshots:\n\n  is-negative@{url}: {{}}\n"
    );
    let lf = Lockfile::parse(&text, Path::new("/p/pnpm-lock.yaml")).expect("parses");
    let opts = ImporterCheckOptions::default();
    for spec in [
        format!("kevva/is-negative#{sha}"),
        format!("git+https://github.com/kevva/is-negative.git#{sha}"),
    ] {
        let m = manifest(&format!(r#"{{"dependencies":{{"is-negative":"{spec}"}}}}"#));
        assert!(check_importers(&lf, &[(".", &m)], &opts).is_ok(), "{spec}");
    }
    let short = manifest(r#"{"dependencies":{"is-negative":"github:kevva/is-negative#1d7e288"}}"#);
    assert!(check_importers(&lf, &[(".", &short)], &opts).is_err());
}

/// `devEngines.runtime` with `onFail: download` is a development dependency
/// on the runtime, as pnpm 12 records it in the importer.
#[test]
fn a_downloaded_runtime_is_a_dev_dependency() {
    let m = manifest(
        r#"{"devEngines":{"runtime":{"name":"node","version":"26.7.0","onFail":"download"}}}"#,
    );
    assert_eq!(
        m.dev_dependencies.get("node").map(String::as_str),
        Some("runtime:26.7.0")
    );
    let m =
        manifest(r#"{"devEngines":{"runtime":[{"name":"node","version":"26","onFail":"error"}]}}"#);
    assert!(m.dev_dependencies.is_empty());
}
