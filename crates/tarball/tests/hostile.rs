//! Tarballs built to escape the package dir or exhaust resources.

mod support;

use std::io::Write;

use pacquet_cas::Cas;
use pacquet_tarball::{ExtractLimits, TarballError, extract_to_store};
use support::{RawEntry, code, entry, file, tgz};
use tar::EntryType;

fn extract(tarball: &[u8], limits: &ExtractLimits) -> Result<(), TarballError> {
    let dir = tempfile::tempdir().unwrap();
    let cas = Cas::new(&dir.path().join("v11"));
    extract_to_store(&cas, tarball, "evil@6.6.6", limits).map(|_| ())
}

fn refused(entries: &[RawEntry<'_>]) -> TarballError {
    extract(&tgz(entries), &ExtractLimits::default()).unwrap_err()
}

fn assert_unsafe(err: TarballError, entry_name: &str, why: &str) {
    assert_eq!(code(&err), "ERR_PACQUET_TARBALL_UNSAFE_ENTRY", "{err}");
    let msg = err.to_string();
    assert!(msg.contains("evil@6.6.6"), "{msg}");
    assert!(msg.contains(entry_name), "{msg}");
    assert!(msg.contains(why), "{msg}");
}

#[test]
fn parent_components_are_refused() {
    assert_unsafe(
        refused(&[file("package/../x", b"x")]),
        "package/../x",
        "escapes",
    );
    assert_unsafe(refused(&[file("../x", b"x")]), "../x", "escapes");
    assert_unsafe(
        refused(&[entry("package/a/../../b/", EntryType::Directory)]),
        "../../b",
        "escapes",
    );
}

#[test]
fn absolute_paths_are_refused() {
    assert_unsafe(
        refused(&[file("/etc/passwd", b"x")]),
        "/etc/passwd",
        "absolute",
    );
    assert_unsafe(
        refused(&[file("package//etc/passwd", b"x")]),
        "//etc/passwd",
        "absolute",
    );
}

#[test]
fn empty_paths_are_refused() {
    assert_unsafe(refused(&[file("package/", b"x")]), "package/", "empty path");
    assert_unsafe(refused(&[file("package", b"x")]), "package", "empty path");
}

#[test]
fn links_devices_and_fifos_are_refused() {
    let link = |kind, target: &'static [u8]| RawEntry {
        link: Some(target),
        ..entry("package/l", kind)
    };
    assert_unsafe(
        refused(&[link(EntryType::Symlink, b"/etc/passwd")]),
        "package/l",
        "symbolic link",
    );
    assert_unsafe(
        refused(&[link(EntryType::Link, b"package/x")]),
        "package/l",
        "hard link",
    );
    assert_unsafe(
        refused(&[entry("package/dev", EntryType::Char)]),
        "package/dev",
        "device",
    );
    assert_unsafe(
        refused(&[entry("package/dev", EntryType::Block)]),
        "package/dev",
        "device",
    );
    assert_unsafe(
        refused(&[entry("package/p", EntryType::Fifo)]),
        "package/p",
        "FIFO",
    );
}

#[test]
fn a_gzip_bomb_is_stopped_while_inflating() {
    // 256 MiB of zeros inside one entry compresses to ~250 KB; a 1 MiB cap
    // must stop it long before it is inflated.
    let size: u64 = 256 << 20;
    let mut header = tar::Header::new_gnu();
    header.set_path("package/zeros").unwrap();
    header.set_size(size);
    header.set_mode(0o644);
    header.set_cksum();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(header.as_bytes()).unwrap();
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..(size >> 20) {
        gz.write_all(&zeros).unwrap();
    }
    gz.write_all(&[0u8; 1024]).unwrap();
    let bomb = gz.finish().unwrap();
    assert!(bomb.len() < 1 << 20);
    let limits = ExtractLimits {
        max_unpacked_bytes: 1 << 20,
        ..ExtractLimits::default()
    };
    let started = std::time::Instant::now();
    let err = extract(&bomb, &limits).unwrap_err();
    assert_eq!(code(&err), "ERR_PACQUET_TARBALL_TOO_LARGE", "{err}");
    assert!(err.to_string().contains("evil@6.6.6"));
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

/// A header declaring more than the cap is refused before its data is
/// inflated or buffered; the body here is cut short, so reading it would
/// only report a truncated entry after buffering what is there.
#[test]
fn an_entry_declared_larger_than_the_cap_is_refused_from_its_header() {
    let mut header = tar::Header::new_gnu();
    header.set_path("package/zeros").unwrap();
    header.set_size(5 << 30);
    header.set_mode(0o644);
    header.set_cksum();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(header.as_bytes()).unwrap();
    gz.write_all(&vec![0u8; 1 << 20]).unwrap();
    let bomb = gz.finish().unwrap();
    let err = extract(&bomb, &ExtractLimits::default()).unwrap_err();
    assert_eq!(code(&err), "ERR_PACQUET_TARBALL_TOO_LARGE", "{err}");
    assert!(err.to_string().contains("unpacked size"), "{err}");
    assert!(!err.is_retryable());
}

#[test]
fn too_many_entries_are_refused() {
    let names: Vec<String> = (0..20).map(|i| format!("package/f{i}")).collect();
    let entries: Vec<RawEntry<'_>> = names.iter().map(|n| file(n, b"")).collect();
    let limits = ExtractLimits {
        max_entries: 10,
        ..ExtractLimits::default()
    };
    let err = extract(&tgz(&entries), &limits).unwrap_err();
    assert_eq!(code(&err), "ERR_PACQUET_TARBALL_TOO_LARGE");
    assert!(err.to_string().contains("number of entries"), "{err}");
}

#[test]
fn corrupt_streams_get_their_own_code() {
    let limits = ExtractLimits::default();
    let not_gzip = extract(b"this is not gzip at all", &limits).unwrap_err();
    assert_eq!(code(&not_gzip), "ERR_PACQUET_TARBALL_CORRUPT", "{not_gzip}");

    let good = tgz(&[file("package/a.js", &[b'a'; 5000])]);
    let truncated = extract(&good[..good.len() / 2], &limits).unwrap_err();
    assert_eq!(
        code(&truncated),
        "ERR_PACQUET_TARBALL_CORRUPT",
        "{truncated}"
    );

    let mut tar = support::tar_bytes(&[file("package/a.js", b"a")]);
    tar[100] ^= 0xff; // breaks the header checksum
    let bad_header = extract(&support::gzip(&tar), &limits).unwrap_err();
    assert_eq!(
        code(&bad_header),
        "ERR_PACQUET_TARBALL_CORRUPT",
        "{bad_header}"
    );

    let empty = extract(&support::gzip(b""), &limits).unwrap_err();
    assert_eq!(code(&empty), "ERR_PACQUET_TARBALL_CORRUPT", "{empty}");
}
