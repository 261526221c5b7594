//! The reuse check (docs/store.md §8), with faked mtimes.

use std::fs::{self, File};
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use pacquet_cas::{Cas, FileCheck, sha512_hex};

fn store() -> (tempfile::TempDir, Cas) {
    let dir = tempfile::tempdir().unwrap();
    let cas = Cas::new(&dir.path().join("v11"));
    (dir, cas)
}

fn set_mtime_ms(path: &Path, ms: f64) {
    let t = UNIX_EPOCH + Duration::from_secs_f64(ms / 1000.0);
    File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

fn mtime_ms(path: &Path) -> f64 {
    let t: SystemTime = fs::metadata(path).unwrap().modified().unwrap();
    t.duration_since(UNIX_EPOCH).unwrap().as_secs_f64() * 1000.0
}

#[test]
fn missing_blob_is_missing() {
    let (_dir, cas) = store();
    let digest = sha512_hex(b"never written");
    assert_eq!(cas.verify(&digest, false, 13, None), FileCheck::Missing);
    // The other exec variant does not count.
    cas.write(b"never written", true).unwrap();
    assert_eq!(cas.verify(&digest, false, 13, None), FileCheck::Missing);
    assert_eq!(cas.verify(&digest, true, 13, None), FileCheck::Ok);
}

#[test]
fn untouched_blob_is_ok_without_rehashing() {
    let (_dir, cas) = store();
    let file = cas.write(b"content", false).unwrap();
    // Corrupt it but pretend it was written before the last check: the
    // mtime rule says "not modified", so no re-hash happens.
    fs::write(&file.path, b"CONTENT").unwrap();
    set_mtime_ms(&file.path, 1_700_000_000_000.0);
    let checked = Some(1_700_000_000_000.0 - 50.0);
    assert_eq!(cas.verify(&file.digest, false, 7, checked), FileCheck::Ok);
    assert!(file.path.exists());
}

#[test]
fn modified_but_intact_blob_is_ok() {
    let (_dir, cas) = store();
    let file = cas.write(b"content", false).unwrap();
    set_mtime_ms(&file.path, 1_700_000_000_000.0);
    let checked = Some(1_700_000_000_000.0 - 101.0);
    assert_eq!(cas.verify(&file.digest, false, 7, checked), FileCheck::Ok);
    // No checked_at at all means "always re-hash".
    assert_eq!(cas.verify(&file.digest, false, 7, None), FileCheck::Ok);
    assert!(file.path.exists());
}

#[test]
fn modified_blob_with_other_bytes_is_damaged_and_deleted() {
    let (_dir, cas) = store();
    let file = cas.write(b"content", false).unwrap();
    fs::write(&file.path, b"CONTENT").unwrap();
    let checked = Some(mtime_ms(&file.path) - 200.0);
    assert_eq!(
        cas.verify(&file.digest, false, 7, checked),
        FileCheck::Damaged
    );
    assert!(!file.path.exists());
    assert_eq!(
        cas.verify(&file.digest, false, 7, checked),
        FileCheck::Missing
    );
}

#[test]
fn modified_blob_with_other_size_is_damaged_and_deleted() {
    let (_dir, cas) = store();
    let file = cas.write(b"content", false).unwrap();
    fs::write(&file.path, b"content plus").unwrap();
    assert_eq!(cas.verify(&file.digest, false, 7, None), FileCheck::Damaged);
    assert!(!file.path.exists());
}

#[test]
fn size_in_row_is_checked_against_the_blob() {
    let (_dir, cas) = store();
    let file = cas.write(b"content", false).unwrap();
    assert_eq!(cas.verify(&file.digest, false, 8, None), FileCheck::Damaged);
}

#[test]
fn fresh_write_then_verify_with_its_checked_at_is_ok() {
    let (_dir, cas) = store();
    let file = cas.write(b"abc", false).unwrap();
    assert_eq!(
        cas.verify(&file.digest, false, file.size, Some(file.checked_at)),
        FileCheck::Ok
    );
}
