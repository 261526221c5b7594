//! `pacquet fetch`: fill the store from pnpm-lock.yaml (see
//! `pacquet_installer::fetch`).

use pacquet_config::CliOverrides;

use super::settings::{CliResult, boxed, cwd, info, load, reporter, store_dir_flag};
use crate::args::{Cli, FetchArgs};

pub fn run(cli: &Cli, args: &FetchArgs, runtime: &tokio::runtime::Handle) -> CliResult<()> {
    // `fetch` fills the store for the whole lockfile; a selection would be
    // ignored.
    super::settings::refuse_selection(cli, "fetch")?;
    let config = load(
        cli,
        CliOverrides {
            store_dir: store_dir_flag(&args.store_dir),
            offline: args.offline.then_some(true),
            registry: args.registry.clone(),
            ..CliOverrides::default()
        },
    )?;
    let cwd = cwd(cli)?;
    let reporter = reporter(cli, &config, &cwd);
    let summary = pacquet_installer::fetch(&config, runtime, reporter.as_ref()).map_err(boxed)?;
    info(
        cli,
        &config,
        &cwd,
        &format!(
            "Fetched {} packages into {} ({} downloaded)",
            summary.packages,
            config.store_dir.display(),
            summary.downloaded
        ),
    );
    Ok(())
}
