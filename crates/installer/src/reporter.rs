//! What an install tells the outside world while it runs. The CLI turns
//! these events into a progress display, plain lines or pnpm's ndjson.

pub use pacquet_scripts::{ScriptEvent, ScriptSource};

/// Where a package's files came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Already in the store (`found_in_store` in pnpm's terms).
    Store,
    /// Downloaded during this install.
    Network,
}

/// A direct dependency added to an importer, for the closing summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectDependency {
    /// `dependencies`, `devDependencies` or `optionalDependencies`.
    pub group: &'static str,
    pub alias: String,
    pub name: String,
    pub version: String,
}

#[derive(Debug)]
pub enum Event<'a> {
    /// The lockfile was read and checked: `total` packages will be installed.
    Resolved { total: usize },
    /// A package's files are available (from the store or the network).
    Fetched { package_id: &'a str, origin: Origin },
    /// A package directory was filled in the virtual store.
    Imported { package_id: &'a str },
    /// An optional package was skipped (platform mismatch).
    SkippedOptional {
        package_id: &'a str,
        reason: &'a str,
    },
    /// An optional package's build failed: it stays unlinked from the
    /// projects and the install goes on (pnpm 12 logs this at debug level).
    OptionalBuildFailed {
        package_id: &'a str,
        details: &'a str,
    },
    /// The import method actually used (`hardlink`, `copy`, `clone`).
    ImportMethod {
        method: &'static str,
        /// On an install with no previous `lock.yaml`: the store's
        /// directory (`…/v11`) and the virtual store's, relative to the
        /// current directory.
        stores: Option<(&'a std::path::Path, &'a str)>,
    },
    /// The install finished linking.
    Summary {
        added: usize,
        direct: &'a [DirectDependency],
    },
    /// A line of lifecycle script output: `line` is the plain text
    /// (`.../pkg postinstall$ cmd`), `script` its parts (for colors).
    ScriptOutput {
        line: &'a str,
        script: &'a ScriptEvent<'a>,
    },
    /// A non-fatal problem.
    Warning { message: &'a str },
    /// Something the user should know that is not a problem (which
    /// projects a filter selected).
    Info { message: &'a str },
    /// Direct dependencies (`name@version`) provide agent skills that
    /// await approval (`pendingSkills`).
    PendingSkills { packages: &'a [String] },
    /// Nothing changed since the last install: nothing was done.
    UpToDate,
    /// The lockfile passed the supply-chain verification against the
    /// registry.
    LockfileVerified { entries: usize, millis: u64 },
    /// A verification recorded at `verified_at` (an ISO date) covers the
    /// lockfile under today's policy.
    LockfileVerificationCached { verified_at: &'a str },
}

/// Receives install events. Must be cheap: it is called from worker threads.
pub trait Reporter: Send + Sync {
    fn report(&self, event: Event<'_>);
}

/// Drops every event.
pub struct SilentReporter;

impl Reporter for SilentReporter {
    fn report(&self, _: Event<'_>) {}
}
