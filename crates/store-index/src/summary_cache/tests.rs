use std::path::Path;

use serde_json::json;

use super::*;

fn summary(manifest: Option<serde_json::Value>, requires_build: Option<bool>) -> RowSummary {
    RowSummary {
        algo: "sha512".into(),
        requires_build,
        manifest,
        has_package_json: true,
        provides_skills: false,
    }
}

fn sample() -> Vec<(String, RowSummary)> {
    vec![
        (
            "sha512-aaa\ta@1.0.0".into(),
            summary(
                Some(json!({"name": "a", "bin": {"a": "cli.js"}})),
                Some(true),
            ),
        ),
        ("sha512-bbb\tb@2.0.0".into(), summary(None, None)),
        (
            "sha512-ccc\tc@3.0.0".into(),
            RowSummary {
                provides_skills: true,
                has_package_json: false,
                ..summary(Some(json!({"name": "c"})), Some(false))
            },
        ),
    ]
}

fn write(path: &Path, store: &Path, rows: &[(String, RowSummary)]) {
    let cached: Vec<(String, CachedSummary)> = rows
        .iter()
        .map(|(k, s)| (k.clone(), CachedSummary::new(s)))
        .collect();
    write_summaries(path, store, cached.iter().map(|(k, s)| (k.as_str(), s))).unwrap();
}

#[test]
fn summaries_come_back_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cache/summaries");
    let store = Path::new("/store");
    write(&path, store, &sample());
    let read = read_summaries(&path, store);
    assert_eq!(read.len(), 3);
    for (key, expected) in sample() {
        assert_eq!(read[&key].summary().as_ref(), Some(&expected), "{key}");
    }
    // Nothing is left beside the file.
    assert_eq!(
        std::fs::read_dir(path.parent().unwrap()).unwrap().count(),
        1
    );
}

#[test]
fn another_store_is_a_miss() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("summaries");
    write(&path, Path::new("/store"), &sample());
    assert!(read_summaries(&path, Path::new("/other-store")).is_empty());
    assert!(read_summaries(&dir.path().join("missing"), Path::new("/store")).is_empty());
}

#[test]
fn damage_anywhere_is_a_miss() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("summaries");
    let store = Path::new("/store");
    write(&path, store, &sample());
    let whole = std::fs::read(&path).unwrap();
    // Every truncation but the whole file, and every entry boundary.
    for len in 0..whole.len() {
        std::fs::write(&path, &whole[..len]).unwrap();
        let read = read_summaries(&path, store);
        assert!(
            read.is_empty() || read.len() < 3,
            "a file cut at {len} of {} bytes read as whole",
            whole.len()
        );
        // A cut never yields a row that differs from what was written.
        for (key, cached) in &read {
            let expected = sample().into_iter().find(|(k, _)| k == key).unwrap().1;
            assert_eq!(cached.summary(), Some(expected));
        }
    }
    // A length pointing past the end.
    let mut long = whole.clone();
    let at = MAGIC.len();
    long[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    std::fs::write(&path, &long).unwrap();
    assert!(read_summaries(&path, store).is_empty());
    // A foreign file.
    std::fs::write(&path, b"{\"not\": \"ours\"}").unwrap();
    assert!(read_summaries(&path, store).is_empty());
}

#[test]
fn a_manifest_that_is_not_json_gives_no_summary() {
    let cached = CachedSummary {
        flags: HAS_PACKAGE_JSON,
        algo: "sha512".into(),
        manifest: Some(b"{broken".to_vec()),
    };
    assert_eq!(cached.summary(), None);
}

/// A summary read without its manifest still writes it back whole: the
/// next install may need the manifest this one did not.
#[test]
fn a_summary_read_without_its_manifest_is_copied_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (dir.path().join("first"), dir.path().join("second"));
    let store = Path::new("/store");
    write(&first, store, &sample());
    let read = read_summaries(&first, store);
    let key = "sha512-aaa\ta@1.0.0";
    assert_eq!(read[key].summary_with(false).unwrap().manifest, None);
    write_summaries(&second, store, read.iter().map(|(k, s)| (k.as_str(), s))).unwrap();
    let again = read_summaries(&second, store);
    assert_eq!(again[key].summary(), sample()[0].1.clone().into());
}
