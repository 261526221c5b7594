//! Why a deploy stopped.

use std::path::PathBuf;

use miette::Diagnostic;
use thiserror::Error;

#[derive(Debug, Error, Diagnostic)]
#[non_exhaustive]
pub enum DeployError {
    #[error("A deploy is only possible from inside a workspace")]
    #[diagnostic(
        code(ERR_PNPM_CANNOT_DEPLOY),
        help("Run `pacquet deploy` in a directory with a pnpm-workspace.yaml above it.")
    )]
    NotInWorkspace,

    #[error("No project was selected for deployment")]
    #[diagnostic(
        code(ERR_PNPM_NOTHING_TO_DEPLOY),
        help("Select the project with --filter <name>.")
    )]
    NothingToDeploy,

    #[error("Cannot deploy more than 1 project")]
    #[diagnostic(
        code(ERR_PNPM_CANNOT_DEPLOY_MANY),
        help("Narrow --filter to one project.")
    )]
    CannotDeployMany,

    #[error("Refusing to deploy to unsafe target {}: {reason}", dir.display())]
    #[diagnostic(
        code(ERR_PNPM_INVALID_DEPLOY_TARGET),
        help("Deploy into a directory outside the project and the workspace root.")
    )]
    UnsafeTarget { dir: PathBuf, reason: &'static str },

    #[error("Deploy path {} is not empty", dir.display())]
    #[diagnostic(
        code(ERR_PNPM_DEPLOY_DIR_NOT_EMPTY),
        help(
            "Deploy into an empty or new directory, or pass --force for a target inside the workspace."
        )
    )]
    NotEmpty { dir: PathBuf },

    #[error("The project {project_id} is not an importer of pnpm-lock.yaml")]
    #[diagnostic(
        code(ERR_PNPM_LOCKFILE_MISSING_IMPORTER),
        help("Run `pnpm install` to bring the lockfile up to date.")
    )]
    MissingImporter { project_id: String },

    #[error("Deploying a workspace without pnpm-lock.yaml is not supported")]
    #[diagnostic(
        code(ERR_PACQUET_RESOLUTION_NOT_SUPPORTED),
        help(
            "pnpm would resolve the project from scratch; run `pnpm install` first so a lockfile exists."
        )
    )]
    NoLockfile,

    #[error("{setting} is not supported by `pacquet deploy`")]
    #[diagnostic(
        code(ERR_PACQUET_UNSUPPORTED_SETTING),
        help("Deploy this project with `pnpm deploy`.")
    )]
    Unsupported { setting: &'static str },

    #[error("cannot {action} {}", path.display())]
    #[diagnostic(
        code(ERR_PACQUET_DEPLOY_IO),
        help("Check that the target directory is writable and the project's files readable.")
    )]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },

    #[error(transparent)]
    #[diagnostic(transparent)]
    Install(#[from] pacquet_installer::InstallError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Lockfile(#[from] pacquet_lockfile::LockfileError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Source(#[from] pacquet_sources::SourceError),
}

impl DeployError {
    pub(crate) fn io(
        action: &'static str,
        path: &std::path::Path,
    ) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.to_path_buf();
        move |source| DeployError::Io {
            action,
            path,
            source,
        }
    }
}
