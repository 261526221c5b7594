//! `store prune`: prints pnpm 12.21's two summary lines
//! (`Removed 1 file (7 bytes)`, `Removed 0 packages`).

use pacquet_config::Config;
use pacquet_store_ops::prune;

use crate::{
    args::Cli,
    commands::settings::{CliResult, boxed, cwd, info},
};

pub fn run(cli: &Cli, config: &Config) -> CliResult<()> {
    let summary = prune(&config.store_dir).map_err(boxed)?;
    let cwd = cwd(cli)?;
    let files = plural(summary.files, "file");
    info(
        cli,
        config,
        &cwd,
        &format!("Removed {files} ({} bytes)", summary.bytes),
    );
    info(
        cli,
        config,
        &cwd,
        &format!("Removed {}", plural(summary.packages, "package")),
    );
    Ok(())
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
