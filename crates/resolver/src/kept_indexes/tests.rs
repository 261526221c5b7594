use pacquet_registry_metadata::mirror::{self, KeptFile};
use serde_json::json;

use super::*;

const REGISTRY: &str = "http://127.0.0.1:4873/";

fn file_of(name: &str, latest: &str) -> Vec<u8> {
    let document = json!({
        "name": name,
        "dist-tags": {"latest": latest},
        "versions": {"1.0.0": {"version": "1.0.0"}, "2.0.0-rc.1": {"version": "2.0.0-rc.1"}}
    });
    mirror::encode(&serde_json::to_vec(&document).unwrap(), false, None).unwrap()
}

fn parsed(file: &[u8]) -> Arc<Packument> {
    match mirror::decode_file(FileBytes::Read(file.to_vec())) {
        Some(KeptFile::Indexed(kept)) => Arc::new(Packument::from_kept(kept)),
        other => panic!("not an indexed file: {other:?}"),
    }
}

fn latest(indexes: &KeptIndexes, name: &str, file: &[u8]) -> Option<String> {
    indexes
        .packument(
            REGISTRY,
            Kind::Abbreviated,
            name,
            FileBytes::Read(file.to_vec()),
        )
        .ok()
        .map(|p| p.dist_tags["latest"].clone())
}

fn index_path(cache: &Path) -> PathBuf {
    cache
        .join("pacquet/kept-indexes")
        .join(Kind::Abbreviated.dir())
        .join(pacquet_registry_metadata::path::registry_slug(REGISTRY).unwrap())
}

#[test]
fn entries_written_answer_the_next_resolution() {
    let cache = tempfile::tempdir().unwrap();
    let (a, b) = (file_of("a", "1.0.0"), file_of("b", "2.0.0-rc.1"));
    let first = KeptIndexes::new(Some(cache.path()));
    assert_eq!(latest(&first, "a", &a), None, "nothing kept yet");
    first.add(REGISTRY, Kind::Abbreviated, "a", &parsed(&a));
    first.write();
    assert!(index_path(cache.path()).is_file());

    let second = KeptIndexes::new(Some(cache.path()));
    assert_eq!(latest(&second, "a", &a).as_deref(), Some("1.0.0"));
    assert_eq!(latest(&second, "b", &b), None);
    assert_eq!(latest(&second, "a", &b), None, "another file");
    let full = second.packument(REGISTRY, Kind::Full, "a", FileBytes::Read(a.clone()));
    assert!(full.is_err(), "full documents have their own index");
    second.add(REGISTRY, Kind::Abbreviated, "b", &parsed(&b));
    second.write();

    let third = KeptIndexes::new(Some(cache.path()));
    assert_eq!(latest(&third, "a", &a).as_deref(), Some("1.0.0"), "kept");
    assert_eq!(latest(&third, "b", &b).as_deref(), Some("2.0.0-rc.1"));

    // Two writes by one resolution keep both's entries.
    let (c, d) = (file_of("c", "1.0.0"), file_of("d", "1.0.0"));
    third.add(REGISTRY, Kind::Abbreviated, "c", &parsed(&c));
    third.write();
    third.add(REGISTRY, Kind::Abbreviated, "d", &parsed(&d));
    third.write();
    let again = KeptIndexes::new(Some(cache.path()));
    for (name, file) in [("a", &a), ("b", &b), ("c", &c), ("d", &d)] {
        assert!(latest(&again, name, file).is_some(), "{name}");
    }

    // A document that changed replaces its entry.
    let a2 = file_of("a", "2.0.0-rc.1");
    assert_eq!(latest(&third, "a", &a2), None);
    third.add(REGISTRY, Kind::Abbreviated, "a", &parsed(&a2));
    third.write();
    let fourth = KeptIndexes::new(Some(cache.path()));
    assert_eq!(latest(&fourth, "a", &a2).as_deref(), Some("2.0.0-rc.1"));
    assert_eq!(latest(&fourth, "a", &a), None, "the old entry is gone");
    assert_eq!(
        decode_file(&std::fs::read(index_path(cache.path())).unwrap())
            .unwrap()
            .len(),
        4
    );
}

#[test]
fn a_damaged_index_file_is_ignored_and_replaced() {
    let cache = tempfile::tempdir().unwrap();
    let a = file_of("a", "1.0.0");
    let first = KeptIndexes::new(Some(cache.path()));
    first.add(REGISTRY, Kind::Abbreviated, "a", &parsed(&a));
    first.write();
    let path = index_path(cache.path());
    let good = std::fs::read(&path).unwrap();
    for at in [0, MAGIC.len(), MAGIC.len() + 16, good.len() - 1] {
        let mut damaged = good.clone();
        damaged[at] ^= 1;
        std::fs::write(&path, &damaged).unwrap();
        let reader = KeptIndexes::new(Some(cache.path()));
        assert_eq!(latest(&reader, "a", &a), None, "byte {at} damaged");
    }
    std::fs::write(&path, &good[..good.len() - 3]).unwrap();
    let reader = KeptIndexes::new(Some(cache.path()));
    assert_eq!(latest(&reader, "a", &a), None, "cut short");
    reader.add(REGISTRY, Kind::Abbreviated, "a", &parsed(&a));
    reader.write();
    let again = KeptIndexes::new(Some(cache.path()));
    assert_eq!(latest(&again, "a", &a).as_deref(), Some("1.0.0"));
}

#[test]
fn without_a_cache_directory_nothing_is_kept() {
    let a = file_of("a", "1.0.0");
    let indexes = KeptIndexes::new(None);
    indexes.add(REGISTRY, Kind::Abbreviated, "a", &parsed(&a));
    indexes.write();
    assert_eq!(latest(&indexes, "a", &a), None);
}

#[test]
fn packuments_not_read_from_a_kept_file_get_no_entry() {
    let cache = tempfile::tempdir().unwrap();
    let indexes = KeptIndexes::new(Some(cache.path()));
    let document = json!({"name": "a", "versions": {"1.0.0": {}}});
    let packument = Arc::new(Packument::parse(serde_json::to_vec(&document).unwrap()).unwrap());
    indexes.add(REGISTRY, Kind::Abbreviated, "a", &packument);
    indexes.write();
    assert!(!index_path(cache.path()).exists());
}
