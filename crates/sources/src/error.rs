//! Why a package's files could not be obtained.

use std::path::PathBuf;

use miette::Diagnostic;
use thiserror::Error;

/// A source that could not deliver a package.
#[derive(Debug, Error, Diagnostic)]
pub enum SourceError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Tarball(#[from] pacquet_tarball::TarballError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Import(#[from] pacquet_import::ImportError),

    #[error("Cannot install {package_id}: {reason}")]
    #[diagnostic(
        code(ERR_PACQUET_UNSUPPORTED_RESOLUTION),
        help("pacquet cannot fetch this kind of dependency yet; install this project with pnpm.")
    )]
    UnsupportedResolution { package_id: String, reason: String },

    #[error("Failed to read the local tarball {path}")]
    #[diagnostic(
        code(ERR_PNPM_TARBALL_READ),
        help("Check that the file exists and is readable.")
    )]
    LocalTarball {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("Cannot read the directory of {package_id} at {path}")]
    #[diagnostic(
        code(ERR_PACQUET_LOCAL_DIRECTORY),
        help(
            "The lockfile points at a `file:` directory that is missing or unreadable; restore it or run `pnpm install`."
        )
    )]
    LocalDirectory {
        package_id: String,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error(
        "The git-hosted package \"{package_id}\" needs to execute build scripts but is not in the \"allowBuilds\" allowlist."
    )]
    #[diagnostic(
        code(ERR_PNPM_GIT_DEP_PREPARE_NOT_ALLOWED),
        help(
            "Add the package to \"allowBuilds\" in pnpm-workspace.yaml by its full id: `'{package_id}': true`."
        )
    )]
    GitDepPrepareNotAllowed { package_id: String },

    #[error("Preparing {package_id} failed: `{command}` exited with an error\n{output}")]
    #[diagnostic(
        code(ERR_PNPM_PREPARE_PACKAGE),
        help(
            "The package's prepare step must succeed in a fresh clone; fix it or depend on a published version."
        )
    )]
    PreparePackage {
        package_id: String,
        command: String,
        output: String,
    },

    #[error("Cannot fetch {package_id} from the git repository {repo} at {commit}: {output}")]
    #[diagnostic(
        code(ERR_PACQUET_GIT_FETCH),
        help(
            "Check that `git` is installed, the repository is reachable and still has the locked commit."
        )
    )]
    GitFetch {
        package_id: String,
        repo: String,
        commit: String,
        output: String,
    },

    #[error("Cannot {what} for {package_id}")]
    #[diagnostic(
        code(ERR_PACQUET_SOURCE_IO),
        help("Check that the temporary directory and the store are writable.")
    )]
    SourceIo {
        package_id: String,
        what: &'static str,
        #[source]
        source: std::io::Error,
    },
}
