//! Resolution: from the projects' manifests and the registry's packuments
//! to the `pnpm-lock.yaml` pnpm 12 writes (docs/resolution.md).
//!
//! * [`spec`]: what a specifier asks for; [`pick`]: which version it gets;
//!   [`catalog`]: what a `catalog:` specifier stands for.
//! * [`graph`]: every package version the projects need, level by level
//!   (overrides, `file:` directories and injected projects included).
//! * [`peers`]: peer dependencies bound into snapshot keys; [`auto_peers`]:
//!   the peers nothing provides, installed for the project.
//! * [`extensions`]: fields pnpm adds to published manifests.
//! * `injected`: injected projects that can be links after all.
//! * [`lockfile`]: the lockfile built from both.
//! * [`source`]: where packuments come from (`kept_indexes`: the kept
//!   documents' indexes, parsed once); [`remote`]: tarballs named by URL;
//!   [`git`]: git repository specifiers.

pub mod auto_peers;
pub mod catalog;
mod error;
pub mod extensions;
pub mod git;
pub mod graph;
mod hooked;
mod injected;
mod kept_indexes;
pub mod lockfile;
pub mod mode;
pub mod packument;
pub mod peers;
pub mod pick;
mod read_ahead;
pub mod remote;
mod request_ahead;
pub mod source;
pub mod spec;
mod suffix;

pub use error::ResolveError;
pub use graph::ImporterInput;
use std::collections::HashMap;

use pacquet_lockfile::{Lockfile, LockfileSettings};
pub use source::{InMemory, Metadata, Registries, RegistryMetadata};

/// What changes the resolved lockfile besides the manifests.
pub struct ResolveOptions<'a> {
    pub auto_install_peers: bool,
    pub exclude_links_from_lockfile: bool,
    pub dedupe_peers: bool,
    /// `dedupePeerDependents` (default `true`): snapshots whose peers are a
    /// subset of another's are folded into it.
    pub dedupe_peer_dependents: bool,
    /// `resolvePeersFromWorkspaceRoot` (default `true`).
    pub resolve_peers_from_workspace_root: bool,
    pub peers_suffix_max_length: u64,
    /// The registry serving a package name (ending in `/`).
    pub registry_for: &'a dyn Fn(&str) -> String,
    /// Which versions may be picked (`minimumReleaseAge`). When no
    /// eligible version satisfies a spec, the lowest that does is picked
    /// and reported in [`Resolved::immature`].
    pub eligible: graph::Eligible<'a>,
    /// Extensions applied to every manifest: the built-in set unless
    /// `ignoreCompatibilityDb`.
    pub extensions: Option<&'a extensions::Extensions>,
    /// The previous lockfile: its versions are kept where they still fit.
    pub previous: Option<&'a Lockfile>,
    /// What `update` resolves again instead of keeping it.
    pub unlock: Option<&'a Unlock>,
    /// `overrides` with `$name` and `catalog:` values resolved, written to
    /// the lockfile as they are and applied to every published manifest
    /// (the importers' manifests come overridden).
    pub overrides: &'a indexmap::IndexMap<String, String>,
    /// What `catalog:` specifiers refer to.
    pub catalogs: &'a catalog::Catalogs,
    /// `ignoredOptionalDependencies`: optional dependencies of published
    /// manifests (`*` globs) left out; the projects' come without them.
    pub ignored_optional_dependencies: &'a [String],
    /// `linkWorkspacePackages: true` (for the projects' own dependencies).
    pub link_workspace_packages: bool,
    /// `preferWorkspacePackages`: with `link_workspace_packages`, a
    /// workspace project is linked even when the registry has a higher
    /// version.
    pub prefer_workspace_packages: bool,
    /// `patchedDependencies`: selector → patch hash.
    pub patches: Option<&'a pacquet_lockfile::PatchSelectors<String>>,
    /// Recorded as `packageExtensionsChecksum`.
    pub package_extensions_checksum: Option<String>,
    /// `injectWorkspacePackages`: every `workspace:` dependency is injected.
    pub inject_workspace_packages: bool,
    /// `dedupeInjectedDeps`: injected projects that could be links are.
    pub dedupe_injected_deps: bool,
    /// `blockExoticSubdeps`: a published package's dependency on a remote
    /// tarball is refused.
    pub block_exotic_subdeps: bool,
    /// Reads a `file:` directory's manifest; `None` refuses them.
    pub read_directory: Option<graph::ReadDirectory<'a>>,
    /// Fetches remote tarballs (URLs not of a registry) and git
    /// repositories; `None` refuses them.
    pub remote: Option<&'a dyn remote::RemoteSources>,
    /// A pnpmfile's `readPackage`, applied to every manifest resolution
    /// reads (the projects' come with it applied).
    pub read_package: Option<&'a dyn remote::ReadPackage>,
    /// Reads a `file:` tarball's manifest and integrity; `None` refuses
    /// them.
    pub read_tarball: Option<graph::ReadTarball<'a>>,
    /// `resolutionMode`.
    pub resolution_mode: mode::ResolutionMode,
}

/// A resolved lockfile and what pnpm would warn about on the way.
pub struct Resolved {
    pub lockfile: Lockfile,
    /// Peers missing, conflicting or out of range.
    pub peer_issues: PeerIssues,
    /// The deprecated packages picked, sorted by name and version.
    pub deprecated: Vec<Deprecated>,
    /// Versions picked although `eligible` refused them, because no
    /// eligible version satisfied the spec: `(name, version, publish time)`,
    /// sorted by `name@version` (docs/resolution.md §1).
    pub immature: Vec<(String, String, Option<String>)>,
}

/// What pnpm would warn about peers: required peers nothing provides (or
/// whose ranges conflict), and peers bound out of range.
#[derive(Debug, Default)]
pub struct PeerIssues {
    pub missing: Vec<String>,
    pub unmet: Vec<peers::UnmetPeer>,
}

/// A package whose manifest says `deprecated`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Deprecated {
    pub name: String,
    pub version: String,
    /// A project's own dependency (pnpm's depth 0), not only a
    /// subdependency or a peer installed for a project.
    pub direct: bool,
    /// For a project's own dependency: the highest release not deprecated,
    /// and whether the range the project declared excludes it.
    pub clean: Option<(String, bool)>,
    /// For a project's own dependency: the project's importer id (the
    /// first project's where several have it).
    pub importer: Option<String>,
}

/// The immature picks still in `graph`, with their publish times, sorted
/// by `name@version`.
fn immature_in(
    graph: &graph::Graph,
    picked: std::collections::BTreeSet<(String, String)>,
) -> Vec<(String, String, Option<String>)> {
    let mut found: Vec<(String, String, Option<String>)> = picked
        .into_iter()
        .filter(|(name, version)| graph.packages.contains_key(&format!("{name}@{version}")))
        .map(|(name, version)| {
            let time = graph
                .packuments
                .get(&name)
                .and_then(|p| p.published(&version))
                .map(str::to_owned);
            (name, version, time)
        })
        .collect();
    found.sort_by_cached_key(|(name, version, _)| format!("{name}@{version}"));
    found
}

/// The deprecated packages of `graph` (docs/resolution.md §8).
fn deprecated_packages(graph: &graph::Graph) -> Vec<Deprecated> {
    // The specifier each project's own dependency was declared with, the
    // first project's where several have it.
    let mut direct: HashMap<&str, (&str, &str)> = HashMap::new();
    for importer in &graph.importers {
        for dep in &importer.deps {
            direct
                .entry(dep.target.as_str())
                .or_insert((dep.specifier.as_str(), importer.id.as_str()));
        }
    }
    let mut found: Vec<Deprecated> = graph
        .packages
        .iter()
        .filter(|(_, package)| {
            package
                .manifest
                .deprecated
                .as_ref()
                .is_some_and(|d| !d.is_empty())
        })
        .map(|(id, package)| {
            let manifest = &package.manifest;
            let declared = direct.get(id.as_str());
            let clean = declared.and_then(|(specifier, _)| {
                let packument = graph.packuments.get(&manifest.name)?;
                let clean = pick::highest_not_deprecated(packument)?;
                Some((clean.to_string(), excludes(specifier, &clean)))
            });
            Deprecated {
                name: manifest.name.clone(),
                version: manifest.version.clone(),
                direct: declared.is_some(),
                clean,
                importer: declared.map(|(_, importer)| (*importer).to_owned()),
            }
        })
        .collect();
    found.sort();
    found
}

/// Whether a declared range leaves `version` out; an exact version or a
/// tag does not count as a range (pnpm 12.21). The specifier is read as
/// resolution reads it ([`spec::parse`]).
fn excludes(specifier: &str, version: &nodejs_semver::Version) -> bool {
    match spec::parse("", specifier) {
        spec::Spec::Registry(spec::RegistrySpec {
            selector: spec::Selector::Range(range),
            ..
        }) => !version.satisfies(&range),
        _ => false,
    }
}

/// The version `selector` picks for `name` (when no version `eligible`
/// allows fits, the lowest that does, as pnpm 12.21): a range prefers the
/// versions most of `preferred` (versions and ranges: what the lockfile
/// has, the project's current specifier) select, and gets the lowest of
/// them when `lowest` (`resolutionMode` other than `highest`).
pub async fn pick_for<M: Metadata>(
    metadata: &M,
    name: &str,
    selector: &str,
    eligible: graph::Eligible<'_>,
    lowest: bool,
    preferred: &[String],
) -> Result<String, ResolveError> {
    let spec = match spec::parse(name, selector) {
        spec::Spec::Registry(spec) => spec,
        spec::Spec::Other(spec) => {
            return Err(ResolveError::UnsupportedSpec {
                alias: name.to_owned(),
                spec,
                importer: ".".to_owned(),
            });
        }
    };
    let preferred: Vec<spec::Selector> = preferred
        .iter()
        .filter(|raw| raw.as_str() != selector)
        .filter_map(|raw| match spec::parse(name, raw) {
            spec::Spec::Registry(spec) => Some(spec.selector),
            spec::Spec::Other(_) => None,
        })
        .collect();
    let pick_from = |packument: &packument::Packument| {
        let weight = |v: &nodejs_semver::Version| -> u32 {
            preferred
                .iter()
                .filter(|s| graph::selects(packument, s, v))
                .count() as u32
        };
        let choose = |eligible: &dyn Fn(&nodejs_semver::Version) -> bool| {
            if lowest {
                pick::pick_lowest(packument, &spec.selector, &weight, eligible)
            } else {
                pick::pick(packument, &spec.selector, &weight, eligible)
            }
        };
        choose(&|v| eligible(packument, v))
            .or_else(|| pick::pick_lowest(packument, &spec.selector, &weight, &|_| true))
            .map(|v| v.to_string())
            .ok_or_else(|| {
                graph::no_matching_version(packument, name, &spec, metadata.registry(name))
            })
    };
    let picked = pick_from(&*metadata.packument(name).await?);
    match picked {
        Err(e) => match metadata.revalidate(name).await {
            Some(fresh) => pick_from(&*fresh?),
            None => Err(e),
        },
        picked => picked,
    }
}

/// What `update` resolves again: in the trees of `importers` (ids), the
/// packages `names` names, or everything when `names` is empty; the other
/// projects keep what the lockfile has (docs/resolution.md §11).
#[derive(Debug, Clone, Default)]
pub struct Unlock {
    pub importers: Vec<String>,
    pub names: Vec<String>,
}

/// Resolves the projects' dependencies into a lockfile. Projects are
/// resolved in id order (`.` first), whatever order they come in.
pub async fn resolve<M: Metadata>(
    importers: &[ImporterInput<'_>],
    metadata: &M,
    opts: &ResolveOptions<'_>,
) -> Result<Resolved, ResolveError> {
    let mut importers = importers.to_vec();
    importers.sort_by(|a, b| a.id.cmp(b.id));
    let peer_opts = peers::PeerOptions {
        peers_suffix_max_length: opts.peers_suffix_max_length as usize,
        dedupe_peers: opts.dedupe_peers,
        from_workspace_root: opts.resolve_peers_from_workspace_root,
    };
    let mut walker = graph::Walker::new(
        metadata,
        opts.eligible,
        opts.auto_install_peers,
        opts.extensions,
    );
    walker.set_workspace(&importers);
    let overrides = pacquet_lockfile::Overrides::new(opts.overrides);
    walker.set_overrides(&overrides);
    walker.set_catalogs(opts.catalogs);
    walker.set_ignored_optionals(opts.ignored_optional_dependencies);
    walker.set_inject_workspace_packages(opts.inject_workspace_packages);
    walker.set_block_exotic_subdeps(opts.block_exotic_subdeps);
    if let Some(patches) = opts.patches {
        walker.set_patches(patches);
    }
    walker
        .set_link_workspace_packages(opts.link_workspace_packages, opts.prefer_workspace_packages);
    if let Some(read) = opts.read_directory {
        walker.set_read_directory(read);
    }
    if let Some(read) = opts.read_tarball {
        walker.set_read_tarball(read);
    }
    if let Some(remote) = opts.remote {
        walker.set_remote(remote);
    }
    if let Some(hook) = opts.read_package {
        walker.set_read_package(hook);
    }
    if let Some(previous) = opts.previous {
        let unlock = opts.unlock.map(|unlock| {
            let indexes = importers
                .iter()
                .enumerate()
                .filter(|(_, i)| unlock.importers.iter().any(|id| id == i.id))
                .map(|(index, _)| index)
                .collect();
            (indexes, unlock.names.clone())
        });
        walker.keep_locked(previous, unlock);
    }
    let time = match opts.resolution_mode {
        mode::ResolutionMode::Highest => None,
        mode::ResolutionMode::LowestDirect => {
            walker.set_mode(mode::Mode {
                lowest_direct: true,
                published_by: None,
            });
            None
        }
        mode::ResolutionMode::TimeBased => {
            walker.set_mode(mode::Mode {
                lowest_direct: true,
                published_by: None,
            });
            let picks = walker.direct_registry_picks(&importers).await;
            let (published_by, dates) = mode::time_ceiling(&picks, |name| {
                walker.graph.packuments.get(name).map(|p| &**p)
            });
            walker.set_mode(mode::Mode {
                lowest_direct: true,
                published_by,
            });
            Some(dates)
        }
    };
    let mut peer_issues = PeerIssues::default();
    // The peer resolution of the graph as it stands, when one was made
    // after its last change: resolving peers is deterministic, and alotta's
    // took 6–8 ms each time.
    let mut settled = None;
    for importer in &importers {
        let index = walker.add_importer(*importer).await?;
        settled = None;
        // pnpm 12.21 hoists missing peers also without autoInstallPeers
        // when dedupePeerDependents is on, from versions already in the
        // tree only (docs/resolution.md §5).
        if opts.auto_install_peers || opts.dedupe_peer_dependents {
            let (conflicts, resolution) = auto_peers::install_missing(
                &mut walker,
                index,
                importer.manifest,
                peer_opts,
                opts.auto_install_peers,
            )
            .await?;
            peer_issues.missing.extend(conflicts);
            settled = Some(resolution);
        }
    }
    let immature = walker
        .immature
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut graph = walker.graph;
    if let Some(patches) = opts.patches {
        let unused: Vec<&str> = patches
            .keys()
            .filter(|key| !graph.patches_used.contains(*key))
            .collect();
        if !unused.is_empty() {
            return Err(ResolveError::UnusedPatch {
                unused: unused.join(", "),
            });
        }
    }
    let mut resolution = settled.unwrap_or_else(|| peers::resolve_peers(&graph, peer_opts));
    if opts.dedupe_injected_deps && injected::dedupe(&mut graph, &resolution) {
        resolution = peers::resolve_peers(&graph, peer_opts);
    }
    if opts.dedupe_peer_dependents {
        peers::dedupe_peer_dependents(&mut resolution);
    }
    peer_issues.missing.extend(
        resolution
            .missing
            .iter()
            .flatten()
            .filter(|m| !m.optional)
            .map(|m| m.peer.clone()),
    );
    peer_issues.unmet = std::mem::take(&mut resolution.unmet);
    let settings = LockfileSettings {
        auto_install_peers: Some(opts.auto_install_peers),
        exclude_links_from_lockfile: Some(opts.exclude_links_from_lockfile),
        dedupe_peers: opts.dedupe_peers.then_some(true),
        inject_workspace_packages: opts.inject_workspace_packages.then_some(true),
        peers_suffix_max_length: (opts.peers_suffix_max_length
            != pacquet_lockfile::DEFAULT_PEERS_SUFFIX_MAX_LENGTH)
            .then_some(opts.peers_suffix_max_length),
        ..LockfileSettings::default()
    };
    let mut lockfile = lockfile::build_lockfile(
        &graph,
        &resolution,
        &lockfile::LockfileOptions {
            settings,
            registry_for: opts.registry_for,
            overrides: opts.overrides,
        },
    );
    lockfile.package_extensions_checksum = opts.package_extensions_checksum.clone();
    lockfile.time = time;
    if let Some(patches) = opts.patches.filter(|p| !p.is_empty()) {
        lockfile.patched_dependencies = Some(
            patches
                .entries()
                .map(|(key, hash)| (key.to_owned(), serde_json::Value::from(hash.clone())))
                .collect(),
        );
    }
    // In the order of the settings, as pnpm 12.21 writes them.
    if !opts.ignored_optional_dependencies.is_empty() {
        lockfile.ignored_optional_dependencies = Some(opts.ignored_optional_dependencies.to_vec());
    }
    let immature = immature_in(&graph, immature);
    let deprecated = deprecated_packages(&graph);
    pacquet_teardown::discard(graph);
    pacquet_teardown::discard(resolution);
    Ok(Resolved {
        lockfile,
        peer_issues,
        deprecated,
        immature,
    })
}
