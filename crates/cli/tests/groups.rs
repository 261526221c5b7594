//! `--prod`, `--dev`, `--no-optional` and `--config.<key>` against pnpm 12:
//! the same lockfile installed by both with the same flags gives the same
//! tree and state files, also when each install changes the groups of the
//! one before (docs/layout.md §13).

mod support;

use pacquet_testing::{DiffOptions, PnpmEnv, Registry, assert_trees_equal, prepare_project};
use support::{pacquet, stderr};

const PROJECT: &str = "groups";

/// Runs the installs of `steps` (flags of each) in turn with pnpm and with
/// pacquet, each over its own `node_modules`, comparing after every step.
fn same_as_pnpm_through(steps: &[&[&str]]) {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let by_pnpm = tmp.path().join("pnpm/project");
    let by_pacquet = tmp.path().join("pacquet/project");
    prepare_project(PROJECT, &by_pnpm, &registry.url());
    prepare_project(PROJECT, &by_pacquet, &registry.url());
    let pnpm_env = PnpmEnv::new(&tmp.path().join("pnpm/env"), &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("pacquet/env"), &registry.url());
    for flags in steps {
        let mut args = vec!["install", "--frozen-lockfile", "--reporter=append-only"];
        args.extend_from_slice(flags);
        pnpm_env.run_ok(&by_pnpm, &args);
        let mut args = vec!["install", "--frozen-lockfile"];
        args.extend_from_slice(flags);
        let out = pacquet(&env, &by_pacquet, &args);
        assert!(out.status.success(), "pacquet {flags:?}: {}", stderr(&out));
        let opts =
            DiffOptions::for_installs(&by_pnpm, &pnpm_env.store_dir, &by_pacquet, &env.store_dir);
        assert_trees_equal(&by_pnpm, &by_pacquet, &opts);
    }
}

#[test]
fn prod_then_everything_then_prod() {
    same_as_pnpm_through(&[&["--prod"], &[], &["-P"]]);
}

#[test]
fn dev_only_leaves_optional_dependencies_out() {
    same_as_pnpm_through(&[&["--dev"], &["--production"], &["-D"]]);
}

#[test]
fn no_optional_and_back() {
    same_as_pnpm_through(&[&["--no-optional"], &[], &["--no-optional", "--prod"]]);
}

/// Settings on the command line are the same settings.
#[test]
fn config_flags_set_the_groups() {
    same_as_pnpm_through(&[
        &["--config.production=true", "--config.dev=false"],
        &["--config.optional=false"],
        &[],
    ]);
}
