//! Locating pnpm 12 (the compatibility oracle) and running it hermetically.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Version the fixtures and lockfiles are made with.
pub const PNPM_VERSION: &str = "12.21.0";

/// `$PACQUET_PNPM`, else `<workspace>/.tools/pnpm/node_modules/.bin/pnpm`.
/// Panics with a hint when it is missing.
pub fn pnpm_bin() -> PathBuf {
    let bin = match std::env::var_os("PACQUET_PNPM") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => crate::paths::workspace_root().join(".tools/pnpm/node_modules/.bin/pnpm"),
    };
    assert!(
        bin.exists(),
        "pnpm {PNPM_VERSION} not found at {}: run tasks/install-tools.sh (or set PACQUET_PNPM)",
        bin.display()
    );
    bin
}

/// An isolated environment for pnpm: its own HOME, XDG dirs, PNPM_HOME and
/// store, so it never reads or writes the real user's config, cache or store.
/// The directories live under `root`, which the caller owns (usually a
/// tempdir).
#[derive(Debug, Clone)]
pub struct PnpmEnv {
    pub root: PathBuf,
    pub store_dir: PathBuf,
    pub registry: String,
}

impl PnpmEnv {
    /// Environment under `root` using `<root>/store` and `registry`.
    pub fn new(root: &Path, registry: &str) -> PnpmEnv {
        PnpmEnv::with_store(root, &root.join("store"), registry)
    }

    /// Environment under `root` sharing an explicit store dir.
    pub fn with_store(root: &Path, store_dir: &Path, registry: &str) -> PnpmEnv {
        for sub in ["home", "config", "data", "cache", "state", "pnpm-home"] {
            std::fs::create_dir_all(root.join(sub)).expect("create env dir");
        }
        PnpmEnv {
            root: root.to_path_buf(),
            store_dir: store_dir.to_path_buf(),
            registry: registry.to_string(),
        }
    }

    /// The cache dir pnpm will use (`$XDG_CACHE_HOME/pnpm`).
    pub fn cache_dir(&self) -> PathBuf {
        self.root.join("cache/pnpm")
    }

    /// A `pnpm` command in `dir` with the isolated environment, the store dir
    /// and the registry; `args` follow. `CI` is forced to `true` so the
    /// behaviour does not depend on the caller's environment, and inherited
    /// `pnpm_config_*`/`npm_config_*` variables are removed.
    pub fn command(&self, dir: &Path, args: &[&str]) -> Command {
        let mut cmd = self.bare_command(dir, args);
        cmd.arg(format!("--store-dir={}", self.store_dir.display()));
        cmd.arg(format!("--registry={}", self.registry));
        cmd
    }

    /// A `pnpm <args>` command in `dir` with the isolated environment only
    /// (no `--store-dir`/`--registry` flags), for commands that take none.
    pub fn bare_command(&self, dir: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(pnpm_bin());
        cmd.current_dir(dir);
        self.apply_env(&mut cmd);
        cmd.args(args);
        cmd
    }

    /// Applies the isolated environment to any command (pacquet's too, so
    /// both tools see the same HOME, XDG dirs and `CI`): sets HOME,
    /// `XDG_{CONFIG,DATA,CACHE,STATE}_HOME`, `PNPM_HOME`,
    /// `NPM_CONFIG_USERCONFIG`, `CI=true`, `NO_COLOR=1`, and removes
    /// inherited `pnpm_*`, `npm_config_*` and `NODE_OPTIONS` variables.
    pub fn apply_env(&self, cmd: &mut Command) {
        for (key, _) in std::env::vars_os() {
            let k = key.to_string_lossy().to_ascii_lowercase();
            if k.starts_with("pnpm_") || k.starts_with("npm_config_") || k == "node_options" {
                cmd.env_remove(&key);
            }
        }
        cmd.env("HOME", self.root.join("home"))
            .env("XDG_CONFIG_HOME", self.root.join("config"))
            .env("XDG_DATA_HOME", self.root.join("data"))
            .env("XDG_CACHE_HOME", self.root.join("cache"))
            .env("XDG_STATE_HOME", self.root.join("state"))
            .env("PNPM_HOME", self.root.join("pnpm-home"))
            .env("NPM_CONFIG_USERCONFIG", self.root.join("home/.npmrc"))
            .env("CI", "true")
            .env("NO_COLOR", "1");
    }

    /// Runs `pnpm <args>` in `dir` and returns its output (whatever the exit
    /// status).
    pub fn run(&self, dir: &Path, args: &[&str]) -> Output {
        self.command(dir, args).output().expect("spawn pnpm")
    }

    /// Runs `pnpm <args>` in `dir`, panicking with its output on failure.
    pub fn run_ok(&self, dir: &Path, args: &[&str]) -> Output {
        let out = self.run(dir, args);
        assert!(
            out.status.success(),
            "pnpm {} failed in {} ({}):\n--- stdout\n{}\n--- stderr\n{}",
            args.join(" "),
            dir.display(),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// `pnpm install --frozen-lockfile` in `dir` (must succeed).
    pub fn install_frozen(&self, dir: &Path) -> Output {
        self.run_ok(
            dir,
            &["install", "--frozen-lockfile", "--reporter=append-only"],
        )
    }

    /// `pnpm install --lockfile-only` in `dir` (must succeed): resolves
    /// against the registry and writes `pnpm-lock.yaml`.
    pub fn lockfile_only(&self, dir: &Path) -> Output {
        self.run_ok(
            dir,
            &[
                "install",
                "--lockfile-only",
                "--no-frozen-lockfile",
                "--reporter=append-only",
            ],
        )
    }
}

/// A fixture project installed by pnpm: where it is and the environment
/// (store, HOME, …) that installed it.
#[derive(Debug, Clone)]
pub struct InstalledFixture {
    pub project: PathBuf,
    pub env: PnpmEnv,
}

/// Copies fixture project `name` to `<root>/project` (with an `.npmrc` for
/// `registry`) and installs it with `pnpm install --frozen-lockfile`, using
/// an isolated environment under `<root>/env` and the store
/// `<root>/env/store`.
pub fn pnpm_install_fixture(
    registry: &crate::Registry,
    name: &str,
    root: &Path,
) -> InstalledFixture {
    let project = root.join("project");
    crate::paths::prepare_project(name, &project, &registry.url());
    let env = PnpmEnv::new(&root.join("env"), &registry.url());
    env.install_frozen(&project);
    InstalledFixture { project, env }
}
