//! The dependency graph before peers: every package version the projects
//! need, and which version each dependency edge picked
//! (docs/resolution.md §2–§3, §5).
//!
//! Projects are walked one after another in id order, each breadth-first,
//! one level at a time: all packuments a level names are fetched at once,
//! then its requests pick versions, so the result never depends on which
//! response arrives first. A package's children are resolved once, by its
//! first occurrence (shallowest, then smallest chain of ancestors), and
//! shared by all others.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use futures_util::StreamExt;
use futures_util::future::LocalBoxFuture;
use futures_util::stream::FuturesUnordered;
use indexmap::IndexMap;
use nodejs_semver::{Range, Version};
use pacquet_lockfile::{Overrides, ProjectManifest};

use pacquet_planner::layout::{join, normalize};

use crate::ResolveError;
use crate::catalog::{self, CatalogLookup, Catalogs};
use crate::extensions::Extensions;
use crate::git::GitSpec;
use crate::packument::{Packument, VersionManifest};
use crate::pick::{pick, pick_lowest};
use crate::source::Metadata;
use crate::spec::{RegistrySpec, Selector, Spec, parse};

/// `name@version`: a package independent of its peers.
pub type PkgId = String;

/// The name part of a package id.
pub fn id_name(id: &str) -> &str {
    id[1..].find('@').map_or(id, |at| &id[..at + 1])
}

/// Whether package id `id` is a version of `name`: [`id_name`] without
/// scanning the id (asked for every sibling of every ancestor of every
/// request).
pub fn id_is_of(id: &str, name: &str) -> bool {
    id.len() > name.len() && id.starts_with(name) && id.as_bytes()[name.len()] == b'@'
}

/// The version part of a package id.
pub fn id_version(id: &str) -> &str {
    id.get(id_name(id).len() + 1..).unwrap_or("")
}

/// A dependency on a directory of the workspace: `link:<path from the
/// workspace root>` (`.` for the root), where graph ids are `name@version`.
pub fn is_link(id: &str) -> bool {
    id.starts_with("link:")
}

/// A project to resolve: its importer id and manifest (overrides applied).
#[derive(Debug, Clone, Copy)]
pub struct ImporterInput<'a> {
    pub id: &'a str,
    pub manifest: &'a ProjectManifest,
}

/// Which field of a project's manifest a dependency comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    Prod,
    Dev,
    Optional,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    pub alias: String,
    pub target: PkgId,
    pub optional: bool,
}

/// A peer dependency as the lockfile records it.
#[derive(Debug, Clone, PartialEq)]
pub struct Peer {
    pub range: String,
    pub optional: bool,
}

#[derive(Debug, Clone)]
pub struct Package {
    pub manifest: VersionManifest,
    /// Dependencies and optional dependencies; peers are bound later.
    pub children: Vec<Edge>,
    /// The recorded peers (docs/resolution.md §3).
    pub peers: IndexMap<String, Peer>,
    /// Its dependencies that are only peers, from where its children
    /// were resolved (docs/resolution.md §3).
    pub shadowed: BTreeSet<String>,
}

#[derive(Debug, Clone)]
pub struct Direct {
    pub alias: String,
    pub specifier: String,
    pub group: Group,
    pub target: PkgId,
    /// The catalog entry a `catalog:` specifier resolved through.
    pub catalog: Option<CatalogLookup>,
}

#[derive(Debug, Clone, Default)]
pub struct ImporterDeps {
    pub id: String,
    pub deps: Vec<Direct>,
    /// Peers installed for the project because nothing provided them:
    /// in its scope, not in its manifest.
    pub auto_peers: Vec<(String, PkgId)>,
    /// Names of the packages that provided a peer somewhere in the
    /// project's tree: in its scope for the subtrees of peers hoisted
    /// after they were found.
    pub peer_providers: HashSet<String>,
    /// The manifest's `dependenciesMeta`, recorded as it is.
    pub dependencies_meta: Option<serde_json::Value>,
}

/// The maps looked up per request are hashed with foldhash, not SipHash
/// (~5 % of alotta's resolution).
#[derive(Debug, Default)]
pub struct Graph {
    pub packages: IndexMap<PkgId, Package, foldhash::fast::RandomState>,
    pub importers: Vec<ImporterDeps>,
    /// The registry document of every name fetched.
    pub packuments: HashMap<String, Arc<Packument>, foldhash::fast::RandomState>,
    /// Packages whose children are resolved, by the rank of the occurrence
    /// that resolved them.
    owners: HashMap<PkgId, Rank, foldhash::fast::RandomState>,
    /// The hash of the patch `patchedDependencies` applies to a package.
    pub patched: HashMap<PkgId, String>,
    /// The `patchedDependencies` selectors that patched something.
    pub patches_used: HashSet<String>,
    /// The version of each workspace project, by importer id: what a peer
    /// bound to a project is checked against.
    pub project_versions: HashMap<String, String>,
    /// The resolutions of git dependencies, by package id.
    pub git: HashMap<PkgId, pacquet_lockfile::Resolution>,
}

/// Which occurrence of a package resolves its children: the shallowest,
/// then the one in the project resolved first, then the one whose chain
/// of ancestors sorts first (docs/resolution.md §2). An occurrence met
/// later that ranks higher resolves them again: a peer hoisted for the
/// project sits at depth 1, above where the main walk met its subtree.
type Rank = (usize, usize, Vec<String>);

fn rank(index: usize, path: &PathNode) -> Rank {
    let chain: Vec<String> = path.chain().into_iter().map(str::to_owned).collect();
    (chain.len(), index, chain)
}

impl Graph {
    /// Drops the packages no project reaches any more: the subtrees an
    /// occurrence resolved before a higher-ranked one took its package over.
    pub(crate) fn prune(&mut self) {
        let mut reached: HashSet<&str> = HashSet::new();
        let mut stack: Vec<&str> = self
            .importers
            .iter()
            .flat_map(|i| {
                i.deps
                    .iter()
                    .map(|d| d.target.as_str())
                    .chain(i.auto_peers.iter().map(|(_, id)| id.as_str()))
            })
            .collect();
        while let Some(id) = stack.pop() {
            if !reached.insert(id) {
                continue;
            }
            if let Some(package) = self.packages.get(id) {
                stack.extend(package.children.iter().map(|e| e.target.as_str()));
            }
        }
        if reached.len() >= self.packages.len() {
            return;
        }
        let reached: HashSet<String> = reached.into_iter().map(str::to_owned).collect();
        self.packages.retain(|id, _| reached.contains(id));
        self.owners.retain(|id, _| reached.contains(id));
    }
}

/// Which versions may be picked (`minimumReleaseAge`).
pub type Eligible<'a> = &'a (dyn Fn(&Packument, &Version) -> bool + Sync);

/// A place in the tree: the importer (`pkg: None`) or a package below it.
struct PathNode {
    pkg: Option<PkgId>,
    parent: Option<Rc<PathNode>>,
}

impl PathNode {
    /// The package ids from the importer down to this node.
    fn chain(&self) -> Vec<&str> {
        let mut chain = Vec::new();
        let mut node = Some(self);
        while let Some(n) = node {
            if let Some(pkg) = &n.pkg {
                chain.push(pkg.as_str());
            }
            node = n.parent.as_deref();
        }
        chain.reverse();
        chain
    }
}

#[derive(Clone)]
enum Parent {
    Importer {
        group: Group,
        specifier: String,
        catalog: Option<CatalogLookup>,
        /// With `linkWorkspacePackages`, the workspace project (its
        /// directory) the range also admits: linked unless the registry
        /// has a higher version (docs/resolution.md §17).
        workspace: Option<String>,
    },
    AutoPeer,
    Package(PkgId),
    /// An edge already recorded, walked again from a higher-ranked
    /// occurrence of its parent.
    Recorded,
}

struct Request {
    alias: String,
    want: Want,
    optional: bool,
    parent: Parent,
    /// Where the parent sits; the importer for direct dependencies.
    path: Rc<PathNode>,
}

/// What a request asks for.
enum Want {
    Spec(RegistrySpec),
    /// A package already resolved (a [`Parent::Recorded`] edge).
    Resolved(PkgId),
    /// A remote tarball, by its normalized URL ([`crate::remote`]).
    Url(String),
    /// A git repository ([`crate::git`]).
    Git(GitSpec),
}

/// The registry name a dependency `alias: specifier` most likely asks
/// for (a hint only): the alias for a version, range or tag, the target of
/// an `npm:` alias; `None` for other protocols and hosted shorthands.
fn registry_name<'s>(alias: &'s str, specifier: &'s str) -> Option<&'s str> {
    if let Some(target) = specifier.strip_prefix("npm:") {
        return Some(match target.rfind('@') {
            Some(at) if at > 0 => &target[..at],
            _ => target,
        });
    }
    (!specifier.contains(':') && !specifier.contains('/')).then_some(alias)
}

/// Packuments on their way, each with its name.
type Arriving<'a> =
    FuturesUnordered<LocalBoxFuture<'a, (String, Result<Arc<Packument>, ResolveError>)>>;

/// Walks the projects' dependencies into a graph.
pub struct Walker<'a, M> {
    pub graph: Graph,
    metadata: &'a M,
    eligible: Eligible<'a>,
    /// Versions picked although `eligible` refused them (no eligible one
    /// satisfied the spec): `name` → versions.
    pub immature: std::sync::Mutex<std::collections::BTreeSet<(String, String)>>,
    auto_install_peers: bool,
    /// Names whose packument could not be had, and why.
    failed: HashMap<String, ResolveError>,
    /// Applied to every manifest picked.
    extensions: Option<&'a Extensions>,
    /// The workspace's projects by name: (importer id, version).
    workspace: HashMap<String, (String, Option<String>)>,
    /// The versions of each name the previous lockfile has.
    locked: HashMap<String, Vec<Version>>,
    /// Per package the previous lockfile has (`name@version`): its
    /// dependencies there, alias → `(name, version)` (`None`: not a
    /// registry version). A package kept keeps them where they still fit,
    /// and an optional dependency the lockfile left out stays out.
    locked_children: HashMap<PkgId, HashMap<String, Option<(String, Version)>>>,
    /// The commits the previous lockfile has for the projects' git
    /// dependencies, by `(importer, alias, specifier)`: kept while the
    /// specifier is, as pnpm 12.21 keeps them.
    locked_git: HashMap<(String, String, String), String>,
    /// What `update` re-resolves: in the walks of these importers (by
    /// index), these names (every name when empty).
    unlock: Option<(HashSet<usize>, Vec<String>)>,
    /// Applied to every manifest picked, after the extensions.
    overrides: Option<&'a Overrides>,
    /// What `catalog:` specifiers of the projects refer to.
    catalogs: Option<&'a Catalogs>,
    /// Reads the `package.json` of a directory (a path from the workspace
    /// root): what `file:` dependencies need.
    read_directory: Option<ReadDirectory<'a>>,
    /// Reads a `file:` tarball (a path from the workspace root): its
    /// `package.json` and integrity.
    read_tarball: Option<ReadTarball<'a>>,
    /// Fetches remote tarballs and git repositories; without it they are
    /// refused.
    remote: Option<&'a dyn crate::remote::RemoteSources>,
    /// A pnpmfile's `readPackage`, run after the extensions.
    read_package: Option<&'a dyn crate::remote::ReadPackage>,
    /// The remote tarballs and git dependencies resolved, by normalized
    /// URL or spec.
    exotic: HashMap<String, PkgId>,
    /// The manifests of the `file:` directories and tarballs and of the
    /// remote tarballs met, by package id.
    directories: HashMap<PkgId, VersionManifest>,
    /// Manifests read when their package was picked, for
    /// [`Walker::add_package`]: see [`Walker::hint_children`].
    picked_manifests: HashMap<PkgId, VersionManifest>,
    /// `ignoredOptionalDependencies` patterns.
    ignored_optionals: &'a [String],
    /// `injectWorkspacePackages`: every `workspace:` dependency injected.
    inject_workspace_packages: bool,
    /// The injected workspace projects: their dependencies may be exotic.
    injected_projects: HashSet<PkgId>,
    /// `blockExoticSubdeps`: published packages' remote tarball
    /// dependencies are refused.
    block_exotic_subdeps: bool,
    /// `patchedDependencies`: selector → patch hash.
    patches: Option<&'a pacquet_lockfile::PatchSelectors<String>>,
    /// `linkWorkspacePackages: true`: the projects' ranges that a
    /// workspace project satisfies link to it.
    link_workspace_packages: bool,
    /// `preferWorkspacePackages: true`: such a project is linked even when
    /// the registry has a higher version.
    prefer_workspace_packages: bool,
    /// `resolutionMode`: what the projects' own dependencies pick, and
    /// the publish-time ceiling of everything else (docs/resolution.md §19).
    mode: crate::mode::Mode,
}

/// Reads a directory's `package.json`, given its path from the workspace
/// root; the error says why it could not.
pub type ReadDirectory<'a> = &'a dyn Fn(&str) -> Result<serde_json::Value, String>;

/// Reads a tarball's `package.json` and its integrity (`sha512-…`), given
/// its path from the workspace root; the error says why it could not.
pub type ReadTarball<'a> = &'a dyn Fn(&str) -> Result<(serde_json::Value, String), String>;

/// Whether a `file:` path names a tarball rather than a directory.
pub fn is_tarball_path(path: &str) -> bool {
    path.ends_with(".tgz") || path.ends_with(".tar.gz") || path.ends_with(".tar")
}

impl<'a, M: Metadata> Walker<'a, M> {
    pub fn new(
        metadata: &'a M,
        eligible: Eligible<'a>,
        auto_install_peers: bool,
        extensions: Option<&'a Extensions>,
    ) -> Self {
        Walker {
            graph: Graph::default(),
            metadata,
            eligible,
            immature: Default::default(),
            auto_install_peers,
            failed: HashMap::new(),
            extensions,
            workspace: HashMap::new(),
            locked: HashMap::new(),
            locked_children: HashMap::new(),
            locked_git: HashMap::new(),
            unlock: None,
            overrides: None,
            catalogs: None,
            read_directory: None,
            read_tarball: None,
            remote: None,
            read_package: None,
            exotic: HashMap::new(),
            directories: HashMap::new(),
            picked_manifests: HashMap::new(),
            ignored_optionals: &[],
            inject_workspace_packages: false,
            injected_projects: HashSet::new(),
            block_exotic_subdeps: false,
            patches: None,
            link_workspace_packages: false,
            prefer_workspace_packages: false,
            mode: crate::mode::Mode::default(),
        }
    }

    /// A pnpmfile's `readPackage`, applied to every package's manifest.
    pub fn set_read_package(&mut self, hook: &'a dyn crate::remote::ReadPackage) {
        self.read_package = Some(hook);
    }

    /// How remote tarballs and git repositories are fetched; without it
    /// they are refused.
    pub fn set_remote(&mut self, remote: &'a dyn crate::remote::RemoteSources) {
        self.remote = Some(remote);
    }

    /// How `file:` tarballs are read; without it they are refused.
    pub fn set_read_tarball(&mut self, read: ReadTarball<'a>) {
        self.read_tarball = Some(read);
    }

    /// `resolutionMode` other than `highest` (docs/resolution.md §19).
    pub fn set_mode(&mut self, mode: crate::mode::Mode) {
        self.mode = mode;
    }

    /// `linkWorkspacePackages: true`, and `preferWorkspacePackages`.
    pub fn set_link_workspace_packages(&mut self, link: bool, prefer: bool) {
        self.link_workspace_packages = link;
        self.prefer_workspace_packages = prefer;
    }

    /// The patches whose hashes go into the snapshot keys of what they
    /// patch.
    pub fn set_patches(&mut self, patches: &'a pacquet_lockfile::PatchSelectors<String>) {
        self.patches = Some(patches);
    }

    /// `blockExoticSubdeps`.
    pub fn set_block_exotic_subdeps(&mut self, block: bool) {
        self.block_exotic_subdeps = block;
    }

    /// `injectWorkspacePackages`.
    pub fn set_inject_workspace_packages(&mut self, inject: bool) {
        self.inject_workspace_packages = inject;
    }

    /// Optional dependencies left out of every manifest picked.
    pub fn set_ignored_optionals(&mut self, patterns: &'a [String]) {
        self.ignored_optionals = patterns;
    }

    /// How `file:` directories are read; without it they are refused.
    pub fn set_read_directory(&mut self, read: ReadDirectory<'a>) {
        self.read_directory = Some(read);
    }

    /// Overrides the dependencies of every package picked (the projects'
    /// manifests come overridden).
    pub fn set_overrides(&mut self, overrides: &'a Overrides) {
        self.overrides = (!overrides.is_empty()).then_some(overrides);
    }

    /// The catalogs `catalog:` specifiers refer to.
    pub fn set_catalogs(&mut self, catalogs: &'a Catalogs) {
        self.catalogs = Some(catalogs);
    }

    /// Prefers the registry versions `lockfile` has, over any other
    /// preference (docs/resolution.md §2); not those of the names
    /// `unlocked` (`update <name>`).
    /// Keeps what `lockfile` has where it still fits, except what
    /// `unlock` re-resolves.
    pub fn keep_locked(
        &mut self,
        lockfile: &pacquet_lockfile::Lockfile,
        unlock: Option<(HashSet<usize>, Vec<String>)>,
    ) {
        for key in lockfile.packages.keys() {
            if let Ok(version) = Version::parse(key.version()) {
                self.locked
                    .entry(key.name().to_owned())
                    .or_default()
                    .push(version);
            }
        }
        for (key, snapshot) in &lockfile.snapshots {
            let id = format!("{}@{}", key.name(), key.version());
            let children = self.locked_children.entry(id).or_default();
            for (alias, reference) in snapshot
                .dependencies
                .iter()
                .flatten()
                .chain(snapshot.optional_dependencies.iter().flatten())
            {
                let target = match pacquet_lockfile::DepRef::resolve(alias, reference) {
                    pacquet_lockfile::DepRef::Snapshot(path) => Version::parse(path.version())
                        .ok()
                        .map(|v| (path.name().to_owned(), v)),
                    pacquet_lockfile::DepRef::Link(_) => None,
                };
                children.entry(alias.clone()).or_insert(target);
            }
        }
        for (importer, deps) in &lockfile.importers {
            for (alias, dep) in [
                &deps.dependencies,
                &deps.dev_dependencies,
                &deps.optional_dependencies,
            ]
            .into_iter()
            .flatten()
            .flatten()
            {
                if let Some(commit) = locked_git_commit(&dep.version) {
                    self.locked_git.insert(
                        (importer.clone(), alias.clone(), dep.specifier.clone()),
                        commit.to_owned(),
                    );
                }
            }
        }
        self.unlock = unlock;
    }

    /// Whether the walk of importer `index` re-resolves `name` rather
    /// than keep what the lockfile has (`update`, docs/resolution.md §11).
    fn unlocked(&self, index: usize, name: &str) -> bool {
        self.unlock.as_ref().is_some_and(|(importers, names)| {
            importers.contains(&index) && (names.is_empty() || names.iter().any(|n| n == name))
        })
    }

    /// Makes `projects` the targets of `workspace:` specifiers.
    pub fn set_workspace(&mut self, projects: &[ImporterInput<'_>]) {
        self.graph.project_versions = projects
            .iter()
            .filter_map(|p| Some((p.id.to_owned(), p.manifest.version.clone()?)))
            .collect();
        self.workspace = projects
            .iter()
            .filter_map(|p| {
                let name = p.manifest.name.clone()?;
                Some((name, (p.id.to_owned(), p.manifest.version.clone())))
            })
            .collect();
    }

    /// The package a project's `file:<directory>` dependency is: its
    /// manifest read, recorded as `name@file:<path from the workspace
    /// root>` (docs/resolution.md §13). `None` for other specifiers.
    fn directory_dependency(
        &mut self,
        importer: &str,
        alias: &str,
        specifier: &str,
    ) -> Result<Option<PkgId>, ResolveError> {
        let Some(path) = specifier.strip_prefix("file:") else {
            return Ok(None);
        };
        let unsupported = || ResolveError::UnsupportedSpec {
            alias: alias.to_owned(),
            spec: specifier.to_owned(),
            importer: importer.to_owned(),
        };
        let target = from_root(importer, path);
        if is_tarball_path(path) {
            let read = self.read_tarball.ok_or_else(unsupported)?;
            let (json, integrity) = read(&target).map_err(local_error(alias, specifier))?;
            let mut manifest = named_manifest(&json, alias);
            manifest.tarball = Some(format!("file:{target}"));
            manifest.integrity = Some(integrity);
            let id = format!("{}@file:{target}", manifest.name);
            self.directories.insert(id.clone(), manifest);
            return Ok(Some(id));
        }
        self.directory_package(importer, alias, specifier, &target)
            .map(Some)
    }

    /// With `linkWorkspacePackages`, the project a plain range or version
    /// of `alias` links to: the workspace project of that name, when its
    /// version satisfies it (docs/resolution.md §7).
    fn linked_workspace_project(&self, alias: &str, specifier: &str) -> Option<String> {
        if !self.link_workspace_packages {
            return None;
        }
        let (id, version) = self.workspace.get(alias)?;
        let version = Version::parse(version.as_deref()?).ok()?;
        match parse(alias, specifier) {
            Spec::Registry(spec) if !specifier.trim_start().starts_with("npm:") => {
                match &spec.selector {
                    Selector::Version(v) => (*v == version).then(|| id.clone()),
                    Selector::Range(range) => version.satisfies(range).then(|| id.clone()),
                    Selector::Tag(_) => None,
                }
            }
            _ => None,
        }
    }

    /// A tarball URL of the registry that serves the package it names
    /// (`<registry><name>/-/<name>-<version>.tgz`) is that registry version,
    /// as pnpm 12.21 resolves it: `npm:<name>@<version>`
    /// (docs/resolution.md §13).
    fn registry_tarball(&self, specifier: &str) -> Option<String> {
        if !(specifier.starts_with("http://") || specifier.starts_with("https://")) {
            return None;
        }
        let (prefix, file) = specifier.rsplit_once("/-/")?;
        let (before, last) = prefix.rsplit_once('/')?;
        let name = match before.rsplit_once('/') {
            Some((_, scope)) if scope.starts_with('@') => format!("{scope}/{last}"),
            _ => last.to_owned(),
        };
        let version = file
            .strip_suffix(".tgz")?
            .strip_prefix(last)?
            .strip_prefix('-')?;
        Version::parse(version).ok()?;
        let url =
            pacquet_lockfile::registry_tarball_url(&self.metadata.registry(&name), &name, version);
        (url == specifier).then(|| format!("npm:{name}@{version}"))
    }

    /// With `linkWorkspacePackages: true`, whether the workspace project
    /// `alias` is linked instead of the registry's pick: when the registry
    /// has no version for the range, the same version, or a lower one
    /// (pnpm 12.21; docs/resolution.md §17).
    fn workspace_wins(&self, alias: &str, picked: &Result<PkgId, ResolveError>) -> bool {
        let Ok(id) = picked else {
            return true;
        };
        let local = self
            .workspace
            .get(alias)
            .and_then(|(_, v)| Version::parse(v.as_deref()?).ok());
        match (local, Version::parse(id_version(id))) {
            (Some(local), Ok(picked)) => local >= picked,
            _ => false,
        }
    }

    /// Whether a project's `workspace:` dependency on `alias` is injected.
    fn injected(&self, manifest: &ProjectManifest, alias: &str) -> bool {
        self.inject_workspace_packages
            || manifest
                .dependencies_meta
                .as_ref()
                .and_then(|meta| meta.get(alias))
                .and_then(|meta| meta.get("injected"))
                .and_then(serde_json::Value::as_bool)
                .unwrap_or(false)
    }

    /// Where remote tarballs and git repositories come from; without
    /// them, `spec` of `alias` is refused.
    fn remote_sources(
        &self,
        alias: &str,
        spec: &str,
    ) -> Result<&'a dyn crate::remote::RemoteSources, ResolveError> {
        self.remote.ok_or_else(|| ResolveError::UnsupportedSpec {
            alias: alias.to_owned(),
            spec: spec.to_owned(),
            importer: "this install".to_owned(),
        })
    }

    /// The package the remote tarball at `url` (normalized) is, downloaded
    /// once per install: `name@<url>`, its manifest read from the archive
    /// (docs/resolution.md §13).
    async fn remote_package(&mut self, alias: &str, url: &str) -> Result<PkgId, ResolveError> {
        if let Some(id) = self.exotic.get(url) {
            return Ok(id.clone());
        }
        let tarball = self.remote_sources(alias, url)?.tarball(alias, url).await?;
        let mut manifest = named_manifest(&tarball.manifest, alias);
        manifest.tarball = Some(tarball.url);
        manifest.integrity = Some(tarball.integrity);
        let id = format!("{}@{url}", manifest.name);
        self.directories.insert(id.clone(), manifest);
        self.exotic.insert(url.to_owned(), id.clone());
        Ok(id)
    }

    /// The package the git dependency `spec` is: `name@git+<repo>#<commit>`,
    /// its manifest read at the commit its ref names, resolved once per
    /// install (docs/resolution.md §13.1).
    async fn git_package(&mut self, alias: &str, spec: &GitSpec) -> Result<PkgId, ResolveError> {
        let key = spec.key();
        if let Some(id) = self.exotic.get(&key) {
            return Ok(id.clone());
        }
        let package = self
            .remote_sources(alias, &spec.raw)?
            .git(alias, spec)
            .await?;
        let manifest = named_manifest(&package.manifest, alias);
        let id = format!("{}@{}", manifest.name, spec.id_version(&package.commit));
        self.directories.insert(id.clone(), manifest);
        self.graph.git.insert(
            id.clone(),
            pacquet_lockfile::Resolution::Git {
                repo: spec.repo.clone(),
                commit: package.commit,
                path: spec.path.clone(),
            },
        );
        self.exotic.insert(key, id.clone());
        Ok(id)
    }

    /// The injected workspace project at `target`: a directory package.
    fn injected_project(
        &mut self,
        importer: &str,
        alias: &str,
        specifier: &str,
        target: &str,
    ) -> Result<PkgId, ResolveError> {
        let id = self.directory_package(importer, alias, specifier, target)?;
        self.injected_projects.insert(id.clone());
        Ok(id)
    }

    /// The package the directory `target` (from the workspace root) is:
    /// `name@file:<target>`, its manifest read.
    fn directory_package(
        &mut self,
        importer: &str,
        alias: &str,
        specifier: &str,
        target: &str,
    ) -> Result<PkgId, ResolveError> {
        let Some(read) = self.read_directory else {
            return Err(ResolveError::UnsupportedSpec {
                alias: alias.to_owned(),
                spec: specifier.to_owned(),
                importer: importer.to_owned(),
            });
        };
        let json = read(target).map_err(local_error(alias, specifier))?;
        let manifest = named_manifest(&json, target.rsplit('/').next().unwrap_or(alias));
        let id = format!("{}@file:{target}", manifest.name);
        self.directories.insert(id.clone(), manifest);
        Ok(id)
    }

    /// The workspace directory `specifier` of `alias` links to, if it is a
    /// `workspace:` or `link:` specifier (docs/resolution.md §7).
    fn local_target(
        &self,
        importer: &str,
        alias: &str,
        specifier: &str,
    ) -> Result<Option<String>, ResolveError> {
        if let Some(path) = specifier.strip_prefix("link:") {
            return Ok(Some(from_root(importer, path)));
        }
        let Some(range) = specifier.strip_prefix("workspace:") else {
            return Ok(None);
        };
        let not_found = || ResolveError::WorkspacePackageNotFound {
            importer: importer.to_owned(),
            alias: alias.to_owned(),
            specifier: specifier.to_owned(),
        };
        let (id, version) = self.workspace.get(alias).ok_or_else(not_found)?;
        let any = matches!(range, "*" | "^" | "~" | "");
        let satisfied = any
            || match (Range::parse(range), version.as_deref().map(Version::parse)) {
                (Ok(range), Some(Ok(version))) => version.satisfies(&range),
                _ => false,
            };
        if !satisfied {
            return Err(ResolveError::NoMatchingVersionInWorkspace {
                alias: alias.to_owned(),
                specifier: specifier.to_owned(),
                version: version.clone().unwrap_or_default(),
            });
        }
        Ok(Some(id.clone()))
    }

    /// Resolves one project's manifest dependencies and everything below.
    pub async fn add_importer(
        &mut self,
        importer: ImporterInput<'_>,
    ) -> Result<usize, ResolveError> {
        let index = self.graph.importers.len();
        self.graph.importers.push(ImporterDeps {
            id: importer.id.to_owned(),
            dependencies_meta: importer.manifest.dependencies_meta.clone(),
            ..ImporterDeps::default()
        });
        let root = Rc::new(PathNode {
            pkg: None,
            parent: None,
        });
        let mut level = Vec::new();
        let no_catalogs = Catalogs::new();
        for (group, alias, specifier) in
            direct_dependencies(importer.manifest, self.auto_install_peers)
        {
            let catalog = catalog::lookup(self.catalogs.unwrap_or(&no_catalogs), alias, specifier)?;
            let wanted = catalog.as_ref().map_or(specifier, |c| c.specifier.as_str());
            let on_registry = self.registry_tarball(wanted);
            let wanted = on_registry.as_deref().unwrap_or(wanted);
            let mut workspace = None;
            let local = match self.local_target(importer.id, alias, wanted)? {
                Some(target) => Some(target),
                None if self.prefer_workspace_packages => {
                    self.linked_workspace_project(alias, wanted)
                }
                None => {
                    workspace = self.linked_workspace_project(alias, wanted);
                    None
                }
            };
            // An injected project is installed like a `file:` directory
            // (docs/resolution.md §15).
            let injected = match &local {
                Some(target)
                    if wanted.starts_with("workspace:")
                        && self.injected(importer.manifest, alias) =>
                {
                    Some(self.injected_project(importer.id, alias, wanted, target)?)
                }
                _ => None,
            };
            if let (Some(target), None) = (local, &injected) {
                self.graph.importers[index].deps.push(Direct {
                    alias: alias.to_owned(),
                    specifier: specifier.to_owned(),
                    group,
                    target: format!("link:{target}"),
                    catalog,
                });
                continue;
            }
            let directory = match injected {
                Some(id) => Some(id),
                None => self.directory_dependency(importer.id, alias, wanted)?,
            };
            let want = match directory {
                Some(id) => Want::Resolved(id),
                None => match (crate::remote::tarball_url(wanted), GitSpec::parse(wanted)) {
                    (Some(url), _) => Want::Url(url),
                    (None, Some(git)) => {
                        let locked = self
                            .locked_git
                            .get(&(
                                importer.id.to_owned(),
                                alias.to_owned(),
                                specifier.to_owned(),
                            ))
                            .filter(|_| !self.unlocked(index, alias));
                        Want::Git(match locked {
                            Some(commit) => git.at_commit(commit),
                            None => git,
                        })
                    }
                    (None, None) => Want::Spec(registry_spec(alias, wanted, importer.id)?),
                },
            };
            level.push(Request {
                alias: alias.to_owned(),
                want,
                optional: group == Group::Optional,
                parent: Parent::Importer {
                    group,
                    specifier: specifier.to_owned(),
                    catalog,
                    workspace,
                },
                path: Rc::clone(&root),
            });
        }
        self.walk(index, importer.manifest, level).await?;
        Ok(index)
    }

    /// The versions the projects' registry dependencies get, picked as
    /// the walk picks them: what `time-based` takes the dates of
    /// (docs/resolution.md §19). Dependencies that fail here fail the walk.
    pub async fn direct_registry_picks(&mut self, importers: &[ImporterInput<'_>]) -> Vec<PkgId> {
        let root = Rc::new(PathNode {
            pkg: None,
            parent: None,
        });
        let no_catalogs = Catalogs::new();
        let mut picks = Vec::new();
        for (index, importer) in importers.iter().enumerate() {
            let mut requests = Vec::new();
            for (group, alias, specifier) in
                direct_dependencies(importer.manifest, self.auto_install_peers)
            {
                let catalogs = self.catalogs.unwrap_or(&no_catalogs);
                let Ok(catalog) = catalog::lookup(catalogs, alias, specifier) else {
                    continue;
                };
                let wanted = catalog.as_ref().map_or(specifier, |c| c.specifier.as_str());
                let on_registry = self.registry_tarball(wanted);
                let wanted = on_registry.as_deref().unwrap_or(wanted);
                let local = !matches!(self.local_target(importer.id, alias, wanted), Ok(None))
                    || self.linked_workspace_project(alias, wanted).is_some()
                    || wanted.starts_with("file:");
                if local {
                    continue;
                }
                let Ok(spec) = registry_spec(alias, wanted, importer.id) else {
                    continue;
                };
                requests.push(Request {
                    alias: alias.to_owned(),
                    want: Want::Spec(spec),
                    optional: group == Group::Optional,
                    parent: Parent::Importer {
                        group,
                        specifier: specifier.to_owned(),
                        catalog,
                        workspace: None,
                    },
                    path: Rc::clone(&root),
                });
            }
            self.fetch_all(requests.iter().filter_map(|r| match &r.want {
                Want::Spec(spec) => Some(spec.name.as_str()),
                Want::Resolved(_) | Want::Url(_) | Want::Git(_) => None,
            }))
            .await;
            let preferred = manifest_selectors(importer.manifest);
            for request in &requests {
                if let Want::Spec(spec) = &request.want
                    && let Ok(id) = self
                        .pick_or_revalidate(index, request, spec, &preferred)
                        .await
                {
                    picks.push(id);
                }
            }
        }
        picks
    }

    /// Adds peers nothing provided as hidden dependencies of importer
    /// `index`: `(name, specifier)` pairs.
    pub async fn add_auto_peers(
        &mut self,
        index: usize,
        manifest: &ProjectManifest,
        peers: &[(String, String)],
    ) -> Result<(), ResolveError> {
        let root = Rc::new(PathNode {
            pkg: None,
            parent: None,
        });
        let mut level = Vec::new();
        for (name, specifier) in peers {
            let spec = registry_spec(name, specifier, "a peer dependency")?;
            level.push(Request {
                alias: name.clone(),
                want: Want::Spec(spec),
                optional: false,
                parent: Parent::AutoPeer,
                path: Rc::clone(&root),
            });
        }
        self.walk(index, manifest, level).await
    }

    async fn walk(
        &mut self,
        index: usize,
        manifest: &ProjectManifest,
        mut level: Vec<Request>,
    ) -> Result<(), ResolveError> {
        let preferred = manifest_selectors(manifest);
        while !level.is_empty() {
            // Each request waits for its own document only: the walk goes
            // on while later ones are still on their way.
            let mut arriving = self.start_fetches(level.iter().filter_map(|r| match &r.want {
                Want::Spec(spec) => Some(spec.name.as_str()),
                Want::Resolved(_) | Want::Url(_) | Want::Git(_) => None,
            }));
            // The occurrence that resolves each new package's children.
            let mut owners: IndexMap<PkgId, Rc<PathNode>> = IndexMap::new();
            for request in &level {
                let picked = match &request.want {
                    Want::Resolved(id) => Ok(id.clone()),
                    Want::Url(url) => self.remote_package(&request.alias, url).await,
                    Want::Git(spec) => self.git_package(&request.alias, spec).await,
                    Want::Spec(spec) => {
                        self.arrive(&spec.name, &mut arriving).await;
                        self.pick_or_revalidate(index, request, spec, &preferred)
                            .await
                    }
                };
                if let Parent::Importer {
                    group,
                    specifier,
                    catalog,
                    workspace: Some(dir),
                } = &request.parent
                    && self.workspace_wins(&request.alias, &picked)
                {
                    self.graph.importers[index].deps.push(Direct {
                        alias: request.alias.clone(),
                        specifier: specifier.clone(),
                        group: *group,
                        target: format!("link:{dir}"),
                        catalog: catalog.clone(),
                    });
                    continue;
                }
                let id = match picked {
                    Ok(id) => id,
                    // An optional dependency that cannot be resolved is
                    // left out, as pnpm 12 does (docs/resolution.md §3).
                    Err(e) if request.optional => {
                        tracing::info!(
                            "{}@{} is an optional dependency that could not be resolved ({e}). Excluding it from installation.",
                            request.alias,
                            match &request.want {
                                Want::Spec(spec) => spec.raw.as_str(),
                                Want::Resolved(id) | Want::Url(id) => id.as_str(),
                                Want::Git(spec) => spec.repo.as_str(),
                            }
                        );
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                if matches!(request.want, Want::Spec(_)) {
                    self.hint_children(&id);
                }
                match &request.parent {
                    Parent::Importer {
                        group,
                        specifier,
                        catalog,
                        ..
                    } => {
                        self.graph.importers[index].deps.push(Direct {
                            alias: request.alias.clone(),
                            specifier: specifier.clone(),
                            group: *group,
                            target: id.clone(),
                            catalog: catalog.clone(),
                        });
                    }
                    Parent::AutoPeer => self.graph.importers[index]
                        .auto_peers
                        .push((request.alias.clone(), id.clone())),
                    Parent::Recorded => {}
                    Parent::Package(parent) => {
                        if let Some(pkg) = self.graph.packages.get_mut(parent) {
                            pkg.children.push(Edge {
                                alias: request.alias.clone(),
                                target: id.clone(),
                                optional: request.optional,
                            });
                        }
                    }
                }
                let path = Rc::new(PathNode {
                    pkg: Some(id.clone()),
                    parent: Some(Rc::clone(&request.path)),
                });
                if self
                    .graph
                    .owners
                    .get(&id)
                    .is_some_and(|owner| *owner <= rank(index, &path))
                {
                    continue;
                }
                match owners.get_mut(&id) {
                    Some(owner) if path.chain() < owner.chain() => *owner = path,
                    Some(_) => {}
                    None => {
                        owners.insert(id, path);
                    }
                }
            }
            self.arrive_all(arriving).await;
            // The next level reuses this one's buffer: grown by doubling
            // afresh per level, the requests (thousands per level on
            // alotta) took fresh pages from the allocator each time, 5 %
            // of the walking thread's samples in page faults zeroing them.
            let mut next = std::mem::take(&mut level);
            next.clear();
            for (id, path) in owners {
                let taken_over = self
                    .graph
                    .owners
                    .insert(id.clone(), rank(index, &path))
                    .is_some();
                // Taken over by a higher-ranked occurrence: the recorded
                // children stay when the same dependencies are peers from
                // here, and are walked again from here, for their own
                // occurrences' ranks; otherwise they are resolved again.
                if taken_over {
                    let package = &self.graph.packages[&id];
                    let visible = self.peer_shadows_visible(index, &path, &package.manifest);
                    let shadowed =
                        shadowed_names(&package.manifest, self.auto_install_peers, &visible);
                    if shadowed == package.shadowed {
                        next.extend(package.children.iter().map(|edge| Request {
                            alias: edge.alias.clone(),
                            want: Want::Resolved(edge.target.clone()),
                            optional: edge.optional,
                            parent: Parent::Recorded,
                            path: Rc::clone(&path),
                        }));
                        continue;
                    }
                }
                next.extend(self.add_package(index, &id, &path)?);
            }
            level = next;
        }
        self.graph.prune();
        Ok(())
    }

    /// Names the registry dependencies of `id`, just picked, to
    /// [`Metadata::hint`], so their documents are on their way while the
    /// rest of the level is picked: [`Walker::add_package`] names them
    /// only once the whole level is (alotta from a cold cache: the
    /// requests of each level waited for the slowest document of the one
    /// before). A name an override or a peer later replaces is asked for
    /// needlessly; nothing else changes.
    fn hint_children(&mut self, id: &str) {
        if self.graph.owners.contains_key(id)
            || self.picked_manifests.contains_key(id)
            || self.directories.contains_key(id)
        {
            return;
        }
        let Some(packument) = self.graph.packuments.get(id_name(id)) else {
            return;
        };
        let Ok(version) = Version::parse(id_version(id)) else {
            return;
        };
        let Some(Ok(manifest)) = packument.version_json(&version).map(VersionManifest::parse)
        else {
            return;
        };
        let deps = manifest.dependencies.iter();
        for (alias, specifier) in deps.chain(&manifest.optional_dependencies) {
            if let Some(name) = registry_name(alias, specifier) {
                self.metadata.hint(name);
            }
        }
        self.picked_manifests.insert(id.to_owned(), manifest);
    }

    /// Fetches the packuments of `names` not fetched yet, all at once;
    /// failures are kept for the requests that need them.
    async fn fetch_all<'n>(&mut self, names: impl IntoIterator<Item = &'n str>) {
        let arriving = self.start_fetches(names);
        self.arrive_all(arriving).await;
    }

    /// Starts fetching the packuments of `names` not fetched yet, all at
    /// once; [`Walker::arrive`] keeps them as they come.
    fn start_fetches<'n>(&self, names: impl IntoIterator<Item = &'n str>) -> Arriving<'a> {
        let mut seen = HashSet::new();
        let missing: Vec<&str> = names
            .into_iter()
            .filter(|n| {
                !self.graph.packuments.contains_key(*n)
                    && !self.failed.contains_key(*n)
                    && seen.insert(*n)
            })
            .collect();
        self.metadata.prefetch(&missing);
        let metadata = self.metadata;
        missing
            .into_iter()
            .map(|name| {
                let name = name.to_owned();
                Box::pin(async move {
                    let result = metadata.packument(&name).await;
                    (name, result)
                }) as LocalBoxFuture<'a, _>
            })
            .collect()
    }

    /// Keeps what arrives until `name`'s packument (or its failure) is in.
    async fn arrive(&mut self, name: &str, arriving: &mut Arriving<'a>) {
        while !self.graph.packuments.contains_key(name) && !self.failed.contains_key(name) {
            let Some((arrived, result)) = arriving.next().await else {
                return;
            };
            self.keep(arrived, result);
        }
    }

    /// Keeps everything still arriving.
    async fn arrive_all(&mut self, mut arriving: Arriving<'a>) {
        while let Some((arrived, result)) = arriving.next().await {
            self.keep(arrived, result);
        }
    }

    fn keep(&mut self, name: String, result: Result<Arc<Packument>, ResolveError>) {
        match result {
            Ok(packument) => {
                self.graph.packuments.insert(name, packument);
            }
            Err(e) => {
                self.failed.insert(name, e);
            }
        }
    }

    /// [`Walker::pick`], asking the registry again when a document the
    /// metadata mirror gave without a request cannot satisfy the spec.
    async fn pick_or_revalidate(
        &mut self,
        index: usize,
        request: &Request,
        spec: &RegistrySpec,
        preferred: &HashMap<&str, Vec<(&str, Selector)>>,
    ) -> Result<PkgId, ResolveError> {
        let picked = self.pick(index, request, spec, preferred);
        if picked.is_ok() {
            return picked;
        }
        match self.metadata.revalidate(&spec.name).await {
            Some(Ok(fresh)) => {
                self.graph.packuments.insert(spec.name.clone(), fresh);
                self.pick(index, request, spec, preferred)
            }
            Some(Err(e)) => Err(e),
            None => picked,
        }
    }

    fn pick(
        &self,
        index: usize,
        request: &Request,
        spec: &RegistrySpec,
        preferred: &HashMap<&str, Vec<(&str, Selector)>>,
    ) -> Result<PkgId, ResolveError> {
        let Some(packument) = self.graph.packuments.get(&spec.name) else {
            return Err(self.failed[&spec.name].clone());
        };
        let overlay = self.overlay(index, &request.path, &spec.name);
        let manifest_selectors: Vec<&Selector> = preferred
            .get(spec.name.as_str())
            .into_iter()
            .flatten()
            .filter(|(raw, _)| *raw != spec.selector_raw())
            .map(|(_, s)| s)
            .collect();
        let locked = self
            .locked
            .get(spec.name.as_str())
            .filter(|_| !self.unlocked(index, &spec.name));
        let weight = |v: &Version| -> u32 {
            let manifest = manifest_selectors
                .iter()
                .filter(|s| selects(packument, s, v))
                .count() as u32
                * 1000;
            // What the previous lockfile has is kept where it still fits.
            let kept = if locked.is_some_and(|l| l.contains(v)) {
                1_000_000
            } else {
                0
            };
            kept + manifest + overlay.iter().filter(|o| *o == v).count() as u32
        };
        let eligible = self.eligible;
        let direct = matches!(request.parent, Parent::Importer { .. });
        let choose = |eligible: &dyn Fn(&Version) -> bool| {
            if direct && self.mode.lowest_direct {
                pick_lowest(packument, &spec.selector, &weight, eligible)
            } else {
                pick(packument, &spec.selector, &weight, eligible)
            }
        };
        let ceiling = if direct { None } else { self.mode.published_by };
        let version = match choose(&|v| {
            eligible(packument, v)
                && ceiling.is_none_or(|c| crate::mode::published_by(packument, v, c))
        }) {
            Some(version) => version,
            // As pnpm 12.21: the lowest version that satisfies the spec,
            // whatever its age; one too young is reported.
            None => {
                let version = pick_lowest(packument, &spec.selector, &weight, &|_| true)
                    .ok_or_else(|| {
                        no_matching_version(
                            packument,
                            &request.alias,
                            spec,
                            self.metadata.registry(&spec.name),
                        )
                    })?;
                if !eligible(packument, version) {
                    self.immature
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .insert((spec.name.clone(), version.to_string()));
                }
                version
            }
        };
        Ok(format!("{}@{}", spec.name, version))
    }

    /// The versions of `name` resolved on the levels above a request whose
    /// parent sits at `path`: the children of every node on the way from
    /// the importer, the parent's own children excluded.
    fn overlay(&self, index: usize, path: &PathNode, name: &str) -> Vec<Version> {
        let mut out = Vec::new();
        let mut node = path.parent.as_deref();
        while let Some(n) = node {
            let targets: Vec<&str> = match &n.pkg {
                Some(pkg) => self.graph.packages[pkg]
                    .children
                    .iter()
                    .map(|e| e.target.as_str())
                    .collect(),
                None => self.graph.importers[index]
                    .deps
                    .iter()
                    .map(|d| d.target.as_str())
                    .collect(),
            };
            out.extend(
                targets
                    .into_iter()
                    .filter(|t| id_is_of(t, name))
                    .filter_map(|t| Version::parse(id_version(t)).ok()),
            );
            node = n.parent.as_deref();
        }
        out
    }

    /// The names visible from the ancestors of the package at `path`: the
    /// project's dependencies and the siblings of each ancestor (not the
    /// package's own siblings, unless they are the project's).
    fn visible_names(&self, index: usize, path: &PathNode) -> HashSet<String> {
        let importer = &self.graph.importers[index];
        let mut names: HashSet<String> = importer
            .deps
            .iter()
            .map(|d| d.alias.clone())
            .chain(importer.auto_peers.iter().map(|(alias, _)| alias.clone()))
            .chain(importer.peer_providers.iter().cloned())
            .collect();
        let mut node = path.parent.as_deref().and_then(|p| p.parent.as_deref());
        while let Some(n) = node {
            if let Some(pkg) = &n.pkg {
                names.extend(
                    self.graph.packages[pkg]
                        .children
                        .iter()
                        .map(|e| e.alias.clone()),
                );
            }
            node = n.parent.as_deref();
        }
        names
    }

    /// [`Walker::visible_names`] where [`shadowed_names`] asks them: only
    /// for a manifest with a dependency that is also a peer (few are;
    /// collecting the names for every package was ~7 % of alotta's
    /// resolution).
    fn peer_shadows_visible(
        &self,
        index: usize,
        path: &PathNode,
        manifest: &VersionManifest,
    ) -> HashSet<String> {
        let asked = manifest
            .dependencies
            .keys()
            .any(|alias| manifest.peer_dependencies.contains_key(alias));
        if asked {
            self.visible_names(index, path)
        } else {
            HashSet::new()
        }
    }

    /// Records package `id` and returns the requests for its dependencies.
    fn add_package(
        &mut self,
        index: usize,
        id: &str,
        path: &Rc<PathNode>,
    ) -> Result<Vec<Request>, ResolveError> {
        let name = id_name(id);
        let directory = self.directories.get(id).cloned();
        let is_directory = directory.is_some();
        let mut raw_json = None;
        let mut manifest = match directory {
            Some(manifest) => manifest,
            None => {
                let packument = &self.graph.packuments[name];
                let version = Version::parse(id_version(id)).expect("picked versions parse");
                let raw = packument
                    .version_json(&version)
                    .expect("picked versions exist");
                raw_json = Some(raw);
                let mut manifest = match self.picked_manifests.remove(id) {
                    Some(manifest) => manifest,
                    None => {
                        VersionManifest::parse(raw).map_err(|e| ResolveError::InvalidMetadata {
                            name: name.to_owned(),
                            url: name.to_owned(),
                            reason: e.to_string(),
                        })?
                    }
                };
                manifest.name = name.to_owned();
                manifest.version = version.to_string();
                manifest
            }
        };
        if let Some(extensions) = self.extensions {
            extensions.apply(&mut manifest);
        }
        // The pnpmfile's hook comes between the extensions and the
        // overrides, as pnpm 12.21 chains them (docs/pnpmfile.md).
        if let Some(hook) = self.read_package {
            manifest = crate::hooked::read_package(hook, manifest, raw_json)?;
        }
        if let Some(overrides) = self.overrides {
            let version = manifest.version.clone();
            overrides.apply(Some(name), Some(&version), &mut manifest.dependencies);
            overrides.apply(
                Some(name),
                Some(&version),
                &mut manifest.optional_dependencies,
            );
            overrides.apply_to_peers(
                name,
                &version,
                &mut manifest.peer_dependencies,
                &mut manifest.dependencies,
            );
        }
        // After the overrides, as pnpm's manifest hooks run.
        pacquet_lockfile::remove_ignored_optionals(
            self.ignored_optionals,
            &mut manifest.optional_dependencies,
            &mut manifest.dependencies,
        );
        if !is_directory && manifest.integrity.is_none() && manifest.tarball.is_none() {
            return Err(ResolveError::NoDist {
                name: name.to_owned(),
                version: manifest.version.clone(),
            });
        }
        let visible = self.peer_shadows_visible(index, path, &manifest);
        let shadowed = shadowed_names(&manifest, self.auto_install_peers, &visible);
        let (edges, peers) = package_edges(&manifest, &shadowed);
        if let Some(patches) = self.patches
            && !is_directory
        {
            let selected =
                patches
                    .select(name, &manifest.version)
                    .map_err(|e| ResolveError::Patch {
                        reason: e.to_string(),
                    })?;
            if let Some(selected) = selected {
                self.graph.patches_used.insert(selected.key.to_owned());
                self.graph
                    .patched
                    .insert(id.to_owned(), selected.value.clone());
            }
        }
        let mut requests = Vec::new();
        let edges: Vec<(String, String, bool)> = edges
            .into_iter()
            .map(|(a, s, o)| (a.to_owned(), s.to_owned(), o))
            .collect();
        let locked_children = self
            .locked_children
            .get(id)
            .filter(|_| !self.unlocked(index, id_name(id)))
            .cloned();
        for (alias, specifier, optional) in &edges {
            let (alias, specifier, optional) = (alias.as_str(), specifier.as_str(), *optional);
            let locked = locked_children.as_ref().map(|children| {
                children.get(alias).map(|target| {
                    target
                        .clone()
                        .filter(|(name, _)| !self.unlocked(index, name))
                })
            });
            if optional && matches!(locked, Some(None)) {
                // The lockfile left this optional dependency out (it could
                // not be had when it was written): it stays out.
                continue;
            }
            // With injectWorkspacePackages, an injected project's own
            // `workspace:` dependencies are injected too.
            let want = match self.local_target(id, alias, specifier)? {
                Some(target)
                    if is_directory
                        && self.inject_workspace_packages
                        && specifier.starts_with("workspace:") =>
                {
                    Want::Resolved(self.injected_project(id, alias, specifier, &target)?)
                }
                _ => match (
                    self.registry_tarball(specifier),
                    crate::remote::tarball_url(specifier),
                    GitSpec::parse(specifier),
                ) {
                    // What a lockfile recorded is not checked again, as
                    // pnpm 12.21 does not (docs/resolution.md §13).
                    (None, url, git)
                        if (url.is_some() || git.is_some())
                            && self.block_exotic_subdeps
                            && !self.injected_projects.contains(id)
                            && !matches!(locked, Some(Some(None))) =>
                    {
                        return Err(ResolveError::ExoticSubdep {
                            alias: alias.to_owned(),
                            via: if url.is_some() {
                                "url"
                            } else {
                                "git-repository"
                            },
                        });
                    }
                    (None, Some(url), _) => Want::Url(url),
                    (None, None, Some(git)) => Want::Git(git),
                    (on_registry, ..) => {
                        let specifier = on_registry.as_deref().unwrap_or(specifier);
                        let mut spec = registry_spec(alias, specifier, id)?;
                        // The version the lockfile has, where it still fits.
                        if let Some(Some(Some((name, version)))) = &locked
                            && *name == spec.name
                            && match &spec.selector {
                                Selector::Version(v) => v == version,
                                Selector::Range(range) => version.satisfies(range),
                                Selector::Tag(_) => false,
                            }
                        {
                            spec.selector = Selector::Version(version.clone());
                        }
                        self.metadata.hint(&spec.name);
                        Want::Spec(spec)
                    }
                },
            };
            requests.push(Request {
                alias: alias.to_owned(),
                want,
                optional,
                parent: Parent::Package(id.to_owned()),
                path: Rc::clone(path),
            });
        }
        self.graph.packages.insert(
            id.to_owned(),
            Package {
                manifest,
                children: Vec::new(),
                peers,
                shadowed,
            },
        );
        Ok(requests)
    }
}

/// The commit of a lockfile version that is a git package
/// (`name@git+<repo>#<commit>[&path:<dir>]`).
fn locked_git_commit(version: &str) -> Option<&str> {
    let (_, after) = version.split_once("@git+")?;
    let (_, hash) = after.rsplit_once('#')?;
    let commit = hash.split('&').next()?;
    (commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit())).then_some(commit)
}

/// A local or remote package's manifest, named `fallback` when its
/// `package.json` has no name.
fn named_manifest(json: &serde_json::Value, fallback: &str) -> VersionManifest {
    let mut manifest = VersionManifest::from_value(json);
    if manifest.name.is_empty() {
        manifest.name = fallback.to_owned();
    }
    manifest
}

/// Why a `file:` directory or tarball of `alias` could not be read.
fn local_error(alias: &str, specifier: &str) -> impl FnOnce(String) -> ResolveError {
    let (alias, spec) = (alias.to_owned(), specifier.to_owned());
    move |reason| ResolveError::DirectoryDependency {
        alias,
        spec,
        reason,
    }
}

/// `path` (relative to project `importer`) from the workspace root; `.`
/// for the root itself.
fn from_root(importer: &str, path: &str) -> String {
    let dir = if importer == "." { "" } else { importer };
    let target = normalize(&join(dir, path));
    if target.is_empty() {
        ".".to_owned()
    } else {
        target
    }
}

fn registry_spec(
    alias: &str,
    specifier: &str,
    importer: &str,
) -> Result<RegistrySpec, ResolveError> {
    match parse(alias, specifier) {
        Spec::Registry(spec) => Ok(spec),
        Spec::Other(spec) => Err(ResolveError::UnsupportedSpec {
            alias: alias.to_owned(),
            spec,
            importer: importer.to_owned(),
        }),
    }
}

/// Whether a preferred selector matches `version`.
pub(crate) fn selects(packument: &Packument, selector: &Selector, version: &Version) -> bool {
    match selector {
        Selector::Version(v) => v == version,
        Selector::Range(range) => version.satisfies(range),
        Selector::Tag(tag) => packument
            .dist_tags
            .get(tag)
            .is_some_and(|t| Version::parse(t).is_ok_and(|t| &t == version)),
    }
}

/// The project's own specifiers by alias: versions, ranges and tags
/// (aliases and other protocols are not preferences).
fn manifest_selectors(manifest: &ProjectManifest) -> HashMap<&str, Vec<(&str, Selector)>> {
    let mut out: HashMap<&str, Vec<(&str, Selector)>> = HashMap::new();
    for deps in [
        &manifest.dependencies,
        &manifest.dev_dependencies,
        &manifest.optional_dependencies,
    ] {
        for (alias, raw) in deps {
            if raw.trim_start().starts_with("npm:") {
                continue;
            }
            if let Spec::Registry(spec) = parse(alias, raw) {
                out.entry(alias.as_str())
                    .or_default()
                    .push((raw.as_str(), spec.selector));
            }
        }
    }
    out
}

/// A project's dependencies, one per alias: with `autoInstallPeers` its
/// own peers too, which any other group overrides; among the others
/// `optionalDependencies` win, then `dependencies`, then
/// `devDependencies`.
pub fn direct_dependencies(
    manifest: &ProjectManifest,
    auto_install_peers: bool,
) -> Vec<(Group, &str, &str)> {
    let mut by_alias: IndexMap<&str, (Group, &str)> = IndexMap::new();
    if auto_install_peers {
        for (alias, spec) in &manifest.peer_dependencies {
            by_alias.insert(alias, (Group::Prod, spec));
        }
    }
    for (group, deps) in [
        (Group::Dev, &manifest.dev_dependencies),
        (Group::Prod, &manifest.dependencies),
        (Group::Optional, &manifest.optional_dependencies),
    ] {
        for (alias, spec) in deps {
            by_alias.insert(alias, (group, spec));
        }
    }
    by_alias
        .into_iter()
        .map(|(alias, (group, spec))| (group, alias, spec))
        .collect()
}

/// `(alias, specifier, optional)` of a package's dependency.
type DependencyEdge<'m> = (&'m str, &'m str, bool);

/// The dependencies of a package that are also its peers and lose their
/// edge: all whose peer is required (with autoInstallPeers), and those
/// whose name is `visible` from the package's ancestors
/// (docs/resolution.md §3).
fn shadowed_names(
    manifest: &VersionManifest,
    auto_install_peers: bool,
    visible: &HashSet<String>,
) -> BTreeSet<String> {
    manifest
        .dependencies
        .keys()
        .filter(|alias| manifest.peer_dependencies.contains_key(*alias))
        .filter(|alias| {
            (auto_install_peers && !manifest.is_optional_peer(alias)) || visible.contains(*alias)
        })
        .cloned()
        .collect()
}

/// A package's dependency edges and its
/// recorded peers (docs/resolution.md §3).
fn package_edges<'m>(
    manifest: &'m VersionManifest,
    shadowed: &BTreeSet<String>,
) -> (Vec<DependencyEdge<'m>>, IndexMap<String, Peer>) {
    let bundled: HashSet<&str> = match &manifest.bundled_dependencies {
        Some(serde_json::Value::Bool(true)) => {
            manifest.dependencies.keys().map(String::as_str).collect()
        }
        Some(serde_json::Value::Array(names)) => {
            names.iter().filter_map(serde_json::Value::as_str).collect()
        }
        _ => HashSet::new(),
    };
    let mut edges: Vec<(&str, &str, bool)> = manifest
        .dependencies
        .iter()
        .filter(|(alias, _)| !manifest.optional_dependencies.contains_key(*alias))
        .filter(|(alias, _)| !shadowed.contains(*alias))
        .map(|(a, s)| (a.as_str(), s.as_str(), false))
        .collect();
    edges.extend(
        manifest
            .optional_dependencies
            .iter()
            .map(|(a, s)| (a.as_str(), s.as_str(), true)),
    );
    edges.retain(|(alias, _, _)| !bundled.contains(alias));
    let mut peers = IndexMap::new();
    for (name, range) in &manifest.peer_dependencies {
        if manifest.optional_dependencies.contains_key(name) || *name == manifest.name {
            continue;
        }
        peers.insert(
            name.clone(),
            Peer {
                range: range.clone(),
                optional: manifest.is_optional_peer(name),
            },
        );
    }
    for (name, _) in &manifest.peer_dependencies_meta {
        if !peers.contains_key(name)
            && !manifest.peer_dependencies.contains_key(name)
            && manifest.is_optional_peer(name)
        {
            peers.insert(
                name.clone(),
                Peer {
                    range: "*".to_owned(),
                    optional: true,
                },
            );
        }
    }
    (edges, peers)
}

/// The range a peer's consumers agree on: their ranges intersected, or
/// `None` when they conflict.
pub fn merged_range(ranges: &[&str]) -> Option<String> {
    let mut distinct: Vec<&str> = ranges.to_vec();
    distinct.sort();
    distinct.dedup();
    if distinct.len() == 1 {
        return Some(distinct[0].to_owned());
    }
    let mut merged: Option<Range> = None;
    for raw in distinct {
        let range = Range::parse(raw).unwrap_or_else(|_| Range::any());
        merged = Some(match merged {
            None => range,
            Some(m) => m.intersect(&range)?,
        });
    }
    merged.map(|r| r.to_string())
}

pub(crate) fn no_matching_version(
    packument: &Packument,
    alias: &str,
    spec: &RegistrySpec,
    registry: String,
) -> ResolveError {
    let latest = packument
        .dist_tags
        .get("latest")
        .cloned()
        .unwrap_or_default();
    let mut others: BTreeMap<&str, &str> = packument
        .dist_tags
        .iter()
        .filter(|(tag, _)| *tag != "latest")
        .map(|(t, v)| (t.as_str(), v.as_str()))
        .collect();
    let published = |version: &str| {
        packument
            .published(version)
            .and_then(short_date)
            .map(|d| format!(" published at {d}"))
            .unwrap_or_default()
    };
    let mut help = format!("The latest release of {} is \"{latest}\".", spec.name);
    if let Some(date) = packument.published(&latest).and_then(short_date) {
        help.push_str(&format!(" Published at {date}"));
    }
    if !others.is_empty() {
        help.push_str("\n\nOther releases are:");
        for (tag, version) in std::mem::take(&mut others) {
            help.push_str(&format!("\n  * {tag}: {version}{}", published(version)));
        }
    }
    help.push_str(&format!(
        "\n\nIf you need the full list of all {} published versions run \"pnpm view {} versions\".",
        packument.versions.len(),
        spec.name
    ));
    ResolveError::NoMatchingVersion {
        alias: alias.to_owned(),
        spec: spec.raw.clone(),
        registry,
        help,
    }
}

/// `2020-01-01T00:00:00.000Z` as `1/1/2020` (pnpm's `M/D/YYYY`).
fn short_date(iso: &str) -> Option<String> {
    let date = iso.get(..10)?;
    let mut parts = date.split('-').map(|p| p.parse::<u32>().ok());
    let (year, month, day) = (parts.next()??, parts.next()??, parts.next()??);
    Some(format!("{month}/{day}/{year}"))
}
