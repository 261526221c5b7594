use std::path::PathBuf;

use miette::Diagnostic;
use thiserror::Error;

/// Everything that can stop an install. Causes keep their own pnpm codes;
/// variants here add codes for failures that belong to the install itself.
#[derive(Debug, Error, Diagnostic)]
pub enum InstallError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Lockfile(pacquet_lockfile::LockfileError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Config(pacquet_config::ConfigError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Plan(#[from] pacquet_planner::PlanError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Filter(#[from] pacquet_workspace_filter::FilterError),

    /// `--fail-if-no-match` (or `failIfNoMatch`) and no project selected.
    #[error("No projects matched the filters in \"{}\"", dir.display())]
    #[diagnostic(
        code(ERR_PACQUET_NO_PROJECTS_MATCHED),
        help(
            "Check the --filter selectors against the projects' names and directories; nothing was installed."
        )
    )]
    NoProjectsMatched { dir: PathBuf },

    /// Without `--frozen-lockfile` and without a lockfile: the install
    /// resolves one (the lockfile gate's answer, never reported).
    #[error("No pnpm-lock.yaml in {}", dir.display())]
    #[diagnostic(
        code(ERR_PACQUET_RESOLUTION_NEEDED),
        help("Run `pacquet install` without --frozen-lockfile to resolve it.")
    )]
    NoLockfile { dir: PathBuf },

    /// Without `--frozen-lockfile`, a lockfile that needs resolving again
    /// (the lockfile gate's answer; the install then resolves).
    #[error("pnpm-lock.yaml must be updated")]
    #[diagnostic(
        code(ERR_PACQUET_RESOLUTION_NEEDED),
        help("Run `pacquet install` without --frozen-lockfile to update it.")
    )]
    NeedsResolution(#[source] Box<pacquet_lockfile::LockfileError>),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Tarball(#[from] pacquet_tarball::TarballError),

    /// Resolving the projects' dependencies failed.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Resolve(pacquet_resolver::ResolveError),

    #[error("cannot write {}: {source}", path.display())]
    #[diagnostic(
        code(ERR_PACQUET_WRITE_LOCKFILE),
        help(
            "Check that the project directory is writable; the previous lockfile was left as it was."
        )
    )]
    WriteLockfile {
        path: PathBuf,
        source: std::io::Error,
    },

    /// The lockfile failed the supply-chain verification.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Verification(pacquet_verification::VerifyError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Source(#[from] pacquet_sources::SourceError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Bins(#[from] pacquet_bins::BinError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    LifecycleScripts(#[from] pacquet_scripts::ScriptsError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    StoreIndex(#[from] pacquet_store_index::StoreIndexError),

    #[error("{message}")]
    #[diagnostic(
        code(ERR_PNPM_UNSUPPORTED_ENGINE),
        help(
            "The project's package.json asks for another pnpm (pacquet installs as pnpm 12.21.0) or, with engineStrict, another Node.js."
        )
    )]
    UnsupportedProjectEngine { message: String },

    #[error(
        "Failed to fetch tarball for {package_id} from {tarball_url} in offline mode: snapshot not present in local store"
    )]
    #[diagnostic(
        code(ERR_PNPM_NO_OFFLINE_TARBALL),
        help(
            "Drop `--offline` (or `offline=true` in pnpm-workspace.yaml) or run an online install first to populate the store."
        )
    )]
    NoOfflineTarball {
        package_id: String,
        tarball_url: String,
    },

    #[error("Package {package_id} in the store is {found}, but the lockfile wants {wanted}")]
    #[diagnostic(
        code(ERR_PNPM_UNEXPECTED_PKG_CONTENT_IN_STORE),
        help(
            "The store entry is inconsistent; run `pnpm store prune` or remove the store and retry."
        )
    )]
    UnexpectedStoreContent {
        package_id: String,
        found: String,
        wanted: String,
    },

    #[error("nodeLinker: {linker} is not supported")]
    #[diagnostic(
        code(ERR_PACQUET_UNSUPPORTED_NODE_LINKER),
        help(
            "pacquet builds the isolated and hoisted layouts; set `nodeLinker` to one of them in pnpm-workspace.yaml or install this project with pnpm."
        )
    )]
    UnsupportedNodeLinker { linker: &'static str },

    #[error("Invalid {key}: {reason}")]
    #[diagnostic(
        code(ERR_PACQUET_NETWORK_SETTING),
        help("Fix the setting in .npmrc, pnpm-workspace.yaml or the environment.")
    )]
    NetworkSetting { key: &'static str, reason: String },

    #[error("{message}")]
    #[diagnostic(
        code(ERR_PNPM_NO_MATURE_MATCHING_VERSION),
        help(
            "Run the install interactively to approve these picks, add them to minimumReleaseAgeExclude in pnpm-workspace.yaml, or wait for the packages to mature."
        )
    )]
    NoMatureMatchingVersion { message: String },

    #[error("Unmet peer dependencies")]
    #[diagnostic(
        code(ERR_PNPM_PEER_DEP_ISSUES),
        help(
            "To disable failing on peer dependency issues, add `strictPeerDependencies: false` to pnpm-workspace.yaml in your project root."
        )
    )]
    PeerDependencyIssues,

    #[error("{setting} is not supported")]
    #[diagnostic(
        code(ERR_PACQUET_UNSUPPORTED_SETTING),
        help(
            "pacquet does not do what this setting asks yet; remove it from the settings or install this project with pnpm."
        )
    )]
    UnsupportedSetting { setting: String },

    #[error("enableGlobalVirtualStore: true is not supported {reason}")]
    #[diagnostic(
        code(ERR_PACQUET_UNSUPPORTED_GLOBAL_VIRTUAL_STORE),
        help(
            "pacquet builds the global virtual store for the isolated layout only; remove `nodeLinker: hoisted` or `enableGlobalVirtualStore`."
        )
    )]
    UnsupportedGlobalVirtualStore { reason: String },

    #[error(transparent)]
    #[diagnostic(transparent)]
    Patch(#[from] pacquet_patching::PatchError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Import(#[from] pacquet_import::ImportError),

    #[error("Failed to write {path}")]
    #[diagnostic(
        code(ERR_PACQUET_WRITE),
        help("Check that node_modules is writable and the disk is not full.")
    )]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("An install task stopped unexpectedly: {what}")]
    #[diagnostic(
        code(ERR_PACQUET_INTERNAL),
        help("This is a bug in pacquet; rerun the install, and report it if it persists.")
    )]
    Internal { what: String },
}

impl InstallError {
    pub(crate) fn write(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| InstallError::Write { path, source }
    }
}
