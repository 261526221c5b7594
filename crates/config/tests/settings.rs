//! Precedence and typing of ordinary settings (docs/settings.md §1.1, §2).

mod common;

use common::Fixture;
use pacquet_config::{ConfigError, NodeLinker, PackageImportMethod, default_network_concurrency};
use pretty_assertions::assert_eq;

#[test]
fn defaults() {
    let f = Fixture::new();
    let c = f.load();
    assert_eq!(c.workspace_root, f.project);
    assert!(!c.is_workspace);
    assert_eq!(c.package_import_method, PackageImportMethod::Auto);
    assert_eq!(c.node_linker, NodeLinker::Isolated);
    assert_eq!(c.hoist_pattern, vec!["*"]);
    assert!(c.public_hoist_pattern.is_empty());
    assert_eq!(c.modules_dir, "node_modules");
    assert_eq!(c.virtual_store_dir, f.project.join("node_modules/.pnpm"));
    assert_eq!(c.virtual_store_dir_max_length, 120);
    assert!(c.enable_modules_dir && c.extend_node_path && c.hoist_workspace_packages);
    assert_eq!(c.fetch_retries, 2);
    assert_eq!(c.fetch_retry_factor, 10.0);
    assert_eq!(
        (
            c.fetch_retry_mintimeout,
            c.fetch_retry_maxtimeout,
            c.fetch_timeout
        ),
        (10_000, 60_000, 60_000)
    );
    assert!(!c.offline && !c.prefer_offline);
    assert!(c.verify_store_integrity && c.strict_store_pkg_content_check && c.side_effects_cache);
    assert!(!c.side_effects_cache_readonly && !c.ignore_scripts && !c.dangerously_allow_all_builds);
    assert!(c.strict_dep_builds);
    assert_eq!(c.child_concurrency, 5);
    assert!(c.production && c.dev && c.optional);
    assert!(c.auto_install_peers && !c.exclude_links_from_lockfile && !c.dedupe_peers);
    assert_eq!(c.peers_suffix_max_length, 1000);
    assert!(!c.inject_workspace_packages && !c.engine_strict && !c.trust_lockfile);
    assert!(c.overrides.is_empty() && c.catalogs.is_empty() && c.package_extensions.is_none());
    assert_eq!(c.frozen_lockfile, None);
    assert!(!c.ci);
    assert!(!c.frozen_lockfile_for(true));
    assert_eq!(c.cache_dir, f.home.join(".cache/pnpm"));
    assert_eq!(c.state_dir, f.home.join(".local/state/pnpm"));
    assert_eq!(c.config_dir, f.home.join(".config/pnpm"));
    assert!(!c.enable_global_virtual_store);
    assert_eq!(c.global_virtual_store_dir, c.store_dir.join("links"));
}

#[test]
fn network_concurrency_formula() {
    assert_eq!(default_network_concurrency(1), 64);
    assert_eq!(default_network_concurrency(2), 64);
    assert_eq!(default_network_concurrency(24), 69);
    assert_eq!(default_network_concurrency(64), 96);
}

#[test]
fn precedence_cli_env_workspace_global() {
    let mut f = Fixture::new();
    f.write(
        "home/.config/pnpm/config.yaml",
        "networkConcurrency: 3\nchildConcurrency: 2\nfetchRetries: 9\noffline: true\n",
    );
    f.write(
        "project/pnpm-workspace.yaml",
        "networkConcurrency: 4\nchildConcurrency: 3\n",
    );
    f.env("pnpm_config_network_concurrency", "5");
    f.cli
        .config
        .push(("network-concurrency".to_owned(), "7".to_owned()));
    let c = f.load();
    assert_eq!(c.network_concurrency, 7);
    assert_eq!(c.child_concurrency, 3);
    assert_eq!(c.fetch_retries, 9);
    assert!(c.offline);
    f.cli.config.clear();
    assert_eq!(f.load().network_concurrency, 5);
    f.cli.offline = Some(false);
    assert!(!f.load().offline);
}

#[test]
fn env_values_are_typed_like_pnpm() {
    let mut f = Fixture::new();
    f.env("pnpm_config_offline", "1");
    f.env("pnpm_config_hoist_pattern", "a,b");
    f.env("pnpm_config_public_hoist_pattern", "[\"a\",\"b\"]");
    f.env("PNPM_CONFIG_PREFER_OFFLINE", "true");
    f.env("pnpm_config_fetch_timeout", "abc");
    f.env("npm_config_ignore_scripts", "true");
    let c = f.load();
    assert!(!c.offline);
    assert_eq!(c.hoist_pattern, vec!["*"]);
    assert_eq!(c.public_hoist_pattern, vec!["a", "b"]);
    assert!(c.prefer_offline);
    assert_eq!(c.fetch_timeout, 60_000);
    assert!(!c.ignore_scripts);
}

#[test]
fn cli_config_flags_are_typed_like_pnpm() {
    let mut f = Fixture::new();
    f.cli.config = vec![
        ("offline".to_owned(), "1".to_owned()),
        ("hoist-pattern".to_owned(), "a,b".to_owned()),
        ("hoist-pattern".to_owned(), "c".to_owned()),
        ("fetch-timeout".to_owned(), "x".to_owned()),
        ("foo-bar".to_owned(), "1".to_owned()),
    ];
    let c = f.load();
    assert!(c.offline);
    assert_eq!(c.hoist_pattern, vec!["a,b", "c"]);
    assert_eq!(c.fetch_timeout, 60_000);
    f.cli.config = vec![("offline".to_owned(), "yes".to_owned())];
    assert!(matches!(
        f.try_load(),
        Err(ConfigError::InvalidCliBool { .. })
    ));
}

#[test]
fn hoisting_flags() {
    let f = Fixture::new();
    f.write(
        "project/pnpm-workspace.yaml",
        "hoist: false\nhoistPattern: ['x']\nshamefullyHoist: true\npublicHoistPattern: ['*types*']\n",
    );
    let c = f.load();
    assert!(c.hoist_pattern.is_empty());
    assert_eq!(c.public_hoist_pattern, vec!["*"]);
    let f = Fixture::new();
    f.write(
        "project/pnpm-workspace.yaml",
        "hoistPattern: ['x']\npublicHoistPattern: ['*types*']\n",
    );
    let c = f.load();
    assert_eq!(c.hoist_pattern, vec!["x"]);
    assert_eq!(c.public_hoist_pattern, vec!["*types*"]);
}

#[test]
fn workspace_yaml_settings() {
    let f = Fixture::new();
    f.write(
        "project/pnpm-workspace.yaml",
        r#"packages:
  - 'pkgs/*'
nodeLinker: hoisted
packageImportMethod: clone-or-copy
modulesDir: nm
virtualStoreDirMaxLength: 60
allowBuilds:
  esbuild: true
  'core-js@3.0.0 || 3.1.0': false
dangerouslyAllowAllBuilds: true
overrides:
  foo: 1.0.0
  'bar@1>baz': ^2
catalog:
  react: ^18
catalogs:
  legacy:
    react: ^16
patchedDependencies:
  is-number@7.0.0: patches/is-number.patch
packageExtensions:
  foo:
    dependencies:
      bar: '*'
supportedArchitectures:
  os: [current, win32]
  libc: [musl]
ignoredOptionalDependencies: [fsevents]
sideEffectsCache:
  read: true
  write: false
autoInstallPeers: false
dedupePeers: true
peersSuffixMaxLength: 10
injectWorkspacePackages: true
excludeLinksFromLockfile: true
engineStrict: true
fooBar: 1
"#,
    );
    let c = f.load();
    assert!(c.is_workspace);
    assert_eq!(c.packages, vec!["pkgs/*"]);
    assert_eq!(c.node_linker, NodeLinker::Hoisted);
    assert_eq!(c.package_import_method, PackageImportMethod::CloneOrCopy);
    assert_eq!(c.virtual_store_dir, f.project.join("nm/.pnpm"));
    assert_eq!(c.virtual_store_dir_max_length, 60);
    assert_eq!(
        c.allow_builds
            .iter()
            .map(|(k, v)| (k.as_str(), *v))
            .collect::<Vec<_>>(),
        vec![("esbuild", true), ("core-js@3.0.0 || 3.1.0", false)]
    );
    assert!(c.dangerously_allow_all_builds);
    assert_eq!(
        c.overrides
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect::<Vec<_>>(),
        vec![("foo", "1.0.0"), ("bar@1>baz", "^2")]
    );
    assert_eq!(
        c.catalogs.keys().collect::<Vec<_>>(),
        vec!["default", "legacy"]
    );
    assert_eq!(c.catalogs["default"]["react"], "^18");
    assert_eq!(c.catalogs["legacy"]["react"], "^16");
    assert_eq!(
        c.patched_dependencies["is-number@7.0.0"],
        "patches/is-number.patch"
    );
    assert!(c.package_extensions.is_some());
    assert_eq!(c.supported_architectures.os, vec!["current", "win32"]);
    assert_eq!(c.supported_architectures.cpu, vec!["current"]);
    assert_eq!(c.supported_architectures.libc, vec!["musl"]);
    let resolved = c.supported_architectures.resolved();
    assert_eq!(resolved.os, vec![pacquet_config::host_os(), "win32"]);
    assert_eq!(resolved.cpu, vec![pacquet_config::host_cpu()]);
    assert_eq!(c.ignored_optional_dependencies, vec!["fsevents"]);
    assert!(c.side_effects_cache && c.side_effects_cache_readonly);
    assert!(!c.auto_install_peers && c.dedupe_peers && c.inject_workspace_packages);
    assert!(c.exclude_links_from_lockfile && c.engine_strict);
    assert_eq!(c.peers_suffix_max_length, 10);
}

#[test]
fn workspace_root_is_the_nearest_ancestor_with_the_manifest() {
    let f = Fixture::new();
    f.write(
        "project/pnpm-workspace.yaml",
        "packages: ['pkgs/*']\nofflinee: true\n",
    );
    f.write("project/pkgs/a/package.json", "{}");
    let c = f.try_load_in(&f.project.join("pkgs/a")).expect("load");
    assert_eq!(c.workspace_root, f.project);
    assert_eq!(c.cwd, f.project.join("pkgs/a"));
    assert_eq!(c.virtual_store_dir, f.project.join("node_modules/.pnpm"));
}

#[test]
fn bad_yaml_reports_file_and_position() {
    let f = Fixture::new();
    f.write(
        "project/pnpm-workspace.yaml",
        "packages: [\n  bad\nstoreDir: x\n",
    );
    let err = f.try_load().expect_err("bad yaml");
    match &err {
        ConfigError::InvalidWorkspaceYaml { path, line, .. } => {
            assert_eq!(path, &f.project.join("pnpm-workspace.yaml"));
            assert_eq!(*line, 3);
        }
        other => panic!("unexpected {other:?}"),
    }
    let text = err.to_string();
    assert!(text.contains("pnpm-workspace.yaml:3:"), "{text}");
}

#[test]
fn ci_and_frozen_lockfile() {
    let mut f = Fixture::new();
    f.env("CI", "true");
    let c = f.load();
    assert!(c.ci);
    assert!(c.frozen_lockfile_for(true));
    assert!(!c.frozen_lockfile_for(false));
    f.cli.frozen_lockfile = Some(false);
    assert!(!f.load().frozen_lockfile_for(true));
    f.env("CI", "false");
    assert!(!f.load().ci);
}

/// pnpm 12.21 takes `production`/`dev` from `--prod`/`--dev` only; as
/// settings they change nothing (docs/layout.md §13.1).
#[test]
fn prod_and_dev_selection() {
    let mut f = Fixture::new();
    f.cli.config = vec![
        ("production".to_owned(), "true".to_owned()),
        ("dev".to_owned(), "false".to_owned()),
    ];
    let c = f.load();
    assert!(c.production && c.dev);
    f.cli.config = Vec::new();
    f.cli.prod = true;
    let c = f.load();
    assert!(c.production && !c.dev);
    f.cli.prod = false;
    f.cli.dev = true;
    let c = f.load();
    assert!(!c.production && c.dev);
    f.cli.dev = false;
    f.cli.config = vec![("optional".to_owned(), "false".to_owned())];
    assert!(!f.load().optional);
}

#[test]
fn host_platform_uses_node_names() {
    let (os, cpu, libc) = pacquet_config::host_platform();
    if cfg!(target_os = "linux") {
        assert_eq!(os, "linux");
        assert!(matches!(libc, Some("glibc") | Some("musl")));
    }
    if cfg!(target_arch = "x86_64") {
        assert_eq!(cpu, "x64");
    }
}
