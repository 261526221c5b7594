//! Runs pnpm 12 on the fixture packages and checks that the runner gives a
//! script the same environment (minus pnpm's own install paths) and that
//! the policy ignores the same builds.

use std::fs;
use std::path::Path;

use indexmap::IndexMap;
use pacquet_scripts::{BuildDecision, BuildPolicy, ScriptRun, ignored_builds_error, run_stage};
use pacquet_testing::{PnpmEnv, Registry, write_npmrc};
use serde_json::Value;

fn packages() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packages")
}

#[test]
fn script_environment_and_ignored_builds_match_pnpm_12() {
    let registry = Registry::start(packages());
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    fs::create_dir_all(&project).unwrap();
    fs::write(
        project.join("package.json"),
        r#"{"name":"oracle","version":"0.0.0","dependencies":{"ps-env":"1.0.0","ps-order":"1.0.0","ps-gyp":"1.0.0"}}"#,
    )
    .unwrap();
    fs::write(
        project.join("pnpm-workspace.yaml"),
        "minimumReleaseAge: 0\nallowBuilds:\n  ps-env: true\n  ps-env-dep: true\n",
    )
    .unwrap();
    write_npmrc(&project, &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let out = env.run(&project, &["install", "--reporter=append-only"]);
    let stdout = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.status.success(), "{stdout}");
    let expected = ignored_builds_error(&["ps-order@1.0.0".into(), "ps-gyp@1.0.0".into()]);
    let flat: String = stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains(&expected.to_string()), "{stdout}");

    let allow: IndexMap<String, bool> = [
        ("ps-env".to_string(), true),
        ("ps-env-dep".to_string(), true),
    ]
    .into_iter()
    .collect();
    let policy = BuildPolicy::new(&allow, false);
    assert_eq!(
        policy.decide("ps-order", "1.0.0", "ps-order@1.0.0"),
        BuildDecision::NotApproved
    );
    assert_eq!(
        policy.decide("ps-env", "1.0.0", "ps-env@1.0.0"),
        BuildDecision::Allowed
    );

    let pkg = project.join("node_modules/.pnpm/ps-env@1.0.0/node_modules/ps-env");
    let theirs: Value =
        serde_json::from_slice(&fs::read(pkg.join("env-install.json")).unwrap()).unwrap();

    let manifest: Value =
        serde_json::from_slice(&fs::read(pkg.join("package.json")).unwrap()).unwrap();
    let extra = [
        project.join("node_modules/.pnpm/node_modules/.bin"),
        project.join("node_modules/.bin"),
    ];
    run_stage(&ScriptRun {
        package_dir: &pkg,
        name: "ps-env",
        version: "1.0.0",
        pkg_id: "ps-env@1.0.0",
        stage: "install",
        command: "node dump.js install",
        init_cwd: &project,
        extra_bin_dirs: &extra,
        manifest: &manifest,
        ..Default::default()
    })
    .unwrap();
    let ours: Value =
        serde_json::from_slice(&fs::read(pkg.join("env-install.json")).unwrap()).unwrap();
    assert_eq!(ours["cwd"], theirs["cwd"]);
    let not_done = ["npm_config_node_gyp", "npm_execpath"];
    let theirs_env = theirs["env"].as_object().unwrap();
    let ours_env = ours["env"].as_object().unwrap();
    for (key, value) in theirs_env {
        let lifecycle = key.starts_with("npm_")
            || key.starts_with("pnpm_config_")
            || ["INIT_CWD", "PNPM_SCRIPT_SRC_DIR", "TMPDIR", "PWD"].contains(&key.as_str());
        if !lifecycle || not_done.contains(&key.as_str()) {
            continue;
        }
        assert_eq!(ours_env.get(key), Some(value), "{key}");
    }
    // PATH: the same directories before pnpm's node-gyp-bin and after it.
    let split =
        |v: &Value| -> Vec<String> { v.as_str().unwrap().split(':').map(str::to_string).collect() };
    let their_path = split(&theirs_env["PATH"]);
    let our_path = split(&ours_env["PATH"]);
    let gyp = their_path
        .iter()
        .position(|p| p.ends_with("node-gyp-bin"))
        .unwrap();
    assert_eq!(our_path[..gyp], their_path[..gyp]);
    assert_eq!(our_path[gyp..gyp + 2], their_path[gyp + 1..gyp + 3]);
}
