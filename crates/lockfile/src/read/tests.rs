use std::path::Path;

use pretty_assertions::assert_eq;

use super::*;

const PATH: &str = "/proj/pnpm-lock.yaml";

fn err(text: &str) -> String {
    Lockfile::parse(text, Path::new(PATH))
        .expect_err("must fail")
        .to_string()
}

fn broken(detail: &str) -> String {
    format!("The lockfile at \"{PATH}\" is broken: {detail}")
}

#[test]
fn old_versions_are_incompatible() {
    assert_eq!(
        err("lockfileVersion: '6.0'\n\nimporters:\n"),
        broken(
            "The lockfileVersion of 6.0 is incompatible with this version of pnpm, which supports lockfileVersion 9.x (1:18)"
        )
    );
    assert!(err("lockfileVersion: '10.0'\n").contains("lockfileVersion of 10.0 is incompatible"));
}

#[test]
fn malformed_versions_match_pnpm() {
    assert_eq!(
        err("lockfileVersion: '9'\n"),
        broken("Dot is missing (1:18)")
    );
    assert_eq!(err("lockfileVersion: 6\n"), broken("Dot is missing (1:18)"));
    assert_eq!(
        err("lockfileVersion: true\n"),
        broken("Dot is missing (1:18)")
    );
    assert_eq!(
        err("lockfileVersion: '9.x'\n"),
        broken("Minor is not a valid number: invalid digit found in string (1:18)")
    );
    assert_eq!(
        err("lockfileVersion: 'abc.0'\n"),
        broken("Major is not a valid number: invalid digit found in string (1:18)")
    );
    assert_eq!(
        err("lockfileVersion: '9.0.0'\n"),
        broken("Minor is not a valid number: invalid digit found in string (1:18)")
    );
}

#[test]
fn accepted_versions() {
    for v in ["'9.0'", "'9.1'", "9.0", "\"9.0\""] {
        let lf = Lockfile::parse(&format!("lockfileVersion: {v}\n"), Path::new(PATH))
            .unwrap_or_else(|e| panic!("{v}: {e}"));
        assert!(lf.lockfile_version.starts_with("9."), "{v}");
    }
}

#[test]
fn syntax_errors_match_pnpm() {
    assert_eq!(
        err("lockfileVersion: '9.0'\nfoo: {a: b\n"),
        broken("unclosed bracket '{' (2:6)")
    );
    assert_eq!(
        err("lockfileVersion: '9.0'x\n"),
        broken("invalid trailing content after single-quoted scalar (1:23)")
    );
    assert_eq!(
        err("importers: {}\n"),
        broken("missing field `lockfileVersion` (1:1)")
    );
    assert_eq!(err("# hi\n"), broken("unexpected end of input (2:1)"));
    assert_eq!(
        err("lockfileVersion: '9.0'\nimporters: []\n"),
        broken("expected mapping start (2:12)")
    );
}

#[test]
fn broken_error_has_pnpm_code() {
    let e = Lockfile::parse("lockfileVersion: '9'\n", Path::new(PATH)).expect_err("must fail");
    let code = miette::Diagnostic::code(&e).map(|c| c.to_string());
    assert_eq!(code.as_deref(), Some("ERR_PNPM_BROKEN_LOCKFILE"));
}

#[test]
fn relative_paths_are_reported_absolute() {
    let e =
        Lockfile::parse("lockfileVersion: '9'\n", Path::new("pnpm-lock.yaml")).expect_err("fails");
    let cwd = std::env::current_dir().expect("cwd");
    assert!(
        e.to_string()
            .contains(&cwd.join("pnpm-lock.yaml").display().to_string()),
        "{e}"
    );
}

#[test]
fn v13_format_is_rejected() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v13/pnpm-lock.yaml");
    let text = std::fs::read_to_string(&path).expect("fixture");
    let e = Lockfile::parse(&text, &path).expect_err("v13 must not be misread");
    assert!(matches!(e, LockfileError::Broken { .. }), "{e:?}");
    assert!(
        e.to_string()
            .contains("lockfileVersion of 13.0 is incompatible"),
        "{e}"
    );
}

#[test]
fn two_documents_keep_the_env_document() {
    let text = "---\nlockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    configDependencies:\n      foo:\n        specifier: 1.0.0\n        version: 1.0.0\n\n---\nlockfileVersion: '9.0'\n\nimporters:\n\n  .: {}\n";
    let lf = Lockfile::parse(text, Path::new(PATH)).expect("parses");
    let env = lf.env.as_ref().expect("env document");
    let config = env.importers["."]
        .config_dependencies
        .as_ref()
        .expect("config deps");
    assert_eq!(config["foo"].version, "1.0.0");
    assert!(lf.importers["."].dependencies.is_none());
    assert_eq!(lf.to_yaml(), text);
    let crlf = text.replace('\n', "\r\n");
    assert_eq!(
        Lockfile::parse(&crlf, Path::new(PATH)).expect("CRLF parses"),
        lf
    );
}

#[test]
fn read_lockfile_treats_absent_and_blank_files_as_none() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("pnpm-lock.yaml");
    assert!(read_lockfile(&path).expect("absent is fine").is_none());
    std::fs::write(&path, "  \n\n").expect("write");
    assert!(read_lockfile(&path).expect("blank is fine").is_none());
    std::fs::write(&path, "lockfileVersion: '9.0'\n").expect("write");
    let lf = read_lockfile(&path).expect("reads").expect("present");
    assert_eq!(lf.lockfile_version, "9.0");
    std::fs::write(&path, "lockfileVersion: '6.0'\n").expect("write");
    assert!(matches!(
        read_lockfile(&path),
        Err(LockfileError::Broken {
            line: 1,
            column: 18,
            ..
        })
    ));
}

#[test]
fn no_lockfile_text_is_pnpm_12s() {
    assert_eq!(
        LockfileError::NoLockfile.to_string(),
        "Headless installation requires a pnpm-lock.yaml file, but none was found. Run `pnpm install` without --frozen-lockfile to create one."
    );
}

#[test]
fn entries_without_a_resolution_read_leniently_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pnpm-lock.yaml");
    let text = "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      a:\n        specifier: ^1.0.0\n        version: 1.0.0\n\npackages:\n\n  a@1.0.0: {}\n\n  b@2.0.0:\n    resolution: {integrity: sha512-AA==}\n\nsnapshots:\n\n  a@1.0.0: {}\n\n  b@2.0.0: {}\n";
    std::fs::write(&path, text).unwrap();
    let strict = read_lockfile(&path).expect_err("a strict read refuses it");
    assert!(
        strict.to_string().contains("missing field `resolution`"),
        "{strict}"
    );
    let lenient = read_lockfile_lenient(&path).unwrap().unwrap();
    let entry = |key: &str| {
        lenient
            .packages
            .iter()
            .find(|(k, _)| k.as_str() == key)
            .map(|(_, v)| v.resolution.clone())
            .unwrap()
    };
    assert_eq!(
        entry("a@1.0.0"),
        crate::Resolution::Other(Default::default())
    );
    assert_eq!(
        entry("b@2.0.0"),
        crate::Resolution::Registry {
            integrity: "sha512-AA==".into()
        }
    );
    // Other breakage is still refused.
    std::fs::write(&path, "lockfileVersion: '9.0'\npackages: [\n").unwrap();
    assert!(read_lockfile_lenient(&path).is_err());
}
