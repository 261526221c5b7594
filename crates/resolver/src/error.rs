use pacquet_registry_metadata::MetadataError;

/// Why resolution failed. Clone: a packument's failure is shared by every
/// dependency on that name.
#[derive(Debug, Clone, thiserror::Error, miette::Diagnostic)]
pub enum ResolveError {
    #[error(
        "GET {url}: Not Found - 404\n\n{name} is not in the npm registry, or you have no permission to fetch it."
    )]
    #[diagnostic(
        code(ERR_PNPM_FETCH_404),
        help(
            "Check the package name and the registry configured for it (`registry`, `@scope:registry`)."
        )
    )]
    NotFound { name: String, url: String },

    #[error("No matching version found for {alias}@{spec} while fetching it from {registry}")]
    #[diagnostic(code(ERR_PNPM_NO_MATCHING_VERSION), help("{help}"))]
    NoMatchingVersion {
        alias: String,
        spec: String,
        registry: String,
        /// The available versions and dist-tags, as pnpm lists them.
        help: String,
    },

    #[error("{message}")]
    #[diagnostic(
        code(ERR_PNPM_NO_OFFLINE_META),
        help(
            "Run the install once online so the registry metadata is cached, or leave out --offline."
        )
    )]
    NoOfflineMeta { name: String, message: String },

    #[error("{message}")]
    #[diagnostic(code(ERR_PNPM_META_FETCH_FAIL), help("{help}"))]
    MetaFetch {
        name: String,
        message: String,
        help: String,
    },

    #[error("The metadata of {name} from {url} is not valid JSON: {reason}")]
    #[diagnostic(
        code(ERR_PNPM_META_FETCH_FAIL),
        help("The registry sent a document that is not a packument; check the registry URL.")
    )]
    InvalidMetadata {
        name: String,
        url: String,
        reason: String,
    },

    #[error("{name}@{version} in the registry has no dist.integrity or dist.tarball")]
    #[diagnostic(
        code(ERR_PNPM_META_FETCH_FAIL),
        help("The registry's document for this version is incomplete; pick another version.")
    )]
    NoDist { name: String, version: String },

    #[error(
        "In {importer}: \"{alias}@{specifier}\" is in the dependencies but no package named \"{alias}\" is present in the workspace"
    )]
    #[diagnostic(
        code(ERR_PNPM_WORKSPACE_PKG_NOT_FOUND),
        help(
            "Packages found in the workspace are the projects `packages` in pnpm-workspace.yaml names; check the name, or depend on the registry version instead."
        )
    )]
    WorkspacePackageNotFound {
        importer: String,
        alias: String,
        specifier: String,
    },

    #[error(
        "No matching version found for {alias}@{specifier} inside the workspace. Available versions: {version}"
    )]
    #[diagnostic(
        code(ERR_PNPM_NO_MATCHING_VERSION_INSIDE_WORKSPACE),
        help(
            "The workspace project {alias} is at version {version}; change the range or the project's version."
        )
    )]
    NoMatchingVersionInWorkspace {
        alias: String,
        specifier: String,
        version: String,
    },

    #[error("No catalog entry '{alias}' was found for catalog '{catalog}'.")]
    #[diagnostic(
        code(ERR_PNPM_CATALOG_ENTRY_NOT_FOUND_FOR_SPEC),
        help(
            "Add the entry to the catalog in pnpm-workspace.yaml, or give the dependency a version range."
        )
    )]
    CatalogEntryNotFound { alias: String, catalog: String },

    #[error(
        "Found invalid catalog entry using the catalog protocol recursively. The entry for '{alias}' in catalog '{catalog}' is invalid."
    )]
    #[diagnostic(
        code(ERR_PNPM_CATALOG_ENTRY_INVALID_RECURSIVE_DEFINITION),
        help("A catalog entry must be a version range, not another catalog: reference.")
    )]
    CatalogRecursive { alias: String, catalog: String },

    #[error(
        "The workspace protocol cannot be used as a catalog value. The entry for '{alias}' in catalog '{catalog}' is invalid."
    )]
    #[diagnostic(
        code(ERR_PNPM_CATALOG_ENTRY_INVALID_WORKSPACE_SPEC),
        help("Use workspace: in the project's package.json instead of the catalog.")
    )]
    CatalogWorkspace { alias: String, catalog: String },

    #[error(
        "The entry for '{alias}' in catalog '{catalog}' declares a dependency using the '{protocol}' protocol. This is not yet supported, but may be in a future version of pnpm."
    )]
    #[diagnostic(
        code(ERR_PNPM_CATALOG_ENTRY_INVALID_SPEC),
        help(
            "Catalog entries are registry ranges; put {protocol}: specifiers in the project's package.json."
        )
    )]
    CatalogProtocol {
        alias: String,
        catalog: String,
        protocol: String,
    },

    #[error("Failed to resolve {alias}@{spec}: {reason}")]
    #[diagnostic(
        code(ERR_PNPM_LINKED_PKG_DIR_NOT_FOUND),
        help(
            "A file: path is relative to the project that declares it; check that the directory or tarball exists and its package.json is valid JSON."
        )
    )]
    DirectoryDependency {
        alias: String,
        spec: String,
        reason: String,
    },

    #[error("packageExtensions is not a map of selectors to extensions: {reason}")]
    #[diagnostic(
        code(ERR_PACQUET_INVALID_PACKAGE_EXTENSIONS),
        help(
            "Each key is `name` or `name@range`; each value may have dependencies, optionalDependencies, peerDependencies (maps of name to range) and peerDependenciesMeta."
        )
    )]
    InvalidPackageExtensions { reason: String },

    #[error("{reason}")]
    #[diagnostic(
        code(ERR_PNPM_PATCH_KEY_CONFLICT),
        help(
            "Make the patchedDependencies selectors for this package name select one patch per version."
        )
    )]
    Patch { reason: String },

    #[error("The following patches were not used: {unused}")]
    #[diagnostic(
        code(ERR_PNPM_UNUSED_PATCH),
        help(
            "Either remove them from \"patchedDependencies\" or update them to match packages in your dependencies."
        )
    )]
    UnusedPatch { unused: String },

    #[error(
        "Exotic dependency \"{alias}\" (resolved via {via}) is not allowed in subdependencies when blockExoticSubdeps is enabled"
    )]
    #[diagnostic(
        code(ERR_PNPM_EXOTIC_SUBDEP),
        help(
            "Depend on a registry version instead, or set `blockExoticSubdeps: false` in pnpm-workspace.yaml."
        )
    )]
    ExoticSubdep { alias: String, via: &'static str },

    #[error("Failed to resolve git dependency \"{spec}\": {reason}")]
    #[diagnostic(
        code(ERR_PNPM_GIT_RESOLVE_FAILED),
        help("Check that `git` is installed and the repository is reachable from here.")
    )]
    GitResolveFailed { spec: String, reason: String },

    #[error("{reason}")]
    #[diagnostic(
        code(ERR_PACQUET_GIT_REF_NOT_FOUND),
        help("Name a branch, tag or commit the repository has.")
    )]
    GitRef { reason: String },

    #[error("{reason}")]
    #[diagnostic(
        code(ERR_PNPM_GIT_AMBIGUOUS_REF),
        help("Write more of the commit id, or name a branch or tag.")
    )]
    GitAmbiguousRef { reason: String },

    #[error(transparent)]
    #[diagnostic(transparent)]
    Hook(#[from] pacquet_hooks::HookError),

    #[error("Failed to resolve {alias}@{url}: {reason}")]
    #[diagnostic(
        code(ERR_PACQUET_REMOTE_TARBALL_FETCH),
        help("Check the URL and that its server is reachable, then run the install again.")
    )]
    RemoteTarball {
        alias: String,
        url: String,
        reason: String,
    },

    #[error("Failed to resolve {alias}@{url}: it is not a package tarball ({reason})")]
    #[diagnostic(
        code(ERR_PACQUET_REMOTE_TARBALL_CONTENTS),
        help(
            "A package's tarball is a gzipped tar archive with a package.json one directory deep."
        )
    )]
    RemoteTarballContents {
        alias: String,
        url: String,
        reason: String,
    },

    #[error("pacquet cannot resolve the specifier \"{spec}\" of {alias} (in {importer}) yet")]
    #[diagnostic(
        code(ERR_PACQUET_RESOLUTION_NOT_SUPPORTED),
        help(
            "pacquet resolves registry versions, ranges, dist-tags and npm: aliases. Run `pnpm install` to write the lockfile, then run pacquet again."
        )
    )]
    UnsupportedSpec {
        alias: String,
        spec: String,
        importer: String,
    },
}

impl ResolveError {
    pub(crate) fn from_metadata(name: &str, e: MetadataError) -> ResolveError {
        match e {
            MetadataError::HttpStatus { url, status: 404 } => ResolveError::NotFound {
                name: name.to_owned(),
                url,
            },
            MetadataError::NoOfflineMeta { .. } => ResolveError::NoOfflineMeta {
                name: name.to_owned(),
                message: e.to_string(),
            },
            other => ResolveError::MetaFetch {
                name: name.to_owned(),
                help: miette::Diagnostic::help(&other)
                    .map(|h| h.to_string())
                    .unwrap_or_else(|| {
                        "Check the registry and the network, then run the install again.".to_owned()
                    }),
                message: other.to_string(),
            },
        }
    }
}
