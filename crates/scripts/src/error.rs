use miette::Diagnostic;
use thiserror::Error;

/// Errors raised while deciding, running or recording dependency builds.
#[derive(Debug, Error, Diagnostic)]
#[non_exhaustive]
pub enum ScriptsError {
    /// Dependencies with build scripts that `allowBuilds` does not mention
    /// (`strictDepBuilds`). `ignored` is sorted, as pnpm prints it.
    #[error("Ignored build scripts: {}", ignored.join(", "))]
    #[diagnostic(
        code(ERR_PNPM_IGNORED_BUILDS),
        help(
            "Run \"pnpm approve-builds\" to pick which dependencies should be allowed to run scripts."
        )
    )]
    IgnoredBuilds { ignored: Vec<String> },

    /// A lifecycle script exited non-zero (or was killed).
    #[error("{0}")]
    #[diagnostic(code(ERR_PNPM_EXECUTOR_LIFECYCLE_SCRIPT_FAILED))]
    LifecycleScriptFailed(Box<ScriptFailure>),

    /// The shell could not be started.
    #[error("{pkg_id} {stage}: could not spawn `sh`")]
    #[diagnostic(code(ERR_PNPM_EXECUTOR_LIFECYCLE_SCRIPT_FAILED))]
    Spawn {
        pkg_id: String,
        stage: String,
        #[source]
        source: std::io::Error,
    },

    /// Reading the built package directory failed.
    #[error("failed to read the built package at {path}")]
    #[diagnostic(code(ERR_PACQUET_SIDE_EFFECTS_DIFF))]
    ReadBuiltPackage {
        path: String,
        #[source]
        source: std::io::Error,
    },

    /// The CAS write callback failed.
    #[error("failed to write {path} of a built package to the store")]
    #[diagnostic(code(ERR_PACQUET_SIDE_EFFECTS_DIFF))]
    CasWrite {
        path: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// Details of a failed lifecycle script. Displays as pnpm 12 words it:
/// ``<pkg_id> <stage>: `<command>` exited with exit status: <n>``.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptFailure {
    pub pkg_id: String,
    pub stage: String,
    pub command: String,
    /// `exited with exit status: 3` or `was terminated by signal: 9`.
    pub status: String,
    pub exit_code: Option<i32>,
    /// Interleaved stdout and stderr of the script.
    pub output: String,
}

impl std::fmt::Display for ScriptFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: `{}` {}",
            self.pkg_id, self.stage, self.command, self.status
        )
    }
}

impl ScriptsError {
    /// pnpm's error code (`ERR_PNPM_…`).
    pub fn pnpm_code(&self) -> &'static str {
        match self {
            ScriptsError::IgnoredBuilds { .. } => "ERR_PNPM_IGNORED_BUILDS",
            ScriptsError::LifecycleScriptFailed { .. } | ScriptsError::Spawn { .. } => {
                "ERR_PNPM_EXECUTOR_LIFECYCLE_SCRIPT_FAILED"
            }
            ScriptsError::ReadBuiltPackage { .. } | ScriptsError::CasWrite { .. } => {
                "ERR_PACQUET_SIDE_EFFECTS_DIFF"
            }
        }
    }
}
