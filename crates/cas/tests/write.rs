//! The write protocol (docs/store.md §4).

use std::fs;
use std::path::Path;
use std::sync::{Arc, Barrier};

use pacquet_cas::{Cas, now_ms, sha512_hex};

fn store() -> (tempfile::TempDir, Cas) {
    let dir = tempfile::tempdir().unwrap();
    let cas = Cas::new(&dir.path().join("v11"));
    (dir, cas)
}

/// Another handle on the same store, as a later install opens: a handle
/// trusts the blobs it wrote or checked itself and does not look at them
/// again.
fn later(dir: &tempfile::TempDir) -> Cas {
    Cas::new(&dir.path().join("v11"))
}

/// A handle writes a repeated blob once: damage done to it afterwards by
/// another process is left for the next handle (pnpm 11's
/// `writeBufferToCafs` keeps the same per-process record, its `locker`).
#[test]
fn a_handle_writes_a_repeated_blob_once() {
    let (_dir, cas) = store();
    let file = cas.write(b"0123456789", false).unwrap();
    fs::write(&file.path, b"01234").unwrap();
    let again = cas.write(b"0123456789", false).unwrap();
    assert_eq!(again.path, file.path);
    assert_eq!(fs::read(&file.path).unwrap(), b"01234");
}

/// The process umask, read without changing it (other tests create files
/// concurrently).
#[cfg(target_os = "linux")]
fn umask() -> u32 {
    let status = fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("Umask:")).unwrap();
    u32::from_str_radix(line["Umask:".len()..].trim(), 8).unwrap()
}

/// `path` was created with `mode` (less the umask).
#[cfg(target_os = "linux")]
fn assert_created_with_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    let actual = fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(actual, mode & !umask());
}

/// Elsewhere the umask is not readable without changing it (macOS), or
/// there are no modes (Windows).
#[cfg(not(target_os = "linux"))]
fn assert_created_with_mode(_path: &Path, _mode: u32) {}

#[test]
fn writes_content_under_its_digest_and_reports_it() {
    let (_dir, cas) = store();
    let before = now_ms();
    let file = cas.write(b"hello\n", false).unwrap();
    assert_eq!(file.digest, sha512_hex(b"hello\n"));
    assert_eq!(file.path, cas.file_path(&file.digest, false));
    assert_eq!(file.size, 6);
    assert!(file.checked_at >= before && file.checked_at <= now_ms());
    assert_eq!(fs::read(&file.path).unwrap(), b"hello\n");
    assert_created_with_mode(&file.path, 0o666);
}

#[test]
fn creates_all_256_shards_on_first_write() {
    let (_dir, cas) = store();
    assert!(!cas.files_dir().exists());
    cas.write(b"x", false).unwrap();
    let shards = fs::read_dir(cas.files_dir()).unwrap().count();
    assert_eq!(shards, 256);
    assert!(cas.files_dir().join("00").is_dir());
    assert!(cas.files_dir().join("ff").is_dir());
}

#[test]
fn executable_variant_is_a_separate_0755_file() {
    let (_dir, cas) = store();
    let plain = cas.write(b"#!/bin/sh\n", false).unwrap();
    let exec = cas.write(b"#!/bin/sh\n", true).unwrap();
    assert_eq!(plain.digest, exec.digest);
    assert_ne!(plain.path, exec.path);
    assert!(exec.path.to_str().unwrap().ends_with("-exec"));
    assert_created_with_mode(&exec.path, 0o755);
}

#[test]
fn writing_the_same_content_twice_keeps_one_file() {
    let (_dir, cas) = store();
    let a = cas.write(b"same", false).unwrap();
    let b = cas.write(b"same", false).unwrap();
    assert_eq!(a.path, b.path);
    assert_eq!(fs::read(&a.path).unwrap(), b"same");
    let shard = a.path.parent().unwrap();
    assert_eq!(fs::read_dir(shard).unwrap().count(), 1, "no temp leftovers");
}

#[test]
fn heals_a_corrupted_blob_of_the_same_size() {
    let (dir, cas) = store();
    let file = cas.write(b"good content", false).unwrap();
    fs::write(&file.path, b"evil content").unwrap();
    let again = later(&dir).write(b"good content", false).unwrap();
    assert_eq!(fs::read(&again.path).unwrap(), b"good content");
    let shard = again.path.parent().unwrap();
    assert_eq!(fs::read_dir(shard).unwrap().count(), 1, "temp renamed away");
}

#[test]
fn heals_a_truncated_blob() {
    let (dir, cas) = store();
    let file = cas.write(b"0123456789", false).unwrap();
    fs::write(&file.path, b"01234").unwrap();
    later(&dir).write(b"0123456789", false).unwrap();
    assert_eq!(fs::read(&file.path).unwrap(), b"0123456789");
}

#[cfg(unix)]
#[test]
fn heals_a_symlink_in_its_place() {
    let (dir, cas) = store();
    let file = cas.write(b"0123456789", false).unwrap();
    fs::remove_file(&file.path).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", &file.path).unwrap();
    later(&dir).write(b"0123456789", false).unwrap();
    assert!(fs::symlink_metadata(&file.path).unwrap().is_file());
    assert_eq!(fs::read(&file.path).unwrap(), b"0123456789");
}

#[test]
fn concurrent_writers_of_one_blob_leave_one_correct_file() {
    let dir = tempfile::tempdir().unwrap();
    let store_dir = dir.path().join("v11");
    let content: Arc<Vec<u8>> = Arc::new((0..300_000u32).map(|i| (i % 251) as u8).collect());
    let threads = 16;
    let barrier = Arc::new(Barrier::new(threads));
    let handles: Vec<_> = (0..threads)
        .map(|i| {
            let (content, barrier, store_dir) = (
                Arc::clone(&content),
                Arc::clone(&barrier),
                store_dir.clone(),
            );
            std::thread::spawn(move || {
                // Separate handles, as separate processes would have.
                let cas = Cas::new(&store_dir);
                barrier.wait();
                let file = cas.write(&content, false).unwrap();
                if i % 2 == 0 {
                    // Later writers find a damaged file and must heal it.
                    let _ = fs::write(&file.path, b"partial");
                }
                cas.write(&content, false).unwrap()
            })
        })
        .collect();
    let paths: Vec<_> = handles
        .into_iter()
        .map(|h| h.join().unwrap().path)
        .collect();
    assert!(paths.windows(2).all(|w| w[0] == w[1]));
    // A final write after the storm leaves the exact content.
    let cas = Cas::new(&store_dir);
    let file = cas.write(&content, false).unwrap();
    assert_eq!(fs::read(&file.path).unwrap(), *content);
    let shard = file.path.parent().unwrap();
    assert_eq!(fs::read_dir(shard).unwrap().count(), 1, "no temp leftovers");
}

#[test]
fn concurrent_writers_without_tampering_never_see_a_wrong_file() {
    let dir = tempfile::tempdir().unwrap();
    let store_dir = dir.path().join("v11");
    let content: Arc<Vec<u8>> = Arc::new(vec![7u8; 1 << 20]);
    let barrier = Arc::new(Barrier::new(8));
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let (content, barrier, store_dir) = (
                Arc::clone(&content),
                Arc::clone(&barrier),
                store_dir.clone(),
            );
            std::thread::spawn(move || {
                let cas = Cas::new(&store_dir);
                barrier.wait();
                let file = cas.write(&content, false).unwrap();
                fs::read(&file.path).unwrap() == *content
            })
        })
        .collect();
    assert!(handles.into_iter().all(|h| h.join().unwrap()));
}

#[test]
fn error_names_the_path() {
    let dir = tempfile::tempdir().unwrap();
    // A file where the store dir should be: shard dirs cannot be created.
    fs::write(dir.path().join("v11"), b"").unwrap();
    let cas = Cas::new(&dir.path().join("v11"));
    let err = cas.write(b"x", false).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains(&*dir.path().join("v11/files").to_string_lossy()),
        "{msg}"
    );
    let code = miette::Diagnostic::code(&err).unwrap().to_string();
    assert_eq!(code, "ERR_PACQUET_CAS_CREATE_DIR");
}

/// pnpm 12 treats a row whose `checkedAt` has a fractional part as missing
/// (found with the store interop test), so written files carry whole ms.
#[test]
fn checked_at_is_whole_milliseconds() {
    let dir = tempfile::tempdir().unwrap();
    let cas = Cas::new(dir.path());
    for i in 0..20u8 {
        let file = cas.write(&[i; 3], false).unwrap();
        assert_eq!(file.checked_at.fract(), 0.0, "{}", file.checked_at);
    }
}

/// Preparing makes every shard directory; threads preparing at once (as a
/// cold install's extraction threads did) all succeed, and writes after
/// it land in their shard.
#[test]
fn preparing_makes_every_shard_once_for_all_threads() {
    let (dir, cas) = store();
    let cas = Arc::new(cas);
    let barrier = Arc::new(Barrier::new(4));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let (cas, barrier) = (Arc::clone(&cas), Arc::clone(&barrier));
            std::thread::spawn(move || {
                barrier.wait();
                cas.prepare_for_writes()
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap().unwrap();
    }
    let files = dir.path().join("v11/files");
    let shards = fs::read_dir(&files)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_type().unwrap().is_dir())
        .count();
    assert_eq!(shards, 256);
    let file = cas.write(b"prepared", false).unwrap();
    assert!(file.path.starts_with(files.join(&file.digest[..2])));
    assert_eq!(fs::read(&file.path).unwrap(), b"prepared");
}

/// A store whose `files/` cannot be made reports it on preparing.
#[test]
fn preparing_reports_a_store_that_cannot_hold_shards() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("v11"), b"not a directory").unwrap();
    let cas = Cas::new(&dir.path().join("v11"));
    assert!(cas.prepare_for_writes().is_err());
    assert!(cas.write(b"x", false).is_err());
}
