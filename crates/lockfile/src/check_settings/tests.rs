use std::{collections::BTreeMap, path::Path};

use pretty_assertions::assert_eq;

use crate::{ExpectedSettings, Lockfile, LockfileError, check_settings};

fn fixture_lockfile(name: &str) -> Lockfile {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .join("pnpm-lock.yaml");
    let text = std::fs::read_to_string(&path).expect("fixture");
    Lockfile::parse(&text, &path).expect("parses")
}

fn mismatch(lf: &Lockfile, expected: &ExpectedSettings) -> Option<String> {
    match check_settings(lf, expected) {
        Ok(()) => None,
        Err(LockfileError::ConfigMismatch { field }) => Some(field),
        Err(other) => panic!("unexpected {other:?}"),
    }
}

fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn defaults_match_a_default_lockfile() {
    assert_eq!(
        mismatch(&fixture_lockfile("aliases"), &ExpectedSettings::default()),
        None
    );
}

#[test]
fn message_and_code_are_pnpms() {
    let expected = ExpectedSettings {
        auto_install_peers: false,
        ..Default::default()
    };
    let err = check_settings(&fixture_lockfile("aliases"), &expected).expect_err("mismatch");
    assert_eq!(
        err.to_string(),
        "Cannot proceed with the frozen installation. The current \"settings.autoInstallPeers\" configuration doesn't match the value found in the lockfile"
    );
    let code = miette::Diagnostic::code(&err).map(|c| c.to_string());
    assert_eq!(code.as_deref(), Some("ERR_PNPM_LOCKFILE_CONFIG_MISMATCH"));
    let help = miette::Diagnostic::help(&err).map(|h| h.to_string());
    assert_eq!(
        help.as_deref(),
        Some("Update your lockfile using \"pnpm install --no-frozen-lockfile\"")
    );
}

#[test]
fn each_setting_is_compared() {
    let lf = fixture_lockfile("aliases");
    let d = ExpectedSettings::default;
    let cases: Vec<(ExpectedSettings, &str)> = vec![
        (
            ExpectedSettings {
                exclude_links_from_lockfile: true,
                ..d()
            },
            "settings.excludeLinksFromLockfile",
        ),
        (
            ExpectedSettings {
                dedupe_peers: true,
                ..d()
            },
            "settings.dedupePeers",
        ),
        (
            ExpectedSettings {
                peers_suffix_max_length: 300,
                ..d()
            },
            "settings.peersSuffixMaxLength",
        ),
        (
            ExpectedSettings {
                inject_workspace_packages: true,
                ..d()
            },
            "settings.injectWorkspacePackages",
        ),
        (
            ExpectedSettings {
                ignored_optional_dependencies: vec!["a".into()],
                ..d()
            },
            "ignoredOptionalDependencies",
        ),
        (
            ExpectedSettings {
                overrides: map(&[("a", "1")]),
                ..d()
            },
            "overrides",
        ),
        (
            ExpectedSettings {
                pnpmfile_checksum: Some("sha256-x".into()),
                ..d()
            },
            "pnpmfileChecksum",
        ),
        (
            ExpectedSettings {
                package_extensions_checksum: Some("sha256-x".into()),
                ..d()
            },
            "packageExtensionsChecksum",
        ),
        (
            ExpectedSettings {
                patched_dependencies: map(&[("a", "h")]),
                ..d()
            },
            "patchedDependencies",
        ),
    ];
    for (expected, field) in cases {
        assert_eq!(mismatch(&lf, &expected).as_deref(), Some(field));
    }
}

#[test]
fn first_field_in_pnpm_order_wins() {
    let lf = fixture_lockfile("aliases");
    let expected = ExpectedSettings {
        overrides: map(&[("a", "1")]),
        auto_install_peers: false,
        pnpmfile_checksum: Some("x".into()),
        ..Default::default()
    };
    assert_eq!(mismatch(&lf, &expected).as_deref(), Some("overrides"));
}

#[test]
fn recorded_non_default_settings_must_be_configured() {
    let lf = fixture_lockfile("misc");
    assert_eq!(
        mismatch(&lf, &ExpectedSettings::default()).as_deref(),
        Some("ignoredOptionalDependencies")
    );
    let expected = ExpectedSettings {
        dedupe_peers: true,
        peers_suffix_max_length: 300,
        ignored_optional_dependencies: vec!["fsevents".into()],
        ..Default::default()
    };
    assert_eq!(mismatch(&lf, &expected), None);
}

#[test]
fn overrides_compare_as_maps() {
    let lf = fixture_lockfile("overrides");
    assert_eq!(
        mismatch(&lf, &ExpectedSettings::default()).as_deref(),
        Some("overrides")
    );
    let expected = ExpectedSettings {
        overrides: map(&[("is-odd>is-number", "6.0.0"), ("has-flag", "4.0.0")]),
        ..Default::default()
    };
    assert_eq!(mismatch(&lf, &expected), None);
    let changed = ExpectedSettings {
        overrides: map(&[("is-odd>is-number", "6.0.0"), ("has-flag", "4.0.1")]),
        ..Default::default()
    };
    assert_eq!(mismatch(&lf, &changed).as_deref(), Some("overrides"));
}

#[test]
fn catalog_entries_must_match_config() {
    let lf = fixture_lockfile("catalogs");
    let mut catalogs = BTreeMap::new();
    catalogs.insert(
        "default".to_owned(),
        map(&[("is-number", "^7.0.0"), ("unused", "1")]),
    );
    catalogs.insert("react18".to_owned(), map(&[("react", "^18.3.1")]));
    let expected = ExpectedSettings {
        catalogs: catalogs.clone(),
        ..Default::default()
    };
    assert_eq!(mismatch(&lf, &expected), None);
    catalogs.insert("default".to_owned(), map(&[("is-number", "^7.0.1")]));
    let expected = ExpectedSettings {
        catalogs,
        ..Default::default()
    };
    assert_eq!(mismatch(&lf, &expected).as_deref(), Some("catalogs"));
}

#[test]
fn patch_hashes_in_both_formats() {
    let lf = fixture_lockfile("patched");
    let hash = "d74c9ce6d32183c0ff535f905b4485159ef98442b8a6c8f98a25dbf1037fd1bc";
    let expected = ExpectedSettings {
        patched_dependencies: map(&[("is-number@7.0.0", hash)]),
        ..Default::default()
    };
    assert_eq!(mismatch(&lf, &expected), None);
    assert_eq!(
        mismatch(&lf, &ExpectedSettings::default()).as_deref(),
        Some("patchedDependencies")
    );
    let v10 = format!(
        "lockfileVersion: '9.0'\n\npatchedDependencies:\n  is-number@7.0.0:\n    hash: {hash}\n    path: patches/is-number@7.0.0.patch\n\nimporters: {{}}\n"
    );
    let lf = Lockfile::parse(&v10, Path::new("/p/pnpm-lock.yaml")).expect("parses");
    assert_eq!(mismatch(&lf, &expected), None);
    // Written back as the hash alone, as pnpm 12 does.
    assert!(
        lf.to_yaml().contains(&format!(
            "patchedDependencies:\n  is-number@7.0.0: {hash}\n"
        )),
        "{}",
        lf.to_yaml()
    );
}

#[test]
fn recorded_settings_fixture_matches_its_config() {
    let lf = fixture_lockfile("settings");
    let expected = ExpectedSettings {
        overrides: map(&[("zeta", "1.0.0"), ("alpha", "2.0.0")]),
        auto_install_peers: false,
        exclude_links_from_lockfile: true,
        dedupe_peers: true,
        peers_suffix_max_length: 300,
        inject_workspace_packages: true,
        ignored_optional_dependencies: vec!["aa".into(), "zz".into()],
        ..Default::default()
    };
    assert_eq!(mismatch(&lf, &expected), None);
}

#[test]
fn a_lockfile_pinning_tars_needs_the_setting() {
    let mut lf = fixture_lockfile("aliases");
    let mut settings = lf.settings.clone().unwrap_or_default();
    settings.integrity_target = Some("tar".to_owned());
    lf.settings = Some(settings);
    assert_eq!(
        mismatch(&lf, &ExpectedSettings::default()).as_deref(),
        Some("settings.integrityTarget")
    );
    let tar = ExpectedSettings {
        integrity_target: "tar".to_owned(),
        ..Default::default()
    };
    assert_eq!(mismatch(&lf, &tar), None);
    assert_eq!(
        mismatch(&fixture_lockfile("aliases"), &tar).as_deref(),
        Some("settings.integrityTarget")
    );
}
