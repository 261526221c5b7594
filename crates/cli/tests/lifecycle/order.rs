//! On a clean install the scripts run in pnpm 12's order and their output
//! is printed as pnpm prints it; `--ignore-scripts` runs none.

use pacquet_testing::Registry;

use super::helpers::{
    EXPECTED_ORDER, OPTIONAL_BUILD, Run, Setup, Tool, assert_success, both, install,
    without_optional,
};

pub fn assert_pnpm_order(run: &Run, tool: Tool) {
    let log = run.log();
    assert_eq!(without_optional(&log), EXPECTED_ORDER, "{tool:?}");
    // The optional package builds with the other dependencies: after the
    // root's preinstall, before the first project script.
    let at = |line: &str| log.iter().position(|l| l == line).unwrap();
    let optional = at(OPTIONAL_BUILD);
    assert!(at("pq-project-lifecycle preinstall") < optional, "{log:?}");
    assert!(optional < at("pq-lc-lib preinstall"), "{log:?}");
}

/// Lines of script output (`<prefix> <stage>$ cmd`, `<prefix> <stage>: …`),
/// sorted: concurrent scripts interleave differently from run to run.
pub fn script_lines(run: &Run) -> Vec<String> {
    let mut lines: Vec<String> = run
        .stdout()
        .lines()
        .filter(|l| l.starts_with(". ") || l.starts_with("packages/") || l.starts_with(".../"))
        .map(str::to_owned)
        .collect();
    lines.sort();
    lines
}

#[test]
fn clean_install_runs_scripts_in_pnpm_order_with_pnpm_output() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (pnpm, pacquet) = both(&registry, tmp.path(), &Setup::default());
    assert_success(&pnpm, Tool::Pnpm);
    assert_success(&pacquet, Tool::Pacquet);
    assert_pnpm_order(&pnpm, Tool::Pnpm);
    assert_pnpm_order(&pacquet, Tool::Pacquet);

    let theirs = script_lines(&pnpm);
    assert!(
        theirs.contains(&"packages/lib prepare: pq-lc-lib prepare warns".to_owned()),
        "stderr lines are printed too: {theirs:#?}"
    );
    assert_eq!(script_lines(&pacquet), theirs);
}

#[test]
fn ignore_scripts_runs_no_script() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let setup = Setup {
        extra_args: &["--ignore-scripts"],
        ..Setup::default()
    };
    let (pnpm, pacquet) = both(&registry, tmp.path(), &setup);
    assert_success(&pnpm, Tool::Pnpm);
    assert_success(&pacquet, Tool::Pacquet);
    assert_eq!(pnpm.log(), Vec::<String>::new());
    assert_eq!(pacquet.log(), Vec::<String>::new());
    assert!(
        pacquet
            .project
            .join("node_modules/.bin/pq-lc-record")
            .exists()
    );
    // What was skipped is remembered in `.modules.yaml`: projects with
    // install-time scripts and every package that needs a build.
    let pending = |run: &Run| {
        let path = run.project.join("node_modules/.modules.yaml");
        let text = std::fs::read_to_string(path).unwrap();
        serde_json::from_str::<serde_json::Value>(&text).unwrap()["pendingBuilds"].clone()
    };
    assert_eq!(
        pending(&pnpm),
        serde_json::json!([
            ".",
            "packages/app",
            "packages/lib",
            "pq-lc-leaf@1.0.0",
            "pq-lc-mid@1.0.0",
            "pq-lc-optional@1.0.0"
        ])
    );
    assert_eq!(pending(&pacquet), pending(&pnpm));
}

#[test]
fn second_install_restores_builds_and_reruns_project_scripts() {
    // With the side-effects cache filled, a fresh node_modules gets the
    // built packages from the store: only the projects' scripts run again.
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let first = install(Tool::Pacquet, &registry, tmp.path(), &Setup::default());
    assert_success(&first, Tool::Pacquet);
    std::fs::remove_file(first.project.join("lifecycle.log")).unwrap();
    for dir in [
        "node_modules",
        "packages/app/node_modules",
        "packages/lib/node_modules",
    ] {
        std::fs::remove_dir_all(first.project.join(dir)).unwrap();
    }
    let again = crate::support::pacquet_install_ok(&first.env, &first.project, &[]);
    let log = first.log();
    let projects_only: Vec<&str> = EXPECTED_ORDER
        .iter()
        .copied()
        .filter(|l| !l.starts_with("pq-lc-leaf") && !l.starts_with("pq-lc-mid"))
        .collect();
    assert_eq!(log, projects_only, "{}", crate::support::stdout(&again));
}

/// `pnpm:lifecycle` records without time, host and pid, project paths as
/// `<project>`, sorted.
fn lifecycle_records(run: &Run) -> Vec<String> {
    let project = run.project.to_string_lossy().into_owned();
    // pnpm 12 writes the records to stderr.
    let output = String::from_utf8_lossy(&run.out.stderr).into_owned();
    let mut records: Vec<String> = output
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|r| r["name"] == "pnpm:lifecycle")
        .map(|mut r| {
            let obj = r.as_object_mut().unwrap();
            for volatile in ["time", "hostname", "pid"] {
                obj.remove(volatile);
            }
            r.to_string().replace(&project, "<project>")
        })
        .collect();
    records.sort();
    records
}

#[test]
fn ndjson_lifecycle_records_match_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let setup = Setup {
        extra_args: &["--reporter=ndjson"],
        ..Setup::default()
    };
    let (pnpm, pacquet) = both(&registry, tmp.path(), &setup);
    assert_success(&pnpm, Tool::Pnpm);
    assert_success(&pacquet, Tool::Pacquet);
    let theirs = lifecycle_records(&pnpm);
    // A start, two lines and an exit for each of the 18 scripts.
    assert_eq!(theirs.len(), 18 * 4, "{theirs:#?}");
    assert_eq!(lifecycle_records(&pacquet), theirs);
}
