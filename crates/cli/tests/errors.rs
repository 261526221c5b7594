//! Bad input gets pnpm's error code, exit code 1, and leaves the store
//! consistent.

mod support;

use std::path::Path;

use pacquet_testing::{Fault, PnpmEnv, Registry, prepare_project, tarball_path};
use support::{pacquet, pacquet_install_ok, stderr};

fn setup(registry: &Registry, tmp: &Path, name: &str) -> (PnpmEnv, std::path::PathBuf) {
    let project = tmp.join("project");
    prepare_project(name, &project, &registry.url());
    let env = PnpmEnv::new(&tmp.join("env"), &registry.url());
    (env, project)
}

fn assert_fails_with(out: &std::process::Output, code: &str) {
    assert_eq!(out.status.code(), Some(1), "stderr: {}", stderr(out));
    assert!(
        stderr(out).contains(&format!("Error: {code}")),
        "expected {code} in:\n{}",
        stderr(out)
    );
}

#[test]
fn missing_lockfile_is_no_lockfile() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    std::fs::remove_file(project.join("pnpm-lock.yaml")).unwrap();
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_fails_with(&out, "ERR_PNPM_NO_LOCKFILE");
    assert!(!project.join("node_modules").exists());

    assert!(!project.join("pnpm-lock.yaml").exists());
    // Without --frozen-lockfile it is resolved (tests/resolution.rs).
}

/// pnpm 12.21: `ERR_PNPM_NO_PKG_MANIFEST`, "No package.json found in <dir>";
/// the cause is said once.
#[test]
fn missing_manifest_is_no_pkg_manifest() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    std::fs::remove_file(project.join("package.json")).unwrap();
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_fails_with(&out, "ERR_PNPM_NO_PKG_MANIFEST");
    let message = format!("No package.json found in {}", project.display());
    assert_eq!(
        stderr(&out).matches(&message).count(),
        1,
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("os error"), "{}", stderr(&out));

    // An unreadable one names the file, and the OS error once.
    std::fs::create_dir(project.join("package.json")).unwrap();
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_fails_with(&out, "ERR_PNPM_READ_MANIFEST");
    assert_eq!(
        stderr(&out).matches("os error").count(),
        1,
        "{}",
        stderr(&out)
    );
}

/// pnpm 12.21: "Cannot resolve version $nothere in overrides", exit 1.
#[test]
fn an_override_naming_no_root_dependency_is_refused() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    support::add_settings(&project, "\noverrides:\n  pq-plain: $nothere\n");
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_fails_with(&out, "ERR_PNPM_CANNOT_RESOLVE_OVERRIDE_VERSION");
    let unwrapped: String = stderr(&out).split_whitespace().collect();
    assert!(unwrapped.contains("$nothere"), "{}", stderr(&out));
    assert!(!project.join("node_modules").exists());
}

#[test]
fn pnp_node_linker_is_refused_before_anything_is_written() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    support::add_settings(&project, "\nnodeLinker: pnp\n");
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_fails_with(&out, "ERR_PACQUET_UNSUPPORTED_NODE_LINKER");
    assert!(stderr(&out).contains("nodeLinker: pnp"), "{}", stderr(&out));
    assert!(!project.join("node_modules").exists());
}

/// With `nodeLinker: hoisted` pnpm 12 has no global virtual store layout
/// pacquet builds: refused before anything is written.
#[test]
fn the_global_virtual_store_with_the_hoisted_linker_is_refused() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    support::add_settings(
        &project,
        "\nenableGlobalVirtualStore: true\nnodeLinker: hoisted\n",
    );
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_fails_with(&out, "ERR_PACQUET_UNSUPPORTED_GLOBAL_VIRTUAL_STORE");
    assert!(!project.join("node_modules").exists());
}

/// Each as written in `pnpm-workspace.yaml`, and as the refusal names it.
/// `lockfile.includeResolutionSettings`: pnpm 12.21 then records four
/// resolution settings in the lockfile and checks them; pacquet does not.
#[test]
fn settings_pacquet_cannot_honour_are_refused_by_name() {
    let registry = Registry::start_fixtures();
    for (yaml, named) in [
        ("enableModulesDir: false", "enableModulesDir: false"),
        ("frozenStore: true", "frozenStore: true"),
        (
            "lockfile:\n  includeResolutionSettings: true",
            "lockfile.includeResolutionSettings: true",
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let (env, project) = setup(&registry, tmp.path(), "basic");
        support::add_settings(&project, &format!("\n{yaml}\n"));
        let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
        assert_fails_with(&out, "ERR_PACQUET_UNSUPPORTED_SETTING");
        assert!(stderr(&out).contains(named), "{}", stderr(&out));
        assert!(!project.join("node_modules").exists());
    }
}

#[test]
fn broken_yaml_is_broken_lockfile() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    std::fs::write(
        project.join("pnpm-lock.yaml"),
        "lockfileVersion: '9.0'\nimporters: [\n",
    )
    .unwrap();
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_fails_with(&out, "ERR_PNPM_BROKEN_LOCKFILE");
}

#[test]
fn outdated_lockfile_is_refused() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    let manifest = std::fs::read_to_string(project.join("package.json")).unwrap();
    let manifest = manifest.replace("\"pq-plain\": \"^1.0.0\"", "\"pq-plain\": \"^2.0.0\"");
    std::fs::write(project.join("package.json"), manifest).unwrap();

    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_fails_with(&out, "ERR_PNPM_OUTDATED_LOCKFILE");
    // In CI (the tests' environment) an install with a lockfile is frozen,
    // as pnpm 12's is.
    let out = pacquet(&env, &project, &["install"]);
    assert_fails_with(&out, "ERR_PNPM_OUTDATED_LOCKFILE");
    // Resolving, no version satisfies `^2.0.0`; the lockfile is left as it
    // was.
    let before = std::fs::read_to_string(project.join("pnpm-lock.yaml")).unwrap();
    let out = pacquet(&env, &project, &["install", "--no-frozen-lockfile"]);
    assert_fails_with(&out, "ERR_PNPM_NO_MATCHING_VERSION");
    let after = std::fs::read_to_string(project.join("pnpm-lock.yaml")).unwrap();
    assert_eq!(before, after);
}

#[test]
fn up_to_date_lockfile_installs_without_frozen_flag() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    let out = pacquet(&env, &project, &["install"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(project.join("node_modules/pq-plain/package.json").exists());
}

#[test]
fn wrong_integrity_is_tarball_integrity_and_nothing_is_stored() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    fast_retries(&project);
    // The first attempt and both retries get a damaged body.
    for _ in 0..3 {
        registry.fail_next(&tarball_path("pq-plain", "1.1.0"), Fault::WrongBody);
    }
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_fails_with(&out, "ERR_PNPM_TARBALL_INTEGRITY");
    assert!(
        !project
            .join("node_modules/.pnpm/pq-plain@1.1.0/node_modules/pq-plain/package.json")
            .exists()
    );

    assert_eq!(registry.tarball_requests("pq-plain", "1.1.0"), 3);

    // The next run repairs everything.
    pacquet_install_ok(&env, &project, &[]);
    assert!(project.join("node_modules/pq-plain/package.json").exists());
}

/// A body that fails the integrity check once is fetched again.
#[test]
fn wrong_integrity_once_is_retried() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    fast_retries(&project);
    registry.fail_next(&tarball_path("pq-plain", "1.1.0"), Fault::WrongBody);
    pacquet_install_ok(&env, &project, &[]);
    assert_eq!(registry.tarball_requests("pq-plain", "1.1.0"), 2);
}

/// A 500 is retried, as pnpm does.
#[test]
fn server_error_then_success_is_retried() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    fast_retries(&project);
    registry.fail_next(&tarball_path("pq-plain", "1.1.0"), Fault::Status(500));
    pacquet_install_ok(&env, &project, &[]);
    assert!(project.join("node_modules/pq-plain/package.json").exists());
}

/// Retry waits of milliseconds instead of pnpm's 10 s default.
fn fast_retries(project: &Path) {
    support::add_settings(
        project,
        "\nfetchRetryMintimeout: 10\nfetchRetryMaxtimeout: 20\n",
    );
}

#[test]
fn http_404_is_tarball_http_status() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    registry.fail_next(&tarball_path("pq-plain", "1.1.0"), Fault::Status(404));
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_fails_with(&out, "ERR_PNPM_TARBALL_HTTP_STATUS");
    assert!(stderr(&out).contains("404"), "{}", stderr(&out));
}

#[test]
fn offline_with_empty_store_is_no_offline_tarball() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    let out = pacquet(
        &env,
        &project,
        &["install", "--frozen-lockfile", "--offline"],
    );
    assert_fails_with(&out, "ERR_PNPM_NO_OFFLINE_TARBALL");
    assert_eq!(registry.total_requests(), 0);
}

/// A CAS file modified behind pacquet's back is detected and fetched again.
#[test]
fn damaged_store_file_is_refetched() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    pacquet_install_ok(&env, &project, &[]);
    let file = project.join("node_modules/.pnpm/pq-plain@1.1.0/node_modules/pq-plain/index.js");
    let original = std::fs::read(&file).unwrap();
    // The node_modules file is a hardlink to the CAS blob: damage both.
    std::fs::write(&file, b"tampered").unwrap();
    support::mark_modified(&file);
    std::fs::remove_dir_all(project.join("node_modules")).unwrap();

    let offline = pacquet(
        &env,
        &project,
        &["install", "--frozen-lockfile", "--offline"],
    );
    assert_fails_with(&offline, "ERR_PNPM_NO_OFFLINE_TARBALL");

    registry.reset_requests();
    pacquet_install_ok(&env, &project, &[]);
    assert_eq!(registry.tarball_requests("pq-plain", "1.1.0"), 1);
    assert_eq!(std::fs::read(&file).unwrap(), original);
}

/// A store row whose manifest names another package than the lockfile's
/// (`strictStorePkgContentCheck`, on by default): pacquet refuses it
/// before writing anything, as pnpm 12 refuses it; with the check off,
/// both install.
#[test]
fn a_store_row_for_another_package_is_refused_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "basic");
    pacquet_install_ok(&env, &project, &[]);
    let db = rusqlite::Connection::open(env.store_dir.join("v11/index.db")).unwrap();
    let (key, data): (String, Vec<u8>) = db
        .query_row(
            "SELECT key, data FROM package_index WHERE key LIKE '%pq-plain@1.1.0'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let mut row = pacquet_store_index::decode(&data).unwrap();
    row.manifest.as_mut().unwrap()["name"] = "pq-impostor".into();
    let data = pacquet_store_index::encode(&row);
    db.execute(
        "UPDATE package_index SET data = ?1 WHERE key = ?2",
        rusqlite::params![data, key],
    )
    .unwrap();
    drop(db);
    std::fs::remove_dir_all(project.join("node_modules")).unwrap();

    let ours = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_fails_with(&ours, "ERR_PNPM_UNEXPECTED_PKG_CONTENT_IN_STORE");
    assert!(
        stderr(&ours).contains("pq-impostor@1.1.0"),
        "{}",
        stderr(&ours)
    );
    assert!(!project.join("node_modules").exists());
    let pnpm = env.run(&project, &["install", "--frozen-lockfile"]);
    let pnpm_text = String::from_utf8_lossy(&pnpm.stdout).into_owned() + &stderr(&pnpm);
    assert_eq!(pnpm.status.code(), Some(1), "{pnpm_text}");
    assert!(
        pnpm_text.contains("ERR_PNPM_UNEXPECTED_PKG_CONTENT_IN_STORE"),
        "{pnpm_text}"
    );
    std::fs::remove_dir_all(project.join("node_modules")).ok();

    support::add_settings(&project, "\nstrictStorePkgContentCheck: false\n");
    pacquet_install_ok(&env, &project, &[]);
    assert!(project.join("node_modules/pq-plain/package.json").exists());
}

/// `engineStrict` turns pnpm 12's engine warning into
/// ERR_PNPM_UNSUPPORTED_ENGINE, before anything is written.
#[test]
fn engine_strict_refuses_an_unsupported_engine() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "engines-strict");
    support::add_settings(&project, "engineStrict: true\n");
    let pnpm = env.run(&project, &["install", "--frozen-lockfile"]);
    assert_fails_with(&pnpm, "ERR_PNPM_UNSUPPORTED_ENGINE");
    assert!(!project.join("node_modules").exists());
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_fails_with(&out, "ERR_PNPM_UNSUPPORTED_ENGINE");
    let unwrapped: String = stderr(&out).split_whitespace().collect();
    assert!(
        unwrapped.contains("Unsupportedengineforpq-future-node@1.0.0:wanted:{\"node\":\">=999\"}"),
        "{}",
        stderr(&out)
    );
    assert!(!project.join("node_modules").exists());
}

/// Without `engineStrict` the same package installs, with pnpm's warning.
#[test]
fn an_unsupported_engine_warns_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path(), "engines-strict");
    let warning = r#"[WARN] Unsupported engine for pq-future-node@1.0.0: wanted: {"node":">=999"}"#;
    let pnpm = env.run_ok(&project, &["install", "--frozen-lockfile"]);
    let pnpm_out = String::from_utf8_lossy(&pnpm.stdout).into_owned() + &stderr(&pnpm);
    assert!(pnpm_out.contains(warning), "{pnpm_out}");
    let other = tmp.path().join("other");
    pacquet_testing::prepare_project("engines-strict", &other, &registry.url());
    let out = pacquet_install_ok(&env, &other, &[]);
    let ours = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(ours.contains(warning), "{ours}");
}

/// Adds `settings.integrityTarget: tar` to the project's lockfile, as pnpm
/// 12.21 writes it with `lockfile.integrityTarget: tar`.
fn pin_tars(project: &Path) {
    let path = project.join("pnpm-lock.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let pinned = text.replacen("settings:\n", "settings:\n  integrityTarget: tar\n", 1);
    assert_ne!(pinned, text, "the fixture lockfile has a settings section");
    std::fs::write(&path, pinned).unwrap();
}

/// `lockfile.integrityTarget: tar` pins uncompressed tars, which pacquet
/// does not hash (docs/store.md §7.1): refused by name, install and fetch.
#[test]
fn a_lockfile_pinning_tars_is_refused_by_name() {
    let registry = Registry::start_fixtures();
    for args in [&["install", "--frozen-lockfile"][..], &["fetch"]] {
        let tmp = tempfile::tempdir().unwrap();
        let (env, project) = setup(&registry, tmp.path(), "basic");
        support::add_settings(&project, "\nlockfile:\n  integrityTarget: tar\n");
        pin_tars(&project);
        let out = pacquet(&env, &project, args);
        assert_fails_with(&out, "ERR_PACQUET_UNSUPPORTED_SETTING");
        assert!(
            stderr(&out).contains("lockfile.integrityTarget: tar"),
            "{}",
            stderr(&out)
        );
        assert!(!project.join("node_modules").exists());
        assert!(!env.store_dir.join("v11/index.db").exists());
    }
}

/// What pnpm 12.21 does with the setting and the lockfile out of step, and
/// with a value other than `tar`: the same code from both tools.
#[test]
fn integrity_target_mismatches_and_bad_values_fail_as_in_pnpm() {
    let registry = Registry::start_fixtures();
    let cases: [(&str, bool, &str); 3] = [
        // The lockfile pins tars, the settings do not ask for it.
        ("", true, "ERR_PNPM_LOCKFILE_CONFIG_MISMATCH"),
        (
            "\nlockfile: false\n",
            true,
            "ERR_PNPM_LOCKFILE_CONFIG_MISMATCH",
        ),
        // `tgz` is the default but not a value pnpm 12.21 takes.
        (
            "\nlockfile:\n  integrityTarget: tgz\n",
            false,
            "ERR_PNPM_INVALID_SETTING",
        ),
    ];
    for (settings, pinned, code) in cases {
        for side in ["pnpm", "pacquet"] {
            let tmp = tempfile::tempdir().unwrap();
            let (env, project) = setup(&registry, tmp.path(), "basic");
            support::add_settings(&project, settings);
            if pinned {
                pin_tars(&project);
            }
            let out = match side {
                "pnpm" => env.run(&project, &["install", "--frozen-lockfile"]),
                _ => pacquet(&env, &project, &["install", "--frozen-lockfile"]),
            };
            assert_fails_with(&out, code);
            if code == "ERR_PNPM_LOCKFILE_CONFIG_MISMATCH" {
                assert!(
                    stderr(&out).contains("settings.integrityTarget"),
                    "{side}: {}",
                    stderr(&out)
                );
            }
            assert!(!project.join("node_modules").exists(), "{side}");
        }
    }
}
