//! `pacquet install` without a lockfile that satisfies the manifests:
//! resolve, write `pnpm-lock.yaml` as pnpm 12 would, then install from it
//! (docs/resolution.md). What resolution does not do yet is refused by
//! name before anything is written.

use std::path::Path;

use nodejs_semver::Version;
use pacquet_config::Config;
use pacquet_resolver::git::GitSpec;
use pacquet_resolver::mode::ResolutionMode;
use pacquet_resolver::packument::Packument;
use pacquet_resolver::remote::{GitPackage, RemoteTarball};
use pacquet_resolver::{ImporterInput, RegistryMetadata, ResolveError, ResolveOptions};
use pacquet_tarball::Fetcher;
use pacquet_verification::Policy;

use crate::gates::{LOCKFILE_NAME, read_projects, rebase_local_overrides};
use crate::pnpmfile::Hooks;
use crate::reporter::{Event, Reporter};
use crate::{InstallError, settings};
use pacquet_lockfile::{ProjectManifest, apply_overrides, without_ignored_optionals};

/// Whether `a` and `b` name one directory, however they are spelled.
fn same_dir(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (a.canonicalize(), b.canonicalize()),
            (Ok(a), Ok(b)) if a == b
        )
}

/// The settings' routing and credentials, as resolution asks for them.
struct ConfigRegistries<'a>(&'a Config);

impl pacquet_resolver::Registries for ConfigRegistries<'_> {
    fn registry_for(&self, name: &str) -> String {
        self.0.registry_for(name).to_string()
    }

    fn authorization_for(&self, url: &str, name: &str) -> Option<String> {
        self.0.authorization_for(url, Some(name))
    }
}

/// `update`: resolve again, without keeping what the lockfile has for
/// `names` (for everything when empty), in the trees of the projects in
/// `dirs` (every project's when empty).
#[derive(Debug, Clone, Default)]
pub struct Update {
    pub names: Vec<String>,
    pub dirs: Vec<std::path::PathBuf>,
}

/// Resolves the projects of `config` and writes `pnpm-lock.yaml`. The
/// lockfile that was there before, if one parsed, is verified meanwhile,
/// as pnpm 12.21 does, and must pass before the new one is written; the
/// new one is then recorded as verified (docs/supply-chain.md §8).
pub(crate) fn resolve_lockfile(
    config: &Config,
    root_only: bool,
    update: Option<&Update>,
    fetcher: &pacquet_tarball::FetcherOptions,
    hooks: Option<&Hooks<'_>>,
    runtime: &tokio::runtime::Handle,
    reporter: &dyn Reporter,
) -> Result<(), InstallError> {
    let mut projects = if root_only {
        vec![crate::gates::read_project(
            &config.workspace_root,
            config.workspace_root.clone(),
        )?]
    } else {
        read_projects(config)?
    };
    if let Some(hooks) = hooks {
        hooks.apply_to_projects(&mut projects)?;
    }
    refuse_unsupported(config)?;
    if let Some(hooks) = hooks {
        hooks.check_resolvable()?;
    }
    let read_package = hooks.filter(|h| h.has_read_package());
    let overrides = crate::gates::resolved_overrides(config, &projects)?;
    // Resolved from their manifests as the pnpmfile's hook and then the
    // overrides leave them, as pnpm does; the importers record the
    // overridden specifiers.
    let mut manifests: Vec<ProjectManifest> = Vec::with_capacity(projects.len());
    for project in &projects {
        let manifest = apply_overrides(
            &project.manifest,
            &rebase_local_overrides(&overrides, &project.id),
        );
        manifests.push(without_ignored_optionals(
            &manifest,
            &config.ignored_optional_dependencies,
        ));
    }
    // A lockfile that does not parse is resolved from scratch; entries
    // without `resolution` keep their versions (`--fix-lockfile`), but
    // such a lockfile has nothing the verification can check.
    let path = config.workspace_root.join(LOCKFILE_NAME);
    let (previous, verifiable) = match pacquet_lockfile::read_lockfile(&path) {
        Ok(previous) => (previous, true),
        Err(_) => (
            pacquet_lockfile::read_lockfile_lenient(&path)
                .ok()
                .flatten(),
            false,
        ),
    };
    let unlock = update.map(|u| pacquet_resolver::Unlock {
        importers: projects
            .iter()
            .filter(|p| u.dirs.is_empty() || u.dirs.iter().any(|dir| same_dir(dir, &p.dir)))
            .map(|p| p.id.clone())
            .collect(),
        names: u.names.clone(),
    });
    let access = RegistryAccess::new(config)?;
    let resolution_mode = ResolutionMode::parse(&config.resolution_mode).unwrap_or_default();
    // `time-based` dates every pick: full documents, as pnpm 12.21 fetches
    // them then.
    let metadata = access
        .metadata()
        .with_full_documents(resolution_mode == ResolutionMode::TimeBased);
    let _memory = (!metadata.keeps_documents_of(&config.registries.default))
        .then(crate::memory::without_huge_pages);
    let eligible = |packument: &Packument, version: &Version| access.mature(packument, version);
    let registry_for = |name: &str| config.registry_for(name).to_string();
    let patches = pacquet_lockfile::PatchSelectors::new(
        crate::gates::hash_patch_files(config)?
            .into_iter()
            .map(|(key, file)| (key, file.hash)),
    )
    .map_err(InstallError::Lockfile)?;
    // `None` also for an empty setting, which changes nothing.
    let extensions_checksum = config
        .package_extensions
        .as_ref()
        .and_then(pacquet_lockfile::object_checksum);
    let user_extensions = match &config.package_extensions {
        Some(setting) if extensions_checksum.is_some() => Some(
            pacquet_resolver::extensions::Extensions::with_setting(
                !config.ignore_compatibility_db,
                setting,
            )
            .map_err(InstallError::Resolve)?,
        ),
        _ => None,
    };
    // A directory without a package.json is a package named after the
    // directory, as pnpm 12.21 takes it (docs/resolution.md §13).
    let read_directory = |path: &str| -> Result<serde_json::Value, String> {
        let dir = config.workspace_root.join(path);
        if !dir.is_dir() {
            return Err(format!(
                "Could not install from \"{}\" as it does not exist.",
                dir.display()
            ));
        }
        let file = dir.join("package.json");
        match std::fs::read_to_string(&file) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(serde_json::json!({})),
            Err(e) => Err(format!("{}: {e}", file.display())),
        }
    };
    let read_tarball = |path: &str| crate::local_tarball::read(&config.workspace_root.join(path));
    let remote = RemoteSources {
        config,
        fetcher: &access.fetcher,
    };
    let opts = ResolveOptions {
        auto_install_peers: config.auto_install_peers,
        exclude_links_from_lockfile: config.exclude_links_from_lockfile,
        dedupe_peers: config.dedupe_peers,
        resolve_peers_from_workspace_root: config.resolve_peers_from_workspace_root,
        dedupe_peer_dependents: config.dedupe_peer_dependents,
        peers_suffix_max_length: config.peers_suffix_max_length,
        registry_for: &registry_for,
        eligible: &eligible,
        // Without `minimumReleaseAgeStrict`, a range only young versions
        // satisfy is picked as if there were no age limit.
        extensions: match &user_extensions {
            Some(extensions) => Some(extensions),
            None => (!config.ignore_compatibility_db)
                .then(pacquet_resolver::extensions::Extensions::builtin),
        },
        patches: (!patches.is_empty()).then_some(&patches),
        link_workspace_packages: config.link_workspace_packages == serde_json::Value::Bool(true),
        prefer_workspace_packages: config.prefer_workspace_packages,
        package_extensions_checksum: extensions_checksum,
        previous: previous.as_ref(),
        unlock: unlock.as_ref(),
        overrides: &overrides,
        catalogs: &config.catalogs,
        read_directory: Some(&read_directory),
        read_tarball: Some(&read_tarball),
        remote: Some(&remote),
        read_package: read_package.map(|hook| hook as &dyn pacquet_resolver::remote::ReadPackage),
        ignored_optional_dependencies: &config.ignored_optional_dependencies,
        inject_workspace_packages: config.inject_workspace_packages,
        dedupe_injected_deps: config.dedupe_injected_deps,
        block_exotic_subdeps: config.block_exotic_subdeps,
        resolution_mode,
    };
    let importers: Vec<ImporterInput<'_>> = projects
        .iter()
        .zip(&manifests)
        .map(|(p, manifest)| ImporterInput {
            id: &p.id,
            manifest,
        })
        .collect();
    let (resolved, verified) = std::thread::scope(|s| {
        let verification = s.spawn(|| match previous.as_ref().filter(|_| verifiable) {
            Some(lockfile) => crate::verify::verify_lockfile(config, lockfile, fetcher, runtime),
            None => Ok(None),
        });
        // Kept registry documents are read ahead of the walk on the other
        // cores (alotta from a warm cache: the walker's thread stops waiting
        // for ~1,100 documents); the readers and the requester end with the
        // walk, also when it panics.
        let _stop = StopReadingAhead(&metadata);
        let readers = std::thread::available_parallelism()
            .map_or(1, usize::from)
            .saturating_sub(1)
            .clamp(1, 3);
        for _ in 0..readers {
            s.spawn(|| metadata.read_ahead());
        }
        // Documents the kept copies cannot answer are requested as the walk
        // names them, not level by level; on two threads, each parsing the
        // documents its requests get.
        for _ in 0..2 {
            s.spawn(|| runtime.block_on(metadata.request_ahead()));
        }
        let resolved = runtime.block_on(pacquet_resolver::resolve(&importers, &metadata, &opts));
        (resolved, verification.join())
    });
    let verified = verified.map_err(|_| InstallError::Internal {
        what: "the lockfile verification panicked".into(),
    })??;
    if let Some(verified) = &verified {
        crate::install::report_verified(verified, reporter);
    }
    let resolved = resolved.map_err(InstallError::Resolve)?;
    // The kept documents' parsed indexes are written while the lockfile is
    // made and written (a cold resolution of alotta: 1.6 MB, ~5 ms).
    let lockfile = std::thread::scope(|s| {
        s.spawn(|| metadata.write_indexes());
        let peer_issues =
            crate::peer_rules::any_left(&resolved.peer_issues, &config.peer_dependency_rules);
        if peer_issues && config.strict_peer_dependencies {
            return Err(InstallError::PeerDependencyIssues);
        }
        crate::young_picks::settle(&resolved.immature, config, reporter)?;
        crate::deprecations::report(&resolved.deprecated, config, reporter);
        if peer_issues {
            reporter.report(Event::Warning {
                message: "Issues with peer dependencies found. Run \"pnpm peers check\" to list them.",
            });
        }
        let mut lockfile = resolved.lockfile;
        lockfile.pnpmfile_checksum = crate::gates::pnpmfile_checksum(config);
        write_lockfile(
            &config.workspace_root.join(LOCKFILE_NAME),
            &lockfile.to_yaml(),
        )?;
        crate::verify::record_resolved(config, &lockfile);
        Ok(lockfile)
    })?;
    metadata.finish_writing();
    pacquet_teardown::discard(metadata);
    pacquet_teardown::discard(lockfile);
    pacquet_teardown::discard(previous);
    Ok(())
}

/// Ends the reader threads of a [`RegistryMetadata`] when dropped.
struct StopReadingAhead<'m, 'a>(&'m pacquet_resolver::source::RegistryMetadata<'a>);

impl Drop for StopReadingAhead<'_, '_> {
    fn drop(&mut self) {
        self.0.stop_reading_ahead();
    }
}

/// The version `selector` (a dist-tag, version or range) picks for `name`
/// from its registry, preferring what `preferred` selects (the versions
/// the lockfile has, the project's specifier), as pnpm 12.21's `add` and
/// `update` pick (docs/resolution.md §11): what they write.
pub fn pick_version(
    config: &Config,
    runtime: &tokio::runtime::Handle,
    name: &str,
    selector: &str,
    preferred: &[String],
) -> Result<String, InstallError> {
    let access = RegistryAccess::new(config)?;
    runtime
        .block_on(pacquet_resolver::pick_for(
            &access.metadata(),
            name,
            selector,
            &|p, v| access.mature(p, v),
            ResolutionMode::parse(&config.resolution_mode)
                .is_some_and(|mode| mode != ResolutionMode::Highest),
            preferred,
        ))
        .map_err(InstallError::Resolve)
}

/// The name in the manifest of the package a tarball URL or git
/// repository specifier names (downloading or cloning it), as `add`
/// saves such a specifier (pnpm 12.21); `None` for other specifiers or a
/// manifest without a name.
pub fn exotic_package_name(
    config: &Config,
    runtime: &tokio::runtime::Handle,
    spec: &str,
) -> Result<Option<String>, InstallError> {
    use pacquet_resolver::remote::RemoteSources as _;
    let url = pacquet_resolver::remote::tarball_url(spec);
    let git = GitSpec::parse(spec);
    if url.is_none() && git.is_none() {
        return Ok(None);
    }
    let access = RegistryAccess::new(config)?;
    let remote = RemoteSources {
        config,
        fetcher: &access.fetcher,
    };
    let manifest = match (url, git) {
        (Some(url), _) => runtime
            .block_on(remote.tarball(spec, &url))
            .map(|t| t.manifest),
        (None, Some(git)) => runtime.block_on(remote.git(spec, &git)).map(|g| g.manifest),
        (None, None) => return Ok(None),
    }
    .map_err(InstallError::Resolve)?;
    Ok(manifest
        .get("name")
        .and_then(serde_json::Value::as_str)
        .filter(|name| !name.is_empty())
        .map(str::to_owned))
}

/// The versions of each package name the workspace's lockfile has (none
/// without a readable one): what `add` prefers.
pub fn locked_versions(config: &Config) -> std::collections::HashMap<String, Vec<String>> {
    let mut out: std::collections::HashMap<String, Vec<String>> = Default::default();
    let path = config.workspace_root.join(LOCKFILE_NAME);
    if let Ok(Some(lockfile)) = pacquet_lockfile::read_lockfile(&path) {
        for key in lockfile.packages.keys() {
            out.entry(key.name().to_owned())
                .or_default()
                .push(key.version().to_owned());
        }
    }
    out
}

/// Remote tarballs downloaded for resolution, with the settings' network
/// options and credentials, and git repositories asked with `git`.
struct RemoteSources<'c> {
    config: &'c Config,
    fetcher: &'c Fetcher,
}

type Fetching<'s, T> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<T, ResolveError>> + 's>>;

impl pacquet_resolver::remote::RemoteSources for RemoteSources<'_> {
    fn tarball<'s>(&'s self, alias: &str, url: &str) -> Fetching<'s, RemoteTarball> {
        let (alias, url) = (alias.to_owned(), url.to_owned());
        Box::pin(remote_tarball(self.config, self.fetcher, alias, url))
    }

    fn git<'s>(&'s self, alias: &str, spec: &GitSpec) -> Fetching<'s, GitPackage> {
        let (alias, spec) = (alias.to_owned(), spec.clone());
        Box::pin(async move {
            tokio::task::spawn_blocking(move || git_package(&alias, &spec))
                .await
                .unwrap_or_else(|e| {
                    Err(ResolveError::GitResolveFailed {
                        spec: String::new(),
                        reason: e.to_string(),
                    })
                })
        })
    }
}

/// The commit `spec` names (asking the repository unless it is a full
/// commit id) and the package's manifest there, as pnpm 12.21 resolves a
/// git dependency (docs/resolution.md §13.1).
fn git_package(alias: &str, spec: &GitSpec) -> Result<GitPackage, ResolveError> {
    let failed = |reason: String| ResolveError::GitResolveFailed {
        spec: spec.raw.clone(),
        reason,
    };
    let commit = match spec.known_commit() {
        Some(commit) => commit.to_owned(),
        None => {
            let refs = pacquet_sources::ls_remote(&spec.repo, &spec.ls_remote_patterns())
                .map_err(|output| failed(format!("git ls-remote failed: {output}")))?;
            spec.commit_from(&refs)?
        }
    };
    let manifest = pacquet_sources::git_manifest(&spec.repo, &commit, spec.path.as_deref(), alias)
        .map_err(|e| failed(e.to_string()))?
        .unwrap_or_else(|| serde_json::json!({}));
    Ok(GitPackage { commit, manifest })
}

/// Downloads the remote tarball `url` of dependency `alias` for its
/// manifest and integrity (docs/resolution.md §13).
async fn remote_tarball(
    config: &Config,
    fetcher: &Fetcher,
    alias: String,
    url: String,
) -> Result<RemoteTarball, ResolveError> {
    let authorization = config.authorization_for(&url, None);
    let req = pacquet_tarball::DownloadRequest {
        url: &url,
        integrity: None,
        authorization: authorization.as_deref(),
        package_id: &alias,
        accept: None,
    };
    let (bytes, recorded) = fetcher
        .download_for_resolution(&req)
        .await
        .map_err(|source| ResolveError::RemoteTarball {
            alias: alias.clone(),
            url: url.clone(),
            reason: source.to_string(),
        })?;
    let manifest = crate::local_tarball::manifest(&bytes)
        .map_err(|reason| ResolveError::RemoteTarballContents { alias, url, reason })?;
    Ok(RemoteTarball {
        manifest,
        integrity: pacquet_tarball::sha512_integrity(&bytes),
        url: recorded,
    })
}

/// What reaching the registries for resolution takes: the network
/// settings, routing and credentials, and the age policy.
struct RegistryAccess<'c> {
    config: &'c Config,
    fetcher: Fetcher,
    registries: ConfigRegistries<'c>,
    policy: Policy,
}

impl<'c> RegistryAccess<'c> {
    fn new(config: &'c Config) -> Result<Self, InstallError> {
        let fetcher = Fetcher::new(settings::fetcher_options(config)?);
        let now = pacquet_verification::timestamp::now_ms();
        let policy =
            Policy::from_config(config, now).map_err(|e| InstallError::Verification(e.into()))?;
        Ok(RegistryAccess {
            config,
            fetcher,
            registries: ConfigRegistries(config),
            policy,
        })
    }

    /// Documents through pnpm 12's metadata mirror in the cache dir.
    fn metadata(&self) -> RegistryMetadata<'_> {
        RegistryMetadata::new(
            &self.fetcher,
            Some(&self.config.cache_dir),
            &self.registries,
            self.config.offline,
            self.policy.cutoff_ms(),
        )
        .with_kept_documents(self.config.prefer_offline, |name| {
            self.policy.age_exempts(name)
        })
    }

    /// Whether `version` is old enough for `minimumReleaseAge`.
    fn mature(&self, packument: &Packument, version: &Version) -> bool {
        let Some(cutoff) = self.policy.cutoff_ms() else {
            return true;
        };
        // Nothing in the document changed since the cutoff: asked first,
        // as it answers for most documents without formatting the version.
        if packument
            .modified_ms
            .is_some_and(|modified| modified <= cutoff)
        {
            return true;
        }
        let version = version.to_string();
        if !self.policy.age_applies(&packument.name, &version) {
            return true;
        }
        match packument
            .published(&version)
            .and_then(pacquet_state::parse_iso_date)
        {
            Some(published) => published <= cutoff,
            None => self.policy.ignore_missing_time,
        }
    }
}

/// Settings and projects resolution would not honour.
fn refuse_unsupported(config: &Config) -> Result<(), InstallError> {
    let refused = [
        (
            !matches!(config.link_workspace_packages, serde_json::Value::Bool(_)),
            "linkWorkspacePackages: deep (when resolving)",
        ),
        (
            ResolutionMode::parse(&config.resolution_mode).is_none(),
            "resolutionMode other than highest, lowest-direct or time-based",
        ),
    ];
    match refused.into_iter().find(|(refused, _)| *refused) {
        Some((_, setting)) => Err(InstallError::UnsupportedSetting {
            setting: setting.to_owned(),
        }),
        None => Ok(()),
    }
}

/// Replaces the lockfile through a temporary file, so an interrupted
/// write leaves the old one.
fn write_lockfile(path: &Path, text: &str) -> Result<(), InstallError> {
    pacquet_state::write_atomic(path, text.as_bytes()).map_err(|source| {
        InstallError::WriteLockfile {
            path: path.to_owned(),
            source,
        }
    })
}
