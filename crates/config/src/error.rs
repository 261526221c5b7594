use std::path::PathBuf;

use miette::Diagnostic;
use thiserror::Error;

/// Everything that can go wrong while loading the configuration.
#[derive(Debug, Error, Diagnostic)]
pub enum ConfigError {
    #[error("Failed to read {path}")]
    #[diagnostic(
        code(ERR_PNPM_CONFIG_READ),
        help("Check that the file exists and is readable.")
    )]
    ReadFile {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("Failed to parse pnpm-workspace.yaml at {path}:{line}:{column}: {message}")]
    #[diagnostic(
        code(ERR_PNPM_INVALID_SETTING),
        help("Fix the YAML syntax at the reported line and column.")
    )]
    InvalidWorkspaceYaml {
        path: PathBuf,
        line: u64,
        column: u64,
        message: String,
    },

    #[error("Failed to parse {path}: {message}")]
    #[diagnostic(
        code(ERR_PNPM_INVALID_SETTING),
        help("Fix the YAML syntax of the global config file.")
    )]
    InvalidConfigYaml { path: PathBuf, message: String },

    #[error("Failed to parse {path}: {key}: {message}")]
    #[diagnostic(
        code(ERR_PNPM_INVALID_SETTING),
        help("Give {key} a value of its type (docs: https://pnpm.io/settings).")
    )]
    InvalidSettingType {
        path: PathBuf,
        key: String,
        message: &'static str,
    },

    #[error("The \"{key}\" registry URL in \"{source_name}\" contains an environment variable")]
    #[diagnostic(
        code(ERR_PNPM_REGISTRY_ENV_NOT_EXPANDED),
        help(
            "pnpm does not expand environment variables in registry URLs that come from a file committed to the repository. Ignoring the URL would resolve the packages it serves from another registry. Write the URL literally, or move the setting to the global config.yaml."
        )
    )]
    RegistryEnvNotExpanded { key: String, source_name: String },

    #[error("Failed to decode _auth as base64")]
    #[diagnostic(
        code(ERR_PNPM_AUTH_INVALID_BASE64),
        help("_auth must contain a base64-encoded <username>:<password> value")
    )]
    AuthInvalidBase64 { key: String },

    #[error("No separator found in the decoded form of _auth")]
    #[diagnostic(
        code(ERR_PNPM_AUTH_MISSING_SEPARATOR),
        help(
            "_auth is a base64 encoded form of <username>:<password> where the colon (:) serves as the separator"
        )
    )]
    AuthMissingSeparator { key: String },

    #[error("Invalid value {value:?} for --config.{key}: expected true or false")]
    #[diagnostic(
        code(ERR_PNPM_INVALID_SETTING),
        help("Boolean settings accept true, false, 1 or 0.")
    )]
    InvalidCliBool { key: String, value: String },

    #[error("Invalid value for {key}: unknown variant `{value}`, expected one of {expected}")]
    #[diagnostic(
        code(ERR_PNPM_INVALID_SETTING),
        help("Set {key} to one of: {expected}.")
    )]
    InvalidVariant {
        key: &'static str,
        value: String,
        expected: &'static str,
    },

    #[error("Invalid workspace package pattern {pattern:?}: {message}")]
    #[diagnostic(
        code(ERR_PNPM_INVALID_WORKSPACE_CONFIGURATION),
        help("Patterns under `packages:` in pnpm-workspace.yaml must be valid globs.")
    )]
    InvalidPackagePattern { pattern: String, message: String },
}
