//! Errors writing a `.bin` directory.

use std::path::PathBuf;

use miette::Diagnostic;
use thiserror::Error;

/// A `.bin` directory could not be written.
#[derive(Debug, Error, Diagnostic)]
pub enum BinError {
    #[error("Failed to create the bin directory {path}")]
    #[diagnostic(
        code(ERR_PACQUET_BIN_DIR),
        help("Check that the parent directory exists and is writable.")
    )]
    CreateDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("Failed to write the bin shim {path}")]
    #[diagnostic(
        code(ERR_PACQUET_BIN_WRITE),
        help("Check permissions of the .bin directory, or remove node_modules and install again.")
    )]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("Failed to read the bin target {path}")]
    #[diagnostic(
        code(ERR_PACQUET_BIN_READ_TARGET),
        help(
            "A package's `bin` must name a regular file inside the package; fix or remove the package."
        )
    )]
    ReadTarget {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("Failed to make the bin target {path} executable")]
    #[diagnostic(
        code(ERR_PACQUET_BIN_CHMOD),
        help("Check that the file is owned by the current user.")
    )]
    Chmod {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}
