//! Settings and reporters shared by the commands besides `install`.

use std::{io::IsTerminal, path::PathBuf};

use miette::Diagnostic;
use pacquet_config::{CliOverrides, Config, LoadOptions};
use pacquet_installer::reporter::{Reporter, SilentReporter};

use crate::{
    args::{Cli, Reporter as ReporterKind},
    commands::install::CliError,
    reporter::{DefaultReporter, NdjsonReporter},
};

pub type CliResult<T> = Result<T, Box<dyn Diagnostic + Send + Sync>>;

pub fn boxed(err: impl Diagnostic + Send + Sync + 'static) -> Box<dyn Diagnostic + Send + Sync> {
    Box::new(err)
}

/// `flag` refused by name: it belongs to another command.
pub fn not_for(flag: &'static str, command: &'static str) -> Box<dyn Diagnostic + Send + Sync> {
    boxed(CliError::NotForCommand { flag, command })
}

/// Workspace selection is `install`'s (and `deploy`'s): other commands
/// refuse the flags rather than ignore them.
pub fn refuse_selection(cli: &Cli, command: &'static str) -> CliResult<()> {
    match cli.selection_flags() {
        Some(flag) => Err(not_for(flag, command)),
        None => Ok(()),
    }
}

/// The directory the command runs in (`-C` applied).
pub fn cwd(cli: &Cli) -> CliResult<PathBuf> {
    let cwd = std::env::current_dir().map_err(|e| boxed(CliError::Cwd(e)))?;
    Ok(match &cli.dir {
        Some(dir) => cwd.join(dir),
        None => cwd,
    })
}

/// Loads the settings as `install` does. A relative `--store-dir` is left
/// to the config loader, which resolves it against the workspace root as
/// pnpm 12 does.
pub fn load(cli: &Cli, mut overrides: CliOverrides) -> CliResult<Config> {
    if overrides.config.is_empty() {
        overrides.config = cli.config.clone();
    }
    let options = LoadOptions {
        cwd: cwd(cli)?,
        env: std::env::vars().collect(),
        home: std::env::home_dir(),
        cli: overrides,
    };
    pacquet_config::load(&options).map_err(boxed)
}

pub fn store_dir_flag(dir: &Option<PathBuf>) -> Option<String> {
    dir.as_ref().map(|d| d.to_string_lossy().into_owned())
}

pub fn reporter(cli: &Cli, cwd: &std::path::Path) -> Box<dyn Reporter> {
    match cli.reporter {
        ReporterKind::Silent => Box::new(SilentReporter),
        ReporterKind::Ndjson => Box::new(NdjsonReporter::new(cwd.display().to_string())),
        ReporterKind::Default => Box::new(DefaultReporter::new(std::io::stdout().is_terminal())),
    }
}

/// An informational line on stderr, where pnpm 12 prints its logs; the
/// ndjson reporter wraps it as an `info` record.
pub fn info(cli: &Cli, cwd: &std::path::Path, message: &str) {
    match cli.reporter {
        ReporterKind::Silent => {}
        ReporterKind::Ndjson => eprintln!(
            "{}",
            serde_json::json!({
                "name": "pnpm",
                "level": "info",
                "message": message,
                "prefix": cwd.display().to_string(),
            })
        ),
        ReporterKind::Default => eprintln!("{message}"),
    }
}
