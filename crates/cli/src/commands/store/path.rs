//! `store path`: the resolved store directory, `/v11` included, on stdout
//! (pnpm 12.21 prints exactly that line).

use pacquet_config::Config;

use crate::commands::settings::CliResult;

pub fn run(config: &Config) -> CliResult<()> {
    println!("{}", config.store_dir.display());
    Ok(())
}
