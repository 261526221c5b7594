use std::path::PathBuf;

use miette::Diagnostic;
use thiserror::Error;

use pacquet_installer::InstallError;

/// Why a `store` command failed.
#[derive(Debug, Error, Diagnostic)]
pub enum StoreOpsError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Install(#[from] InstallError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Index(#[from] pacquet_store_index::PruneIndexError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    StoreIndex(#[from] pacquet_store_index::StoreIndexError),

    /// `store status`: files in `node_modules` differ from the store.
    #[error(
        "Packages in the store have been mutated\nThese packages are modified:\n{}",
        .packages.join("\n")
    )]
    #[diagnostic(
        code(ERR_PNPM_MODIFIED_DEPENDENCY),
        help(
            "Remove node_modules and run `pacquet install` again to restore the listed packages."
        )
    )]
    Modified { packages: Vec<String> },

    #[error(transparent)]
    #[diagnostic(transparent)]
    Lock(#[from] pacquet_cas::CasError),

    #[error("Cannot read {path} while looking for packages that projects use")]
    #[diagnostic(
        code(ERR_PACQUET_STORE_PRUNE_SCAN),
        help(
            "Nothing was removed. Fix or remove the project (or its link in <store>/projects) and prune again."
        )
    )]
    Scan {
        path: PathBuf,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },

    #[error("{path}")]
    #[diagnostic(
        code(ERR_PACQUET_STORE_IO),
        help("Check that the store directory is readable and writable.")
    )]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("Some packages have not been added correctly")]
    #[diagnostic(
        code(ERR_PNPM_STORE_ADD_FAILURE),
        help("The warnings above name each tarball that failed.")
    )]
    AddFailed,
}

impl StoreOpsError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| StoreOpsError::Io { path, source }
    }
}
