//! Inputs of the planner: plain settings, no I/O.

use pacquet_lockfile::PatchSelectors;
use pacquet_scripts::BuildPolicy;

use crate::PatchFile;

use crate::platform::{HostPlatform, SupportedArchitectures};

/// Which dependency groups of the importers are installed
/// (`--prod`/`--dev`/`--no-optional`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IncludedGroups {
    pub dependencies: bool,
    pub dev_dependencies: bool,
    pub optional_dependencies: bool,
}

impl IncludedGroups {
    /// Whether an importer's `group` is installed. An importer's
    /// `optionalDependencies` go with its `dependencies`: a dev-only install
    /// (`--dev`) leaves them out although `included` says they are on
    /// (checked with pnpm 12.21, docs/layout.md §13).
    pub fn importer_group(&self, group: pacquet_lockfile::DependencyGroup) -> bool {
        use pacquet_lockfile::DependencyGroup;
        match group {
            DependencyGroup::Prod => self.dependencies,
            DependencyGroup::Dev => self.dev_dependencies,
            DependencyGroup::Optional => self.optional_dependencies && self.dependencies,
        }
    }

    /// Every group on: the default install.
    pub fn all(&self) -> bool {
        *self == IncludedGroups::default()
    }
}

impl Default for IncludedGroups {
    fn default() -> Self {
        IncludedGroups {
            dependencies: true,
            dev_dependencies: true,
            optional_dependencies: true,
        }
    }
}

/// One project to install.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImporterSelection {
    /// Importer id in the lockfile (`.`, `packages/a`).
    pub id: String,
    /// Project directory relative to the workspace root (`""` for the root).
    pub dir: String,
    /// `name` from the project's manifest; used to hoist workspace projects.
    pub name: Option<String>,
}

impl ImporterSelection {
    /// A project whose directory equals its importer id.
    pub fn new(id: &str, name: Option<&str>) -> Self {
        let dir = if id == "." {
            String::new()
        } else {
            id.to_owned()
        };
        ImporterSelection {
            id: id.to_owned(),
            dir,
            name: name.map(str::to_owned),
        }
    }
}

/// Everything [`crate::plan`] needs besides the lockfile.
#[derive(Clone)]
pub struct PlanOptions<'a> {
    /// Virtual store dir relative to the root (`node_modules/.pnpm`).
    pub virtual_store_dir: String,
    /// Modules dir name (`node_modules`).
    pub modules_dir: String,
    pub virtual_store_dir_max_length: usize,
    /// Private hoisting patterns (`['*']` by default; empty = off).
    pub hoist_pattern: Vec<String>,
    /// Public hoisting patterns (empty by default).
    pub public_hoist_pattern: Vec<String>,
    pub hoist_workspace_packages: bool,
    /// Workspace projects are hoisted in importer-id (byte) order rather
    /// than path order: pnpm 12 does so in the install that follows its
    /// own resolution (docs/layout.md §4).
    pub projects_in_id_order: bool,
    pub included: IncludedGroups,
    pub supported_architectures: SupportedArchitectures,
    pub host: HostPlatform,
    /// Projects to install, root first; empty = every importer of the lockfile.
    pub importers: Vec<ImporterSelection>,
    /// Every project of the workspace, for `hoistWorkspacePackages`: a
    /// filtered install hoists the projects it does not install too
    /// (docs/filtering.md §5). Empty = [`Self::importers`].
    pub workspace_projects: Vec<ImporterSelection>,
    /// Registry tarball URL for `(name, version)` (docs/lockfile.md §5).
    pub tarball_url: &'a (dyn Fn(&str, &str) -> String + Sync),
    /// `ignoreScripts`: git and git-hosted packages are then stored
    /// unprepared, under `<pkgId>\tnot-built`.
    pub ignore_scripts: bool,
    /// `allowBuilds` and `dangerouslyAllowAllBuilds`.
    pub build_policy: BuildPolicy,
    /// The Node.js version packages' `engines.node` is checked against
    /// (`None`: unknown, nothing is checked).
    pub node_version: Option<String>,
    /// `engineStrict`: a non-optional package whose `engines.node` excludes
    /// [`Self::node_version`] fails the install instead of warning.
    pub engine_strict: bool,
    /// `patchedDependencies` of the configuration, files hashed.
    pub patches: PatchSelectors<PatchFile>,
    /// `nodeLinker`: which planner runs.
    pub layout: crate::Layout,
    /// `hoistingLimits` (hoisted layout).
    pub hoisting_limits: pacquet_config::HoistingLimits,
    /// `autoInstallPeers`: the hoisted layout then ignores peers.
    pub auto_install_peers: bool,
    /// `externalDependencies` (hoisted layout): root names kept free.
    pub external_dependencies: Vec<String>,
    /// `dedupeDirectDeps` (isolated layout): another project does not link
    /// what the root's `node_modules` already resolves the same way.
    pub dedupe_direct_deps: bool,
    /// `enableGlobalVirtualStore` (isolated layout): slots live in the
    /// store, named by their dependency graph.
    pub global_virtual_store: Option<crate::GlobalVirtualStore>,
}

impl<'a> PlanOptions<'a> {
    /// The projects whose names are hoisted (`hoistWorkspacePackages`).
    pub fn hoisted_projects<'s>(
        &'s self,
        selections: &'s [ImporterSelection],
    ) -> &'s [ImporterSelection] {
        if self.workspace_projects.is_empty() {
            selections
        } else {
            &self.workspace_projects
        }
    }

    /// The directory slots are in, relative to the root: the global
    /// virtual store or `virtualStoreDir`.
    pub fn slots_dir(&self) -> &str {
        match &self.global_virtual_store {
            Some(gvs) => &gvs.dir,
            None => &self.virtual_store_dir,
        }
    }

    /// Every option that decides which directories and links a lockfile
    /// becomes, as text: two installs whose keys agree lay the same
    /// lockfile out the same way. How packages are fetched and built
    /// (`tarball_url`, `build_policy`) decides no directory or link.
    pub fn shape_key(&self) -> String {
        // Destructured whole, so a new option has to be placed here.
        let PlanOptions {
            virtual_store_dir,
            modules_dir,
            virtual_store_dir_max_length,
            hoist_pattern,
            public_hoist_pattern,
            hoist_workspace_packages,
            projects_in_id_order,
            included,
            supported_architectures,
            host,
            importers,
            workspace_projects,
            tarball_url: _,
            ignore_scripts,
            build_policy: _,
            node_version,
            engine_strict,
            patches,
            layout,
            hoisting_limits,
            auto_install_peers,
            external_dependencies,
            dedupe_direct_deps,
            global_virtual_store,
        } = self;
        format!(
            "{:?}",
            (
                (virtual_store_dir, modules_dir, virtual_store_dir_max_length),
                (
                    hoist_pattern,
                    public_hoist_pattern,
                    hoist_workspace_packages,
                    projects_in_id_order
                ),
                (included, supported_architectures, host),
                (importers, workspace_projects),
                (ignore_scripts, node_version, engine_strict, patches),
                (layout, hoisting_limits, auto_install_peers),
                (
                    external_dependencies,
                    dedupe_direct_deps,
                    global_virtual_store
                ),
            )
        )
    }

    /// pnpm 12's defaults for the given host and URL function.
    pub fn new(host: HostPlatform, tarball_url: &'a (dyn Fn(&str, &str) -> String + Sync)) -> Self {
        PlanOptions {
            virtual_store_dir: "node_modules/.pnpm".to_owned(),
            modules_dir: "node_modules".to_owned(),
            virtual_store_dir_max_length: crate::layout::DEFAULT_VIRTUAL_STORE_DIR_MAX_LENGTH,
            hoist_pattern: vec!["*".to_owned()],
            public_hoist_pattern: Vec::new(),
            hoist_workspace_packages: true,
            projects_in_id_order: false,
            included: IncludedGroups::default(),
            supported_architectures: SupportedArchitectures::default(),
            host,
            importers: Vec::new(),
            workspace_projects: Vec::new(),
            tarball_url,
            ignore_scripts: false,
            build_policy: BuildPolicy::default(),
            node_version: None,
            engine_strict: false,
            patches: PatchSelectors::default(),
            layout: crate::Layout::Isolated,
            hoisting_limits: pacquet_config::HoistingLimits::None,
            auto_install_peers: true,
            external_dependencies: Vec::new(),
            dedupe_direct_deps: false,
            global_virtual_store: None,
        }
    }
}

#[cfg(test)]
mod tests;
