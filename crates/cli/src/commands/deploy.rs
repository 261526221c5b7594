//! `pacquet deploy`: one workspace project and its dependencies in a
//! directory of its own (see `pacquet_deploy`).

use pacquet_config::CliOverrides;

use super::settings::{CliResult, boxed, cwd, load, reporter, store_dir_flag};
use crate::args::{Cli, DeployArgs};

pub fn run(cli: &Cli, args: &DeployArgs, runtime: &tokio::runtime::Handle) -> CliResult<()> {
    if cli.ignore_workspace {
        return Err(super::settings::not_for("--ignore-workspace", "deploy"));
    }
    let config = load(
        cli,
        CliOverrides {
            store_dir: store_dir_flag(&args.store_dir),
            offline: args.offline.then_some(true),
            ignore_scripts: args.ignore_scripts.then_some(true),
            registry: args.registry.clone(),
            config: args.groups.config(&cli.config),
            prod: args.groups.prod,
            dev: args.groups.dev,
            ..CliOverrides::default()
        },
    )?;
    let cwd = cwd(cli)?;
    let filter = super::install::selection(cli, &config, &cwd);
    let request = pacquet_deploy::DeployRequest {
        config: &config,
        filter: &filter,
        target: cwd.join(&args.target),
        force: args.force,
    };
    let reporter = reporter(cli, &config, &args.target);
    pacquet_deploy::deploy(&request, runtime, reporter.as_ref()).map_err(boxed)?;
    Ok(())
}
