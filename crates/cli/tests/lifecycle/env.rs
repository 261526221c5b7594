//! Every script gets the environment pnpm 12 gives it: each variable pnpm
//! sets is set to the same value (paths mapped between the two
//! installs), except pnpm's own install paths.

use std::collections::BTreeMap;

use super::helpers::{Run, Setup, Tool, assert_success, both};
use pacquet_testing::Registry;

/// Values that name pnpm's own files or the calling shell.
const NOT_COMPARED: [&str; 4] = ["npm_execpath", "npm_config_node_gyp", "_", "OLDPWD"];

/// The recorded environment with the project and env dirs replaced by
/// placeholders, `PATH` without pnpm's bundled `node-gyp-bin` (pacquet
/// bundles no node-gyp).
fn normalized(run: &Run, package: &str, event: &str) -> (String, BTreeMap<String, String>) {
    let recorded = run.recorded_env(package, event);
    let project = run.project.to_string_lossy().into_owned();
    let env_root = run.env.root.to_string_lossy().into_owned();
    let map = |s: &str| s.replace(&project, "<project>").replace(&env_root, "<env>");
    let mut out = BTreeMap::new();
    for (key, value) in recorded["env"].as_object().unwrap() {
        if NOT_COMPARED.contains(&key.as_str()) {
            continue;
        }
        let mut value = map(value.as_str().unwrap_or_default());
        if key == "PATH" {
            value = value
                .split(':')
                .filter(|dir| !dir.ends_with("/node-gyp-bin"))
                .collect::<Vec<_>>()
                .join(":");
        }
        out.insert(key.clone(), value);
    }
    (map(recorded["cwd"].as_str().unwrap()), out)
}

/// Compares every recorded script environment of the two runs; returns how
/// many were compared.
pub fn assert_same_envs(pnpm: &Run, pacquet: &Run) -> usize {
    let mut compared = 0;
    for line in pnpm.log() {
        let (package, event) = line.split_once(' ').unwrap();
        let (their_cwd, theirs) = normalized(pnpm, package, event);
        let (our_cwd, ours) = normalized(pacquet, package, event);
        assert_eq!(our_cwd, their_cwd, "{line}: cwd");
        let differing: Vec<String> = theirs
            .keys()
            .chain(ours.keys())
            .filter(|k| theirs.get(*k) != ours.get(*k))
            .map(|k| format!("{k}: pnpm {:?}, pacquet {:?}", theirs.get(k), ours.get(k)))
            .collect();
        assert!(differing.is_empty(), "{line}:\n{}", differing.join("\n"));
        compared += 1;
    }
    compared
}

#[test]
fn scripts_get_the_environment_pnpm_12_gives_them() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (pnpm, pacquet) = both(&registry, tmp.path(), &Setup::default());
    assert_success(&pnpm, Tool::Pnpm);
    assert_success(&pacquet, Tool::Pacquet);

    assert_eq!(
        assert_same_envs(&pnpm, &pacquet),
        18,
        "every script recorded its environment"
    );

    // What the comparison covers, spelled out for the root's `install`.
    let (_, root) = normalized(&pacquet, "pq-project-lifecycle", "install");
    let expect = |key: &str, value: &str| {
        assert_eq!(root.get(key).map(String::as_str), Some(value), "{key}")
    };
    expect("npm_lifecycle_event", "install");
    expect("npm_lifecycle_script", "pq-lc-record");
    expect("npm_package_name", "pq-project-lifecycle");
    expect("npm_package_config_mode", "test");
    expect("npm_package_json", "<project>/package.json");
    expect("INIT_CWD", "<project>");
    expect("npm_command", "install");
    assert!(
        root["PATH"].starts_with("<project>/node_modules/.bin:<project>/node_modules/.bin:"),
        "{}",
        root["PATH"]
    );
    let (_, lib) = normalized(&pacquet, "pq-lc-lib", "prepare");
    assert!(
        lib["PATH"]
            .starts_with("<project>/packages/lib/node_modules/.bin:<project>/node_modules/.bin:"),
        "{}",
        lib["PATH"]
    );
}

/// `preferSymlinkedExecutables: true` set: bins are symlinks with no shim
/// to carry `NODE_PATH`, so every script gets it from the environment.
#[test]
fn symlinked_executables_put_node_path_in_the_script_environment() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let yaml = format!(
        "{}preferSymlinkedExecutables: true\n",
        std::fs::read_to_string(
            pacquet_testing::project_dir("lifecycle").join("pnpm-workspace.yaml")
        )
        .unwrap()
    );
    let setup = Setup {
        workspace_yaml: Some(&yaml),
        ..Setup::default()
    };
    let (pnpm, pacquet) = both(&registry, tmp.path(), &setup);
    assert_success(&pnpm, Tool::Pnpm);
    assert_success(&pacquet, Tool::Pacquet);
    assert_eq!(assert_same_envs(&pnpm, &pacquet), 18);
    let (_, root) = normalized(&pacquet, "pq-project-lifecycle", "install");
    assert_eq!(
        root.get("NODE_PATH").map(String::as_str),
        Some("<project>/node_modules/.pnpm/node_modules")
    );
}
