//! Remote tarball URLs and git-hosted (codeload-style) archives, served by
//! the loopback registry, and the store keys they share with pnpm 12.

use pacquet_testing::{DiffOptions, PnpmEnv, Registry, assert_trees_equal, prepare_project};

use super::helpers::index_keys;
use crate::support::{pacquet, pacquet_install_ok, stderr};

const HOSTED: &str =
    "node_modules/.pnpm/pq-hosted@http+++127.0.0.1+PORT+codeload+pq-hosted+tar.gz+1.0.0";

/// pnpm and pacquet write the same index keys for every kind (the port
/// differs per registry, so both run against one).
#[test]
fn store_keys_equal_pnpm_keys() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let pnpm =
        pacquet_testing::pnpm_install_fixture(&registry, "dep-kinds", &tmp.path().join("pnpm"));
    let project = tmp.path().join("pacquet/project");
    prepare_project("dep-kinds", &project, &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("pacquet/env"), &registry.url());
    pacquet_install_ok(&env, &project, &[]);
    let keys = index_keys(&env.store_dir);
    assert_eq!(index_keys(&pnpm.env.store_dir), keys);
    let url = registry.codeload_url("pq-hosted", "1.0.0");
    assert!(keys.contains(&format!("{url}\tbuilt")), "{keys:?}");
    let archive = registry.archive_url("pq-dup", "1.0.0");
    assert!(
        keys.iter()
            .any(|k| k.starts_with("sha512-") && k.ends_with(&format!("\t{archive}"))),
        "{keys:?}"
    );
}

/// The prepare script ran (its output is packed), and files outside the
/// package's `files` list are left out, as pnpm packs the prepared package.
#[test]
fn git_hosted_archive_is_prepared_and_packed() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    prepare_project("dep-kinds", &project, &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    pacquet_install_ok(&env, &project, &[]);
    let pnpm_dir = project.join("node_modules/.pnpm");
    let port = registry.addr().port().to_string();
    let prefix = HOSTED.replace("PORT", &port);
    let slot = std::fs::read_dir(&pnpm_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let full = format!(
                "node_modules/.pnpm/{}",
                p.file_name().unwrap().to_string_lossy()
            );
            full.starts_with(&prefix)
        })
        .expect("git-hosted slot");
    let package = slot.join("node_modules/pq-hosted");
    assert_eq!(
        std::fs::read_to_string(package.join("prepared.txt")).unwrap(),
        "prepared\n"
    );
    assert!(package.join("index.js").is_file());
    assert!(!package.join("extra.txt").exists(), "outside `files`");
    assert!(
        !package.join("node_modules").exists(),
        "removed after prepare"
    );
}

/// pacquet fills the store, pnpm installs offline from it, and the reverse.
#[test]
fn store_is_shared_with_pnpm_both_ways() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    for (first_is_pacquet, dir) in [(true, "a"), (false, "b")] {
        let env = PnpmEnv::new(&tmp.path().join(dir).join("env"), &registry.url());
        let first = tmp.path().join(dir).join("first");
        let second = tmp.path().join(dir).join("second");
        prepare_project("dep-kinds", &first, &registry.url());
        prepare_project("dep-kinds", &second, &registry.url());
        if first_is_pacquet {
            pacquet_install_ok(&env, &first, &[]);
        } else {
            env.install_frozen(&first);
        }
        registry.reset_requests();
        if first_is_pacquet {
            env.run_ok(
                &second,
                &[
                    "install",
                    "--frozen-lockfile",
                    "--offline",
                    "--reporter=append-only",
                ],
            );
        } else {
            pacquet_install_ok(&env, &second, &["--offline"]);
        }
        assert_eq!(registry.total_requests(), 0, "{:?}", registry.requests());
        let opts = DiffOptions::for_installs(&first, &env.store_dir, &second, &env.store_dir);
        assert_trees_equal(&first, &second, &opts);
    }
}

/// A remote tarball without `integrity` is refused by pnpm 12 and by
/// pacquet with the same code, before anything is written.
#[test]
fn remote_tarball_without_integrity_is_refused() {
    let registry = Registry::start_fixtures();
    refused_without_integrity(&registry, &registry.archive_url("pq-dup", "1.0.0"));
}

/// pnpm 12.21 exempts only archives of the known git hosts from the
/// integrity requirement, not every `gitHosted: true` entry.
#[test]
fn git_hosted_archive_without_integrity_is_refused() {
    let registry = Registry::start_fixtures();
    refused_without_integrity(&registry, &registry.codeload_url("pq-hosted", "1.0.0"));
}

/// Drops the `integrity` of the dep-kinds entry whose tarball is `url`,
/// then expects `ERR_PNPM_MISSING_TARBALL_INTEGRITY` from both tools.
fn refused_without_integrity(registry: &Registry, url: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    prepare_project("dep-kinds", &project, &registry.url());
    let lockfile = project.join("pnpm-lock.yaml");
    let text: String = std::fs::read_to_string(&lockfile)
        .unwrap()
        .lines()
        .map(|line| match line.split_once("integrity: ") {
            Some((head, rest)) if line.ends_with(&format!("tarball: {url}}}")) => {
                let after = rest.split_once(", ").map_or("", |(_, t)| t);
                format!("{head}{after}\n")
            }
            _ => format!("{line}\n"),
        })
        .collect();
    assert!(
        text.contains(&format!("tarball: {url}}}"))
            && !text.contains(&format!("==, tarball: {url}}}")),
        "integrity removed: {text}"
    );
    std::fs::write(&lockfile, text).unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let by_pnpm = env.run(
        &project,
        &["install", "--frozen-lockfile", "--reporter=append-only"],
    );
    let pnpm_output = format!(
        "{}{}",
        String::from_utf8_lossy(&by_pnpm.stdout),
        String::from_utf8_lossy(&by_pnpm.stderr)
    );
    assert!(
        pnpm_output.contains("ERR_PNPM_MISSING_TARBALL_INTEGRITY"),
        "{pnpm_output}"
    );
    let _ = std::fs::remove_dir_all(project.join("node_modules"));
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("ERR_PNPM_MISSING_TARBALL_INTEGRITY"),
        "{}",
        stderr(&out)
    );
    assert!(!project.join("node_modules").exists(), "nothing written");
}

/// A remote tarball with install scripts: `allowBuilds` by name does not
/// cover it (pnpm 12 reports it as ignored), its full id does.
#[test]
fn remote_tarball_builds_need_their_full_id_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let url = registry.archive_url("pq-scripts", "1.0.0");
    for (allow, builds) in [("pq-scripts", false), (&*format!("pq-scripts@{url}"), true)] {
        let root = tmp.path().join(if builds { "by-id" } else { "by-name" });
        let source = root.join("source");
        super::helpers::write_project(
            &source,
            serde_json::json!({ "pq-scripts": url }),
            &format!("allowBuilds:\n  '{allow}': true\n"),
            &registry.url(),
        );
        PnpmEnv::new(&root.join("lock-env"), &registry.url()).lockfile_only(&source);
        if builds {
            let pair = super::helpers::Pair::install(&source, &root, &registry.url());
            pair.assert_same_tree();
            let slot = std::fs::canonicalize(pair.pacquet.join("node_modules/pq-scripts")).unwrap();
            assert!(slot.join("postinstall.txt").is_file());
            continue;
        }
        let env = PnpmEnv::new(&root.join("env"), &registry.url());
        let project = root.join("pnpm");
        pacquet_testing::copy_dir(&source, &project).unwrap();
        let by_pnpm = env.run(
            &project,
            &["install", "--frozen-lockfile", "--reporter=append-only"],
        );
        let pnpm_output = format!(
            "{}{}",
            String::from_utf8_lossy(&by_pnpm.stdout),
            String::from_utf8_lossy(&by_pnpm.stderr)
        );
        assert!(
            pnpm_output.contains("ERR_PNPM_IGNORED_BUILDS"),
            "{pnpm_output}"
        );
        let project = root.join("pacquet");
        pacquet_testing::copy_dir(&source, &project).unwrap();
        let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("ERR_PNPM_IGNORED_BUILDS"),
            "{}",
            stderr(&out)
        );
    }
}
