//! The real esbuild 0.23.1 (a postinstall that checks and links its
//! platform binary) builds under `allowBuilds`, its bin works, and a second
//! install into a new `node_modules` restores the build from the
//! side-effects cache instead of running the script again.
//!
//! Hermetic: the tarballs come from `.tools/mirror`, filled once (and
//! checked against the lockfile) by `tasks/install-tools.sh`.

use std::{path::Path, process::Command};

use pacquet_testing::{PnpmEnv, Registry, copy_dir, workspace_root, write_npmrc};

use crate::support::{pacquet_install_ok, stdout};

const POSTINSTALL: &str = "/node_modules/esbuild postinstall$ node install.js";

fn mirror() -> std::path::PathBuf {
    let dir = workspace_root().join(".tools/mirror");
    for tarball in [
        "esbuild/-/esbuild-0.23.1.tgz",
        "@esbuild/linux-x64/-/linux-x64-0.23.1.tgz",
    ] {
        assert!(
            dir.join(tarball).is_file(),
            "{} is missing: run tasks/install-tools.sh to fill the esbuild mirror",
            dir.join(tarball).display()
        );
    }
    dir
}

fn project(dest: &Path, registry: &Registry) {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/esbuild");
    copy_dir(&fixture, dest).unwrap();
    write_npmrc(dest, &registry.url());
}

fn esbuild_version(project: &Path) -> String {
    let out = Command::new(project.join("node_modules/.bin/esbuild"))
        .arg("--version")
        .output()
        .expect("run the esbuild bin");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

#[test]
fn esbuild_builds_and_its_build_is_reused_from_the_side_effects_cache() {
    let registry = Registry::start_mirror(mirror());
    let tmp = tempfile::tempdir().unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());

    let first = tmp.path().join("first");
    project(&first, &registry);
    let out = pacquet_install_ok(&env, &first, &[]);
    assert!(stdout(&out).contains(POSTINSTALL), "{}", stdout(&out));
    assert_eq!(esbuild_version(&first), "0.23.1");
    let downloads = registry.tarball_requests("esbuild", "0.23.1");
    assert_eq!(downloads, 1);

    let second = tmp.path().join("second");
    project(&second, &registry);
    let out = pacquet_install_ok(&env, &second, &[]);
    assert!(!stdout(&out).contains("postinstall"), "{}", stdout(&out));
    assert_eq!(esbuild_version(&second), "0.23.1");
    assert_eq!(registry.tarball_requests("esbuild", "0.23.1"), downloads);
}
