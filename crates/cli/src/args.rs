//! Command-line surface, as close to pnpm's spelling as pacquet supports.

use std::path::PathBuf;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "pacquet",
    version,
    about = "A fast, pnpm-compatible package installer"
)]
pub struct Cli {
    /// Run as if pacquet was started in this directory.
    #[arg(short = 'C', long = "dir", global = true, value_name = "DIR")]
    pub dir: Option<PathBuf>,

    /// How to report progress and results (else the `reporter` setting,
    /// else `default`).
    #[arg(long, global = true, value_enum)]
    pub reporter: Option<Reporter>,

    /// Install only the workspace projects this selector picks (pnpm's
    /// grammar: `name`, `name...`, `...name`, `^`, `{dir}`, `./dir`,
    /// `[<since>]`, `!`); repeatable. The workspace root is always
    /// installed.
    #[arg(short = 'F', long = "filter", global = true, value_name = "SELECTOR")]
    pub filter: Vec<String>,

    /// Like `--filter`, but dependency walks follow production
    /// dependencies only.
    #[arg(long = "filter-prod", global = true, value_name = "SELECTOR")]
    pub filter_prod: Vec<String>,

    /// Act on every workspace project (what `install` does in a workspace
    /// anyway).
    #[arg(short = 'r', long, global = true)]
    pub recursive: bool,

    /// Act on the workspace root project only.
    #[arg(short = 'w', long = "workspace-root", global = true)]
    pub workspace_root: bool,

    /// Treat the project as if it were not in a workspace: its own
    /// lockfile, no `pnpm-workspace.yaml`.
    #[arg(long, global = true)]
    pub ignore_workspace: bool,

    #[command(subcommand)]
    pub command: Command,

    /// `(kebab key, value)` settings given as flags, taken out of the
    /// arguments before parsing (see [`Cli::parse_with_config`]).
    #[arg(skip)]
    pub config: Vec<(String, String)>,

    /// `--node-linker` was given as a flag (not as `--config.node-linker`).
    #[arg(skip)]
    pub node_linker_flag: bool,
}

impl Cli {
    /// The workspace-selection flags given, by name: commands other than
    /// `install` refuse them rather than ignore them.
    pub fn selection_flags(&self) -> Option<&'static str> {
        if !self.filter.is_empty() {
            Some("--filter")
        } else if !self.filter_prod.is_empty() {
            Some("--filter-prod")
        } else if self.workspace_root {
            Some("--workspace-root")
        } else if self.recursive {
            Some("--recursive")
        } else if self.ignore_workspace {
            Some("--ignore-workspace")
        } else {
            None
        }
    }

    /// Parses the command line. Settings may be given as flags, as in pnpm
    /// (`--config.<key>=<value>`, `--<setting>`, `--no-<setting>`; see
    /// [`crate::setting_flags`]); they are taken out before clap parses the
    /// rest.
    pub fn parse_with_config() -> Cli {
        let claimed = claimed_flags(&Cli::command());
        let split = crate::setting_flags::split(std::env::args().collect(), &claimed);
        let command = Cli::command().mut_subcommand("install", |c| {
            c.after_long_help(crate::setting_flags::help())
        });
        let matches = command.get_matches_from(split.rest);
        let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
        cli.config = split.pairs;
        cli.node_linker_flag = split.node_linker_flag;
        cli
    }
}

/// Every long flag (and alias) of `cmd` and its subcommands, and their
/// `no-` forms: those are clap's to parse.
fn claimed_flags(cmd: &clap::Command) -> std::collections::HashSet<String> {
    let mut out = std::collections::HashSet::new();
    for arg in cmd.get_arguments() {
        out.extend(arg.get_long().map(str::to_owned));
        out.extend(
            arg.get_all_aliases()
                .into_iter()
                .flatten()
                .map(str::to_owned),
        );
    }
    for sub in cmd.get_subcommands() {
        out.extend(claimed_flags(sub));
    }
    out.insert("help".to_owned());
    out.insert("version".to_owned());
    out
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Install the dependencies recorded in pnpm-lock.yaml.
    #[command(alias = "i")]
    Install(InstallArgs),
    /// Download every package pnpm-lock.yaml needs into the store, without
    /// package.json and without creating node_modules.
    Fetch(FetchArgs),
    /// Manage the content-addressable store.
    Store(StoreArgs),
    /// Put one workspace project (`--filter <name>`) with its dependencies,
    /// workspace projects copied in, into a directory of its own.
    Deploy(DeployArgs),
    /// Add packages to package.json (`name`, `name@range`, `name@tag`,
    /// `alias@npm:name@range`) and install.
    Add(AddArgs),
    /// Remove packages from package.json and install.
    #[command(aliases = ["rm", "uninstall", "un"])]
    Remove(RemoveArgs),
    /// Update dependencies within their ranges (or to `latest`), rewriting
    /// their package.json ranges as pnpm does.
    #[command(aliases = ["up", "upgrade"])]
    Update(UpdateArgs),
}

#[derive(Debug, clap::Args)]
pub struct UpdateArgs {
    /// Only these dependencies (all when none is named).
    #[arg(value_name = "PACKAGE")]
    pub packages: Vec<String>,
    /// Take the `latest` dist-tag, whatever the range says.
    #[arg(short = 'L', long)]
    pub latest: bool,
    #[command(flatten)]
    pub install: EditInstallArgs,
}

#[derive(Debug, clap::Args)]
pub struct AddArgs {
    #[arg(required = true, value_name = "PACKAGE")]
    pub packages: Vec<String>,
    /// Save to devDependencies.
    #[arg(short = 'D', long)]
    pub save_dev: bool,
    /// Save to optionalDependencies.
    #[arg(short = 'O', long, conflicts_with = "save_dev")]
    pub save_optional: bool,
    /// Save the exact version picked, without `savePrefix`.
    #[arg(short = 'E', long)]
    pub save_exact: bool,
    /// Save to peerDependencies and devDependencies.
    #[arg(long, conflicts_with = "save_optional")]
    pub save_peer: bool,
    #[command(flatten)]
    pub install: EditInstallArgs,
}

#[derive(Debug, clap::Args)]
pub struct RemoveArgs {
    #[arg(required = true, value_name = "PACKAGE")]
    pub packages: Vec<String>,
    #[command(flatten)]
    pub install: EditInstallArgs,
}

/// The install flags every installing command takes (`add`, `remove` and
/// `update` take only these: their `-D` is `--save-dev`).
#[derive(Debug, Clone, clap::Args)]
pub struct CommonInstallArgs {
    /// Never touch the network: everything must already be in the store.
    #[arg(long)]
    pub offline: bool,

    /// Prefer cached data over the network.
    #[arg(long)]
    pub prefer_offline: bool,

    /// Do not run lifecycle scripts of dependencies.
    #[arg(long)]
    pub ignore_scripts: bool,

    /// The content-addressable store to use (`/v11` is appended as pnpm does).
    #[arg(long, value_name = "DIR")]
    pub store_dir: Option<PathBuf>,

    /// Override the default registry.
    #[arg(long, value_name = "URL")]
    pub registry: Option<String>,
}

/// What `add`, `remove` and `update` take: the install flags, and
/// `--lockfile-only`.
#[derive(Debug, Clone, clap::Args)]
pub struct EditInstallArgs {
    #[command(flatten)]
    pub common: CommonInstallArgs,

    /// Write package.json and pnpm-lock.yaml only; install nothing.
    #[arg(long)]
    pub lockfile_only: bool,
}

impl EditInstallArgs {
    /// The install that follows the edit: it resolves what changed.
    pub fn install_args(&self) -> InstallArgs {
        InstallArgs {
            frozen_lockfile: false,
            // The edit is resolved, in CI too.
            no_frozen_lockfile: true,
            lockfile_only: self.lockfile_only,
            fix_lockfile: false,
            common: self.common.clone(),
            groups: GroupArgs {
                prod: false,
                dev: false,
                no_optional: false,
            },
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct DeployArgs {
    /// The directory to deploy into: new or empty.
    #[arg(value_name = "TARGET_DIR")]
    pub target: PathBuf,

    #[command(flatten)]
    pub groups: GroupArgs,

    /// Never touch the network: everything must already be in the store.
    #[arg(long)]
    pub offline: bool,

    /// The content-addressable store to use (`/v11` is appended as pnpm does).
    #[arg(long, value_name = "DIR")]
    pub store_dir: Option<PathBuf>,

    /// Override the default registry.
    #[arg(long, value_name = "URL")]
    pub registry: Option<String>,

    /// Empty a non-empty target directory inside the workspace first.
    #[arg(long)]
    pub force: bool,

    /// Do not run lifecycle scripts of dependencies.
    #[arg(long)]
    pub ignore_scripts: bool,
}

#[derive(Debug, clap::Args)]
pub struct FetchArgs {
    /// Never touch the network: fail when a package is not in the store.
    #[arg(long)]
    pub offline: bool,

    /// The content-addressable store to use (`/v11` is appended as pnpm does).
    #[arg(long, value_name = "DIR")]
    pub store_dir: Option<PathBuf>,

    /// Override the default registry.
    #[arg(long, value_name = "URL")]
    pub registry: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct StoreArgs {
    /// The content-addressable store to use (`/v11` is appended as pnpm does).
    #[arg(long, global = true, value_name = "DIR")]
    pub store_dir: Option<PathBuf>,

    #[command(subcommand)]
    pub command: StoreCommand,
}

#[derive(Debug, Subcommand)]
pub enum StoreCommand {
    /// Print the store directory.
    Path,
    /// Report installed packages whose files differ from the store (exit 1).
    Status,
    /// Remove packages and files that no project uses.
    Prune,
    /// Add tarball files (or directories of .tgz files) to the store.
    Add {
        #[arg(required = true, value_name = "TARBALL")]
        tarballs: Vec<PathBuf>,
    },
}

#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    /// Fail instead of resolving when the lockfile does not match package.json
    /// (the default in CI when there is a lockfile).
    #[arg(long)]
    pub frozen_lockfile: bool,

    /// Resolve what the lockfile lacks, in CI too.
    #[arg(long, conflicts_with = "frozen_lockfile")]
    pub no_frozen_lockfile: bool,

    /// Resolve and write pnpm-lock.yaml without installing anything.
    #[arg(long, conflicts_with = "frozen_lockfile")]
    pub lockfile_only: bool,

    /// Resolve again, keeping the lockfile's versions, to repair broken
    /// entries (a missing integrity, say).
    #[arg(long, conflicts_with = "frozen_lockfile")]
    pub fix_lockfile: bool,

    #[command(flatten)]
    pub common: CommonInstallArgs,

    #[command(flatten)]
    pub groups: GroupArgs,
}

/// Which dependency groups are installed (docs/layout.md §13).
#[derive(Debug, clap::Args)]
pub struct GroupArgs {
    /// Install `dependencies` and `optionalDependencies` only (the
    /// `production` setting).
    #[arg(short = 'P', long = "prod", visible_alias = "production")]
    pub prod: bool,

    /// Install `devDependencies` only (the `dev` setting).
    #[arg(short = 'D', long)]
    pub dev: bool,

    /// Leave `optionalDependencies` out (the `optional` setting).
    #[arg(long)]
    pub no_optional: bool,
}

impl GroupArgs {
    /// `--config.*` pairs with `--no-optional` added as the setting it
    /// stands for (`optional=false`). `--prod` and `--dev` are not settings
    /// in pnpm 12 (docs/layout.md §13.1).
    pub fn config(&self, config: &[(String, String)]) -> Vec<(String, String)> {
        let mut config = config.to_vec();
        if self.no_optional {
            config.push(("optional".to_owned(), "false".to_owned()));
        }
        config
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Reporter {
    /// Progress on a terminal, plain lines otherwise.
    Default,
    /// Errors only.
    Silent,
    /// One JSON object per line, with pnpm's event names.
    Ndjson,
}
