//! Extracting several tarballs together: every member gets the row, the
//! blobs and the error it gets when extracted alone.

mod support;

use pacquet_cas::{Cas, sha512_hex};
use pacquet_store_index::PackageFilesIndex;
use pacquet_tarball::{
    ExtractLimits, GroupMember, TarballCheck, TarballError, extract_checked_to_store,
    extract_group_to_store, extract_to_store,
};
use support::{bytes, file, tgz};

fn empty_cas() -> (tempfile::TempDir, Cas) {
    let dir = tempfile::tempdir().unwrap();
    let cas = Cas::new(&dir.path().join("v11"));
    (dir, cas)
}

/// The row without the times its blobs were written.
fn comparable(mut row: PackageFilesIndex) -> PackageFilesIndex {
    for (_, info) in &mut row.files {
        info.checked_at = None;
    }
    row
}

/// A package of `files` files of assorted sizes (0 bytes to a few 100 KB,
/// across SHA-512 block boundaries).
fn package(seed: u64, files: usize) -> Vec<u8> {
    let sizes = [0, 1, 111, 112, 128, 239, 240, 4_096, 9_999, 70_000, 300_000];
    let contents: Vec<(String, Vec<u8>)> = (0..files)
        .map(|i| {
            let size = sizes[(seed as usize + i * 7) % sizes.len()];
            (
                format!("package/f{i}.js"),
                bytes(size, seed * 1_000 + i as u64),
            )
        })
        .collect();
    let manifest = format!(r#"{{"name":"p{seed}","version":"1.0.0"}}"#);
    let mut entries = vec![file("package/package.json", manifest.as_bytes())];
    entries.extend(contents.iter().map(|(path, data)| file(path, data)));
    tgz(&entries)
}

fn check_of(tarball: &[u8]) -> TarballCheck {
    TarballCheck::sha512(&support::sri_sha512(tarball), "http://r/p.tgz").unwrap()
}

/// `member` extracted on its own into `cas`.
fn alone(cas: &Cas, member: &GroupMember<'_>) -> Result<PackageFilesIndex, TarballError> {
    let limits = ExtractLimits::default();
    match member.check {
        Some(check) => extract_checked_to_store(cas, member.tgz, member.package_id, &limits, check),
        None => extract_to_store(cas, member.tgz, member.package_id, &limits),
    }
}

/// Every blob under `root`, by name.
fn blobs(root: &std::path::Path) -> Vec<String> {
    let mut names = Vec::new();
    if let Ok(shards) = std::fs::read_dir(root.join("files")) {
        for shard in shards.flatten() {
            for blob in std::fs::read_dir(shard.path()).unwrap().flatten() {
                names.push(blob.file_name().to_string_lossy().into_owned());
            }
        }
    }
    names.sort();
    names
}

#[test]
fn every_member_gets_the_row_it_gets_alone() {
    // Small and large packages, 0 to 33 files, checked or not; one with
    // trailing bytes (streamed); a repeated path; more together than the
    // threads' 8 MiB buffer holds.
    let mut tarballs: Vec<Vec<u8>> = (0..12)
        .map(|seed| package(seed, seed as usize * 3))
        .collect();
    let mut trailing = package(40, 5);
    trailing.extend_from_slice(b"trailing bytes");
    tarballs.push(trailing);
    tarballs.push(tgz(&[
        file("package/a.js", b"first"),
        file("package/a.js", b"second"),
    ]));
    // Three of 3 MiB: the third overflows the shared buffer.
    tarballs.extend((0..3).map(|i| tgz(&[file("package/mid.bin", &bytes(3 << 20, 50 + i))])));
    let checks: Vec<Option<TarballCheck>> = tarballs
        .iter()
        .enumerate()
        .map(|(i, t)| (i % 3 != 0).then(|| check_of(t)))
        .collect();
    let ids: Vec<String> = (0..tarballs.len()).map(|i| format!("p{i}@1.0.0")).collect();
    let members: Vec<GroupMember<'_>> = tarballs
        .iter()
        .zip(&checks)
        .zip(&ids)
        .map(|((tgz, check), id)| GroupMember {
            tgz,
            package_id: id,
            check: check.as_ref(),
        })
        .collect();

    let (dir, cas) = empty_cas();
    let rows = extract_group_to_store(&cas, &members, &ExtractLimits::default());
    assert_eq!(rows.len(), members.len());
    // Each alone, into one store: the group must write the same blobs.
    let (alone_dir, alone_cas) = empty_cas();
    for (member, row) in members.iter().zip(rows) {
        let row = comparable(row.unwrap());
        let own = alone(&alone_cas, member);
        assert_eq!(row, comparable(own.unwrap()), "{}", member.package_id);
        for (path, info) in &row.files {
            let exec = info.mode & 0o111 != 0;
            let stored = std::fs::read(cas.file_path(&info.digest, exec)).unwrap();
            assert_eq!(sha512_hex(&stored), info.digest, "{path}");
        }
    }
    assert_eq!(
        blobs(&dir.path().join("v11")),
        blobs(&alone_dir.path().join("v11"))
    );
}

#[test]
fn a_member_that_is_not_the_locked_one_writes_nothing_and_spares_the_others() {
    let good = [package(1, 4), package(2, 9)];
    let locked = package(3, 6);
    let other = package(4, 6);
    let check = check_of(&locked);
    let good_checks = [check_of(&good[0]), check_of(&good[1])];
    let members = [
        GroupMember {
            tgz: &good[0],
            package_id: "good@1.0.0",
            check: Some(&good_checks[0]),
        },
        GroupMember {
            tgz: &other,
            package_id: "bad@1.0.0",
            check: Some(&check),
        },
        GroupMember {
            tgz: &good[1],
            package_id: "also-good@1.0.0",
            check: Some(&good_checks[1]),
        },
    ];
    let (dir, cas) = empty_cas();
    let rows = extract_group_to_store(&cas, &members, &ExtractLimits::default());
    let err = rows[1].as_ref().unwrap_err();
    assert_eq!(support::code(err), "ERR_PNPM_TARBALL_INTEGRITY", "{err}");
    assert!(err.is_retryable());
    // Only the two good packages' files are in the store.
    let (good_dir, good_cas) = empty_cas();
    for (tgz, check) in good.iter().zip(&good_checks) {
        extract_checked_to_store(&good_cas, tgz, "g", &ExtractLimits::default(), check).unwrap();
    }
    assert!(rows[0].is_ok() && rows[2].is_ok());
    assert_eq!(
        blobs(&dir.path().join("v11")),
        blobs(&good_dir.path().join("v11"))
    );
}

#[test]
fn a_refused_member_reports_what_it_reports_alone() {
    let good = package(5, 7);
    let hostile = tgz(&[support::entry("package/link", tar::EntryType::Symlink)]);
    let mut truncated = package(6, 3);
    truncated.truncate(truncated.len() / 2);
    let mut corrupt = package(7, 3);
    let middle = corrupt.len() / 2;
    corrupt[middle] ^= 0xff;
    let escaping = tgz(&[file("package/../../evil.js", b"x")]);
    let both = tgz(&[file("package/a", b"file"), file("package/a/b", b"dir")]);
    let tarballs = [good, hostile, truncated, corrupt, escaping, both];
    let locked = package(8, 2);
    for with_checks in [false, true] {
        let checks: Vec<TarballCheck> = tarballs
            .iter()
            .enumerate()
            // The hostile archive's check names another tarball.
            .map(|(i, t)| check_of(if i == 1 { &locked } else { t }))
            .collect();
        let members: Vec<GroupMember<'_>> = tarballs
            .iter()
            .zip(&checks)
            .map(|(tgz, check)| GroupMember {
                tgz,
                package_id: "p@1.0.0",
                check: with_checks.then_some(check),
            })
            .collect();
        let (_dir, cas) = empty_cas();
        let rows = extract_group_to_store(&cas, &members, &ExtractLimits::default());
        for (i, (member, row)) in members.iter().zip(rows).enumerate() {
            let (_own_dir, own_cas) = empty_cas();
            let own = alone(&own_cas, member);
            match (row, own) {
                (Ok(row), Ok(own)) => assert_eq!(comparable(row), comparable(own)),
                (Err(row), Err(own)) => {
                    assert_eq!(support::code(&row), support::code(&own), "member {i}");
                    assert_eq!(row.to_string(), own.to_string(), "member {i}");
                }
                (row, own) => panic!("member {i}: {row:?} in a group, {own:?} alone"),
            }
        }
    }
}
