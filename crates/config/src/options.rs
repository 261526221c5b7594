use std::collections::HashMap;
use std::path::PathBuf;

/// Inputs of [`crate::load`]. Nothing is read from the process environment:
/// callers pass `env` and `home` explicitly so tests stay hermetic.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// The directory pnpm was started in (after `--dir`).
    pub cwd: PathBuf,
    /// The environment variables visible to the installer.
    pub env: HashMap<String, String>,
    /// The user's home directory, if any.
    pub home: Option<PathBuf>,
    /// Settings given on the command line.
    pub cli: CliOverrides,
}

impl LoadOptions {
    /// Options from the real process environment.
    pub fn from_process(cwd: PathBuf, cli: CliOverrides) -> Self {
        let env: HashMap<String, String> = std::env::vars().collect();
        let home = env.get("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
        LoadOptions {
            cwd,
            env,
            home,
            cli,
        }
    }
}

/// Command line flags that map onto settings (rank 1 of the precedence).
#[derive(Debug, Clone, Default)]
pub struct CliOverrides {
    pub store_dir: Option<String>,
    pub offline: Option<bool>,
    pub prefer_offline: Option<bool>,
    pub ignore_scripts: Option<bool>,
    pub frozen_lockfile: Option<bool>,
    pub registry: Option<String>,
    /// Generic `--config.<kebab-key>=<value>` pairs, in command line order.
    pub config: Vec<(String, String)>,
    /// `--prod`: dependencies and optional dependencies only.
    pub prod: bool,
    /// `--dev`: dev dependencies only.
    pub dev: bool,
    /// `nodeLinker` came from the `--node-linker` flag, which in pnpm 12.21
    /// does not turn `preferSymlinkedExecutables` on (`--config.node-linker`
    /// does).
    pub node_linker_flag: bool,
    /// `--ignore-workspace`: no `pnpm-workspace.yaml` is looked for; the
    /// directory is a project of its own.
    pub ignore_workspace: bool,
}
