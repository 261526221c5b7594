//! Workspace selection against pnpm 12: `--filter`, `--filter-prod`, `-w`,
//! `recursiveInstall: false`. The same lockfile installed by both with the
//! same flags gives the same tree and state files, also when each install
//! selects other projects than the one before (docs/filtering.md).

mod support;

use std::path::Path;

use pacquet_testing::{DiffOptions, PnpmEnv, Registry, assert_trees_equal, prepare_project};
use support::{pacquet, stderr, stdout};

const PROJECT: &str = "filter";

struct Pair {
    _registry: Registry,
    _tmp: tempfile::TempDir,
    by_pnpm: std::path::PathBuf,
    by_pacquet: std::path::PathBuf,
    pnpm_env: PnpmEnv,
    env: PnpmEnv,
    /// Shims name the global virtual store's absolute paths: compared with
    /// each side's store mapped alike.
    global: bool,
}

impl Pair {
    fn new() -> Pair {
        let registry = Registry::start_fixtures();
        let tmp = tempfile::tempdir().unwrap();
        let by_pnpm = tmp.path().join("pnpm/project");
        let by_pacquet = tmp.path().join("pacquet/project");
        prepare_project(PROJECT, &by_pnpm, &registry.url());
        prepare_project(PROJECT, &by_pacquet, &registry.url());
        let pnpm_env = PnpmEnv::new(&tmp.path().join("pnpm/env"), &registry.url());
        let env = PnpmEnv::new(&tmp.path().join("pacquet/env"), &registry.url());
        Pair {
            _registry: registry,
            _tmp: tmp,
            by_pnpm,
            by_pacquet,
            pnpm_env,
            env,
            global: false,
        }
    }

    /// `install --frozen-lockfile <flags>` by both, in `sub` of each
    /// project, then the trees compared.
    fn install_in(&self, sub: &str, flags: &[&str]) {
        let mut args = vec!["install", "--frozen-lockfile", "--reporter=append-only"];
        args.extend_from_slice(flags);
        self.pnpm_env.run_ok(&self.by_pnpm.join(sub), &args);
        let mut args = vec!["install", "--frozen-lockfile"];
        args.extend_from_slice(flags);
        let out = pacquet(&self.env, &self.by_pacquet.join(sub), &args);
        assert!(out.status.success(), "pacquet {flags:?}: {}", stderr(&out));
        self.assert_same();
    }

    fn assert_same(&self) {
        let opts = DiffOptions::for_installs(
            &self.by_pnpm,
            &self.pnpm_env.store_dir,
            &self.by_pacquet,
            &self.env.store_dir,
        )
        .ignore_path(".git");
        let opts = DiffOptions {
            substitute_contents: self.global,
            ..opts
        };
        assert_trees_equal(&self.by_pnpm, &self.by_pacquet, &opts);
    }

    /// Runs `run` in both project directories.
    fn both(&self, run: impl Fn(&Path)) {
        run(&self.by_pnpm);
        run(&self.by_pacquet);
    }
}

/// Runs the installs of `steps` in turn with pnpm and with pacquet, each
/// over its own `node_modules`, comparing after every step.
fn same_as_pnpm_through(steps: &[&[&str]]) {
    let pair = Pair::new();
    for flags in steps {
        pair.install_in("", flags);
    }
}

/// With `enableGlobalVirtualStore: true`: a filtered install links the
/// selected projects into the store's slots, and the next ones keep what
/// the earlier ones linked, as pnpm 12 does.
#[test]
fn filtered_installs_with_the_global_virtual_store_match_pnpm() {
    let mut pair = Pair::new();
    pair.global = true;
    pair.both(|project| support::add_settings(project, "\nenableGlobalVirtualStore: true\n"));
    for flags in [
        &["--filter", "@pq-f/app"][..],
        &[],
        &["--filter", "@pq-f/lib"],
    ] {
        pair.install_in("", flags);
    }
}

#[test]
fn one_project_then_everything_then_another() {
    same_as_pnpm_through(&[&["--filter", "@pq-f/app"], &[], &["--filter", "@pq-f/lib"]]);
}

/// Each filtered install adds to what the one before installed.
#[test]
fn filtered_installs_accumulate() {
    same_as_pnpm_through(&[
        &["--filter", "@pq-f/lib"],
        &["-F", "pq-f-other"],
        &["--filter", "@pq-f/tools"],
        // `-r` is what `install` does in a workspace anyway.
        &["-r"],
    ]);
}

/// Outside a workspace the project is the only one: a filter selects it or
/// nothing, as pnpm 12 decides.
#[test]
fn a_single_project() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let by_pnpm = tmp.path().join("pnpm/project");
    let by_pacquet = tmp.path().join("pacquet/project");
    prepare_project("basic", &by_pnpm, &registry.url());
    prepare_project("basic", &by_pacquet, &registry.url());
    let pnpm_env = PnpmEnv::new(&tmp.path().join("pnpm/env"), &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("pacquet/env"), &registry.url());
    for flags in [
        &["--filter", "nope"][..],
        &["--filter", "pq-project-basic"][..],
    ] {
        let mut args = vec!["install", "--frozen-lockfile", "--reporter=append-only"];
        args.extend_from_slice(flags);
        pnpm_env.run_ok(&by_pnpm, &args);
        let mut args = vec!["install", "--frozen-lockfile"];
        args.extend_from_slice(flags);
        let out = pacquet(&env, &by_pacquet, &args);
        assert!(out.status.success(), "{}", stderr(&out));
        let opts =
            DiffOptions::for_installs(&by_pnpm, &pnpm_env.store_dir, &by_pacquet, &env.store_dir);
        assert_trees_equal(&by_pnpm, &by_pacquet, &opts);
    }
    assert!(by_pacquet.join("node_modules/pq-plain").exists());
}

#[test]
fn dependencies_and_dependents() {
    same_as_pnpm_through(&[&["--filter", "@pq-f/app..."]]);
    same_as_pnpm_through(&[&["--filter", "...@pq-f/lib"]]);
    // A bare name finds the one scoped project of that name; `^` leaves it
    // out.
    same_as_pnpm_through(&[&["--filter", "app^..."]]);
}

/// `--filter-prod` walks production dependencies only: `tools` is a dev
/// dependency of `app`.
#[test]
fn filter_prod_skips_dev_edges() {
    same_as_pnpm_through(&[&["--filter-prod", "@pq-f/app..."]]);
}

#[test]
fn directories_and_exclusions() {
    same_as_pnpm_through(&[&["--filter", "{packages/*}", "--filter", "!@pq-f/app"]]);
    same_as_pnpm_through(&[&["--filter", "./packages/tools"], &["-F", "!pq-f-other"]]);
}

#[test]
fn workspace_root_only() {
    same_as_pnpm_through(&[&["-w"], &["--filter", "@pq-f/app"]]);
}

/// Selection and dependency groups together.
#[test]
fn filter_with_prod() {
    same_as_pnpm_through(&[
        &["--filter", "@pq-f/app", "--prod"],
        &["--filter", "@pq-f/app"],
    ]);
}

/// From a project's directory with `recursiveInstall: false`: that project
/// and its workspace dependencies (`--filter {.}...`).
#[test]
fn recursive_install_off_installs_the_current_project() {
    let pair = Pair::new();
    pair.install_in("packages/app", &["--config.recursive-install=false"]);
    // Relative directories are relative to where the command runs.
    pair.install_in("packages/app", &["--filter", "../other"]);
}

/// `[<since>]`: projects with files changed since a git revision, and
/// their dependents.
#[test]
fn changed_since_a_revision() {
    let pair = changed_lib();
    pair.install_in("", &["--filter", "...[HEAD]"]);
}

/// The same change matched by `testPattern` selects `lib` without its
/// dependents; ignored by `changedFilesIgnorePattern`, it selects nothing.
#[test]
fn test_pattern_and_ignored_changes() {
    let pair = changed_lib();
    pair.install_in(
        "",
        &[
            "--filter",
            "...[HEAD]",
            "--test-pattern",
            "packages/lib/*.js",
        ],
    );
    let pair = changed_lib();
    pair.install_in(
        "",
        &[
            "--filter",
            "...[HEAD]",
            "--changed-files-ignore-pattern",
            "**/index.js",
        ],
    );
}

/// `legacyDirFiltering: true`: `{packages}` selects every project under
/// the directory, not the directory alone.
#[test]
fn legacy_dir_filtering_selects_projects_under_the_directory() {
    let pair = Pair::new();
    pair.install_in(
        "",
        &[
            "--config.legacy-dir-filtering=true",
            "--filter",
            "{packages}",
        ],
    );
}

/// The `filter` fixture in a git repository, with `packages/lib/index.js`
/// changed since `HEAD`.
fn changed_lib() -> Pair {
    let pair = Pair::new();
    pair.both(|dir| {
        std::fs::write(dir.join("packages/lib/index.js"), "module.exports = 1\n").unwrap();
        let git = |args: &[&str]| {
            let out = std::process::Command::new("git")
                .args([
                    "-c",
                    "user.name=t",
                    "-c",
                    "user.email=t@t",
                    "-c",
                    "commit.gpgsign=false",
                ])
                .args(args)
                .current_dir(dir)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        git(&["init", "-q"]);
        git(&[
            "add",
            "package.json",
            "packages",
            "pnpm-lock.yaml",
            "pnpm-workspace.yaml",
        ]);
        git(&["commit", "-q", "-m", "fixture"]);
        std::fs::write(dir.join("packages/lib/index.js"), "module.exports = 2\n").unwrap();
    });
    pair
}

/// A filter that matches nothing installs nothing and exits 0, or 1 with
/// `--fail-if-no-match`, as pnpm 12 does.
#[test]
fn no_match() {
    let pair = Pair::new();
    pair.install_in("", &["--filter", "nope"]);
    assert!(!pair.by_pacquet.join("node_modules").exists());
    let args = [
        "install",
        "--frozen-lockfile",
        "--filter",
        "nope",
        "--fail-if-no-match",
    ];
    let by_pnpm = pair.pnpm_env.run(&pair.by_pnpm, &args);
    assert_eq!(by_pnpm.status.code(), Some(1), "{}", stdout(&by_pnpm));
    let out = pacquet(&pair.env, &pair.by_pacquet, &args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("No projects matched the filters"),
        "{}",
        stderr(&out)
    );
    assert!(!pair.by_pacquet.join("node_modules").exists());
}

/// Workspace selection is `install`'s: other commands refuse it by name.
#[test]
fn other_commands_refuse_selection_flags() {
    let pair = Pair::new();
    let out = pacquet(&pair.env, &pair.by_pacquet, &["fetch", "--filter", "x"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--filter is not supported by `pacquet fetch`"),
        "{}",
        stderr(&out)
    );
}

/// `--ignore-workspace`: a workspace project installed as a project of its
/// own, from its own lockfile.
#[test]
fn ignore_workspace_installs_the_project_alone() {
    let pair = Pair::new();
    let registry = format!("registry={}\n", pair.pnpm_env.registry);
    pair.both(|dir| std::fs::write(dir.join("packages/other/.npmrc"), &registry).unwrap());
    pair.pnpm_env.run_ok(
        &pair.by_pnpm.join("packages/other"),
        &["install", "--lockfile-only", "--ignore-workspace"],
    );
    std::fs::copy(
        pair.by_pnpm.join("packages/other/pnpm-lock.yaml"),
        pair.by_pacquet.join("packages/other/pnpm-lock.yaml"),
    )
    .unwrap();
    pair.install_in("packages/other", &["--ignore-workspace"]);
    assert!(
        pair.by_pacquet
            .join("packages/other/node_modules/@pq/plain")
            .exists()
    );
    assert!(!pair.by_pacquet.join("node_modules").exists());
}

/// What pacquet does not do with a selection it refuses by name, before
/// writing anything.
#[test]
fn refused_combinations() {
    let pair = Pair::new();
    for (args, setting) in [
        (
            &[
                "install",
                "--frozen-lockfile",
                "-F",
                "pq-f-other",
                "--config.node-linker=hoisted",
            ][..],
            "--filter with nodeLinker: hoisted",
        ),
        (
            &[
                "install",
                "--frozen-lockfile",
                "--config.shared-workspace-lockfile=false",
            ][..],
            "sharedWorkspaceLockfile: false",
        ),
    ] {
        let out = pacquet(&pair.env, &pair.by_pacquet, args);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(stderr(&out).contains(setting), "{}", stderr(&out));
        assert!(!pair.by_pacquet.join("node_modules").exists());
    }
}

/// `install --help` lists the selection flags and the settings taken as
/// flags (those are parsed before clap sees the command line).
#[test]
fn install_help_lists_what_is_supported() {
    let out = std::process::Command::new(support::pacquet_bin())
        .args(["install", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = stdout(&out);
    for flag in [
        "--filter",
        "--filter-prod",
        "--workspace-root",
        "--ignore-workspace",
        "--fail-if-no-match",
        "--shamefully-hoist",
        "--config.<key>=<value>",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
}
