use std::fs;

use super::{FILE_NAME, Fingerprint, lookup, record};
use crate::exclude::ExcludeList;
use crate::policy::{Policy, TrustPolicy};

fn policy(age: u64) -> Policy {
    Policy {
        minimum_release_age: age,
        minimum_release_age_exclude: ExcludeList::default(),
        ignore_missing_time: true,
        trust_policy: TrustPolicy::Off,
        trust_policy_exclude: ExcludeList::default(),
        trust_policy_ignore_after: None,
        now_ms: 0,
    }
}

#[test]
fn recorded_then_found_by_path_and_by_content() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let a = dir.path().join("a.yaml");
    fs::write(&a, "lockfileVersion: '9.0'\n").unwrap();
    let mut f = Fingerprint::of(&a).unwrap();
    assert_eq!(lookup(&cache, &mut f, &policy(1440)), None);
    record(&cache, &mut f, &policy(1440), 1_000);
    let mut f = Fingerprint::of(&a).unwrap();
    assert_eq!(
        lookup(&cache, &mut f, &policy(1440)).as_deref(),
        Some("1970-01-01T00:00:01.000Z")
    );
    assert_eq!(
        lookup(&cache, &mut f, &policy(2880)),
        None,
        "stricter policy"
    );
    // A copy elsewhere is found by its content, and remembered by path.
    let b = dir.path().join("b.yaml");
    fs::copy(&a, &b).unwrap();
    let mut f = Fingerprint::of(&b).unwrap();
    assert!(lookup(&cache, &mut f, &policy(1440)).is_some());
    let lines = fs::read_to_string(cache.join(FILE_NAME)).unwrap();
    assert_eq!(lines.lines().count(), 2);
    // Changed content is not covered.
    fs::write(&a, "lockfileVersion: '9.0'\n# changed\n").unwrap();
    let mut f = Fingerprint::of(&a).unwrap();
    assert_eq!(lookup(&cache, &mut f, &policy(1440)), None);
}

#[test]
fn damaged_lines_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.yaml");
    fs::write(&a, "x").unwrap();
    let mut f = Fingerprint::of(&a).unwrap();
    record(dir.path(), &mut f, &policy(10), 0);
    let file = dir.path().join(FILE_NAME);
    let text = fs::read_to_string(&file).unwrap();
    fs::write(&file, format!("{{not json\n{text}")).unwrap();
    let mut f = Fingerprint::of(&a).unwrap();
    assert!(lookup(dir.path(), &mut f, &policy(10)).is_some());
}
