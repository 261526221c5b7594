use std::path::Path;

use pretty_assertions::assert_eq;

use super::scalar::{Ctx, is_ambiguous, write_str};
use super::*;
use crate::DepPath;

fn styled(s: &str, ctx: Ctx) -> String {
    let mut out = String::new();
    write_str(&mut out, s, ctx, 4);
    out
}

#[test]
fn plain_and_single_quoted_scalars() {
    let cases = [
        ("4.6.0", "4.6.0"),
        ("^1.2.0 || ^2", "^1.2.0 || ^2"),
        ("~1.2.3", "~1.2.3"),
        ("link:../b", "link:../b"),
        ("9.0", "'9.0'"),
        ("1", "'1'"),
        ("*", "'*'"),
        (">=18", "'>=18'"),
        ("@sindresorhus/is@4.6.0", "'@sindresorhus/is@4.6.0'"),
        ("catalog:", "'catalog:'"),
        ("a: b", "'a: b'"),
        ("a #b", "'a #b'"),
        ("a#b", "a#b"),
        ("true", "'true'"),
        ("null", "'null'"),
        ("~", "'~'"),
        ("2024-01-02", "'2024-01-02'"),
        ("2024-01-02T03:04:05.000Z", "'2024-01-02T03:04:05.000Z'"),
        (
            "2025-12-18T15:26:11.772000+00:00",
            "'2025-12-18T15:26:11.772000+00:00'",
        ),
        ("2024-1-2 3:04:05 +1", "'2024-1-2 3:04:05 +1'"),
        ("2024-01-02T03:04:05x", "2024-01-02T03:04:05x"),
        ("2024-01-02T03:04", "2024-01-02T03:04"),
        ("0x1F", "'0x1F'"),
        ("1e5", "'1e5'"),
        (".5", "'.5'"),
        ("yes", "yes"),
        ("it's", "it's"),
        ("-x", "'-x'"),
        ("'q'", "'''q'''"),
        ("", "''"),
        ("🙌  Thanks: ok", "'🙌  Thanks: ok'"),
        ("trailing ", "'trailing '"),
    ];
    for (input, expected) in cases {
        assert_eq!(styled(input, Ctx::Block), expected, "{input:?}");
    }
}

#[test]
fn flow_context_quotes_flow_indicators() {
    assert_eq!(styled("a,b", Ctx::Block), "a,b");
    assert_eq!(styled("a,b", Ctx::Flow), "'a,b'");
    assert_eq!(styled("x{y}", Ctx::Flow), "'x{y}'");
}

#[test]
fn control_characters_are_double_quoted_and_breaks_are_literal() {
    assert_eq!(styled("a\tb\"\\", Ctx::Block), "\"a\\tb\\\"\\\\\"");
    assert_eq!(styled("a\nb", Ctx::Key), "\"a\\nb\"");
    assert_eq!(styled("a\nb", Ctx::Block), "|-\n      a\n      b");
    assert_eq!(styled("a\nb\n", Ctx::Block), "|\n      a\n      b");
}

#[test]
fn ambiguity_follows_js_yaml_core_schema() {
    for s in [
        "0", "-1", "+1_000", "0b101", "0o17", "1.5", "-.inf", ".NaN", "<<", "1_0.5e-3",
    ] {
        assert!(is_ambiguous(s), "{s}");
    }
    for s in ["1.2.3", "1_", "0b", "0x", "abc", "1e", "2024-1-2", "v1"] {
        assert!(!is_ambiguous(s), "{s}");
    }
}

#[test]
fn writes_git_resolutions_with_sorted_keys() {
    let text = "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      x:\n        specifier: github:o/r\n        version: git+https://github.com/o/r.git#1d7e288222b53a0cab90a331f1865220ec29560c\n\npackages:\n\n  x@git+https://github.com/o/r.git#1d7e288222b53a0cab90a331f1865220ec29560c:\n    resolution: {commit: 1d7e288222b53a0cab90a331f1865220ec29560c, path: packages/sub, repo: https://github.com/o/r.git, type: git}\n    version: 1.0.0\n\n  y@https://codeload.github.com/o/y/tar.gz/abc:\n    resolution: {tarball: https://codeload.github.com/o/y/tar.gz/abc}\n    version: 2.0.0\n\n  z@https://ex.com/z.tgz:\n    resolution: {integrity: sha512-AA==, tarball: https://ex.com/z.tgz}\n    version: 2.0.0\n    bundledDependencies:\n      - a\n      - b\n\nsnapshots:\n\n  x@git+https://github.com/o/r.git#1d7e288222b53a0cab90a331f1865220ec29560c: {}\n";
    let lf = Lockfile::parse(text, Path::new("/p/pnpm-lock.yaml")).expect("parses");
    let key = "x@git+https://github.com/o/r.git#1d7e288222b53a0cab90a331f1865220ec29560c";
    assert!(matches!(
        lf.packages[key].resolution,
        Resolution::Git { path: Some(_), .. }
    ));
    assert_eq!(lf.to_yaml(), text);
}

#[test]
fn empty_collections() {
    let mut lf = Lockfile {
        lockfile_version: "9.0".into(),
        ..Default::default()
    };
    assert_eq!(lf.to_yaml(), "lockfileVersion: '9.0'\n\nimporters: {}\n");
    lf.importers.insert(".".into(), Importer::default());
    lf.snapshots
        .insert(DepPath::parse("a@1.0.0"), Snapshot::default());
    assert_eq!(
        lf.to_yaml(),
        "lockfileVersion: '9.0'\n\nimporters:\n\n  .: {}\n\nsnapshots:\n\n  a@1.0.0: {}\n"
    );
}

#[test]
fn digit_only_strings_survive_a_round_trip() {
    let text = "lockfileVersion: '9.0'\n\nimporters: {}\n\npackages:\n\n  x@git+https://h/r.git#1234567890123456789012345678901234567890:\n    resolution: {commit: '1234567890123456789012345678901234567890', repo: https://h/r.git, type: git}\n";
    let lf = Lockfile::parse(text, Path::new("/p/pnpm-lock.yaml")).expect("parses");
    let pkg = lf.packages.values().next().expect("one package");
    assert!(matches!(&pkg.resolution, Resolution::Git { commit, .. } if commit.len() == 40));
    assert_eq!(lf.to_yaml(), text);
}

/// pnpm 12.21 writes `linkDirectory: false` before `publishDirectory`.
#[test]
fn link_directory_survives_a_round_trip() {
    let text = "lockfileVersion: '9.0'\n\nimporters:\n\n  .: {}\n\n  packages/b:\n    linkDirectory: false\n    publishDirectory: dist\n";
    let lf = Lockfile::parse(text, Path::new("/p/pnpm-lock.yaml")).expect("parses");
    assert_eq!(lf.importers["packages/b"].link_directory, Some(false));
    assert_eq!(lf.to_yaml(), text);
}

/// pnpm 12.21 with `lockfile.integrityTarget: tar` (settings keys sorted).
#[test]
fn integrity_target_survives_a_round_trip() {
    let text = "lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n  integrityTarget: tar\n\nimporters:\n\n  .: {}\n";
    let lf = Lockfile::parse(text, Path::new("/p/pnpm-lock.yaml")).expect("parses");
    let settings = lf.settings.as_ref().expect("settings");
    assert_eq!(settings.integrity_target.as_deref(), Some("tar"));
    assert_eq!(lf.to_yaml(), text);
}
