//! `pacquet fetch`: the store filled from `pnpm-lock.yaml` alone is enough
//! for an offline install with the registry gone, and nothing but the store
//! is written.

mod support;

use std::path::Path;

use pacquet_testing::{DiffOptions, PnpmEnv, Registry, assert_trees_equal, prepare_project};
use support::{pacquet, pacquet_install_ok, stderr};

/// A copy of fixture `name` with only the lockfile, the workspace manifest
/// and `.npmrc`: what a Docker layer copies before `fetch`.
fn lockfile_only_dir(name: &str, dest: &Path, registry: &Registry) {
    prepare_project(name, dest, &registry.url());
    remove_manifests(dest);
}

fn remove_manifests(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            remove_manifests(&path);
        } else if path.file_name().is_some_and(|n| n == "package.json") {
            std::fs::remove_file(&path).unwrap();
        }
    }
}

fn fetch_ok(env: &PnpmEnv, dir: &Path, extra: &[&str]) {
    let mut args = vec!["fetch"];
    args.extend_from_slice(extra);
    let out = pacquet(env, dir, &args);
    assert!(out.status.success(), "fetch failed:\n{}", stderr(&out));
}

#[test]
fn fetched_store_installs_offline_after_the_registry_is_gone() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let name = "combined";

    // The reference: a normal online install in its own store.
    let reference_env = PnpmEnv::new(&tmp.path().join("ref-env"), &registry.url());
    let reference = tmp.path().join("ref");
    prepare_project(name, &reference, &registry.url());
    pacquet_install_ok(&reference_env, &reference, &[]);

    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let layer = tmp.path().join("layer");
    lockfile_only_dir(name, &layer, &registry);
    registry.reset_requests();
    fetch_ok(&env, &layer, &[]);
    assert!(registry.tarball_requests("pq-plain", "1.1.0") >= 1);
    assert!(
        !layer.join("node_modules").exists() && !layer.join("packages/app/node_modules").exists(),
        "fetch must not create node_modules"
    );
    drop(registry);

    let project = tmp.path().join("project");
    prepare_project(name, &project, &reference_env.registry);
    pacquet_install_ok(&env, &project, &["--offline"]);
    let opts = DiffOptions::for_installs(
        &reference,
        &reference_env.store_dir,
        &project,
        &env.store_dir,
    );
    assert_trees_equal(&reference, &project, &opts);
}

#[test]
fn fetch_downloads_only_this_platforms_packages() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let layer = tmp.path().join("layer");
    lockfile_only_dir("optional-platform", &layer, &registry);
    fetch_ok(&env, &layer, &[]);
    assert_eq!(registry.tarball_requests("pq-native", "1.0.0"), 1);
    assert_eq!(
        registry.tarball_requests("@pq/native-linux-x64-gnu", "1.0.0"),
        usize::from(cfg!(all(
            target_os = "linux",
            target_arch = "x86_64",
            target_env = "gnu"
        )))
    );
    assert_eq!(
        registry.tarball_requests("@pq/native-win32-x64", "1.0.0"),
        0
    );
}

#[test]
fn second_fetch_downloads_only_what_the_store_lost() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let layer = tmp.path().join("layer");
    lockfile_only_dir("basic", &layer, &registry);
    fetch_ok(&env, &layer, &[]);

    // Drop one blob of pq-plain@1.1.0 (its index.js) from the store.
    let content =
        std::fs::read(pacquet_testing::packages_dir().join("pq-plain/1.1.0/index.js")).unwrap();
    let digest = pacquet_cas::sha512_hex(&content);
    let blob = env
        .store_dir
        .join("v11/files")
        .join(&digest[..2])
        .join(&digest[2..]);
    std::fs::remove_file(&blob).unwrap();

    registry.reset_requests();
    fetch_ok(&env, &layer, &[]);
    assert_eq!(registry.tarball_requests("pq-plain", "1.1.0"), 1);
    assert_eq!(registry.tarball_requests("@pq/plain", "1.0.0"), 0);
    assert!(blob.is_file(), "the lost blob was restored");
}

#[test]
fn fetch_without_a_lockfile_fails_with_pnpms_code() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let dir = tmp.path().join("empty");
    std::fs::create_dir_all(&dir).unwrap();
    let out = pacquet(&env, &dir, &["fetch"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("Error: ERR_PNPM_NO_LOCKFILE"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn offline_fetch_names_the_missing_package() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let layer = tmp.path().join("layer");
    lockfile_only_dir("basic", &layer, &registry);
    let out = pacquet(&env, &layer, &["fetch", "--offline"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with("Error: ERR_PNPM_NO_OFFLINE_TARBALL"),
        "{err}"
    );
    assert_eq!(registry.total_requests(), 0);
}

/// Git-hosted archives are fetched and prepared as an install stores them,
/// so the offline install that follows needs no network for them either.
#[test]
fn fetch_prepares_git_hosted_archives_for_an_offline_install() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let name = "dep-kinds";
    let reference_env = PnpmEnv::new(&tmp.path().join("ref-env"), &registry.url());
    let reference = tmp.path().join("ref");
    prepare_project(name, &reference, &registry.url());
    pacquet_install_ok(&reference_env, &reference, &[]);

    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let layer = tmp.path().join("layer");
    lockfile_only_dir(name, &layer, &registry);
    registry.reset_requests();
    fetch_ok(&env, &layer, &[]);
    let served = registry.requests();
    assert!(
        served.iter().any(|r| r.starts_with("codeload/pq-hosted/")),
        "the archive was fetched: {served:?}"
    );
    drop(registry);

    let project = tmp.path().join("project");
    prepare_project(name, &project, &reference_env.registry);
    pacquet_install_ok(&env, &project, &["--offline"]);
    let opts = DiffOptions::for_installs(
        &reference,
        &reference_env.store_dir,
        &project,
        &env.store_dir,
    );
    assert_trees_equal(&reference, &project, &opts);
}
