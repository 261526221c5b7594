use std::path::Path;

use pacquet_lockfile::Lockfile;
use pacquet_planner::{Plan, PlanOptions, Tree, plan};

use super::{decode, encode, path, read, write};
use crate::test_support::{LOCK_YAML, host, url};

fn example() -> Plan {
    let lockfile = Lockfile::parse(LOCK_YAML, Path::new("lock.yaml")).unwrap();
    plan(&lockfile, &PlanOptions::new(host(), &url)).unwrap()
}

#[test]
fn a_record_gives_its_tree_for_its_lockfile_and_options_only() {
    let plan = example();
    let record = encode(LOCK_YAML, "shape", &plan);
    assert_eq!(
        decode(&record, LOCK_YAML, "shape"),
        Some(Tree::from(plan.clone()))
    );
    let edited = LOCK_YAML.replace("1.0.0", "1.0.1");
    assert_eq!(decode(&record, &edited, "shape"), None);
    assert_eq!(decode(&record, LOCK_YAML, "other shape"), None);
    assert_eq!(
        decode(&record[..record.len() - 1], LOCK_YAML, "shape"),
        None
    );
    assert_eq!(decode(b"", LOCK_YAML, "shape"), None);
    // A changed path still decodes as a tree, a wrong one.
    let mut changed = record.clone();
    let at = changed
        .windows(7)
        .rposition(|w| w == b"a@1.0.0")
        .expect("a slot directory in the record");
    changed[at] = b'b';
    let body = &changed[super::MAGIC.len() + 3 * super::DIGEST..];
    assert!(pacquet_planner::tree::decode(body).is_some());
    assert_eq!(decode(&changed, LOCK_YAML, "shape"), None);
}

#[test]
fn records_are_written_read_and_removed() {
    let cache = tempfile::tempdir().unwrap();
    let file = path(cache.path(), Path::new("/project/node_modules/.pnpm"));
    assert!(file.starts_with(cache.path().join("pacquet/trees")));
    let plan = example();
    write(&file, Some(&encode(LOCK_YAML, "shape", &plan)));
    assert_eq!(read(&file, LOCK_YAML, "shape"), Some(Tree::from(plan)));
    write(&file, None);
    assert!(!file.exists());
    assert_eq!(read(&file, LOCK_YAML, "shape"), None);
    // Nothing to remove is not an error either.
    write(&file, None);
}

#[test]
fn an_empty_or_cut_record_file_is_no_record() {
    let cache = tempfile::tempdir().unwrap();
    let file = path(cache.path(), Path::new("/project/node_modules/.pnpm"));
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, b"").unwrap();
    assert_eq!(read(&file, LOCK_YAML, "shape"), None);
    let record = encode(LOCK_YAML, "shape", &example());
    std::fs::write(&file, &record[..record.len() / 2]).unwrap();
    assert_eq!(read(&file, LOCK_YAML, "shape"), None);
    // A directory where the record should be is no record either.
    std::fs::remove_file(&file).unwrap();
    std::fs::create_dir(&file).unwrap();
    assert_eq!(read(&file, LOCK_YAML, "shape"), None);
}

#[test]
fn each_virtual_store_has_its_own_record() {
    let cache = Path::new("/cache");
    assert_ne!(
        path(cache, Path::new("/a/node_modules/.pnpm")),
        path(cache, Path::new("/b/node_modules/.pnpm"))
    );
}
