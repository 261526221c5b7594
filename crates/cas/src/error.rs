use std::path::PathBuf;

/// A failure writing into the CAS. Reads never fail: a bad blob is a cache
/// miss ([`crate::FileCheck`]).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum CasError {
    #[error("Failed to create the store directory {}", path.display())]
    #[diagnostic(
        code(ERR_PACQUET_CAS_CREATE_DIR),
        help(
            "Check that the store directory is writable, or choose another one with --store-dir."
        )
    )]
    CreateDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("Failed to write the store file {}", path.display())]
    #[diagnostic(
        code(ERR_PACQUET_CAS_WRITE),
        help("Check free disk space and permissions of the store directory.")
    )]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("Failed to read the store file {}", path.display())]
    #[diagnostic(
        code(ERR_PACQUET_CAS_READ),
        help("Check permissions of the store directory.")
    )]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("Failed to move {} into place at {}", from.display(), to.display())]
    #[diagnostic(
        code(ERR_PACQUET_CAS_RENAME),
        help("Check free disk space and permissions of the store directory.")
    )]
    Rename {
        from: PathBuf,
        to: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("Cannot take the store lock {path}")]
    #[diagnostic(
        code(ERR_PNPM_STORE_DIR_ACQUIRE_OPERATION_LOCK),
        help(
            "Check that the lock directory is writable (it is under $XDG_RUNTIME_DIR or /tmp; on Windows under %TEMP%)."
        )
    )]
    Lock {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl CasError {
    pub(crate) fn lock(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.to_owned();
        move |source| CasError::Lock { path, source }
    }
}
