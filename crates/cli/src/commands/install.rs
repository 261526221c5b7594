//! `pacquet install`: load settings, then hand over to the install pipeline.

use miette::Diagnostic;
use pacquet_config::{CliOverrides, LoadOptions};
use pacquet_installer::{InstallRequest, ProjectFilter, install};

use crate::args::{Cli, InstallArgs};

pub fn run(
    cli: &Cli,
    args: &InstallArgs,
    runtime: &tokio::runtime::Handle,
) -> Result<(), Box<dyn Diagnostic + Send + Sync>> {
    let (config, cwd) = load(cli, args)?;
    install_loaded(cli, args, &config, &cwd, runtime, Vec::new(), None)
}

/// The install of already loaded settings (`add` and `remove` run it after
/// editing a manifest).
pub(crate) fn install_loaded(
    cli: &Cli,
    args: &InstallArgs,
    config: &pacquet_config::Config,
    cwd: &std::path::Path,
    runtime: &tokio::runtime::Handle,
    edited: Vec<pacquet_installer::EditedManifest>,
    update: Option<pacquet_installer::Update>,
) -> Result<(), Box<dyn Diagnostic + Send + Sync>> {
    let reporter = super::settings::reporter(cli, config, cwd);
    // After an edit in a project's directory or with `-w`, the install
    // covers the workspace; after one with `--filter`, the projects it
    // selected (docs/resolution.md §11).
    let selected = !cli.filter.is_empty()
        || !cli.filter_prod.is_empty()
        || (cli.recursive && cli.workspace_root);
    let filter = if edited.is_empty() || selected {
        project_filter(cli, config, cwd)
    } else {
        None
    };
    // pnpm 12: frozen as asked, else in CI when there is a lockfile.
    let lockfile_exists = config
        .workspace_root
        .join(pacquet_installer::LOCKFILE_NAME)
        .is_file();
    let request = InstallRequest {
        config,
        frozen_lockfile: !args.fix_lockfile && config.frozen_lockfile_for(lockfile_exists),
        filter: filter.as_ref(),
        root_only: false,
        lockfile_only: args.lockfile_only,
        fix_lockfile: args.fix_lockfile,
        edited,
        update,
    };
    install(&request, runtime, reporter.as_ref())
        .map_err(|e| Box::new(e) as Box<dyn Diagnostic + Send + Sync>)?;
    Ok(())
}

/// The settings `args` and the environment give, and the directory the
/// command acts in.
pub(crate) fn load(
    cli: &Cli,
    args: &InstallArgs,
) -> Result<(pacquet_config::Config, std::path::PathBuf), Box<dyn Diagnostic + Send + Sync>> {
    let cwd = std::env::current_dir()
        .map_err(|e| Box::new(CliError::Cwd(e)) as Box<dyn Diagnostic + Send + Sync>)?;
    let cwd = match &cli.dir {
        Some(dir) => cwd.join(dir),
        None => cwd,
    };
    let options = LoadOptions {
        cwd: cwd.clone(),
        env: std::env::vars().collect(),
        home: std::env::home_dir(),
        cli: CliOverrides {
            store_dir: args
                .common
                .store_dir
                .as_ref()
                .map(|d| cwd.join(d).to_string_lossy().into_owned()),
            offline: args.common.offline.then_some(true),
            prefer_offline: args.common.prefer_offline.then_some(true),
            ignore_scripts: args.common.ignore_scripts.then_some(true),
            frozen_lockfile: if args.frozen_lockfile {
                Some(true)
            } else if args.no_frozen_lockfile || args.lockfile_only {
                Some(false)
            } else {
                None
            },
            registry: args.common.registry.clone(),
            config: args.groups.config(&cli.config),
            prod: args.groups.prod,
            dev: args.groups.dev,
            node_linker_flag: cli.node_linker_flag,
            ignore_workspace: cli.ignore_workspace,
        },
    };
    let config = pacquet_config::load(&options)
        .map_err(|e| Box::new(e) as Box<dyn Diagnostic + Send + Sync>)?;
    Ok((config, cwd))
}

#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum CliError {
    #[error("cannot determine the current directory: {0}")]
    #[diagnostic(code(ERR_PACQUET_CWD))]
    Cwd(std::io::Error),

    #[error("{flag} is not supported by `pacquet {command}`")]
    #[diagnostic(
        code(ERR_PACQUET_UNSUPPORTED_FLAG),
        help("Workspace selection applies to `pacquet install`; run the command without it.")
    )]
    NotForCommand {
        flag: &'static str,
        command: &'static str,
    },
}

/// The workspace selection of the command line, as pnpm 12 builds it
/// (docs/filtering.md §3): `--filter` and `--filter-prod` selectors, `-w`
/// as a selector of the workspace directory, and with `recursiveInstall:
/// false` and no selector, the current project and its dependencies.
fn project_filter(
    cli: &Cli,
    config: &pacquet_config::Config,
    cwd: &std::path::Path,
) -> Option<ProjectFilter> {
    let mut filter = selection(cli, config, cwd);
    if config.is_workspace && filter.filters.is_empty() && !config.recursive_install {
        filter.filters.push(pacquet_workspace_filter::Filter {
            selector: "{.}...".to_owned(),
            prod_only: false,
        });
    }
    (!filter.filters.is_empty()).then_some(filter)
}

/// `--filter`, `--filter-prod` and `-w` as selectors, relative to `cwd`.
pub(crate) fn selection(
    cli: &Cli,
    config: &pacquet_config::Config,
    cwd: &std::path::Path,
) -> ProjectFilter {
    use pacquet_workspace_filter::Filter;
    let mut filters: Vec<Filter> = cli
        .filter
        .iter()
        .map(|s| (s, false))
        .chain(cli.filter_prod.iter().map(|s| (s, true)))
        .map(|(selector, prod_only)| Filter {
            selector: selector.clone(),
            prod_only,
        })
        .collect();
    if cli.workspace_root {
        filters.push(Filter {
            selector: format!("{{{}}}", config.workspace_root.display()),
            prod_only: !cli.filter_prod.is_empty(),
        });
    }
    ProjectFilter {
        filters,
        prefix: cwd.to_path_buf(),
    }
}
