//! Command-line surface, as close to pnpm's spelling as pacquet supports.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

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

    /// How to report progress and results.
    #[arg(long, global = true, value_enum, default_value_t = Reporter::Default)]
    pub reporter: Reporter,

    #[command(subcommand)]
    pub command: Command,

    /// `--config.<key>=<value>` pairs, taken out of the arguments before
    /// parsing (see [`Cli::parse_with_config`]).
    #[arg(skip)]
    pub config: Vec<(String, String)>,
}

impl Cli {
    /// Parses the command line. Arguments of the form `--config.<key>` or
    /// `--config.<key>=<value>` set any setting, as in pnpm; a bare key means
    /// `true`.
    pub fn parse_with_config() -> Cli {
        let (config, rest): (Vec<String>, Vec<String>) =
            std::env::args().partition(|arg| arg.starts_with("--config."));
        let mut cli = Cli::parse_from(rest);
        cli.config = config
            .iter()
            .filter_map(|arg| arg.strip_prefix("--config."))
            .map(|pair| match pair.split_once('=') {
                Some((key, value)) => (key.to_owned(), value.to_owned()),
                None => (pair.to_owned(), "true".to_owned()),
            })
            .collect();
        cli
    }
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
    /// Fail instead of resolving when the lockfile does not match package.json.
    #[arg(long)]
    pub frozen_lockfile: bool,

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

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Reporter {
    /// Progress on a terminal, plain lines otherwise.
    Default,
    /// Errors only.
    Silent,
    /// One JSON object per line, with pnpm's event names.
    Ndjson,
}
