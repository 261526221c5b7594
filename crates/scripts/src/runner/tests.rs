use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{Value, json};

use super::*;
use crate::ScriptsError;

fn fixture_packages() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packages")
}

/// Lays out `<root>/node_modules/.pnpm/<name>@<version>/node_modules/<name>`
/// with the fixture's files, as the isolated linker does.
fn link_fixture(root: &Path, name: &str, version: &str) -> PathBuf {
    let dir = root.join(format!(
        "node_modules/.pnpm/{name}@{version}/node_modules/{name}"
    ));
    pacquet_testing::copy_dir(&fixture_packages().join(name).join(version), &dir).unwrap();
    dir
}

fn manifest(dir: &Path) -> Value {
    serde_json::from_slice(&fs::read(dir.join("package.json")).unwrap()).unwrap()
}

#[test]
fn environment_matches_pnpm_12() {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    let pkg = link_fixture(&project, "ps-env", "1.0.0");
    let manifest = manifest(&pkg);
    let extra = [
        project.join("node_modules/.pnpm/node_modules/.bin"),
        project.join("node_modules/.bin"),
    ];
    run_stage(&ScriptRun {
        package_dir: &pkg,
        name: "ps-env",
        version: "1.0.0",
        pkg_id: "ps-env@1.0.0",
        stage: "postinstall",
        command: "node dump.js postinstall",
        init_cwd: &project,
        extra_bin_dirs: &extra,
        manifest: &manifest,
        ..Default::default()
    })
    .unwrap();

    let dumped: Value =
        serde_json::from_slice(&fs::read(pkg.join("env-postinstall.json")).unwrap()).unwrap();
    let recorded: Value = serde_json::from_slice(
        &fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/pnpm12-postinstall-env.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let project_str = project.to_str().unwrap();
    let expand = |v: &str| v.replace("<project>", project_str);
    assert_eq!(
        dumped["cwd"].as_str().unwrap(),
        expand(recorded["cwd"].as_str().unwrap())
    );
    let env = dumped["env"].as_object().unwrap();
    // Set by pnpm from its own installation; not reproduced.
    let not_done = [
        "npm_config_node_gyp",
        "npm_execpath",
        "PATH",
        "NODE",
        "npm_node_execpath",
    ];
    for (key, value) in recorded["env"].as_object().unwrap() {
        if not_done.contains(&key.as_str()) {
            continue;
        }
        assert_eq!(
            env.get(key).and_then(Value::as_str),
            Some(expand(value.as_str().unwrap()).as_str()),
            "{key}"
        );
    }
    // NODE is node on PATH (pnpm: /usr/bin/node here).
    assert_eq!(env["NODE"], env["npm_node_execpath"]);
    assert!(env["NODE"].as_str().unwrap().ends_with("/node"));
    // PATH: pnpm's order minus its bundled node-gyp-bin.
    let expected_prefix = [
        format!(
            "{project_str}/node_modules/.pnpm/ps-env@1.0.0/node_modules/ps-env/node_modules/.bin"
        ),
        format!("{project_str}/node_modules/.pnpm/ps-env@1.0.0/node_modules/.bin"),
        format!("{project_str}/node_modules/.bin"),
        format!("{project_str}/node_modules/.pnpm/node_modules/.bin"),
        format!("{project_str}/node_modules/.bin"),
    ]
    .join(":");
    let path = env["PATH"].as_str().unwrap();
    assert!(path.starts_with(&format!("{expected_prefix}:")), "{path}");
    assert!(path.ends_with(&std::env::var("PATH").unwrap()));
    assert!(pkg.join("node_modules/.tmp").is_dir());
    assert_eq!(
        fs::read_to_string(project.join("order.log")).unwrap(),
        "ps-env postinstall\n"
    );
}

#[test]
fn package_env_vars_flatten_like_pnpm() {
    let vars: BTreeMap<String, String> = package_env_vars(&json!({
        "name": "@s/tool", "version": "1.2.3", "description": "not exported",
        "bin": "cli.js",
        "config": {"port": "8080", "nested": {"a-b": 1}},
        "engines": {"node": ">=18", "npm-x": "*"},
        "dependencies": {"x": "1"}
    }))
    .into_iter()
    .collect();
    let expected: BTreeMap<String, String> = [
        ("npm_package_name", "@s/tool"),
        ("npm_package_version", "1.2.3"),
        ("npm_package_bin_tool", "cli.js"),
        ("npm_package_config_port", "8080"),
        ("npm_package_config_nested_a_b", "1"),
        ("npm_package_engines_node", ">=18"),
        ("npm_package_engines_npm_x", "*"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(vars, expected);
}

#[test]
fn failure_has_pnpm_message_and_output() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = link_fixture(tmp.path(), "ps-fail", "1.0.0");
    let lines = Mutex::new(Vec::new());
    let reporter = |e: &ScriptEvent<'_>| lines.lock().unwrap().push(e.to_line());
    let err = run_stage(&ScriptRun {
        package_dir: &pkg,
        name: "ps-fail",
        version: "1.0.0",
        pkg_id: "ps-fail@1.0.0",
        stage: "postinstall",
        command: "echo about to fail && exit 3",
        init_cwd: tmp.path(),
        reporter: Some(&reporter),
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "ps-fail@1.0.0 postinstall: `echo about to fail && exit 3` exited with exit status: 3"
    );
    assert_eq!(err.pnpm_code(), "ERR_PNPM_EXECUTOR_LIFECYCLE_SCRIPT_FAILED");
    let ScriptsError::LifecycleScriptFailed(failure) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(failure.output, "about to fail\n");
    assert_eq!(failure.exit_code, Some(3));
    // The log lines pnpm 12 printed for the same package.
    assert_eq!(
        lines.into_inner().unwrap(),
        vec![
            ".../ps-fail@1.0.0/node_modules/ps-fail postinstall$ echo about to fail && exit 3",
            ".../ps-fail@1.0.0/node_modules/ps-fail postinstall: about to fail",
            ".../ps-fail@1.0.0/node_modules/ps-fail postinstall: Failed",
        ]
    );
}

#[test]
fn stderr_is_captured_too() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run_stage(&ScriptRun {
        package_dir: tmp.path(),
        pkg_id: "x@1.0.0",
        stage: "install",
        command: "echo out; echo err >&2",
        init_cwd: tmp.path(),
        ..Default::default()
    })
    .unwrap();
    let mut lines: Vec<&str> = out.output.lines().collect();
    lines.sort();
    assert_eq!(lines, vec!["err", "out"]);
}

#[test]
fn log_prefixes_as_pnpm_prints_them() {
    let root = Path::new("/p");
    let at = |rel: &str| log_prefix(&root.join(rel), root);
    assert_eq!(
        at("node_modules/.pnpm/ps-order@1.0.0/node_modules/ps-order"),
        ".../ps-order@1.0.0/node_modules/ps-order"
    );
    assert_eq!(
        at("node_modules/.pnpm/ps-env-dep@1.0.0/node_modules/ps-env-dep"),
        ".../node_modules/ps-env-dep"
    );
    assert_eq!(
        at("node_modules/.pnpm/failpkg@file+failpkg/node_modules/failpkg"),
        ".../node_modules/failpkg"
    );
    // Projects' own scripts (pnpm 12: `. postinstall$`, `packages/b preinstall$`).
    assert_eq!(log_prefix(root, root), ".");
    assert_eq!(at("packages/b"), "packages/b");
}

fn node(name: &str, dir: &Path, stages: &[(&'static str, &str)], deps: &[usize]) -> BuildNode {
    BuildNode {
        name: name.to_string(),
        version: "1.0.0".to_string(),
        pkg_id: format!("{name}@1.0.0"),
        package_dir: dir.to_path_buf(),
        manifest: json!({"name": name, "version": "1.0.0"}),
        stages: stages.iter().map(|(s, c)| (*s, c.to_string())).collect(),
        deps: deps.to_vec(),
        optional: false,
        bin_dirs: Vec::new(),
    }
}

fn log_cmd(log: &Path, what: &str) -> String {
    format!("echo {what} >> '{}'", log.display())
}

#[test]
fn dependencies_build_first_through_nodes_without_scripts() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("log");
    let d = tmp.path();
    // 0 (parent) -> 1 (no scripts) -> 2 (leaf); 3 independent.
    let nodes = vec![
        node(
            "parent",
            d,
            &[
                ("preinstall", &log_cmd(&log, "parent-pre")),
                ("postinstall", &log_cmd(&log, "parent-post")),
            ],
            &[1],
        ),
        node("middle", d, &[], &[2]),
        node(
            "leaf",
            d,
            &[(
                "postinstall",
                &format!("sleep 0.2; {}", log_cmd(&log, "leaf")),
            )],
            &[],
        ),
        node("other", d, &[("install", &log_cmd(&log, "other"))], &[]),
    ];
    let report = run_dependency_builds(
        &nodes,
        &BuildOptions {
            init_cwd: d,
            ..Default::default()
        },
    )
    .unwrap();
    let text = fs::read_to_string(&log).unwrap();
    let order: Vec<&str> = text.lines().collect();
    assert_eq!(order, vec!["other", "leaf", "parent-pre", "parent-post"]);
    let mut built = report.built.clone();
    built.sort();
    assert_eq!(built, vec![0, 2, 3]);
    assert!(report.failed_optional.is_empty());
}

#[test]
fn at_most_child_concurrency_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let log = d.join("log");
    let cmd = |i: usize| {
        format!(
            "{}; sleep 0.15; {}",
            log_cmd(&log, &format!("+{i}")),
            log_cmd(&log, &format!("-{i}"))
        )
    };
    let cmds: Vec<String> = (0..6).map(cmd).collect();
    let nodes: Vec<BuildNode> = cmds
        .iter()
        .enumerate()
        .map(|(i, c)| node(&format!("p{i}"), d, &[("install", c)], &[]))
        .collect();
    run_dependency_builds(
        &nodes,
        &BuildOptions {
            child_concurrency: 2,
            init_cwd: d,
            ..Default::default()
        },
    )
    .unwrap();
    let mut current = 0i32;
    let mut max = 0;
    for line in fs::read_to_string(&log).unwrap().lines() {
        current += if line.starts_with('+') { 1 } else { -1 };
        max = max.max(current);
    }
    assert_eq!(max, 2);
}

#[test]
fn failure_stops_scheduling_optional_failure_is_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let log = d.join("log");
    // Optional 0 fails; its dependent 1 still builds.
    let mut nodes = vec![
        node("opt", d, &[("postinstall", "exit 4")], &[]),
        node(
            "after-opt",
            d,
            &[("postinstall", &log_cmd(&log, "after-opt"))],
            &[0],
        ),
    ];
    nodes[0].optional = true;
    let report = run_dependency_builds(
        &nodes,
        &BuildOptions {
            init_cwd: d,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(report.built, vec![1]);
    assert_eq!(report.failed_optional.len(), 1);
    assert_eq!(report.failed_optional[0].0, 0);

    // Required 0 fails: its dependent never runs.
    let nodes = vec![
        node("ps-fail", d, &[("postinstall", "exit 3")], &[]),
        node(
            "parent",
            d,
            &[("postinstall", &log_cmd(&log, "parent"))],
            &[0],
        ),
    ];
    let err = run_dependency_builds(
        &nodes,
        &BuildOptions {
            init_cwd: d,
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "ps-fail@1.0.0 postinstall: `exit 3` exited with exit status: 3"
    );
    assert_eq!(fs::read_to_string(&log).unwrap(), "after-opt\n");
}

#[test]
fn cycles_do_not_deadlock_and_after_build_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let log = d.join("log");
    let nodes = vec![
        node("a", d, &[("postinstall", &log_cmd(&log, "a"))], &[1]),
        node("b", d, &[("postinstall", &log_cmd(&log, "b"))], &[0]),
    ];
    let after = Mutex::new(Vec::new());
    let after_build = |i: usize| -> Result<(), ScriptsError> {
        after.lock().unwrap().push(i);
        Ok(())
    };
    run_dependency_builds(
        &nodes,
        &BuildOptions {
            init_cwd: d,
            after_build: Some(&after_build),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(fs::read_to_string(&log).unwrap(), "a\nb\n");
    assert_eq!(after.into_inner().unwrap(), vec![0, 1]);
}
