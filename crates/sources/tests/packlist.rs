//! The packlist against `npm pack --dry-run`: each case under
//! `tests/packlist/` is a package written from a JSON map of paths to
//! contents; `<case>.expected.json` is the file list npm printed for it
//! (`tasks/regenerate-packlist-expectations.sh`, npm version in
//! `tests/packlist/NPM_VERSION`).

use std::path::{Path, PathBuf};

use pacquet_sources::packlist;
use serde_json::Value;

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packlist")
}

fn materialize(case: &Path, dest: &Path) {
    let text = std::fs::read_to_string(case).unwrap();
    let spec: Value = serde_json::from_str(&text).unwrap();
    for (rel, body) in spec["files"].as_object().expect("a files map") {
        let path = dest.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body.as_str().unwrap()).unwrap();
    }
}

#[test]
fn every_case_packs_what_npm_packs() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".json") && !name.ends_with(".expected.json")
        })
        .collect();
    cases.sort();
    assert!(cases.len() >= 12, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in cases {
        let tmp = tempfile::tempdir().unwrap();
        materialize(&case, tmp.path());
        let manifest: Value =
            serde_json::from_slice(&std::fs::read(tmp.path().join("package.json")).unwrap())
                .unwrap();
        let got = packlist(tmp.path(), Some(&manifest)).unwrap();
        let expected_path = case.with_extension("expected.json");
        let expected: Vec<String> =
            serde_json::from_slice(&std::fs::read(&expected_path).unwrap()).unwrap();
        if got != expected {
            let name = case.file_stem().unwrap().to_string_lossy().into_owned();
            let extra: Vec<&String> = got.iter().filter(|p| !expected.contains(p)).collect();
            let missing: Vec<&String> = expected.iter().filter(|p| !got.contains(p)).collect();
            failures.push(format!("{name}: extra {extra:?}, missing {missing:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A pathological `files` entry is compiled once into a regex; the walk
/// still finishes.
#[test]
fn hostile_patterns_finish() {
    let tmp = tempfile::tempdir().unwrap();
    let pattern = "*a".repeat(200);
    let manifest = serde_json::json!({"name": "x", "version": "1.0.0", "files": [pattern]});
    std::fs::write(tmp.path().join("package.json"), manifest.to_string()).unwrap();
    std::fs::write(tmp.path().join("a".repeat(150)), "x").unwrap();
    let got = packlist(tmp.path(), Some(&manifest)).unwrap();
    assert!(got.contains(&"package.json".to_owned()));
}
