//! Why a package directory could not be filled.

use std::path::PathBuf;

use miette::Diagnostic;
use thiserror::Error;

#[derive(Debug, Error, Diagnostic)]
pub enum ImportError {
    #[error("Failed to import {path}")]
    #[diagnostic(
        code(ERR_PACQUET_IMPORT_PACKAGE),
        help("Check that the store and node_modules are writable and on a healthy filesystem.")
    )]
    Import {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("The package import method '{method}' is not supported here")]
    #[diagnostic(
        code(ERR_PNPM_UNSUPPORTED_IMPORT_METHOD),
        help("Use packageImportMethod: auto, hardlink or copy.")
    )]
    ImportMethodUnsupported {
        method: &'static str,
        #[source]
        source: std::io::Error,
    },
}
