//! Several installers writing one store at once: three pacquet processes
//! and pnpm 12. All succeed, every tree equals its reference, and pnpm can
//! install offline from the shared store afterwards.

use std::process::{Child, Stdio};

use pacquet_testing::{PnpmEnv, Registry, prepare_project};

use super::helpers::{assert_same_as, assert_store_consistent, reference};

fn wait_ok(what: &str, child: Child) {
    let out = child.wait_with_output().expect("wait");
    assert!(
        out.status.success(),
        "{what} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn pacquet_and_pnpm_install_into_one_store_at_once() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("shared-store");
    let pacquet_fixtures = ["combined", "peers", "workspace"];
    let pnpm_fixture = "basic";

    let mut children = Vec::new();
    let mut projects = Vec::new();
    for (i, name) in pacquet_fixtures.iter().enumerate() {
        let root = tmp.path().join(format!("pacquet-{i}"));
        let project = root.join("project");
        prepare_project(name, &project, &registry.url());
        let env = PnpmEnv::with_store(&root.join("env"), &store, &registry.url());
        let mut cmd = std::process::Command::new(crate::support::pacquet_bin());
        env.apply_env(&mut cmd);
        cmd.current_dir(&project)
            .args(["install", "--frozen-lockfile"])
            .arg(format!("--store-dir={}", store.display()))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        children.push((format!("pacquet ({name})"), cmd.spawn().unwrap()));
        projects.push((*name, project));
    }
    let pnpm_root = tmp.path().join("pnpm");
    let pnpm_project = pnpm_root.join("project");
    prepare_project(pnpm_fixture, &pnpm_project, &registry.url());
    let pnpm_env = PnpmEnv::with_store(&pnpm_root.join("env"), &store, &registry.url());
    let pnpm = pnpm_env
        .command(
            &pnpm_project,
            &["install", "--frozen-lockfile", "--reporter=append-only"],
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    children.push((format!("pnpm ({pnpm_fixture})"), pnpm));
    for (what, child) in children {
        wait_ok(&what, child);
    }

    projects.push((pnpm_fixture, pnpm_project));
    for (name, project) in &projects {
        let reference = reference(&registry, name, &tmp.path().join(format!("ref-{name}")));
        assert_same_as(&reference, project, &store);
    }
    assert_store_consistent(&store);

    // pnpm 12 reads everything the four writers left, without the network.
    registry.reset_requests();
    for name in ["combined", "workspace"] {
        let root = tmp.path().join(format!("offline-{name}"));
        let project = root.join("project");
        prepare_project(name, &project, &registry.url());
        let env = PnpmEnv::with_store(&root.join("env"), &store, &registry.url());
        env.run_ok(
            &project,
            &[
                "install",
                "--frozen-lockfile",
                "--offline",
                "--reporter=append-only",
            ],
        );
    }
    assert_eq!(registry.total_requests(), 0, "{:?}", registry.requests());
}
