//! Settings and reporters shared by the commands besides `install`.

use std::{io::IsTerminal, path::PathBuf, sync::OnceLock};

use miette::Diagnostic;
use pacquet_config::{CliOverrides, Config, LoadOptions};
use pacquet_installer::reporter::{Event, Reporter, SilentReporter};

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

/// The reporter a command chose: the `--reporter` flag, else the
/// `reporter` setting, else `default`. Errors are rendered with it too.
static CHOSEN: OnceLock<ReporterKind> = OnceLock::new();

/// The reporter errors are rendered with (the flag until settings load).
pub fn effective_reporter(cli: &Cli) -> ReporterKind {
    cli.reporter
        .or_else(|| CHOSEN.get().copied())
        .unwrap_or(ReporterKind::Default)
}

fn chosen(cli: &Cli, config: &Config) -> ReporterKind {
    let configured = match config.reporter.as_deref() {
        Some("silent") => ReporterKind::Silent,
        Some("ndjson") => ReporterKind::Ndjson,
        // `append-only` prints lines as they come, which is what the
        // default reporter does off a terminal.
        _ => ReporterKind::Default,
    };
    let kind = cli.reporter.unwrap_or(configured);
    let _ = CHOSEN.set(kind);
    kind
}

/// The reporter for the command, with pnpm 12's `loglevel` (`warn` keeps
/// only warnings, `error` nothing; errors are printed apart) and `color`
/// (`always`, `never`, else only on a terminal) applied to the default
/// one (checked with pnpm 12.21).
pub fn reporter(cli: &Cli, config: &Config, cwd: &std::path::Path) -> Box<dyn Reporter> {
    match chosen(cli, config) {
        ReporterKind::Silent => Box::new(SilentReporter),
        ReporterKind::Ndjson => Box::new(NdjsonReporter::new(cwd.display().to_string())),
        ReporterKind::Default => {
            let tty = std::io::stdout().is_terminal();
            let color = match config.color.as_deref() {
                Some("always") => true,
                Some("never") | Some("false") => false,
                _ => tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
            };
            let reporter = DefaultReporter::new(tty, color);
            match config.loglevel.as_deref() {
                Some("warn") => Box::new(WarningsOnly(reporter)),
                Some("error") => Box::new(SilentReporter),
                _ => Box::new(reporter),
            }
        }
    }
}

/// Passes on warnings only (`loglevel: warn`).
struct WarningsOnly<R>(R);

impl<R: Reporter> Reporter for WarningsOnly<R> {
    fn report(&self, event: Event<'_>) {
        if matches!(event, Event::Warning { .. }) {
            self.0.report(event);
        }
    }
}

/// An informational line on stderr, where pnpm 12 prints its logs; the
/// ndjson reporter wraps it as an `info` record.
pub fn info(cli: &Cli, config: &Config, cwd: &std::path::Path, message: &str) {
    if matches!(config.loglevel.as_deref(), Some("warn" | "error")) {
        return;
    }
    match chosen(cli, config) {
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
