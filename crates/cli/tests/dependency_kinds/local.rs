//! `workspace:`, `link:` (inside and outside the workspace), `file:`
//! directories, `file:` tarballs and npm aliases, through the `dep-kinds`
//! fixture.

use std::os::unix::fs::MetadataExt;

use pacquet_testing::{
    DiffOptions, PnpmEnv, Registry, assert_trees_equal, pnpm_install_fixture, prepare_project,
};

use super::helpers::{Pair, index_keys, write_project};
use crate::support::pacquet_install_ok;

const INJECTED: &str = "node_modules/.pnpm/local-dir@file+local-dir/node_modules/local-dir";

/// Installs `dep-kinds` with pnpm and with pacquet (separate stores).
fn install_fixture(
    tmp: &std::path::Path,
    registry: &Registry,
) -> (std::path::PathBuf, PnpmEnv, std::path::PathBuf, PnpmEnv) {
    let pnpm = pnpm_install_fixture(registry, "dep-kinds", &tmp.join("pnpm"));
    let project = tmp.join("pacquet/project");
    prepare_project("dep-kinds", &project, &registry.url());
    let env = PnpmEnv::new(&tmp.join("pacquet/env"), &registry.url());
    pacquet_install_ok(&env, &project, &[]);
    (pnpm.project, pnpm.env, project, env)
}

#[test]
fn fixture_with_every_kind_matches_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (pnpm, pnpm_env, pacquet, env) = install_fixture(tmp.path(), &registry);
    let opts = DiffOptions::for_installs(&pnpm, &pnpm_env.store_dir, &pacquet, &env.store_dir);
    assert_trees_equal(&pnpm, &pacquet, &opts);
}

#[test]
fn workspace_and_link_dependencies_are_symlinks() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (_, _, project, _) = install_fixture(tmp.path(), &registry);
    let link = |path: &str| std::fs::read_link(project.join(path)).unwrap();
    assert_eq!(
        link("node_modules/@pq-dk/child"),
        std::path::Path::new("../../packages/child")
    );
    assert_eq!(
        link("packages/child/node_modules/linked"),
        std::path::Path::new("../../../linked")
    );
}

#[test]
fn npm_alias_links_the_real_package_under_the_alias() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (_, _, project, _) = install_fixture(tmp.path(), &registry);
    let target = std::fs::read_link(project.join("node_modules/plain-alias")).unwrap();
    assert_eq!(
        target,
        std::path::Path::new(".pnpm/pq-plain@1.1.0/node_modules/pq-plain")
    );
}

/// pnpm 12 hard-links the packed files of the source directory (no CAS
/// blob, no index row) and records the copy in `injectedDeps`.
#[test]
fn file_directory_is_injected_from_its_packed_files() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (_, _, project, env) = install_fixture(tmp.path(), &registry);
    let injected = project.join(INJECTED);
    let source = project.join("local-dir");
    for file in ["package.json", "lib/index.js", "cli.js", "README.md"] {
        let a = std::fs::metadata(injected.join(file)).unwrap();
        let b = std::fs::metadata(source.join(file)).unwrap();
        assert_eq!(a.ino(), b.ino(), "{file} is not a hard link to the source");
    }
    assert!(!injected.join("notes").exists(), "outside `files`");
    assert!(
        index_keys(&env.store_dir)
            .iter()
            .all(|k| !k.contains("local-dir")),
        "directories get no index row"
    );
    let modules: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(project.join("node_modules/.modules.yaml")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        modules["injectedDeps"],
        serde_json::json!({ "local-dir": [INJECTED] })
    );
}

#[test]
fn file_tarball_is_stored_under_its_path_key() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (_, _, project, env) = install_fixture(tmp.path(), &registry);
    let keys = index_keys(&env.store_dir);
    assert!(
        keys.iter().any(
            |k| k.starts_with("sha512-") && k.ends_with("\tfile:vendor/pq-local-tgz-1.0.0.tgz")
        ),
        "{keys:?}"
    );
    let index = project.join("node_modules/pq-local-tgz/index.js");
    assert_eq!(
        std::fs::read_to_string(index).unwrap(),
        "module.exports = 'pq-local-tgz';\n"
    );
}

/// A `link:` to a directory outside the workspace root.
#[test]
fn link_outside_the_workspace_matches_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let source = tmp.path().join("source");
    // Next to the project the lockfile is made in and to both copies.
    for side in ["", "pnpm", "pacquet"] {
        let outside = tmp.path().join(side).join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(
            outside.join("package.json"),
            r#"{"name":"outside","version":"1.0.0"}"#,
        )
        .unwrap();
    }
    write_project(
        &source,
        serde_json::json!({ "outside": "link:../outside", "pq-plain": "1.0.0" }),
        "",
        &registry.url(),
    );
    PnpmEnv::new(&tmp.path().join("lock-env"), &registry.url()).lockfile_only(&source);
    let pair = Pair::install(&source, tmp.path(), &registry.url());
    pair.assert_same_tree();
    let link = std::fs::read_link(pair.pacquet.join("node_modules/outside")).unwrap();
    assert_eq!(link, std::path::Path::new("../../outside"));
}

/// A `file:` directory with an install script, allowed by its full id:
/// pnpm 12 copies it (no hard links to the source) and runs the script in
/// the copy.
#[test]
fn file_directory_with_install_script_is_built_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let source = tmp.path().join("source");
    write_project(
        &source,
        serde_json::json!({ "built-dir": "file:./built-dir" }),
        "allowBuilds:\n  'built-dir@file:built-dir': true\n",
        &registry.url(),
    );
    let dir = source.join("built-dir");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("package.json"),
        r#"{"name":"built-dir","version":"1.0.0","scripts":{"postinstall":"node -e \"require('fs').writeFileSync('post.txt', 'built')\""}}"#,
    )
    .unwrap();
    PnpmEnv::new(&tmp.path().join("lock-env"), &registry.url()).lockfile_only(&source);
    let pair = Pair::install(&source, tmp.path(), &registry.url());
    pair.assert_same_tree();
    let injected = pair
        .pacquet
        .join("node_modules/.pnpm/built-dir@file+built-dir/node_modules/built-dir");
    assert_eq!(
        std::fs::read_to_string(injected.join("post.txt")).unwrap(),
        "built"
    );
    let source_manifest = pair.pacquet.join("built-dir/package.json");
    assert_eq!(
        std::fs::metadata(source_manifest).unwrap().nlink(),
        1,
        "copied"
    );
}
