//! Failing scripts fail the install (or, for an optional dependency, skip
//! it) exactly where pnpm 12 does, and unapproved builds fail it with
//! `ERR_PNPM_IGNORED_BUILDS` after everything else ran.

use pacquet_testing::Registry;

use super::helpers::{EXPECTED_ORDER, Run, Setup, Tool, assert_success, both, without_optional};

/// Both tools exit 1 with pnpm's code and message, ran the same scripts,
/// and left the same state files behind.
fn assert_same_failure(pnpm: &Run, pacquet: &Run, code: &str, message: &str) {
    for (run, tool) in [(pnpm, Tool::Pnpm), (pacquet, Tool::Pacquet)] {
        let output = run.flat_output();
        assert_eq!(run.code(), Some(1), "{tool:?}: {output}");
        assert!(output.contains(code), "{tool:?}: {output}");
        let message = message.replace("<project>", &run.project.to_string_lossy());
        assert!(
            squashed(&output).contains(&squashed(&message)),
            "{tool:?}: no {message:?} in {output}"
        );
    }
    // The error report reads the same (wrapping aside: the paths differ).
    let report = |run: &Run| {
        let stderr = String::from_utf8_lossy(&run.out.stderr).into_owned();
        let at = stderr.rfind("Error: ERR_").expect("an error report");
        squashed(&stderr[at..].replace(&*run.project.to_string_lossy(), "<project>"))
    };
    assert_eq!(report(pacquet), report(pnpm));
    assert_eq!(
        without_optional(&pacquet.log()),
        without_optional(&pnpm.log())
    );
    for file in [
        "node_modules/.modules.yaml",
        "node_modules/.pnpm/lock.yaml",
        "node_modules/.pnpm-workspace-state-v1.json",
    ] {
        assert_eq!(
            pacquet.project.join(file).exists(),
            pnpm.project.join(file).exists(),
            "{file}"
        );
    }
}

/// `text` without whitespace or miette's frame bars, so a message matches
/// however it was wrapped.
fn squashed(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != '│')
        .collect()
}

/// `EXPECTED_ORDER` up to and including `last`.
fn order_through(last: &str) -> Vec<&'static str> {
    let end = EXPECTED_ORDER.iter().position(|l| *l == last).unwrap();
    EXPECTED_ORDER[..=end].to_vec()
}

#[test]
fn failing_project_script_fails_the_install_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let setup = Setup {
        fail: Some("pq-lc-lib prepare 9"),
        ..Setup::default()
    };
    let (pnpm, pacquet) = both(&registry, tmp.path(), &setup);
    assert_same_failure(
        &pnpm,
        &pacquet,
        "ERR_PNPM_EXECUTOR_LIFECYCLE_SCRIPT_FAILED",
        "<project>/packages/lib prepare: `pq-lc-record` exited with exit status: 9",
    );
    // Projects depending on lib never start.
    assert_eq!(
        without_optional(&pacquet.log()),
        order_through("pq-lc-lib prepare")
    );
    assert!(pacquet.project.join("node_modules/.modules.yaml").exists());
    assert!(
        !pacquet
            .project
            .join("node_modules/.pnpm-workspace-state-v1.json")
            .exists()
    );
}

#[test]
fn failing_root_preinstall_fails_before_anything_is_linked() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let setup = Setup {
        fail: Some("pq-project-lifecycle preinstall 4"),
        ..Setup::default()
    };
    let (pnpm, pacquet) = both(&registry, tmp.path(), &setup);
    assert_same_failure(
        &pnpm,
        &pacquet,
        "ERR_PNPM_EXECUTOR_LIFECYCLE_SCRIPT_FAILED",
        "<project> preinstall: `node record.js` exited with exit status: 4",
    );
    assert_eq!(
        pacquet.log(),
        order_through("pq-project-lifecycle preinstall")
    );
    assert!(!pacquet.project.join("node_modules/.pnpm").exists());
}

#[test]
fn failing_dependency_build_fails_the_install_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let setup = Setup {
        fail: Some("pq-lc-mid postinstall 3"),
        ..Setup::default()
    };
    let (pnpm, pacquet) = both(&registry, tmp.path(), &setup);
    assert_same_failure(
        &pnpm,
        &pacquet,
        "ERR_PNPM_EXECUTOR_LIFECYCLE_SCRIPT_FAILED",
        "pq-lc-mid@1.0.0 postinstall: `pq-lc-record` exited with exit status: 3",
    );
    // No project script after the root's preinstall.
    assert_eq!(
        without_optional(&pacquet.log()),
        order_through("pq-lc-mid postinstall")
    );
    // The failing script's output was shown.
    assert!(
        pacquet
            .stdout()
            .contains(".../node_modules/pq-lc-mid postinstall: pq-lc-mid postinstall says hi"),
        "{}",
        pacquet.stdout()
    );
}

#[test]
fn failing_optional_dependency_build_is_skipped_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let setup = Setup {
        fail: Some("pq-lc-optional postinstall 5"),
        ..Setup::default()
    };
    let (pnpm, pacquet) = both(&registry, tmp.path(), &setup);
    assert_success(&pnpm, Tool::Pnpm);
    assert_success(&pacquet, Tool::Pacquet);
    for (run, tool) in [(&pnpm, Tool::Pnpm), (&pacquet, Tool::Pacquet)] {
        assert_eq!(without_optional(&run.log()), EXPECTED_ORDER, "{tool:?}");
        assert!(
            run.stdout()
                .contains(".../node_modules/pq-lc-optional postinstall: Failed"),
            "{tool:?}"
        );
        // pnpm 12 unlinks the package from its dependents but keeps its
        // virtual-store directory and its bin shim, and prints no warning.
        let nm = run.project.join("node_modules");
        assert!(!nm.join("pq-lc-optional").exists(), "{tool:?}");
        assert!(nm.join(".pnpm/pq-lc-optional@1.0.0").is_dir(), "{tool:?}");
        assert!(!run.flat_output().contains("WARN"), "{tool:?}");
    }
}

#[test]
fn unapproved_builds_fail_with_ignored_builds_after_project_scripts() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let setup = Setup {
        workspace_yaml: Some("trustLockfile: true\npackages:\n  - packages/*\n"),
        ..Setup::default()
    };
    let (pnpm, pacquet) = both(&registry, tmp.path(), &setup);
    assert_same_failure(
        &pnpm,
        &pacquet,
        "ERR_PNPM_IGNORED_BUILDS",
        "Ignored build scripts: pq-lc-leaf@1.0.0, pq-lc-mid@1.0.0, pq-lc-optional@1.0.0",
    );
    let projects_only: Vec<&str> = EXPECTED_ORDER
        .iter()
        .copied()
        .filter(|l| !l.starts_with("pq-lc-leaf") && !l.starts_with("pq-lc-mid"))
        .collect();
    assert_eq!(pacquet.log(), projects_only);
    assert!(pacquet.flat_output().contains("pnpm approve-builds"));
}
