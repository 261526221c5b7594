//! `store status`: pnpm 12.21 logs `Packages in the store are untouched`
//! and exits 0, or fails with `ERR_PNPM_MODIFIED_DEPENDENCY` listing the
//! modified packages.

use pacquet_config::Config;
use pacquet_store_ops::{StoreOpsError, modified_packages};

use crate::{
    args::Cli,
    commands::settings::{CliResult, boxed, cwd, info},
};

pub fn run(cli: &Cli, config: &Config) -> CliResult<()> {
    let modified = modified_packages(config).map_err(boxed)?;
    if !modified.is_empty() {
        return Err(Box::new(StoreOpsError::Modified { packages: modified }));
    }
    info(
        cli,
        config,
        &cwd(cli)?,
        "Packages in the store are untouched",
    );
    Ok(())
}
