//! `store prune`: prints pnpm 12.21's summary lines (`Removed all cached
//! metadata files` when there is a cache directory, `Removed 1 file (7
//! bytes)`, `Removed 0 packages`), after those of the global virtual store
//! when the store has one.

use pacquet_config::Config;
use pacquet_store_ops::{prune, prune_metadata};

use crate::{
    args::Cli,
    commands::settings::{CliResult, boxed, cwd, info},
};

pub fn run(cli: &Cli, config: &Config) -> CliResult<()> {
    let summary = prune(&config.store_dir).map_err(boxed)?;
    // pnpm 12.21 prints these straight to stderr, whatever the reporter.
    match &summary.slots {
        Some(slots) if slots.projects == 0 => {
            eprintln!("No registered projects for global virtual store");
        }
        Some(slots) => {
            eprintln!(
                "Checking {} registered project(s) for global virtual store usage",
                slots.projects
            );
            if slots.removed == 0 {
                eprintln!("No unused packages found in global virtual store");
            } else {
                let removed = plural(slots.removed, "package");
                eprintln!("Removed {removed} from global virtual store");
            }
        }
        None => {}
    }
    let cwd = cwd(cli)?;
    if prune_metadata(&config.cache_dir, &config.store_dir).map_err(boxed)? {
        info(cli, config, &cwd, "Removed all cached metadata files");
    }
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
