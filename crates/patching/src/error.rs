//! The crate's error type; codes and texts are pnpm 12.21's.

use std::path::PathBuf;

use miette::Diagnostic;
use thiserror::Error;

#[derive(Debug, Error, Diagnostic)]
pub enum PatchError {
    #[error("Patch file not found: {}", path.display())]
    #[diagnostic(
        code(ERR_PNPM_PATCH_NOT_FOUND),
        help("Restore the file or update its entry in patchedDependencies.")
    )]
    NotFound { path: PathBuf },

    #[error("Failed to read patch file {}", path.display())]
    #[diagnostic(
        code(ERR_PNPM_PATCH_NOT_FOUND),
        help("Check that the patch file is readable.")
    )]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("Applying patch \"{}\" failed: {message}", patch_file.display())]
    #[diagnostic(
        code(ERR_PNPM_INVALID_PATCH),
        help(
            "The file is not a unified diff; recreate it with `pnpm patch` and `pnpm patch-commit`."
        )
    )]
    Invalid {
        patch_file: PathBuf,
        message: String,
    },

    #[error("Could not apply patch {} to {}: {message}", patch_file.display(), package_dir.display())]
    #[diagnostic(
        code(ERR_PNPM_PATCH_FAILED),
        help(
            "The patch does not fit this version of the package; recreate it with `pnpm patch`, or key it to the version it was made for."
        )
    )]
    Failed {
        patch_file: PathBuf,
        package_dir: PathBuf,
        message: String,
    },
}
