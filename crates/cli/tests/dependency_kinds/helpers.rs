//! Installing one project with pnpm 12 and with pacquet and comparing.

use std::path::{Path, PathBuf};

use pacquet_testing::{DiffOptions, PnpmEnv, assert_trees_equal, copy_dir};

use crate::support::pacquet_install_ok;

/// Two installs of the project at `source`: pnpm's and pacquet's, each in
/// its own copy with its own store.
pub struct Pair {
    pub pnpm: PathBuf,
    pub pnpm_env: PnpmEnv,
    pub pacquet: PathBuf,
    pub pacquet_env: PnpmEnv,
}

impl Pair {
    /// Copies `source` to `<root>/pnpm/project` and `<root>/pacquet/project`
    /// and installs both with `--frozen-lockfile`.
    pub fn install(source: &Path, root: &Path, registry: &str) -> Pair {
        let pnpm = root.join("pnpm/project");
        copy_dir(source, &pnpm).unwrap();
        let pnpm_env = PnpmEnv::new(&root.join("pnpm/env"), registry);
        pnpm_env.install_frozen(&pnpm);
        let pacquet = root.join("pacquet/project");
        copy_dir(source, &pacquet).unwrap();
        let pacquet_env = PnpmEnv::new(&root.join("pacquet/env"), registry);
        pacquet_install_ok(&pacquet_env, &pacquet, &[]);
        Pair {
            pnpm,
            pnpm_env,
            pacquet,
            pacquet_env,
        }
    }

    pub fn assert_same_tree(&self) {
        let opts = DiffOptions::for_installs(
            &self.pnpm,
            &self.pnpm_env.store_dir,
            &self.pacquet,
            &self.pacquet_env.store_dir,
        );
        assert_trees_equal(&self.pnpm, &self.pacquet, &opts);
    }
}

/// Keys of the `package_index` table of the store under `store_dir`
/// (`<store_dir>/v11/index.db`), sorted.
pub fn index_keys(store_dir: &Path) -> Vec<String> {
    let db = rusqlite::Connection::open_with_flags(
        store_dir.join("v11/index.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let mut stmt = db
        .prepare("SELECT key FROM package_index ORDER BY key")
        .unwrap();
    stmt.query_map([], |row| row.get::<_, String>(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// A git repository at `dir` holding the files of `source` (under `sub`,
/// below a private root manifest, when given), committed with a fixed
/// identity and date so the commit id never changes. Returns its `file://`
/// URL and the commit.
pub fn git_repo(source: &Path, dir: &Path, sub: Option<&str>) -> (String, String) {
    match sub {
        Some(sub) => {
            copy_dir(source, &dir.join(sub)).unwrap();
            std::fs::write(
                dir.join("package.json"),
                r#"{"name":"monorepo","private":true}"#,
            )
            .unwrap();
        }
        None => copy_dir(source, dir).unwrap(),
    }
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_AUTHOR_NAME", "pq")
            .env("GIT_AUTHOR_EMAIL", "pq@example.invalid")
            .env("GIT_COMMITTER_NAME", "pq")
            .env("GIT_COMMITTER_EMAIL", "pq@example.invalid")
            .env("GIT_AUTHOR_DATE", "2020-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2020-01-01T00:00:00Z")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    git(&["init", "--quiet", "--initial-branch=main"]);
    git(&["add", "--all"]);
    git(&["commit", "--quiet", "--message", "init"]);
    let commit = git(&["rev-parse", "HEAD"]);
    (format!("file://{}", dir.display()), commit)
}

/// Writes a one-project workspace at `dir`: `package.json` with
/// `dependencies`, `pnpm-workspace.yaml` with `workspace_yaml` after
/// `trustLockfile: true`, and `.npmrc` for `registry`.
pub fn write_project(
    dir: &Path,
    dependencies: serde_json::Value,
    workspace_yaml: &str,
    registry: &str,
) {
    std::fs::create_dir_all(dir).unwrap();
    let manifest = serde_json::json!({
        "name": "pq-project-dep-kind",
        "version": "1.0.0",
        "private": true,
        "dependencies": dependencies,
    });
    std::fs::write(
        dir.join("package.json"),
        serde_json::to_string_pretty(&manifest).unwrap(),
    )
    .unwrap();
    std::fs::write(
        dir.join("pnpm-workspace.yaml"),
        format!("trustLockfile: true\n{workspace_yaml}"),
    )
    .unwrap();
    pacquet_testing::write_npmrc(dir, registry);
}
