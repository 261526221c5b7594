//! Why a selection could not be made.

use miette::Diagnostic;
use thiserror::Error;

#[derive(Debug, Error, Diagnostic)]
#[non_exhaustive]
pub enum FilterError {
    #[error("Filtering by changed packages failed. {stderr}")]
    #[diagnostic(
        code(ERR_PNPM_FILTER_CHANGED),
        help(
            "A `[<since>]` selector runs `git diff --name-only <since>`: the workspace must be in a git repository that has that commit."
        )
    )]
    Changed { stderr: String },

    #[error("Invalid pattern {pattern:?}: {message}")]
    #[diagnostic(
        code(ERR_PNPM_WORKSPACE_PROJECTS_FILTER_INVALID_PATTERN),
        help("Check `testPattern` and `changedFilesIgnorePattern`.")
    )]
    InvalidPattern { pattern: String, message: String },

    #[error("Unsupported project selector: {selector}")]
    #[diagnostic(
        code(ERR_PNPM_WORKSPACE_PROJECTS_FILTER_UNSUPPORTED_SELECTOR),
        help("A selector names projects by name pattern, `{{dir}}`/`./dir`, or `[<since>]`.")
    )]
    UnsupportedSelector { selector: String },
}
