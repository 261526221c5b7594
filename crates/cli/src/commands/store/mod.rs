//! `pacquet store path|status|prune|add`, shaped like pnpm 12's commands.

mod add;
mod path;
mod prune;
mod status;

use pacquet_config::{CliOverrides, Config};

use super::settings::{CliResult, load, store_dir_flag};
use crate::args::{Cli, StoreArgs, StoreCommand};

pub fn run(cli: &Cli, args: &StoreArgs) -> CliResult<()> {
    super::settings::refuse_selection(cli, "store")?;
    let config = store_config(cli, args)?;
    match &args.command {
        StoreCommand::Path => path::run(&config),
        StoreCommand::Status => status::run(cli, &config),
        StoreCommand::Prune => prune::run(cli, &config),
        StoreCommand::Add { tarballs } => add::run(cli, &config, tarballs),
    }
}

fn store_config(cli: &Cli, args: &StoreArgs) -> CliResult<Config> {
    load(
        cli,
        CliOverrides {
            store_dir: store_dir_flag(&args.store_dir),
            ..CliOverrides::default()
        },
    )
}
