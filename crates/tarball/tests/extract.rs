//! Extracting fixture and hand-built tarballs into a CAS: the row.

mod support;

use pacquet_cas::{Cas, FileCheck, sha512_hex};
use pacquet_tarball::{
    ExtractLimits, TarballCheck, bundled_manifest, extract_checked_to_store, extract_to_store,
};
use serde_json::json;
use support::{RawEntry, file, gunzip, tgz};

fn cas() -> (tempfile::TempDir, Cas) {
    let dir = tempfile::tempdir().unwrap();
    let cas = Cas::new(&dir.path().join("v11"));
    (dir, cas)
}

#[test]
fn fixture_package_row_follows_the_rules() {
    let registry = support::start_registry();
    let set = registry.packages().unwrap();
    let (_dir, cas) = cas();
    for pkg in set.iter() {
        let id = format!("{}@{}", pkg.name, pkg.version);
        let row = extract_to_store(&cas, &pkg.tarball, &id, &ExtractLimits::default()).unwrap();
        assert_eq!(row.algo, "sha512");
        assert_eq!(row.manifest, bundled_manifest(&pkg.manifest), "{id}");
        // Not computed: pnpm 12 hashes the tar only for `integrityTarget: tar`.
        assert_eq!(row.tar_integrity, None, "{id}");
        assert!(
            row.files
                .windows(2)
                .all(|w| w[0].0.as_bytes() < w[1].0.as_bytes()),
            "{id}: sorted bytewise"
        );
        let source_files = pacquet_testing::pack::collect_files(&pkg.source).unwrap();
        assert_eq!(row.files.len(), source_files.len(), "{id}");
        for source in &source_files {
            let (_, info) = row.files.iter().find(|(p, _)| *p == source.path).unwrap();
            assert_eq!(
                info.digest,
                sha512_hex(&source.contents),
                "{id} {}",
                source.path
            );
            assert_eq!(info.size, source.contents.len() as u64);
            assert_eq!(info.mode, if source.executable { 0o755 } else { 0o644 });
            let check = cas.verify(
                &info.digest,
                info.is_executable(),
                info.size,
                info.checked_at,
            );
            assert_eq!(check, FileCheck::Ok, "{id} {}", source.path);
        }
        let scripts = pkg.manifest.get("scripts");
        let wants_build = ["preinstall", "install", "postinstall"].iter().any(|s| {
            scripts
                .and_then(|x| x.get(*s))
                .and_then(|x| x.as_str())
                .is_some_and(|x| !x.is_empty())
        }) || source_files.iter().any(|f| f.path == "binding.gyp");
        assert_eq!(row.requires_build, Some(wants_build), "{id}");
    }
}

#[test]
fn plain_fixture_row_in_full() {
    let registry = support::start_registry();
    let pkg = registry
        .packages()
        .unwrap()
        .get("pq-plain", "1.0.0")
        .unwrap();
    let (_dir, cas) = cas();
    let row = extract_to_store(
        &cas,
        &pkg.tarball,
        "pq-plain@1.0.0",
        &ExtractLimits::default(),
    )
    .unwrap();
    assert_eq!(
        row.manifest,
        Some(json!({"version": "1.0.0", "name": "pq-plain"}))
    );
    assert_eq!(row.requires_build, Some(false));
    assert!(row.side_effects.is_none() && row.extra.is_empty());
    let paths: Vec<&str> = row.files.iter().map(|(p, _)| p.as_str()).collect();
    assert!(paths.contains(&"package.json") && paths.contains(&"index.js"));
}

#[test]
fn scripts_fixture_requires_build() {
    let registry = support::start_registry();
    let pkg = registry
        .packages()
        .unwrap()
        .get("pq-scripts", "1.0.0")
        .unwrap();
    let (_dir, cas) = cas();
    let row = extract_to_store(
        &cas,
        &pkg.tarball,
        "pq-scripts@1.0.0",
        &ExtractLimits::default(),
    )
    .unwrap();
    assert_eq!(row.requires_build, Some(true));
    let scripts = row.manifest.unwrap()["scripts"].clone();
    let keys: Vec<&String> = scripts.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["preinstall", "postinstall"]);
}

#[test]
fn any_first_component_is_stripped_and_modes_are_kept() {
    let (_dir, cas) = cas();
    let tarball = tgz(&[
        file("node/package.json", br#"{"name":"n","version":"1.0.0"}"#),
        RawEntry {
            mode: 0o755,
            ..file("node/bin/cli.js", b"#!/usr/bin/env node\n")
        },
        RawEntry {
            mode: 0o4775,
            ..file("node/odd", b"x")
        },
        support::entry("node/lib/", tar::EntryType::Directory),
        file("node/./lib/a.js", b"a"),
    ]);
    let row = extract_to_store(&cas, &tarball, "n@1.0.0", &ExtractLimits::default()).unwrap();
    let got: Vec<(&str, u32)> = row
        .files
        .iter()
        .map(|(p, f)| (p.as_str(), f.mode))
        .collect();
    assert_eq!(
        got,
        [
            ("bin/cli.js", 0o755),
            ("lib/a.js", 0o644),
            ("odd", 0o775),
            ("package.json", 0o644)
        ]
    );
    let cli = &row.files[0].1;
    assert!(cas.file_path(&cli.digest, true).exists());
}

#[test]
fn a_repeated_path_keeps_the_last_entry() {
    let (_dir, cas) = cas();
    let tarball = tgz(&[
        file("package/package.json", br#"{"name":"d","version":"1.0.0"}"#),
        RawEntry {
            mode: 0o755,
            ..file("package/dup.txt", b"first\n")
        },
        file("package/dup.txt", b"second!\n"),
    ]);
    let row = extract_to_store(&cas, &tarball, "d@1.0.0", &ExtractLimits::default()).unwrap();
    let (path, info) = &row.files[0];
    assert_eq!(path, "dup.txt");
    assert_eq!(info.digest, sha512_hex(b"second!\n"));
    assert_eq!((info.mode, info.size), (0o644, 8));
    assert_eq!(row.files.len(), 2);
}

#[test]
fn build_markers_binding_gyp_and_hooks() {
    let (_dir, cas) = cas();
    let limits = ExtractLimits::default();
    let row = |entries: &[RawEntry<'_>]| {
        extract_to_store(&cas, &tgz(entries), "x@1.0.0", &limits).unwrap()
    };
    let pj = file("package/package.json", br#"{"name":"x","version":"1.0.0"}"#);
    let root_gyp = row(&[
        file("package/package.json", pj.data),
        file("package/binding.gyp", b"{}"),
    ]);
    assert_eq!(root_gyp.requires_build, Some(true));
    let nested_gyp = row(&[
        file("package/package.json", pj.data),
        file("package/sub/binding.gyp", b"{}"),
    ]);
    assert_eq!(nested_gyp.requires_build, Some(false));
    let hooks = row(&[
        file("package/package.json", pj.data),
        file("package/.hooks/pre", b"x"),
    ]);
    assert_eq!(hooks.requires_build, Some(true));
    let empty_install = row(&[file(
        "package/package.json",
        br#"{"name":"x","version":"1.0.0","scripts":{"install":""}}"#,
    )]);
    assert_eq!(empty_install.requires_build, Some(false));
    assert_eq!(
        empty_install.manifest,
        Some(json!({"version": "1.0.0", "name": "x", "scripts": {"install": ""}}))
    );
}

#[test]
fn missing_or_broken_package_json_leaves_no_manifest() {
    let (_dir, cas) = cas();
    let limits = ExtractLimits::default();
    let none = extract_to_store(&cas, &tgz(&[file("package/a.js", b"a")]), "x", &limits).unwrap();
    assert_eq!(none.manifest, None);
    let broken = tgz(&[file("package/package.json", b"{not json")]);
    let broken = extract_to_store(&cas, &broken, "x", &limits).unwrap();
    assert_eq!(broken.manifest, None);
    assert_eq!(broken.files.len(), 1);
    let bom = tgz(&[file(
        "package/package.json",
        b"\xEF\xBB\xBF{\"version\":\"1.0.0\"}",
    )]);
    let bom = extract_to_store(&cas, &bom, "x", &limits).unwrap();
    assert_eq!(bom.manifest, Some(json!({"version": "1.0.0"})));
}

#[test]
fn whole_and_streamed_archives_give_the_same_row() {
    let (_dir, cas) = cas();
    let mut tar = support::tar_bytes(&[
        file("package/package.json", br#"{"name":"x","version":"1.0.0"}"#),
        file("package/lib/a.js", &[b'a'; 70_000]),
        file("package/b", b""),
    ]);
    // Extra zero records after the end-of-archive marker, as some packers
    // write (npm pads to 10240-byte records).
    tar.extend(std::iter::repeat_n(0u8, 10240));
    let whole = support::gzip(&tar);
    // Bytes after the gzip member send the archive down the streaming path,
    // which reads the first member only.
    let mut streamed = whole.clone();
    streamed.extend_from_slice(b"trailing bytes");
    let limits = ExtractLimits::default();
    let a = extract_to_store(&cas, &whole, "x", &limits).unwrap();
    let b = extract_to_store(&cas, &streamed, "x", &limits).unwrap();
    let names = |row: &pacquet_store_index::PackageFilesIndex| {
        row.files
            .iter()
            .map(|(p, f)| (p.clone(), f.digest.clone(), f.mode, f.size))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&a), names(&b));
    assert_eq!(a.manifest, b.manifest);
    assert_eq!(a.files.len(), 3);
    assert_eq!(gunzip(&whole), tar);
}

#[test]
fn long_names_from_gnu_and_pax_headers_work() {
    let (_dir, cas) = cas();
    let long = format!("package/{}/file.js", "d".repeat(150));
    let mut builder = tar::Builder::new(Vec::new());
    let mut header = tar::Header::new_gnu();
    header.set_size(1);
    header.set_mode(0o644);
    builder.append_data(&mut header, &long, &b"x"[..]).unwrap();
    let tarball = support::gzip(&builder.into_inner().unwrap());
    let row = extract_to_store(&cas, &tarball, "x", &ExtractLimits::default()).unwrap();
    assert_eq!(row.files[0].0, format!("{}/file.js", "d".repeat(150)));
}

fn files_in(cas_dir: &std::path::Path) -> usize {
    walk(cas_dir)
}

fn walk(dir: &std::path::Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .map(|e| e.unwrap())
        .map(|e| {
            if e.file_type().unwrap().is_dir() {
                walk(&e.path())
            } else {
                1
            }
        })
        .sum()
}

#[test]
fn a_checked_extraction_equals_an_unchecked_one() {
    let (_dir, cas) = cas();
    let tarball = tgz(&[
        file("package/package.json", br#"{"name":"x","version":"1.0.0"}"#),
        file("package/index.js", b"module.exports = 1\n"),
    ]);
    let check = TarballCheck::sha512(&support::sri_sha512(&tarball), "http://r/x.tgz").unwrap();
    let limits = ExtractLimits::default();
    let checked = extract_checked_to_store(&cas, &tarball, "x", &limits, &check).unwrap();
    let plain = extract_to_store(&cas, &tarball, "x", &limits).unwrap();
    let strip = |mut row: pacquet_store_index::PackageFilesIndex| {
        for (_, f) in &mut row.files {
            f.checked_at = None;
        }
        row
    };
    assert_eq!(strip(checked), strip(plain));
}

#[test]
fn a_tarball_that_is_not_the_locked_one_writes_nothing() {
    let limits = ExtractLimits::default();
    let locked = tgz(&[file("package/a.js", b"the locked content")]);
    let check = TarballCheck::sha512(&support::sri_sha512(&locked), "http://r/a.tgz").unwrap();
    let other = tgz(&[file("package/a.js", b"something else")]);
    // A hostile archive too: the integrity is reported, not its content.
    let hostile = tgz(&[support::entry("package/link", tar::EntryType::Symlink)]);
    // And one that goes down the streaming path (trailing bytes).
    let mut streamed = other.clone();
    streamed.extend_from_slice(b"trailing");
    for tarball in [&other, &hostile, &streamed] {
        let dir = tempfile::tempdir().unwrap();
        let cas = Cas::new(&dir.path().join("v11"));
        let err = extract_checked_to_store(&cas, tarball, "a", &limits, &check).unwrap_err();
        assert_eq!(support::code(&err), "ERR_PNPM_TARBALL_INTEGRITY", "{err}");
        assert!(err.is_retryable());
        assert!(err.to_string().contains("http://r/a.tgz"), "{err}");
        assert_eq!(files_in(&dir.path().join("v11")), 0);
    }
}

#[test]
fn only_single_sha512_integrities_are_checked_during_extraction() {
    let sha512 = support::sri_sha512(b"x");
    assert!(TarballCheck::sha512(&sha512, "u").is_some());
    assert!(TarballCheck::sha512("sha1-C+7Hteo/D9vJXQ3UfzxbwnXaijM=", "u").is_none());
    let two = format!("{sha512} sha1-C+7Hteo/D9vJXQ3UfzxbwnXaijM=");
    assert!(TarballCheck::sha512(&two, "u").is_none());
    assert!(TarballCheck::sha512("sha512-notbase64!!", "u").is_none());
    assert!(TarballCheck::sha512("sha512-AAAA", "u").is_none());
}

/// Archives inflated one after another reuse the same buffers (a thread's,
/// and the one kept for archives over 8 MiB): every row must come from its
/// own bytes, never from what a larger archive left in a buffer.
#[test]
fn reused_inflate_buffers_never_leak_an_earlier_archive() {
    let (_dir, cas) = cas();
    let limits = ExtractLimits::default();
    let package = |size: usize, fill: u8| {
        let data: Vec<u8> = (0..size).map(|i| fill ^ (i % 251) as u8).collect();
        let tgz = tgz(&[
            file("package/package.json", br#"{"name":"x","version":"1.0.0"}"#),
            file("package/data.bin", &data),
        ]);
        (tgz, sha512_hex(&data), size as u64)
    };
    // Over 8 MiB twice (the second smaller), then small ones, then over
    // 8 MiB again: each shorter archive lands in a buffer a longer one
    // filled.
    for (size, fill) in [
        (10 << 20, 1),
        (9 << 20, 2),
        (300_000, 3),
        (200_000, 4),
        (11 << 20, 5),
        (1_000, 6),
    ] {
        let (tgz, digest, size) = package(size, fill);
        let row = extract_to_store(&cas, &tgz, "x@1.0.0", &limits).unwrap();
        let (_, info) = row.files.iter().find(|(p, _)| p == "data.bin").unwrap();
        assert_eq!((info.digest.as_str(), info.size), (digest.as_str(), size));
        let stored = std::fs::read(cas.file_path(&info.digest, false)).unwrap();
        assert_eq!(sha512_hex(&stored), digest);
    }
}
