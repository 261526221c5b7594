//! Why a pnpmfile could not be run.

/// A pnpmfile that fails to load, throws, returns something that is not a
/// manifest, or asks for what pacquet does not run.
#[derive(Debug, Clone, thiserror::Error, miette::Diagnostic)]
pub enum HookError {
    #[error("Error during pnpmfile execution. pnpmfile: \"{pnpmfile}\". Error: \"{message}\".")]
    #[diagnostic(
        code(ERR_PNPM_PNPMFILE_FAIL),
        help("Fix the pnpmfile, or run with `--ignore-pnpmfile`.")
    )]
    Execution { pnpmfile: String, message: String },

    #[error("{message} Hook imported via {pnpmfile}")]
    #[diagnostic(
        code(ERR_PNPM_BAD_READ_PACKAGE_HOOK_RESULT),
        help("readPackage must return the manifest it was given (changed or not).")
    )]
    BadResult { pnpmfile: String, message: String },

    #[error("Cannot run the pnpmfile \"{pnpmfile}\": node could not be started ({reason})")]
    #[diagnostic(
        code(ERR_PACQUET_PNPMFILE_NODE),
        help(
            "A pnpmfile runs in Node.js: install `node` on the PATH, or run with `--ignore-pnpmfile`."
        )
    )]
    NoNode { pnpmfile: String, reason: String },

    #[error("The pnpmfile \"{pnpmfile}\" defines {hooks}, which pacquet does not run")]
    #[diagnostic(
        code(ERR_PACQUET_UNSUPPORTED_PNPMFILE_HOOK),
        help(
            "pacquet runs the readPackage hook. Install this project with pnpm, or remove the others."
        )
    )]
    Unsupported { pnpmfile: String, hooks: String },
}
