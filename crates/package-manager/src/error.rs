//! The crate's error type.

use std::path::PathBuf;

use miette::Diagnostic;
use thiserror::Error;

/// Everything planning or importing can fail with.
#[derive(Debug, Error, Diagnostic)]
#[non_exhaustive]
pub enum PackageManagerError {
    #[error("Broken lockfile: no entry for '{dep_path}' in pnpm-lock.yaml")]
    #[diagnostic(
        code(ERR_PNPM_LOCKFILE_MISSING_DEPENDENCY),
        help(
            "The lockfile is inconsistent; run `pnpm install` without --frozen-lockfile to repair it."
        )
    )]
    MissingDependency { dep_path: String },

    #[error("Broken lockfile: the snapshot '{dep_path}' has no entry in packages")]
    #[diagnostic(
        code(ERR_PNPM_LOCKFILE_MISSING_PACKAGE),
        help(
            "The lockfile is inconsistent; run `pnpm install` without --frozen-lockfile to repair it."
        )
    )]
    MissingPackage { dep_path: String },

    #[error("The lockfile has no importer '{importer}'")]
    #[diagnostic(
        code(ERR_PNPM_LOCKFILE_MISSING_IMPORTER),
        help("The project is not in pnpm-lock.yaml; run `pnpm install` to add it.")
    )]
    MissingImporter { importer: String },

    #[error("The tarball of '{dep_path}' has no integrity in the lockfile")]
    #[diagnostic(
        code(ERR_PNPM_MISSING_TARBALL_INTEGRITY),
        help("Tarballs without an integrity cannot be verified; regenerate the lockfile.")
    )]
    MissingTarballIntegrity { dep_path: String },

    #[error("Failed to import {path}: {source}")]
    #[diagnostic(
        code(ERR_PACQUET_IMPORT_PACKAGE),
        help("Check that the store and node_modules are writable and on a healthy filesystem.")
    )]
    Import {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("The package import method '{method}' is not supported here: {source}")]
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
