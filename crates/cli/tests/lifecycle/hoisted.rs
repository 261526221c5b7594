//! The same scripts in the hoisted layout (`nodeLinker: hoisted`): pnpm 12's
//! order, output and environment, and the same tree afterwards.

use pacquet_testing::{DiffOptions, Registry, assert_trees_equal};

use super::helpers::{PROJECT, Setup, Tool, assert_same_envs, assert_success, both};
use super::order::{assert_pnpm_order, script_lines};

/// The fixture's `pnpm-workspace.yaml` with `nodeLinker: hoisted`.
fn hoisted_workspace_yaml() -> String {
    let dir = pacquet_testing::project_dir(PROJECT);
    let yaml = std::fs::read_to_string(dir.join("pnpm-workspace.yaml")).unwrap();
    format!("{}\nnodeLinker: hoisted\n", yaml.trim_end())
}

#[test]
fn hoisted_builds_run_in_pnpm_order_with_pnpm_environment() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let yaml = hoisted_workspace_yaml();
    let setup = Setup {
        workspace_yaml: Some(&yaml),
        ..Setup::default()
    };
    let (pnpm, pacquet) = both(&registry, tmp.path(), &setup);
    assert_success(&pnpm, Tool::Pnpm);
    assert_success(&pacquet, Tool::Pacquet);
    assert_pnpm_order(&pnpm, Tool::Pnpm);
    assert_pnpm_order(&pacquet, Tool::Pacquet);
    assert_eq!(script_lines(&pacquet), script_lines(&pnpm));
    assert_eq!(assert_same_envs(&pnpm, &pacquet), 18);

    // The builds wrote into copies: the trees (build outputs included) agree.
    // The records compared above hold absolute paths and concurrent order.
    let mut opts = DiffOptions::for_installs(
        &pnpm.project,
        &pnpm.env.store_dir,
        &pacquet.project,
        &pacquet.env.store_dir,
    );
    opts.ignore
        .extend(["lifecycle.log".into(), "lifecycle-env".into()]);
    assert_trees_equal(&pnpm.project, &pacquet.project, &opts);
}
