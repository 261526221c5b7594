//! Blobs addressed relative to their open shard directory (`BlobAt`), which
//! exists on Unix only: elsewhere `blob_at` is always `None`.
#![cfg(unix)]

use std::{
    io::Read,
    os::{fd::AsRawFd, unix::fs::MetadataExt},
};

use pacquet_cas::Cas;
use rustix::fs::{AtFlags, Mode, OFlags, openat, statat};

/// A digest no test writes.
const IS_NUMBER_PACKAGE_JSON: &str = "db867983ce66f97957d9754aea41f251d5f78453693b153adb8a17f1196c5a997f53329b6883d2c34e9e91338d8be8c925d5b0f8d38005f50572506fa0aa92be";

/// `blob_at` names the same file as `file_path`, relative to an open shard
/// descriptor; without the shard (or with a non-hex digest) there is none.
#[test]
fn blob_at_names_the_blob_relative_to_its_shard() {
    let tmp = tempfile::tempdir().unwrap();
    let cas = Cas::new(tmp.path());
    assert!(cas.blob_at(IS_NUMBER_PACKAGE_JSON, false).is_none());
    let written = cas.write(b"hello", true).unwrap();
    let at = cas
        .blob_at(&written.digest, true)
        .expect("shard exists now");
    let path = cas.file_path(&written.digest, true);
    assert_eq!(
        at.name().to_str().unwrap(),
        path.file_name().unwrap().to_str().unwrap()
    );
    let st = statat(at.dir(), at.name(), AtFlags::empty()).unwrap();
    assert_eq!(st.st_size, 5);
    assert!(cas.blob_at("zz-not-hex", false).is_none());
}

/// The contents of `at`, read through its descriptor.
fn read_at(at: pacquet_cas::BlobAt<'_>) -> String {
    let fd = openat(at.dir(), at.name(), OFlags::RDONLY, Mode::empty()).unwrap();
    let mut content = String::new();
    std::fs::File::from(fd)
        .read_to_string(&mut content)
        .unwrap();
    content
}

/// Each store's `blob_at` resolves through its own shard descriptor, even
/// when both stores hold a blob of the same name (here one damaged).
#[test]
fn blob_at_resolves_in_the_store_that_made_it() {
    let (a_dir, b_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (a, b) = (Cas::new(a_dir.path()), Cas::new(b_dir.path()));
    let digest = a.write(b"good", false).unwrap().digest;
    let exec = a.write(b"good", true).unwrap();
    b.write(b"other", false).unwrap();
    std::fs::write(b.file_path(&digest, false), "damaged").unwrap();

    let in_a = a.blob_at(&digest, false).unwrap();
    let in_b = b.blob_at(&digest, false).unwrap();
    assert_eq!(in_a.name(), in_b.name());
    assert_ne!(in_a.dir().as_raw_fd(), in_b.dir().as_raw_fd());
    assert_ne!(in_a, in_b);
    // Copies borrow the same descriptor; repeated calls reuse it.
    let copy = in_a;
    assert_eq!(copy, a.blob_at(&digest, false).unwrap());
    assert_eq!(read_at(copy), "good");
    assert_eq!(read_at(in_b), "damaged");

    let in_a_exec = a.blob_at(&exec.digest, true).unwrap();
    assert_eq!(in_a_exec.dir().as_raw_fd(), in_a.dir().as_raw_fd());
    let st = statat(in_a_exec.dir(), in_a_exec.name(), AtFlags::empty()).unwrap();
    assert_eq!(st.st_ino, std::fs::metadata(&exec.path).unwrap().ino());
    // The exec variant is not in the other store.
    let in_b_exec = b.blob_at(&exec.digest, true).unwrap();
    assert!(statat(in_b_exec.dir(), in_b_exec.name(), AtFlags::empty()).is_err());
}

/// A name that cannot be a blob's (too long, or with a NUL) gets no
/// `BlobAt`; callers then use the path.
#[test]
fn blob_at_refuses_names_no_blob_has() {
    let tmp = tempfile::tempdir().unwrap();
    let cas = Cas::new(tmp.path());
    let digest = cas.write(b"x", false).unwrap().digest;
    assert!(cas.blob_at(&digest, false).is_some());
    assert!(cas.blob_at(&digest.repeat(2), false).is_none());
    assert!(
        cas.blob_at(&format!("{}\0", &digest[..10]), false)
            .is_none()
    );
    let dir = std::fs::File::open(tmp.path()).unwrap();
    let at = pacquet_cas::BlobAt::new(std::os::fd::AsFd::as_fd(&dir), "files").unwrap();
    assert_eq!(at.name().to_str(), Ok("files"));
}
