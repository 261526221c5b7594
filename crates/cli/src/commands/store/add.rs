//! `store add <tarball…>`: like pnpm 12.21, a `+ file:<path>` line per added
//! tarball, a warning per failure, then `ERR_PNPM_STORE_ADD_FAILURE` if any
//! failed.

use std::path::PathBuf;

use pacquet_config::Config;
use pacquet_store_ops::{StoreOpsError, add_tarballs};

use crate::{
    args::Cli,
    commands::settings::{CliResult, boxed, cwd, info},
    report::error_code,
};

pub fn run(cli: &Cli, config: &Config, tarballs: &[PathBuf]) -> CliResult<()> {
    let cwd = cwd(cli)?;
    let outcomes = add_tarballs(&config.store_dir, &cwd, tarballs).map_err(boxed)?;
    let mut failed = false;
    for outcome in &outcomes {
        match &outcome.result {
            Ok(package_id) => info(cli, config, &cwd, &format!("+ {package_id}")),
            Err(err) => {
                failed = true;
                let code = error_code(err.as_ref()).unwrap_or_default();
                eprintln!("[WARN] {code}: {err}");
            }
        }
    }
    if failed {
        return Err(Box::new(StoreOpsError::AddFailed));
    }
    Ok(())
}
