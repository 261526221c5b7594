//! The settings pacquet knows, with the value type used to coerce string
//! input from env vars and `--config.*` flags.

/// Value type of a setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bool,
    Number,
    String,
    List,
    Object,
    /// A bool or an object (`sideEffectsCache`).
    BoolOrObject,
}

/// `(camelCase name, kind)` of every setting pnpm 12 accepts in
/// `pnpm-workspace.yaml` that pacquet reads or knows to be harmless.
const SETTINGS: &[(&str, Kind)] = &[
    ("packages", Kind::List),
    ("storeDir", Kind::String),
    ("cacheDir", Kind::String),
    ("stateDir", Kind::String),
    ("globalDir", Kind::String),
    ("globalBinDir", Kind::String),
    ("packageImportMethod", Kind::String),
    ("nodeLinker", Kind::String),
    ("hoistingLimits", Kind::String),
    ("externalDependencies", Kind::List),
    ("hoist", Kind::Bool),
    ("hoistPattern", Kind::List),
    ("publicHoistPattern", Kind::List),
    ("shamefullyHoist", Kind::Bool),
    ("hoistWorkspacePackages", Kind::Bool),
    ("virtualStoreDir", Kind::String),
    ("virtualStoreDirMaxLength", Kind::Number),
    ("modulesDir", Kind::String),
    ("enableModulesDir", Kind::Bool),
    ("extendNodePath", Kind::Bool),
    ("preferSymlinkedExecutables", Kind::Bool),
    ("enableGlobalVirtualStore", Kind::Bool),
    ("globalVirtualStoreDir", Kind::String),
    ("modulesCacheMaxAge", Kind::Number),
    ("registry", Kind::String),
    ("registries", Kind::Object),
    ("strictSsl", Kind::Bool),
    ("ca", Kind::String),
    ("cafile", Kind::String),
    ("cert", Kind::String),
    ("key", Kind::String),
    ("httpsProxy", Kind::String),
    ("httpProxy", Kind::String),
    ("proxy", Kind::String),
    ("noProxy", Kind::String),
    ("localAddress", Kind::String),
    ("npmrcAuthFile", Kind::String),
    ("networkConcurrency", Kind::Number),
    ("fetchRetries", Kind::Number),
    ("fetchRetryFactor", Kind::Number),
    ("fetchRetryMintimeout", Kind::Number),
    ("fetchRetryMaxtimeout", Kind::Number),
    ("fetchTimeout", Kind::Number),
    ("fetchWarnTimeoutMs", Kind::Number),
    ("fetchMinSpeedKiBps", Kind::Number),
    ("offline", Kind::Bool),
    ("preferOffline", Kind::Bool),
    ("userAgent", Kind::String),
    ("verifyStoreIntegrity", Kind::Bool),
    ("strictStorePkgContentCheck", Kind::Bool),
    ("frozenStore", Kind::Bool),
    ("sideEffectsCache", Kind::BoolOrObject),
    ("sideEffectsCacheReadonly", Kind::Bool),
    ("ignoreScripts", Kind::Bool),
    ("allowBuilds", Kind::Object),
    ("dangerouslyAllowAllBuilds", Kind::Bool),
    ("strictDepBuilds", Kind::Bool),
    ("childConcurrency", Kind::Number),
    ("unsafePerm", Kind::Bool),
    ("scriptShell", Kind::String),
    ("shellEmulator", Kind::Bool),
    ("nodeOptions", Kind::String),
    ("frozenLockfile", Kind::Bool),
    ("preferFrozenLockfile", Kind::Bool),
    ("trustLockfile", Kind::Bool),
    ("minimumReleaseAge", Kind::Number),
    ("minimumReleaseAgeExclude", Kind::List),
    ("minimumReleaseAgeIgnoreMissingTime", Kind::Bool),
    ("minimumReleaseAgeStrict", Kind::Bool),
    ("trustPolicy", Kind::String),
    ("trustPolicyExclude", Kind::List),
    ("trustPolicyIgnoreAfter", Kind::Number),
    ("production", Kind::Bool),
    ("dev", Kind::Bool),
    ("optional", Kind::Bool),
    ("supportedArchitectures", Kind::Object),
    ("ignoredOptionalDependencies", Kind::List),
    ("engineStrict", Kind::Bool),
    ("optimisticRepeatInstall", Kind::Bool),
    ("confirmModulesPurge", Kind::Bool),
    // `false` or pnpm 12's `{integrityTarget, includeResolutionSettings}`.
    ("lockfile", Kind::BoolOrObject),
    ("lockfileIncludeTarballUrl", Kind::Bool),
    ("storeIndexFormat", Kind::String),
    ("autoInstallPeers", Kind::Bool),
    ("excludeLinksFromLockfile", Kind::Bool),
    ("dedupePeers", Kind::Bool),
    ("dedupePeerDependents", Kind::Bool),
    ("dedupeInjectedDeps", Kind::Bool),
    ("blockExoticSubdeps", Kind::Bool),
    ("dedupeDirectDeps", Kind::Bool),
    ("peersSuffixMaxLength", Kind::Number),
    ("injectWorkspacePackages", Kind::Bool),
    ("overrides", Kind::Object),
    ("allowedDeprecatedVersions", Kind::Object),
    ("catalog", Kind::Object),
    ("catalogs", Kind::Object),
    ("patchedDependencies", Kind::Object),
    ("packageExtensions", Kind::Object),
    ("peerDependencyRules", Kind::Object),
    ("pnpmfile", Kind::String),
    ("ignorePnpmfile", Kind::Bool),
    ("linkWorkspacePackages", Kind::Bool),
    ("preferWorkspacePackages", Kind::Bool),
    ("sharedWorkspaceLockfile", Kind::Bool),
    ("saveWorkspaceProtocol", Kind::String),
    ("savePrefix", Kind::String),
    ("saveExact", Kind::Bool),
    ("resolutionMode", Kind::String),
    ("strictPeerDependencies", Kind::Bool),
    ("resolvePeersFromWorkspaceRoot", Kind::Bool),
    ("nodeVersion", Kind::String),
    ("useNodeVersion", Kind::String),
    ("engines", Kind::Object),
    ("color", Kind::String),
    ("loglevel", Kind::String),
    ("reporter", Kind::String),
    ("updateNotifier", Kind::Bool),
    ("verifyDepsBeforeRun", Kind::String),
    ("recursiveInstall", Kind::Bool),
    ("ignoreWorkspaceRootCheck", Kind::Bool),
    ("includeWorkspaceRoot", Kind::Bool),
    ("failIfNoMatch", Kind::Bool),
    ("testPattern", Kind::List),
    ("changedFilesIgnorePattern", Kind::List),
    ("legacyDirFiltering", Kind::Bool),
    ("deployAllFiles", Kind::Bool),
    ("dlxCacheMaxAge", Kind::Number),
    ("gitChecks", Kind::Bool),
    ("publishBranch", Kind::String),
    ("gitShallowHosts", Kind::List),
    ("include", Kind::Object),
    ("onlyBuiltDependencies", Kind::List),
    ("neverBuiltDependencies", Kind::List),
    ("ignoredBuiltDependencies", Kind::List),
    ("requiredScripts", Kind::List),
    ("auditConfig", Kind::Object),
    ("updateConfig", Kind::Object),
    ("executionEnv", Kind::Object),
    ("configDependencies", Kind::Object),
    ("savePeer", Kind::Bool),
    ("symlink", Kind::Bool),
];

/// The camelCase name of every setting pacquet knows, in [`SETTINGS`]
/// order: each is honoured, refused when set to what pacquet cannot do, or
/// has no effect on what pnpm 12 installs (`crates/cli/tests/every_setting.rs`
/// proves which).
pub fn known_settings() -> impl Iterator<Item = &'static str> {
    SETTINGS.iter().map(|(name, _)| *name)
}

/// For a kebab-case setting name given as a command-line flag: `None` when
/// pacquet does not read it, `Some(false)` for a boolean (a bare flag),
/// `Some(true)` when it takes a value.
pub fn flag_takes_value(kebab: &str) -> Option<bool> {
    let kind = kind_of(&to_camel(kebab))?;
    Some(!matches!(kind, Kind::Bool | Kind::BoolOrObject))
}

/// The kind of a camelCase setting, or `None` if unknown.
pub fn kind_of(camel: &str) -> Option<Kind> {
    SETTINGS
        .iter()
        .find(|(name, _)| *name == camel)
        .map(|(_, kind)| *kind)
}

/// `store_dir` / `STORE_DIR` / `store-dir` → `storeDir`.
pub fn to_camel(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut upper_next = false;
    let all_upper = !key.chars().any(|c| c.is_ascii_lowercase());
    for c in key.chars() {
        if c == '_' || c == '-' {
            upper_next = !out.is_empty();
            continue;
        }
        let c = if all_upper { c.to_ascii_lowercase() } else { c };
        if upper_next {
            out.push(c.to_ascii_uppercase());
            upper_next = false;
        } else {
            out.push(c);
        }
    }
    out
}
