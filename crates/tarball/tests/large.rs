//! Packages large enough that their files are written by more than one
//! thread (on a machine with more than one core): the row and the blobs are
//! what hashing each file alone says, in archive order, and a tarball that
//! is not the locked one still writes nothing.

mod support;

use pacquet_cas::{Cas, sha512_hex};
use pacquet_tarball::{ExtractLimits, TarballCheck, extract_checked_to_store, extract_to_store};
use support::bytes;

/// `count` files of `size` bytes (every seventh executable, one path
/// repeated at the end with other content) plus a `package.json`.
fn contents(count: usize, size: usize) -> Vec<(String, Vec<u8>, u32)> {
    let mut files: Vec<(String, Vec<u8>, u32)> = (0..count)
        .map(|i| {
            let mode = if i % 7 == 0 { 0o755 } else { 0o644 };
            (
                format!("package/lib/f{i}.js"),
                bytes(size + i, i as u64),
                mode,
            )
        })
        .collect();
    files.push((
        "package/lib/f1.js".into(),
        b"the last entry of a repeated path wins".to_vec(),
        0o644,
    ));
    files.push((
        "package/package.json".into(),
        br#"{"name":"large","version":"1.0.0"}"#.to_vec(),
        0o644,
    ));
    files
}

fn tarball(files: &[(String, Vec<u8>, u32)]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (path, data, mode) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(*mode);
        header.set_entry_type(tar::EntryType::Regular);
        builder.append_data(&mut header, path, &data[..]).unwrap();
    }
    support::gzip(&builder.into_inner().unwrap())
}

/// Checks the row against each file hashed alone, and every blob's bytes.
fn assert_row_and_blobs(
    cas_dir: &std::path::Path,
    row: &pacquet_store_index::PackageFilesIndex,
    files: &[(String, Vec<u8>, u32)],
) {
    let mut expected = std::collections::BTreeMap::new();
    for (path, data, mode) in files {
        let path = path.strip_prefix("package/").unwrap();
        expected.insert(path.to_owned(), (sha512_hex(data), *mode, data.clone()));
    }
    assert_eq!(row.files.len(), expected.len());
    for (path, info) in &row.files {
        let (digest, mode, data) = &expected[path];
        assert_eq!(&info.digest, digest, "{path}");
        assert_eq!(info.mode, *mode, "{path}");
        assert_eq!(info.size, data.len() as u64, "{path}");
        let blob = cas_dir
            .join("files")
            .join(&digest[..2])
            .join(match mode & 0o111 {
                0 => digest[2..].to_owned(),
                _ => format!("{}-exec", &digest[2..]),
            });
        assert_eq!(&std::fs::read(&blob).unwrap(), data, "{path}");
    }
    assert_eq!(
        row.manifest.as_ref().and_then(|m| m.get("name")).unwrap(),
        "large"
    );
}

#[test]
fn large_packages_get_every_file_hashed_and_written() {
    let limits = ExtractLimits::default();
    // 6 MiB, inflated into a thread's buffer; 10 MiB, into the large one;
    // both over the size at which writing is split between threads.
    for (count, size) in [(300, 20_000), (400, 26_000)] {
        let files = contents(count, size);
        let tgz = tarball(&files);
        let dir = tempfile::tempdir().unwrap();
        let cas_dir = dir.path().join("v11");
        let cas = Cas::new(&cas_dir);
        let plain = extract_to_store(&cas, &tgz, "large", &limits).unwrap();
        assert_row_and_blobs(&cas_dir, &plain, &files);

        let dir = tempfile::tempdir().unwrap();
        let cas_dir = dir.path().join("v11");
        let cas = Cas::new(&cas_dir);
        let check = TarballCheck::sha512(&support::sri_sha512(&tgz), "http://r/l.tgz").unwrap();
        let checked = extract_checked_to_store(&cas, &tgz, "large", &limits, &check).unwrap();
        assert_row_and_blobs(&cas_dir, &checked, &files);
    }
}

#[test]
fn a_large_tarball_that_is_not_the_locked_one_writes_nothing() {
    let limits = ExtractLimits::default();
    let files = contents(400, 26_000);
    let locked = tarball(&files);
    let check = TarballCheck::sha512(&support::sri_sha512(&locked), "http://r/l.tgz").unwrap();
    let mut other_files = files.clone();
    other_files[200].1[0] ^= 1;
    let other = tarball(&other_files);
    let dir = tempfile::tempdir().unwrap();
    let cas = Cas::new(&dir.path().join("v11"));
    let err = extract_checked_to_store(&cas, &other, "large", &limits, &check).unwrap_err();
    assert_eq!(support::code(&err), "ERR_PNPM_TARBALL_INTEGRITY", "{err}");
    let written = std::fs::read_dir(dir.path().join("v11/files"))
        .map(|shards| {
            shards
                .flatten()
                .map(|s| std::fs::read_dir(s.path()).unwrap().count())
                .sum::<usize>()
        })
        .unwrap_or(0);
    assert_eq!(written, 0);
    // The mutation is what the check caught: the locked tarball goes in.
    assert!(extract_checked_to_store(&cas, &locked, "large", &limits, &check).is_ok());
}
