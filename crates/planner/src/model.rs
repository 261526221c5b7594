//! The output of the planner: plain data an executor carries out.

use std::collections::BTreeMap;

use pacquet_lockfile::{DepPath, DependencyGroup};

/// How to obtain one slot's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchSource {
    /// A registry tarball (URL derived from name and version).
    Registry { url: String, integrity: String },
    /// A remote tarball URL from the lockfile.
    Tarball { url: String, integrity: String },
    /// A git-hosted archive (codeload, bitbucket, gitlab), prepared after download.
    GitHostedTarball {
        url: String,
        integrity: Option<String>,
        path: Option<String>,
    },
    /// A `file:` tarball, path relative to the lockfile directory.
    LocalTarball { path: String, integrity: String },
    /// A `file:` directory, path relative to the lockfile directory.
    Directory { path: String },
    /// A git repository at a commit.
    Git {
        repo: String,
        commit: String,
        path: Option<String>,
    },
    /// A resolution this engine cannot fetch.
    Unsupported { reason: String },
}

/// One `.pnpm/<dir>/node_modules/<name>` package directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    pub dep_path: DepPath,
    /// `.pnpm` directory name; with the global virtual store, the slot path
    /// under it (`@/name/1.0.0/<hash>`).
    pub dir_name: String,
    /// Package directory relative to the workspace root.
    pub package_dir: String,
    pub fetch: FetchSource,
    /// Store index key (`<integrity>\t<pkgId>`, docs/store.md §5.4), when it has one.
    pub store_key: Option<String>,
    pub optional: bool,
    pub has_bin: bool,
    /// The package ships dependencies in its own `node_modules`
    /// (`bundledDependencies`): their commands go into its `.bin` too.
    pub bundles: bool,
    pub requires_build: bool,
    /// Whether its lifecycle scripts may run, should its files need a build
    /// (only the store row says so; the lockfile may not).
    pub build: BuildPermission,
    /// Whether a git or git-hosted package may run its prepare step.
    pub prepare: BuildPermission,
    /// The patch applied after import (docs/lockfile.md §9).
    pub patch: Option<SlotPatch>,
}

/// A `patchedDependencies` patch file, hashed (docs/lockfile.md §9.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchFile {
    /// Absolute path.
    pub path: std::path::PathBuf,
    pub hash: String,
}

/// The patch one slot gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotPatch {
    /// The selector that chose it (`name@1.0.0`, `name@^1`, `name`).
    pub key: String,
    pub file: PatchFile,
}

/// The `allowBuilds` policy and `ignoreScripts`, applied to one package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildPermission {
    Allowed,
    /// Listed with `false`: skipped silently.
    Denied,
    /// Not listed: skipped and reported as an ignored build.
    NotApproved,
    /// `ignoreScripts`: skipped and listed in `pendingBuilds`.
    ScriptsIgnored,
}

impl BuildPermission {
    /// For sources that prepare packages: `None` when scripts are ignored
    /// (the package is stored unprepared), else whether preparing is allowed.
    pub fn may_run(self) -> Option<bool> {
        match self {
            BuildPermission::ScriptsIgnored => None,
            BuildPermission::Allowed => Some(true),
            BuildPermission::Denied | BuildPermission::NotApproved => Some(false),
        }
    }
}

impl Slot {
    /// The package name (the real name for npm aliases).
    pub fn name(&self) -> &str {
        self.dep_path.name()
    }
}

/// A symlink to create: `path` (relative to the root) → `target` (relative to
/// the link's directory, written verbatim).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symlink {
    pub path: String,
    pub target: String,
    /// Which `node_modules` the link lives in (for `.bin` linking).
    pub owner: LinkOwner,
    /// The slot the link points at (`None` for projects and `link:` dirs).
    pub target_slot: Option<usize>,
}

/// The `node_modules` directory a [`Symlink`] belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkOwner {
    /// A sibling dependency in the slot with this index.
    Slot(usize),
    /// A direct dependency of [`Plan::importers`]`[i]`.
    Importer(usize),
    /// `<virtualStoreDir>/node_modules`.
    PrivateHoist,
    /// The root `<modulesDir>`.
    PublicHoist,
}

/// Public (`<modulesDir>`) or private (`<virtualStoreDir>/node_modules`) hoisting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HoistKind {
    Public,
    Private,
}

impl HoistKind {
    pub fn as_str(self) -> &'static str {
        match self {
            HoistKind::Public => "public",
            HoistKind::Private => "private",
        }
    }
}

/// What a hoisted alias points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HoistTarget {
    /// Index into [`Plan::slots`].
    Slot(usize),
    /// A workspace project, by importer id.
    Importer(String),
}

/// One `hoistedDependencies` record, in pnpm's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hoisted {
    pub target: HoistTarget,
    pub alias: String,
    pub kind: HoistKind,
}

/// Where a direct dependency points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirectTarget {
    /// Index into [`Plan::slots`].
    Slot(usize),
    /// `link:` target directory, relative to the workspace root.
    Link(String),
}

/// One direct dependency of an importer, in an included group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectDep {
    pub alias: String,
    pub group: DependencyGroup,
    pub target: DirectTarget,
}

/// Per-project results (what `.bin` linking needs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImporterPlan {
    pub id: String,
    /// Project dir relative to the root.
    pub dir: String,
    pub direct: Vec<DirectDep>,
}

/// A non-optional package whose platform fields exclude every target, or
/// whose `engines.node` excludes the running Node.js: pnpm warns and
/// installs it anyway.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformWarning {
    pub dep_path: String,
    /// pnpm's text (`Unsupported engine for …`), when it prints one.
    pub message: Option<String>,
}

/// Which `nodeLinker` layout a plan is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// Packages in `<virtualStoreDir>`, linked by symlinks.
    #[default]
    Isolated,
    /// Packages as real directories in `node_modules` trees.
    Hoisted,
}

/// A `node_modules` of the hoisted layout and the slots placed in it: its
/// `.bin` holds their commands (docs/hoisted.md §5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BinDir {
    /// The `node_modules` directory, relative to the root.
    pub modules_dir: String,
    pub slots: Vec<usize>,
}

/// The complete decision for one install.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub layout: Layout,
    /// Installed snapshots, in lockfile key order.
    pub slots: Vec<Slot>,
    /// Directories to create, parents first; none exists in a fresh tree
    /// except the project directories themselves (which are not listed).
    pub dirs: Vec<String>,
    /// Every symlink: slot siblings, importer direct deps, hoisted aliases.
    pub symlinks: Vec<Symlink>,
    /// `hoistedDependencies`, in record order.
    pub hoisted: Vec<Hoisted>,
    /// Optional snapshot keys no target platform can install, sorted.
    pub skipped: Vec<String>,
    /// Optional snapshot keys reachable only through skipped ones, sorted:
    /// not installed, and listed in `.modules.yaml`'s `skipped` by pnpm 12
    /// (e.g. `@emnapi/runtime` below sharp's wasm32 package).
    pub skipped_below: Vec<String>,
    pub importers: Vec<ImporterPlan>,
    pub warnings: Vec<PlatformWarning>,
    /// Hoisted layout: snapshot key → package directories, in walk order
    /// (`.modules.yaml`'s `hoistedLocations`).
    pub hoisted_locations: BTreeMap<String, Vec<String>>,
    /// Hoisted layout: the `node_modules` directories holding packages.
    pub bin_dirs: Vec<BinDir>,
    /// `(dependent, dependency)` slot pairs that no sibling symlink states,
    /// for build order. Hoisted layout: each dependency at its first
    /// location, the edges pnpm 12 orders hoisted builds by
    /// (docs/hoisted.md §7).
    pub slot_deps: Vec<(usize, usize)>,
    /// `(slot, dependency slot, sibling path)`: optional dependencies an
    /// install without optional dependencies links no sibling for, though
    /// the dependency is installed anyway. pnpm 12 still links its commands
    /// into the slot's `.bin`, as if the sibling (root-relative path) were
    /// there (isolated layout; vue-core with `--no-optional`).
    pub bin_only_deps: Vec<(usize, usize, String)>,
    /// `(snapshot key, alias)`: optional peers resolved to a package nothing
    /// else in the install brings, left unlinked and left out of the
    /// snapshot in `lock.yaml` (docs/layout.md §13.7).
    pub unlinked_peers: Vec<(String, String)>,
    /// Sibling link paths (root-relative) of installed slots for snapshot
    /// edges this install does not link: optional dependencies with
    /// `--no-optional`, the optional peers above. Removed if an earlier
    /// install made them, as pnpm 12 does.
    pub unlinked_siblings: Vec<String>,
}
