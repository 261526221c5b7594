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
    same_as_pnpm_through_in(PROJECT, steps);
}

fn same_as_pnpm_through_in(project: &str, steps: &[&[&str]]) {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let by_pnpm = tmp.path().join("pnpm/project");
    let by_pacquet = tmp.path().join("pacquet/project");
    prepare_project(project, &by_pnpm, &registry.url());
    prepare_project(project, &by_pacquet, &registry.url());
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

/// Platform packages only the left-out groups reach are not `skipped` and
/// not in `lock.yaml`; with nothing installed there is no `lock.yaml`.
#[test]
fn skipped_platform_packages_follow_the_groups() {
    same_as_pnpm_through_in("optional-platform", &[&["--dev"], &[], &["--prod"]]);
}

/// Without optional dependencies, an optional peer installed anyway gets
/// no sibling link, but its commands still go into the package's `.bin`,
/// named through the sibling path pnpm 12 does not create.
/// Optional peers satisfied by dev dependencies: left out by `--prod` unless
/// a production dependency brings them (docs/layout.md §13.7).
#[test]
fn optional_peers_follow_the_groups() {
    same_as_pnpm_through_in(
        "optional-peers",
        &[
            &["--prod"],
            &[],
            &["--prod"],
            &["--dev"],
            &["--no-optional"],
            &["--prod"],
        ],
    );
}

#[test]
fn no_optional_still_links_optional_peers_commands() {
    same_as_pnpm_through_in("pnpm-details", &[&["--no-optional"], &[]]);
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

/// Any setting pacquet reads as its own flag, as pnpm 12 takes it:
/// `--<setting>`, `--no-<setting>`, `--<setting>=<value>` and
/// `--<setting> <value>`; each install after the first changes the layout.
#[test]
fn settings_as_flags_match_pnpm() {
    same_as_pnpm_through(&[
        &["--shamefully-hoist"],
        &["--no-hoist", "--virtual-store-dir", "node_modules/.vs"],
        &["--public-hoist-pattern=*pq*"],
    ]);
}

/// `--node-linker hoisted` on the command line: pnpm 12.21 then writes
/// shims, not the symlinks of `nodeLinker: hoisted` in its files.
#[test]
fn node_linker_flags_match_pnpm() {
    same_as_pnpm_through(&[&["--node-linker", "hoisted"]]);
    same_as_pnpm_through(&[&["--config.node-linker=hoisted"]]);
    same_as_pnpm_through(&[&["--node-linker=hoisted", "--no-side-effects-cache"]]);
}

/// A mistyped flag, or a setting pnpm 12.21 does not take as a flag, is
/// still refused, with clap's suggestion.
#[test]
fn a_mistyped_setting_flag_is_refused() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    prepare_project(PROJECT, &project, &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let out = pacquet(
        &env,
        &project,
        &["install", "--frozen-lockfile", "--shamefuly-hoist"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("unexpected argument '--shamefuly-hoist'"),
        "{}",
        stderr(&out)
    );
    assert!(!project.join("node_modules").exists());
    let out = pacquet(
        &env,
        &project,
        &[
            "install",
            "--frozen-lockfile",
            "--prefer-symlinked-executables",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
