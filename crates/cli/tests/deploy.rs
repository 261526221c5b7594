//! `pacquet deploy` against `pnpm deploy`: both deploy the same project of
//! the same workspace into sibling directories, which must then be equal
//! (the project's files, `package.json`, `pnpm-lock.yaml`,
//! `pnpm-workspace.yaml`, `node_modules` and its state files;
//! docs/deploy.md).

mod support;

use std::path::{Path, PathBuf};

use pacquet_testing::{DiffOptions, PnpmEnv, Registry, assert_trees_equal, prepare_project};
use support::{pacquet, stderr, stdout};

struct Setup {
    registry: Option<Registry>,
    tmp: tempfile::TempDir,
    workspace: PathBuf,
    pnpm_env: PnpmEnv,
    env: PnpmEnv,
}

impl Setup {
    fn new() -> Setup {
        let registry = Registry::start_fixtures();
        let tmp = tempfile::tempdir().unwrap();
        let workspace = tmp.path().join("workspace");
        prepare_project("filter", &workspace, &registry.url());
        // Files of the project: published ones are copied, the rest not.
        std::fs::write(
            workspace.join("packages/app/index.js"),
            "module.exports = 1\n",
        )
        .unwrap();
        std::fs::write(workspace.join("packages/app/.npmignore"), "secret.txt\n").unwrap();
        std::fs::write(workspace.join("packages/app/secret.txt"), "no\n").unwrap();
        let pnpm_env = PnpmEnv::new(&tmp.path().join("pnpm-env"), &registry.url());
        let env = PnpmEnv::new(&tmp.path().join("pacquet-env"), &registry.url());
        Setup {
            registry: Some(registry),
            tmp,
            workspace,
            pnpm_env,
            env,
        }
    }

    fn target(&self, tool: &str) -> PathBuf {
        self.tmp.path().join("out").join(tool)
    }

    /// `deploy <args> <target>` by both tools from the workspace root.
    fn deploy_both(&self, args: &[&str]) {
        let target = self.target("pnpm");
        let mut pnpm_args = vec!["deploy", "--reporter=append-only"];
        pnpm_args.extend_from_slice(args);
        let target_arg = target.display().to_string();
        pnpm_args.push(&target_arg);
        self.pnpm_env.run_ok(&self.workspace, &pnpm_args);
        let out = self.pacquet_deploy(args);
        assert!(
            out.status.success(),
            "pacquet deploy {args:?}: {}",
            stderr(&out)
        );
    }

    fn pacquet_deploy(&self, args: &[&str]) -> std::process::Output {
        let target = self.target("pacquet").display().to_string();
        let mut all = vec!["deploy"];
        all.extend_from_slice(args);
        all.push(&target);
        pacquet(&self.env, &self.workspace, &all)
    }

    fn assert_same(&self) {
        let (a, b) = (self.target("pnpm"), self.target("pacquet"));
        let opts = DiffOptions::for_installs(&a, &self.pnpm_env.store_dir, &b, &self.env.store_dir);
        assert_trees_equal(&a, &b, &opts);
        assert!(b.join("index.js").is_file());
        assert!(!b.join("secret.txt").exists());
    }
}

#[test]
fn a_project_with_workspace_and_registry_dependencies() {
    let s = Setup::new();
    s.deploy_both(&["--filter", "@pq-f/app"]);
    s.assert_same();
}

#[test]
fn production_only() {
    let s = Setup::new();
    s.deploy_both(&["--filter", "@pq-f/app", "--prod"]);
    s.assert_same();
}

/// A project with a command of its own and a dev dependency.
#[test]
fn a_project_with_a_bin() {
    let s = Setup::new();
    s.deploy_both(&["--filter", "@pq-f/tools", "--prod"]);
    let (a, b) = (s.target("pnpm"), s.target("pacquet"));
    let opts = DiffOptions::for_installs(&a, &s.pnpm_env.store_dir, &b, &s.env.store_dir);
    assert_trees_equal(&a, &b, &opts);
}

/// `deployAllFiles: true`: every file of the project is copied, also
/// those it would not publish.
#[test]
fn deploy_all_files_copies_unpublished_files() {
    let s = Setup::new();
    s.deploy_both(&["--filter", "@pq-f/app", "--config.deploy-all-files=true"]);
    let (a, b) = (s.target("pnpm"), s.target("pacquet"));
    let opts = DiffOptions::for_installs(&a, &s.pnpm_env.store_dir, &b, &s.env.store_dir);
    assert_trees_equal(&a, &b, &opts);
    assert!(b.join("secret.txt").is_file());
}

/// The store filled by `pacquet fetch`, then a deploy that may not use the
/// network, with the registry gone.
#[test]
fn fetch_then_deploy_offline() {
    let mut s = Setup::new();
    let out = pacquet(&s.env, &s.workspace, &["fetch"]);
    assert!(out.status.success(), "{}", stderr(&out));
    s.pnpm_env.run_ok(
        &s.workspace,
        &[
            "deploy",
            "--filter",
            "@pq-f/app",
            &s.target("pnpm").display().to_string(),
        ],
    );
    drop(s.registry.take());
    let out = s.pacquet_deploy(&["--filter", "@pq-f/app", "--offline"]);
    assert!(out.status.success(), "{}", stderr(&out));
    s.assert_same();
}

/// Wrong selections and targets fail as pnpm 12 fails them, with its
/// codes, and write nothing.
#[test]
fn refused_like_pnpm() {
    let s = Setup::new();
    let outside = s.target("pacquet");
    let cases: [(&[&str], &str, Option<&Path>); 4] = [
        (&["--filter", "nope"], "ERR_PNPM_NOTHING_TO_DEPLOY", None),
        (
            &["--filter", "{packages/*}"],
            "ERR_PNPM_CANNOT_DEPLOY_MANY",
            None,
        ),
        (
            &["--filter", "@pq-f/app"],
            "ERR_PNPM_INVALID_DEPLOY_TARGET",
            Some(&s.workspace),
        ),
        (
            &["--filter", "@pq-f/app"],
            "ERR_PNPM_DEPLOY_DIR_NOT_EMPTY",
            Some(&outside),
        ),
    ];
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("keep.txt"), "mine\n").unwrap();
    for (args, code, target) in cases {
        let target = target.map_or_else(|| s.tmp.path().join("out/new"), Path::to_path_buf);
        let mut all = vec!["deploy"];
        all.extend_from_slice(args);
        let target = target.display().to_string();
        all.push(&target);
        let by_pnpm = s.pnpm_env.run(&s.workspace, &all);
        assert_eq!(by_pnpm.status.code(), Some(1), "pnpm {all:?}");
        let printed = stdout(&by_pnpm) + &stderr(&by_pnpm);
        assert!(printed.contains(code), "pnpm {all:?}: {printed}");
        let out = pacquet(&s.env, &s.workspace, &all);
        assert_eq!(out.status.code(), Some(1), "{all:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(code), "{all:?}: {}", stderr(&out));
        assert!(!s.tmp.path().join("out/new").exists());
    }
    assert_eq!(
        std::fs::read_to_string(outside.join("keep.txt")).unwrap(),
        "mine\n"
    );
    assert!(!s.workspace.join("node_modules").exists());
}

/// Install flags go to the install in the deploy directory: here no
/// lifecycle script runs and the builds are recorded as pending.
#[test]
fn ignore_scripts_reaches_the_install() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let workspace = tmp.path().join("workspace");
    prepare_project("lifecycle", &workspace, &registry.url());
    let pnpm_env = PnpmEnv::new(&tmp.path().join("pnpm-env"), &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("pacquet-env"), &registry.url());
    let (a, b) = (tmp.path().join("out/pnpm"), tmp.path().join("out/pacquet"));
    let args = |target: &Path| {
        vec![
            "deploy".to_owned(),
            "--filter".to_owned(),
            "pq-lc-app".to_owned(),
            "--ignore-scripts".to_owned(),
            target.display().to_string(),
        ]
    };
    let pnpm_args = args(&a);
    let pnpm_args: Vec<&str> = pnpm_args.iter().map(String::as_str).collect();
    pnpm_env.run_ok(&workspace, &pnpm_args);
    let ours = args(&b);
    let ours: Vec<&str> = ours.iter().map(String::as_str).collect();
    let out = pacquet(&env, &workspace, &ours);
    assert!(out.status.success(), "{}", stderr(&out));
    let opts = DiffOptions::for_installs(&a, &pnpm_env.store_dir, &b, &env.store_dir);
    assert_trees_equal(&a, &b, &opts);
}

/// Outside a workspace there is nothing to deploy from: pnpm 12's code,
/// and nothing written.
#[test]
fn outside_a_workspace_is_refused_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    prepare_project("basic", &project, &registry.url());
    std::fs::remove_file(project.join("pnpm-workspace.yaml")).unwrap();
    let pnpm_env = PnpmEnv::new(&tmp.path().join("pnpm-env"), &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("pacquet-env"), &registry.url());
    let target = tmp.path().join("out").display().to_string();
    let by_pnpm = pnpm_env.run(&project, &["deploy", &target]);
    let printed = stdout(&by_pnpm) + &stderr(&by_pnpm);
    assert!(printed.contains("ERR_PNPM_CANNOT_DEPLOY"), "{printed}");
    let out = pacquet(&env, &project, &["deploy", &target]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("ERR_PNPM_CANNOT_DEPLOY"),
        "{}",
        stderr(&out)
    );
    assert!(!tmp.path().join("out").exists());
}

/// A workspace with `patchedDependencies` is refused by name before
/// anything is written (where pnpm 12 puts the patch paths is unchecked).
#[test]
fn patched_dependencies_are_refused_by_name() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let workspace = tmp.path().join("workspace");
    prepare_project("patched", &workspace, &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let target = tmp.path().join("out").display().to_string();
    let out = pacquet(&env, &workspace, &["deploy", "-w", &target]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("ERR_PACQUET_UNSUPPORTED_SETTING"), "{text}");
    assert!(text.contains("patchedDependencies"), "{text}");
    assert!(!tmp.path().join("out").exists());
}
