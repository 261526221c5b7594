//! `type: git` resolutions, cloned from a local repository over `file://`
//! at the locked commit and prepared as pnpm 12 prepares them.

use pacquet_testing::{DiffOptions, PnpmEnv, Registry, assert_trees_equal, copy_dir, packages_dir};

use super::helpers::{Pair, git_repo, index_keys, write_project};
use crate::support::{pacquet, pacquet_install_ok, stderr};

/// A project depending on the `pq-git` repository; its lockfile is made by
/// pnpm 12 (the repository path differs per run). Returns the project dir
/// and the package id.
fn git_project(
    tmp: &std::path::Path,
    registry: &Registry,
    allow: bool,
) -> (std::path::PathBuf, String) {
    git_project_at(tmp, registry, allow, None)
}

/// [`git_project`] with the package in directory `sub` of the repository.
fn git_project_at(
    tmp: &std::path::Path,
    registry: &Registry,
    allow: bool,
    sub: Option<&str>,
) -> (std::path::PathBuf, String) {
    let source_dir = packages_dir().join("pq-git/1.0.0");
    let (url, commit) = git_repo(&source_dir, &tmp.join("repo"), sub);
    let (spec, package_id) = match sub {
        Some(sub) => (
            format!("git+{url}#path:{sub}"),
            format!("pq-git@git+{url}#{commit}&path:{sub}"),
        ),
        None => (format!("git+{url}"), format!("pq-git@git+{url}#{commit}")),
    };
    let source = tmp.join("source");
    write_project(
        &source,
        serde_json::json!({ "pq-git": spec }),
        &format!("allowBuilds:\n  '{package_id}': true\n"),
        &registry.url(),
    );
    PnpmEnv::new(&tmp.join("lock-env"), &registry.url()).lockfile_only(&source);
    let lockfile = std::fs::read_to_string(source.join("pnpm-lock.yaml")).unwrap();
    assert!(
        lockfile.contains(&format!("commit: {commit}")),
        "{lockfile}"
    );
    assert!(lockfile.contains(&format!("{package_id}:")), "{lockfile}");
    if !allow {
        std::fs::write(source.join("pnpm-workspace.yaml"), "trustLockfile: true\n").unwrap();
    }
    (source, package_id)
}

#[test]
fn git_repository_matches_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (source, package_id) = git_project(tmp.path(), &registry, true);
    let pair = Pair::install(&source, tmp.path(), &registry.url());
    pair.assert_same_tree();

    let package = pair.pacquet.join("node_modules/pq-git");
    assert_eq!(
        std::fs::read_to_string(package.join("prepared.txt")).unwrap(),
        "prepared\n",
        "the prepare script ran"
    );
    assert!(!package.join("extra.txt").exists(), "outside `files`");
    let version = package_id.strip_prefix("pq-git@").unwrap();
    let keys = index_keys(&pair.pacquet_env.store_dir);
    assert_eq!(keys, [format!("{version}\tbuilt")]);
    assert_eq!(index_keys(&pair.pnpm_env.store_dir), keys);
}

/// A git package with a prepare script that `allowBuilds` does not name by
/// its full id: pnpm 12 and pacquet both refuse with the same code.
#[test]
fn git_prepare_needs_allow_builds_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (source, package_id) = git_project(tmp.path(), &registry, false);
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let by_pnpm = env.run(
        &source,
        &["install", "--frozen-lockfile", "--reporter=append-only"],
    );
    let pnpm_output = format!(
        "{}{}",
        String::from_utf8_lossy(&by_pnpm.stdout),
        String::from_utf8_lossy(&by_pnpm.stderr)
    );
    assert!(
        pnpm_output.contains("ERR_PNPM_GIT_DEP_PREPARE_NOT_ALLOWED"),
        "{pnpm_output}"
    );
    let _ = std::fs::remove_dir_all(source.join("node_modules"));

    let out = pacquet(&env, &source, &["install", "--frozen-lockfile"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("ERR_PNPM_GIT_DEP_PREPARE_NOT_ALLOWED"),
        "{}",
        stderr(&out)
    );
    // The id itself may be wrapped across lines; its commit is not.
    let commit = package_id.rsplit('#').next().unwrap();
    assert!(stderr(&out).contains(commit), "{}", stderr(&out));
}

/// With `--ignore-scripts` both tools pack the unprepared checkout and key
/// it `…\tnot-built`.
#[test]
fn git_repository_with_ignore_scripts_matches_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (source, package_id) = git_project(tmp.path(), &registry, true);
    let mut stores = Vec::new();
    let mut projects = Vec::new();
    for tool in ["pnpm", "pacquet"] {
        let project = tmp.path().join(tool).join("project");
        copy_dir(&source, &project).unwrap();
        let env = PnpmEnv::new(&tmp.path().join(tool).join("env"), &registry.url());
        if tool == "pnpm" {
            env.run_ok(
                &project,
                &[
                    "install",
                    "--frozen-lockfile",
                    "--ignore-scripts",
                    "--reporter=append-only",
                ],
            );
        } else {
            pacquet_install_ok(&env, &project, &["--ignore-scripts"]);
        }
        stores.push(env.store_dir.clone());
        projects.push(project);
    }
    let opts = DiffOptions::for_installs(&projects[0], &stores[0], &projects[1], &stores[1]);
    assert_trees_equal(&projects[0], &projects[1], &opts);
    assert!(
        !projects[1]
            .join("node_modules/pq-git/prepared.txt")
            .exists()
    );
    let version = package_id.strip_prefix("pq-git@").unwrap();
    let keys = index_keys(&stores[1]);
    assert_eq!(keys, [format!("{version}\tnot-built")]);
    assert_eq!(index_keys(&stores[0]), keys);
}

/// A package in a subdirectory of the repository (`#path:`), as in a
/// monorepo: only that directory is packed.
#[test]
fn git_repository_subdirectory_matches_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (source, package_id) = git_project_at(tmp.path(), &registry, true, Some("packages/pq-git"));
    let pair = Pair::install(&source, tmp.path(), &registry.url());
    pair.assert_same_tree();
    let package = pair.pacquet.join("node_modules/pq-git");
    assert!(package.join("prepared.txt").is_file());
    let version = package_id.strip_prefix("pq-git@").unwrap();
    assert_eq!(
        index_keys(&pair.pacquet_env.store_dir),
        [format!("{version}\tbuilt")]
    );
    assert_eq!(
        index_keys(&pair.pnpm_env.store_dir),
        [format!("{version}\tbuilt")]
    );
}
