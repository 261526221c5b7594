//! Every setting pacquet knows (`pacquet_config::known_settings`) is proven
//! here to be honoured or refused; none is read and then dropped.
//!
//! - [`Proof::Compared`]: the named test sets it and compares what pacquet
//!   does with what pnpm 12 does.
//! - [`Proof::Refused`]: set to a value pacquet cannot honour, `install`
//!   exits 1 with an `ERR_PACQUET_UNSUPPORTED_*` diagnostic naming it, and
//!   writes nothing.
//! - [`Proof::Together`]: set, all at once, in the `lifecycle` fixture (a
//!   workspace with dependency builds, project scripts and bins), installed
//!   by pnpm 12 and by pacquet: the same tree, `.modules.yaml`, workspace
//!   state, script order and script environments. Most of these change
//!   nothing a frozen install does (they belong to resolution, publishing
//!   or other commands); the rest (`scriptShell`, `nodeOptions`,
//!   `unsafePerm`, `userAgent`, `hoistWorkspacePackages`, …) change it the
//!   same way in both.

mod support;

#[allow(dead_code)]
#[path = "lifecycle/helpers.rs"]
mod helpers;

use std::{collections::BTreeSet, path::Path};

use helpers::{PROJECT, Setup, Tool, assert_success, both};
use pacquet_testing::{DiffOptions, PnpmEnv, Registry, assert_trees_equal, prepare_project};
use support::{pacquet, stderr};

/// How one setting is shown to be honoured or refused.
enum Proof {
    /// `<file under crates/>::<test fn>`; the test's body names the
    /// setting (camelCase or kebab-case).
    Compared(&'static str),
    /// A `pnpm-workspace.yaml` line pacquet refuses.
    Refused(&'static str),
    /// A `pnpm-workspace.yaml` entry of the combined run; `{tmp}` is a
    /// directory of the test.
    Together(&'static str),
}

use Proof::{Compared, Refused, Together};

/// One proof per known setting, in `crates/config/src/keys.rs` order.
const PROOFS: &[(&str, Proof)] = &[
    (
        "packages",
        Compared("cli/tests/settings.rs::workspace_projects_are_the_ones_pnpm_finds"),
    ),
    (
        "storeDir",
        Compared("cli/tests/store_commands.rs::store_path_matches_pnpm"),
    ),
    ("cacheDir", Together("cacheDir: '{tmp}/cache'")),
    ("stateDir", Together("stateDir: '{tmp}/state'")),
    ("globalDir", Together("globalDir: '{tmp}/global'")),
    ("globalBinDir", Together("globalBinDir: '{tmp}/global-bin'")),
    (
        "packageImportMethod",
        Compared("cli/tests/every_setting.rs::package_import_method_copy_matches_pnpm"),
    ),
    (
        "nodeLinker",
        Compared("cli/tests/hoisted.rs::switching_the_linker_matches_pnpm"),
    ),
    (
        "hoistingLimits",
        Compared("cli/tests/hoisted.rs::hoisting_limits_match_pnpm"),
    ),
    (
        "externalDependencies",
        Compared("cli/tests/hoisted.rs::external_dependencies_match_pnpm"),
    ),
    (
        "hoist",
        Compared("cli/tests/compat.rs::hoisting_off_matches_pnpm"),
    ),
    (
        "hoistPattern",
        Compared("cli/tests/groups.rs::settings_as_flags_match_pnpm"),
    ),
    (
        "publicHoistPattern",
        Compared("cli/tests/groups.rs::settings_as_flags_match_pnpm"),
    ),
    ("shamefullyHoist", Together("shamefullyHoist: true")),
    (
        "hoistWorkspacePackages",
        Together("hoistWorkspacePackages: false"),
    ),
    (
        "virtualStoreDir",
        Compared("cli/tests/compat.rs::another_virtual_store_dir_matches_pnpm"),
    ),
    (
        "virtualStoreDirMaxLength",
        Together("virtualStoreDirMaxLength: 16"),
    ),
    ("modulesDir", Together("modulesDir: nm")),
    ("enableModulesDir", Refused("enableModulesDir: false")),
    (
        "extendNodePath",
        Compared("cli/tests/compat.rs::extend_node_path_false_matches_pnpm"),
    ),
    (
        "preferSymlinkedExecutables",
        Compared("cli/tests/compat.rs::prefer_symlinked_executables_matches_pnpm"),
    ),
    (
        "enableGlobalVirtualStore",
        Compared("cli/tests/global_store.rs::a_project_matches_pnpm"),
    ),
    (
        "globalVirtualStoreDir",
        Together("globalVirtualStoreDir: '{tmp}/links'"),
    ),
    (
        "modulesCacheMaxAge",
        Compared("cli/tests/repeat.rs::orphans_are_pruned_when_the_cache_age_is_zero"),
    ),
    (
        "registry",
        Compared("cli/tests/verdaccio.rs::an_authenticated_scope_beside_the_public_registry"),
    ),
    (
        "registries",
        Compared("config/tests/registries.rs::registries_map_in_workspace_yaml"),
    ),
    (
        "strictSsl",
        Compared("cli/tests/network_settings.rs::strict_ssl_off_accepts_an_unknown_issuer"),
    ),
    (
        "ca",
        Compared(
            "cli/tests/network_settings.rs::a_registry_signed_by_a_private_ca_installs_with_ca",
        ),
    ),
    (
        "cafile",
        Compared(
            "cli/tests/network_settings.rs::a_registry_signed_by_a_private_ca_installs_with_cafile",
        ),
    ),
    (
        "cert",
        Compared("cli/tests/network_settings.rs::per_registry_ca_and_client_certificate"),
    ),
    (
        "key",
        Compared("cli/tests/network_settings.rs::per_registry_ca_and_client_certificate"),
    ),
    (
        "httpsProxy",
        Compared("cli/tests/network_settings.rs::https_proxy_also_serves_an_http_registry"),
    ),
    (
        "httpProxy",
        Compared("cli/tests/network_settings.rs::http_proxy_is_the_proxy_of_an_http_registry"),
    ),
    (
        "proxy",
        Compared("cli/tests/network_settings.rs::behind_a_proxy"),
    ),
    (
        "noProxy",
        Compared("cli/tests/network_settings.rs::no_proxy_bypasses_the_proxy_like_pnpm"),
    ),
    ("localAddress", Together("localAddress: 127.0.0.1")),
    (
        "npmrcAuthFile",
        Compared("config/tests/registries.rs::npmrc_auth_file_setting_replaces_the_home_npmrc"),
    ),
    ("networkConcurrency", Together("networkConcurrency: 1")),
    (
        "fetchRetries",
        Compared("cli/tests/network_settings.rs::behind_a_proxy"),
    ),
    ("fetchRetryFactor", Together("fetchRetryFactor: 2")),
    (
        "fetchRetryMintimeout",
        Together("fetchRetryMintimeout: 100"),
    ),
    (
        "fetchRetryMaxtimeout",
        Together("fetchRetryMaxtimeout: 200"),
    ),
    ("fetchTimeout", Together("fetchTimeout: 30000")),
    // Only what is printed about slow requests.
    ("fetchWarnTimeoutMs", Together("fetchWarnTimeoutMs: 1")),
    ("fetchMinSpeedKiBps", Together("fetchMinSpeedKiBps: 1")),
    (
        "offline",
        Compared("cli/tests/errors.rs::offline_with_empty_store_is_no_offline_tarball"),
    ),
    ("preferOffline", Together("preferOffline: true")),
    (
        "userAgent",
        Together("userAgent: 'walk-agent/1.0 (every setting)'"),
    ),
    (
        "verifyStoreIntegrity",
        Together("verifyStoreIntegrity: false"),
    ),
    (
        "strictStorePkgContentCheck",
        Together("strictStorePkgContentCheck: false"),
    ),
    ("frozenStore", Refused("frozenStore: true")),
    (
        "sideEffectsCache",
        Compared("cli/tests/groups.rs::node_linker_flags_match_pnpm"),
    ),
    (
        "sideEffectsCacheReadonly",
        Together("sideEffectsCacheReadonly: true"),
    ),
    (
        "ignoreScripts",
        Compared("cli/tests/lifecycle/order.rs::ignore_scripts_runs_no_script"),
    ),
    (
        "allowBuilds",
        Compared(
            "cli/tests/dependency_kinds/local.rs::file_directory_with_install_script_is_built_like_pnpm",
        ),
    ),
    (
        "dangerouslyAllowAllBuilds",
        Compared("cli/tests/every_setting.rs::build_approvals_match_pnpm"),
    ),
    (
        "strictDepBuilds",
        Compared("cli/tests/every_setting.rs::build_approvals_match_pnpm"),
    ),
    ("childConcurrency", Together("childConcurrency: 1")),
    ("unsafePerm", Together("unsafePerm: true")),
    ("scriptShell", Together("scriptShell: '{tmp}/walk-shell'")),
    ("shellEmulator", Refused("shellEmulator: true")),
    (
        "nodeOptions",
        Together("nodeOptions: '--max-old-space-size=2048'"),
    ),
    (
        "frozenLockfile",
        Compared("cli/tests/errors.rs::outdated_lockfile_is_refused"),
    ),
    // `install --frozen-lockfile` decides it.
    (
        "preferFrozenLockfile",
        Together("preferFrozenLockfile: false"),
    ),
    (
        "trustLockfile",
        Compared("cli/tests/supply_chain.rs::trust_lockfile_skips_the_verification"),
    ),
    (
        "minimumReleaseAge",
        Compared("cli/tests/supply_chain.rs::exclusions_and_a_shorter_age_let_it_through"),
    ),
    (
        "minimumReleaseAgeExclude",
        Compared("cli/tests/supply_chain.rs::exclusions_and_a_shorter_age_let_it_through"),
    ),
    (
        "minimumReleaseAgeIgnoreMissingTime",
        Compared(
            "cli/tests/supply_chain.rs::a_version_without_a_publish_time_passes_unless_missing_times_are_refused",
        ),
    ),
    (
        "minimumReleaseAgeStrict",
        Compared("cli/tests/compat.rs::minimum_release_age_strict_is_recorded_like_pnpm"),
    ),
    (
        "trustPolicy",
        Compared("cli/tests/supply_chain.rs::different_violations_are_listed_together"),
    ),
    (
        "trustPolicyExclude",
        Compared("cli/tests/supply_chain.rs::a_trust_downgrade_is_refused_unless_excluded"),
    ),
    (
        "trustPolicyIgnoreAfter",
        Compared("cli/tests/supply_chain.rs::trust_policy_ignore_after_lets_old_versions_through"),
    ),
    // pnpm 12 takes the groups from `--prod`/`--dev` alone (docs/settings.md §2.4).
    ("production", Together("production: false")),
    ("dev", Together("dev: false")),
    (
        "optional",
        Compared("cli/tests/groups.rs::config_flags_set_the_groups"),
    ),
    (
        "supportedArchitectures",
        Compared("cli/tests/every_setting.rs::supported_architectures_match_pnpm"),
    ),
    (
        "ignoredOptionalDependencies",
        Compared("cli/tests/settings.rs::recorded_settings_match_pnpm"),
    ),
    (
        "engineStrict",
        Compared("cli/tests/errors.rs::engine_strict_refuses_an_unsupported_engine"),
    ),
    (
        "optimisticRepeatInstall",
        Compared(
            "cli/tests/repeat.rs::a_repeat_install_without_the_optimistic_check_runs_the_root_scripts",
        ),
    ),
    // pnpm 12 warns that it does not know these; so does pacquet.
    (
        "confirmModulesPurge",
        Together("confirmModulesPurge: false"),
    ),
    ("lockfile", Refused("lockfile: {integrityTarget: tar}")),
    (
        "lockfileIncludeTarballUrl",
        Together("lockfileIncludeTarballUrl: true"),
    ),
    ("storeIndexFormat", Refused("storeIndexFormat: files")),
    (
        "autoInstallPeers",
        Compared("cli/tests/every_setting.rs::lockfile_settings_are_checked_like_pnpm"),
    ),
    (
        "excludeLinksFromLockfile",
        Compared("cli/tests/every_setting.rs::lockfile_settings_are_checked_like_pnpm"),
    ),
    (
        "dedupePeers",
        Compared("cli/tests/every_setting.rs::lockfile_settings_are_checked_like_pnpm"),
    ),
    (
        "dedupePeerDependents",
        Compared("cli/tests/resolution.rs::peers_not_from_the_workspace_root_resolve_like_pnpm"),
    ),
    ("dedupeInjectedDeps", Together("dedupeInjectedDeps: false")),
    (
        "blockExoticSubdeps",
        Compared("cli/tests/resolution.rs::remote_tarball_urls_resolve_like_pnpm"),
    ),
    (
        "dedupeDirectDeps",
        Compared("cli/tests/every_setting.rs::dedupe_direct_deps_matches_pnpm"),
    ),
    (
        "peersSuffixMaxLength",
        Compared("cli/tests/every_setting.rs::lockfile_settings_are_checked_like_pnpm"),
    ),
    (
        "injectWorkspacePackages",
        Compared("cli/tests/every_setting.rs::lockfile_settings_are_checked_like_pnpm"),
    ),
    (
        "overrides",
        Compared("cli/tests/errors.rs::an_override_naming_no_root_dependency_is_refused"),
    ),
    (
        "allowedDeprecatedVersions",
        Compared("cli/tests/resolution.rs::deprecation_warnings_match_pnpm"),
    ),
    // Recorded in the workspace state.
    ("catalog", Together("catalog: {pq-lc-leaf: 1.0.0}")),
    ("catalogs", Together("catalogs: {walk: {pq-lc-mid: 1.0.0}}")),
    (
        "patchedDependencies",
        Compared("cli/tests/patches.rs::patched_workspace_matches_pnpm"),
    ),
    (
        "packageExtensions",
        Compared("cli/tests/compat.rs::injected_project_matches_pnpm"),
    ),
    (
        "peerDependencyRules",
        Compared("cli/tests/resolution.rs::peer_dependency_rules_take_issues_away_like_pnpm"),
    ),
    (
        "pnpmfile",
        Compared("cli/tests/settings.rs::the_pnpmfile_checksum_is_checked_like_pnpm"),
    ),
    (
        "ignorePnpmfile",
        Compared("cli/tests/settings.rs::the_pnpmfile_checksum_is_checked_like_pnpm"),
    ),
    (
        "linkWorkspacePackages",
        Compared("cli/tests/compat.rs::resolution_settings_are_recorded_like_pnpm"),
    ),
    (
        "preferWorkspacePackages",
        Together("preferWorkspacePackages: true"),
    ),
    (
        "sharedWorkspaceLockfile",
        Refused("sharedWorkspaceLockfile: false"),
    ),
    (
        "saveWorkspaceProtocol",
        Together("saveWorkspaceProtocol: rolling"),
    ),
    ("savePrefix", Together("savePrefix: '~'")),
    ("saveExact", Together("saveExact: true")),
    ("resolutionMode", Together("resolutionMode: time-based")),
    (
        "strictPeerDependencies",
        Together("strictPeerDependencies: true"),
    ),
    (
        "resolvePeersFromWorkspaceRoot",
        Compared("cli/tests/resolution.rs::peers_not_from_the_workspace_root_resolve_like_pnpm"),
    ),
    (
        "nodeVersion",
        Compared("cli/tests/every_setting.rs::node_version_decides_engine_checks_like_pnpm"),
    ),
    ("useNodeVersion", Together("useNodeVersion: 18.0.0")),
    ("engines", Together("engines: {node: '>=99'}")),
    ("color", Together("color: never")),
    (
        "loglevel",
        Compared("cli/tests/every_setting.rs::loglevel_and_reporter_quiet_the_output_like_pnpm"),
    ),
    (
        "reporter",
        Compared("cli/tests/every_setting.rs::loglevel_and_reporter_quiet_the_output_like_pnpm"),
    ),
    ("updateNotifier", Together("updateNotifier: false")),
    (
        "verifyDepsBeforeRun",
        Together("verifyDepsBeforeRun: install"),
    ),
    (
        "recursiveInstall",
        Compared("cli/tests/filter.rs::recursive_install_off_installs_the_current_project"),
    ),
    (
        "ignoreWorkspaceRootCheck",
        Together("ignoreWorkspaceRootCheck: true"),
    ),
    // `install` always installs the root (docs/settings.md §2.4).
    (
        "includeWorkspaceRoot",
        Together("includeWorkspaceRoot: true"),
    ),
    ("failIfNoMatch", Compared("cli/tests/filter.rs::no_match")),
    (
        "testPattern",
        Compared("cli/tests/filter.rs::test_pattern_and_ignored_changes"),
    ),
    (
        "changedFilesIgnorePattern",
        Compared("cli/tests/filter.rs::test_pattern_and_ignored_changes"),
    ),
    (
        "legacyDirFiltering",
        Compared("cli/tests/filter.rs::legacy_dir_filtering_selects_projects_under_the_directory"),
    ),
    (
        "deployAllFiles",
        Compared("cli/tests/deploy.rs::deploy_all_files_copies_unpublished_files"),
    ),
    ("dlxCacheMaxAge", Together("dlxCacheMaxAge: 1")),
    ("gitChecks", Together("gitChecks: false")),
    ("publishBranch", Together("publishBranch: walk")),
    (
        "gitShallowHosts",
        Together("gitShallowHosts: [example.com]"),
    ),
    ("include", Refused("include: {'./shared.yaml': '*'}")),
    // pnpm 12 decides builds by `allowBuilds` alone.
    (
        "onlyBuiltDependencies",
        Together("onlyBuiltDependencies: [pq-lc-leaf]"),
    ),
    (
        "neverBuiltDependencies",
        Together("neverBuiltDependencies: [pq-lc-mid]"),
    ),
    (
        "ignoredBuiltDependencies",
        Together("ignoredBuiltDependencies: [pq-lc-optional]"),
    ),
    ("requiredScripts", Together("requiredScripts: [walk]")),
    (
        "auditConfig",
        Together("auditConfig: {ignoreCves: [CVE-2000-0001]}"),
    ),
    (
        "updateConfig",
        Together("updateConfig: {ignoreDependencies: [pq-lc-mid]}"),
    ),
    (
        "executionEnv",
        Together("executionEnv: {nodeVersion: 18.0.0}"),
    ),
    (
        "configDependencies",
        Refused("configDependencies: {walk-config: '1.0.0+sha512-AAAA'}"),
    ),
    ("savePeer", Together("savePeer: true")),
    ("symlink", Refused("symlink: false")),
];

/// `key` in kebab-case (`fetchRetries` → `fetch-retries`).
fn kebab(key: &str) -> String {
    let mut out = String::new();
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn crates_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// The text of test fn `name` in `file` (under `crates/`): its doc
/// comment, and its body up to the closing brace at the file's top level.
fn test_body(file: &str, name: &str) -> Option<String> {
    let text = std::fs::read_to_string(crates_dir().join(file)).ok()?;
    let start = text
        .find(&format!("\nfn {name}("))
        .or_else(|| text.find(&format!("\npub fn {name}(")))?;
    let doc: Vec<&str> = text[..start]
        .lines()
        .rev()
        .take_while(|l| l.starts_with("///") || l.starts_with("#["))
        .collect();
    let rest = &text[start + 1..];
    let end = rest.find("\n}\n").map_or(rest.len(), |i| i + 2);
    Some(format!("{}\n{}", doc.join("\n"), &rest[..end]))
}

/// Whether `text` names `word` with no identifier character either side.
fn names(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        // A string literal's `\n` or `\t` ends the word before it.
        let escaped = text[..at].ends_with("\\n") || text[..at].ends_with("\\t");
        (escaped || !ident(before)) && !ident(after)
    })
}

#[test]
fn every_known_setting_has_exactly_one_proof() {
    let known: Vec<&str> = pacquet_config::known_settings().collect();
    let proved: Vec<&str> = PROOFS.iter().map(|(key, _)| *key).collect();
    let unique: BTreeSet<&str> = proved.iter().copied().collect();
    assert_eq!(unique.len(), proved.len(), "a setting is listed twice");
    let known_set: BTreeSet<&str> = known.iter().copied().collect();
    let missing: Vec<_> = known_set.difference(&unique).collect();
    let unknown: Vec<_> = unique.difference(&known_set).collect();
    assert!(
        missing.is_empty() && unknown.is_empty(),
        "without a proof: {missing:?}; not a known setting: {unknown:?}"
    );
    for (key, proof) in PROOFS {
        if let Refused(line) | Together(line) = proof {
            assert!(
                line.starts_with(&format!("{key}:")),
                "{key}: the line sets another key: {line}"
            );
        }
    }
}

#[test]
fn compared_settings_name_tests_that_set_them() {
    let mut wrong = Vec::new();
    for (key, proof) in PROOFS {
        let Compared(test) = proof else { continue };
        let (file, name) = test.split_once("::").unwrap();
        match test_body(file, name) {
            None => wrong.push(format!("{key}: no test {test}")),
            Some(body) if !names(&body, key) && !names(&body, &kebab(key)) => {
                wrong.push(format!("{key}: {test} does not name it"))
            }
            Some(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn refused_settings_stop_the_install_before_it_writes() {
    let registry = Registry::start_fixtures();
    for (key, proof) in PROOFS {
        let Refused(line) = proof else { continue };
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        prepare_project("basic", &project, &registry.url());
        support::add_settings(&project, &format!("\n{line}\n"));
        let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
        let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{line}: {err}");
        assert!(err.contains("ERR_PACQUET_UNSUPPORTED_"), "{line}: {err}");
        assert!(err.contains(key), "{line}: the error names {key}: {err}");
        assert!(!project.join("node_modules").exists(), "{line}");
        assert!(
            !env.store_dir.exists() || std::fs::read_dir(&env.store_dir).unwrap().count() == 0,
            "{line}: the store was written"
        );
    }
    // `fetch` writes only the store, in the one index format pacquet has.
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    prepare_project("basic", &project, &registry.url());
    support::add_settings(&project, "\nstoreIndexFormat: files\n");
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let out = pacquet(&env, &project, &["fetch"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("storeIndexFormat: files"),
        "{}",
        stderr(&out)
    );
    assert!(!env.store_dir.join("v11").exists());
}

/// A shell for `scriptShell` that notes each script in `shell.log` of the
/// project running it, then runs it with `sh`.
#[cfg(unix)]
fn write_walk_shell(path: &Path) {
    std::fs::write(
        path,
        "#!/bin/sh\nprintf '%s\\n' \"$npm_package_name $npm_lifecycle_event\" >> \"$INIT_CWD/shell.log\"\nexec /bin/sh \"$@\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[cfg(unix)]
#[test]
fn settings_set_together_install_what_pnpm_12_installs() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let shared = tmp.path().join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    write_walk_shell(&shared.join("walk-shell"));
    let base =
        std::fs::read_to_string(pacquet_testing::project_dir(PROJECT).join("pnpm-workspace.yaml"))
            .unwrap();
    let mut yaml = format!("{}\n", base.trim_end());
    for (_, proof) in PROOFS {
        if let Together(line) = proof {
            yaml.push_str(&line.replace("{tmp}", &shared.to_string_lossy()));
            yaml.push('\n');
        }
    }
    let setup = Setup {
        workspace_yaml: Some(&yaml),
        ..Setup::default()
    };
    let (pnpm, ours) = both(&registry, &tmp.path().join("runs"), &setup);
    assert_success(&pnpm, Tool::Pnpm);
    assert_success(&ours, Tool::Pacquet);

    // The optional package's build may run anywhere among the others'.
    assert_eq!(
        helpers::without_optional(&ours.log()),
        helpers::without_optional(&pnpm.log()),
        "scripts ran in another order"
    );
    assert_eq!(ours.log().len(), pnpm.log().len());
    assert_eq!(
        helpers::assert_same_envs(&pnpm, &ours),
        pnpm.log().len(),
        "every script recorded its environment"
    );
    let shell_log = |run: &helpers::Run| {
        std::fs::read_to_string(run.project.join("shell.log")).unwrap_or_default()
    };
    assert!(
        !shell_log(&pnpm).is_empty(),
        "pnpm 12 ran scripts with scriptShell"
    );
    let mut theirs: Vec<_> = shell_log(&pnpm).lines().map(str::to_owned).collect();
    let mut mine: Vec<_> = shell_log(&ours).lines().map(str::to_owned).collect();
    theirs.sort();
    mine.sort();
    assert_eq!(mine, theirs, "scripts run through scriptShell");

    let mut opts = DiffOptions::for_installs(
        &pnpm.project,
        &pnpm.env.store_dir,
        &ours.project,
        &ours.env.store_dir,
    );
    opts.ignore.extend([
        "lifecycle.log".into(),
        "lifecycle-env".into(),
        "shell.log".into(),
    ]);
    assert_trees_equal(&pnpm.project, &ours.project, &opts);
}

/// `install --frozen-lockfile` of `fixture` with `settings` appended to its
/// `pnpm-workspace.yaml`, by pnpm 12 and by pacquet, each in its own
/// directory under `root`: `(project, env, output)` per tool.
fn both_with(
    registry: &Registry,
    root: &Path,
    fixture: &str,
    settings: &str,
) -> [(std::path::PathBuf, PnpmEnv, std::process::Output); 2] {
    ["pnpm", "pacquet"].map(|side| {
        let project = root.join(side).join("project");
        prepare_project(fixture, &project, &registry.url());
        support::add_settings(&project, &format!("\n{settings}\n"));
        let env = PnpmEnv::new(&root.join(side).join("env"), &registry.url());
        let args = ["install", "--frozen-lockfile"];
        let out = if side == "pnpm" {
            env.run(&project, &args)
        } else {
            pacquet(&env, &project, &args)
        };
        (project, env, out)
    })
}

/// Both installs exited 0 and left the same tree.
fn assert_same_installs(runs: &[(std::path::PathBuf, PnpmEnv, std::process::Output); 2]) {
    let [(a, a_env, a_out), (b, b_env, b_out)] = runs;
    assert_eq!(a_out.status.code(), Some(0), "pnpm: {}", stderr(a_out));
    assert_eq!(b_out.status.code(), Some(0), "pacquet: {}", stderr(b_out));
    let opts = DiffOptions::for_installs(a, &a_env.store_dir, b, &b_env.store_dir);
    assert_trees_equal(a, b, &opts);
}

/// The `pnpm-workspace.yaml` of `lifecycle` without its `allowBuilds`.
fn lifecycle_yaml_without_approvals(extra: &str) -> String {
    format!("trustLockfile: true\npackages:\n  - packages/*\n{extra}\n")
}

/// Builds nobody approved: `dangerouslyAllowAllBuilds: true` runs them all,
/// `strictDepBuilds: false` skips them without failing; both as pnpm 12.
#[test]
fn build_approvals_match_pnpm() {
    let registry = Registry::start_fixtures();
    for extra in ["dangerouslyAllowAllBuilds: true", "strictDepBuilds: false"] {
        let tmp = tempfile::tempdir().unwrap();
        let yaml = lifecycle_yaml_without_approvals(extra);
        let setup = Setup {
            workspace_yaml: Some(&yaml),
            ..Setup::default()
        };
        let (pnpm, ours) = both(&registry, tmp.path(), &setup);
        assert_success(&pnpm, Tool::Pnpm);
        assert_success(&ours, Tool::Pacquet);
        let builds = |run: &helpers::Run| {
            let mut log: Vec<String> = run
                .log()
                .into_iter()
                .filter(|l| l.starts_with("pq-lc-leaf") || l.starts_with("pq-lc-mid"))
                .collect();
            log.sort();
            log
        };
        assert_eq!(builds(&ours), builds(&pnpm), "{extra}");
        assert_eq!(
            builds(&pnpm).is_empty(),
            extra.starts_with("strictDepBuilds"),
            "{extra}: {:?}",
            pnpm.log()
        );
        let mut opts = DiffOptions::for_installs(
            &pnpm.project,
            &pnpm.env.store_dir,
            &ours.project,
            &ours.env.store_dir,
        );
        opts.ignore
            .extend(["lifecycle.log".into(), "lifecycle-env".into()]);
        assert_trees_equal(&pnpm.project, &ours.project, &opts);
    }
}

/// Platform packages for another system are installed when
/// `supportedArchitectures` names it.
#[test]
fn supported_architectures_match_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let runs = both_with(
        &registry,
        tmp.path(),
        "optional-platform",
        "supportedArchitectures:\n  os: [current, darwin]\n  cpu: [current, arm64]\n",
    );
    assert_same_installs(&runs);
    let darwin = runs[1]
        .0
        .join("node_modules/@pq/native-darwin-arm64/package.json");
    assert!(darwin.exists(), "the darwin package is installed");
}

/// Settings a lockfile records: set differently from what it recorded, both
/// tools refuse it with the same error code and write nothing.
#[test]
fn lockfile_settings_are_checked_like_pnpm() {
    let registry = Registry::start_fixtures();
    for (line, refused) in [
        ("autoInstallPeers: false", true),
        ("excludeLinksFromLockfile: true", true),
        ("dedupePeers: true", true),
        ("peersSuffixMaxLength: 10", true),
        ("injectWorkspacePackages: true", true),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let runs = both_with(&registry, tmp.path(), "basic", line);
        let codes: Vec<(Option<i32>, Option<String>)> = runs
            .iter()
            .map(|(project, _, out)| {
                let err = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(out));
                let code = err
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .find(|w| w.starts_with("ERR_PNPM_"))
                    .map(str::to_owned);
                if out.status.code() != Some(0) {
                    assert!(!project.join("node_modules").exists(), "{line}: {err}");
                }
                (out.status.code(), code)
            })
            .collect();
        assert_eq!(codes[1], codes[0], "{line}: pacquet, pnpm 12");
        assert_eq!(
            codes[0].0,
            Some(if refused { 1 } else { 0 }),
            "{line}: pnpm 12"
        );
    }
}

/// `nodeVersion` is the Node.js version engines are checked against: one
/// that satisfies `>=999` lets `engineStrict` install what it refuses
/// otherwise (errors.rs).
#[test]
fn node_version_decides_engine_checks_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let runs = both_with(
        &registry,
        tmp.path(),
        "engines-strict",
        "engineStrict: true\nnodeVersion: 999.1.0",
    );
    assert_same_installs(&runs);
}

/// `reporter: silent`, `loglevel: warn` and `loglevel: error` in
/// `pnpm-workspace.yaml` quiet the output as they quiet pnpm 12's; `color:
/// always` colors script lines off a terminal.
#[test]
fn loglevel_and_reporter_quiet_the_output_like_pnpm() {
    let registry = Registry::start_fixtures();
    for (line, quiet) in [
        ("reporter: silent", true),
        ("loglevel: warn", true),
        ("loglevel: error", true),
        ("loglevel: info", false),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let runs = both_with(&registry, tmp.path(), "basic", line);
        for (side, (_, _, out)) in ["pnpm", "pacquet"].iter().zip(&runs) {
            assert_eq!(out.status.code(), Some(0), "{side} {line}: {}", stderr(out));
            let printed = String::from_utf8_lossy(&out.stdout);
            assert_eq!(printed.trim().is_empty(), quiet, "{side} {line}: {printed}");
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let yaml = format!(
        "{}color: always\n",
        std::fs::read_to_string(pacquet_testing::project_dir(PROJECT).join("pnpm-workspace.yaml"))
            .unwrap()
    );
    let setup = Setup {
        workspace_yaml: Some(&yaml),
        ..Setup::default()
    };
    let (pnpm, ours) = both(&registry, tmp.path(), &setup);
    let colored = |run: &helpers::Run| run.stdout().contains("\u{1b}[36m");
    assert!(colored(&pnpm), "pnpm 12 colors: {}", pnpm.stdout());
    assert!(colored(&ours), "pacquet colors: {}", ours.stdout());
}

/// `packageImportMethod: copy`: both tools copy the package files out of
/// the store instead of hard linking them.
#[cfg(unix)]
#[test]
fn package_import_method_copy_matches_pnpm() {
    use std::os::unix::fs::MetadataExt;
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let runs = both_with(&registry, tmp.path(), "basic", "packageImportMethod: copy");
    assert_same_installs(&runs);
    for (project, _, _) in &runs {
        let slots = project.join("node_modules/.pnpm");
        let mut files = 0;
        for slot in std::fs::read_dir(&slots).unwrap().flatten() {
            let manifest = slot.path().join("node_modules");
            for package in std::fs::read_dir(&manifest).into_iter().flatten().flatten() {
                let file = package.path().join("package.json");
                if let Ok(meta) = std::fs::symlink_metadata(&file)
                    && meta.is_file()
                {
                    assert_eq!(meta.nlink(), 1, "{} is linked", file.display());
                    files += 1;
                }
            }
        }
        assert!(files > 0, "no package files under {}", slots.display());
    }
}

/// `shellEmulator: true` is refused only where a script would run: with
/// `ignoreScripts` both tools install.
#[test]
fn shell_emulator_without_scripts_installs_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let runs = both_with(
        &registry,
        tmp.path(),
        "lifecycle",
        "shellEmulator: true\nignoreScripts: true",
    );
    assert_same_installs(&runs);
}

/// `dedupeDirectDeps: true`: a project gets no link (and no command) for a
/// dependency the root's `node_modules` already resolves the same way, a
/// direct dependency of the root or one hoisted there.
#[test]
fn dedupe_direct_deps_matches_pnpm() {
    let registry = Registry::start_fixtures();
    for settings in [
        "dedupeDirectDeps: true",
        "dedupeDirectDeps: true\nshamefullyHoist: true",
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let runs = both_with(&registry, tmp.path(), "workspace-peers", settings);
        assert_same_installs(&runs);
        let ours = &runs[1].0;
        // Different peers, different directories: never deduplicated.
        assert!(
            ours.join("packages/a/node_modules/pq-peer-wrapper")
                .exists()
        );
        let hoisted = settings.contains("shamefullyHoist");
        assert_eq!(
            !ours.join("packages/b/node_modules/pq-wp-a").exists(),
            hoisted,
            "{settings}"
        );
    }
}
