//! Every script gets the environment pnpm 12 gives it: each variable pnpm
//! sets is set to the same value (paths mapped between the two
//! installs), except pnpm's own install paths.

use super::helpers::{Setup, Tool, assert_same_envs, assert_success, both, normalized};
use pacquet_testing::Registry;

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

/// `enableGlobalVirtualStore: true` (builds not approved: pacquet refuses
/// them there): every script gets the project's hoisting directories on
/// `NODE_PATH` and the resolve hook after the configured `nodeOptions`.
#[test]
fn the_global_virtual_store_gives_scripts_node_path_and_a_resolve_hook() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let yaml = std::fs::read_to_string(
        pacquet_testing::project_dir("lifecycle").join("pnpm-workspace.yaml"),
    )
    .unwrap()
    .replace(
        "allowBuilds:\n  pq-lc-leaf: true\n  pq-lc-mid: true\n  pq-lc-optional: true\n",
        "",
    );
    let yaml = format!(
        "{yaml}enableGlobalVirtualStore: true\nstrictDepBuilds: false\nnodeOptions: --no-warnings\n"
    );
    let setup = Setup {
        workspace_yaml: Some(&yaml),
        ..Setup::default()
    };
    let (pnpm, pacquet) = both(&registry, tmp.path(), &setup);
    assert_success(&pnpm, Tool::Pnpm);
    assert_success(&pacquet, Tool::Pacquet);
    assert!(assert_same_envs(&pnpm, &pacquet) > 0);
    let (_, root) = normalized(&pacquet, "pq-project-lifecycle", "preinstall");
    assert_eq!(
        root.get("NODE_PATH").map(String::as_str),
        Some("<project>/node_modules/.pnpm/node_modules:<project>/node_modules")
    );
    assert_eq!(
        root.get("NODE_OPTIONS").map(String::as_str),
        Some("--no-warnings --import=data:text/javascript,<hook>")
    );
}
