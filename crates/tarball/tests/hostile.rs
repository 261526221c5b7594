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

    // A well-formed gzip of a tar cut inside an entry's data, on the
    // one-call path (contents are slices of the inflated tar) and on the
    // streaming one (trailing bytes after the member).
    let tar = support::tar_bytes(&[file("package/a.js", &[b'a'; 5000])]);
    let mut cut = support::gzip(&tar[..512 + 1000]);
    let err = extract(&cut, &limits).unwrap_err();
    assert_eq!(code(&err), "ERR_PACQUET_TARBALL_CORRUPT", "{err}");
    assert!(
        err.to_string().contains("truncated") || format!("{err:?}").contains("truncated"),
        "{err:?}"
    );
    cut.extend_from_slice(b"trailing");
    let err = extract(&cut, &limits).unwrap_err();
    assert_eq!(code(&err), "ERR_PACQUET_TARBALL_CORRUPT", "{err}");

    // A wrong CRC in the gzip trailer, on the one-call path and (with
    // trailing bytes) on the streaming one.
    let mut bad_crc = tgz(&[file("package/a.js", &[b'a'; 5000])]);
    let at = bad_crc.len() - 8;
    bad_crc[at] ^= 1;
    let err = extract(&bad_crc, &limits).unwrap_err();
    assert_eq!(code(&err), "ERR_PACQUET_TARBALL_CORRUPT", "{err}");
    bad_crc.extend_from_slice(b"trailing");
    let err = extract(&bad_crc, &limits).unwrap_err();
    assert_eq!(code(&err), "ERR_PACQUET_TARBALL_CORRUPT", "{err}");
}

/// A GNU long-name or PAX header entry declaring `size` bytes, followed by
/// only `body` (the rest of the archive is cut off).
fn huge_extension(kind: EntryType, size: u64, body: &[u8]) -> Vec<u8> {
    let mut header = tar::Header::new_gnu();
    header.as_old_mut().name[..13].copy_from_slice(b"././@LongLink");
    header.set_entry_type(kind);
    header.set_size(size);
    header.set_mode(0o644);
    header.set_cksum();
    let mut tar = header.as_bytes().to_vec();
    tar.extend_from_slice(body);
    support::gzip(&tar)
}

/// Long-name and PAX headers are refused from their declared size, before
/// any of it is buffered: the tar crate would read gigabytes into memory.
#[test]
fn enormous_long_names_and_pax_headers_are_refused_from_their_header() {
    for kind in [
        EntryType::GNULongName,
        EntryType::GNULongLink,
        EntryType::XHeader,
    ] {
        let err = extract(
            &huge_extension(kind, 3 << 30, &[b'a'; 4096]),
            &ExtractLimits::default(),
        )
        .unwrap_err();
        assert_eq!(
            code(&err),
            "ERR_PACQUET_TARBALL_TOO_LARGE",
            "{kind:?}: {err}"
        );
        assert!(err.to_string().contains("PAX"), "{err}");
        assert!(!err.is_retryable());
    }
}

/// A 2 MiB long name that is really there is refused too, instead of
/// becoming a path no filesystem accepts.
#[test]
fn a_long_name_over_the_cap_is_refused() {
    let name = format!("package/{}", "a".repeat(2 << 20));
    let mut builder = tar::Builder::new(Vec::new());
    let mut header = tar::Header::new_gnu();
    header.set_size(1);
    header.set_mode(0o644);
    builder.append_data(&mut header, &name, &b"x"[..]).unwrap();
    let tarball = support::gzip(&builder.into_inner().unwrap());
    let err = extract(&tarball, &ExtractLimits::default()).unwrap_err();
    assert_eq!(code(&err), "ERR_PACQUET_TARBALL_TOO_LARGE", "{err}");
}

/// A PAX `path` is honoured (and checked like any other path); a PAX `size`
/// that disagrees with the header, which makes tar readers disagree about
/// where the next entry starts, is refused.
#[test]
fn pax_records_are_applied_and_checked() {
    let pax = |records: &[(&str, &str)]| {
        let mut data = Vec::new();
        for (k, v) in records {
            // A record's length counts its own digits: iterate to the fixpoint.
            let body = format!(" {k}={v}\n");
            let mut len = body.len() + 1;
            while len != body.len() + len.to_string().len() {
                len = body.len() + len.to_string().len();
            }
            data.extend_from_slice(format!("{len}{body}").as_bytes());
        }
        data
    };
    let records = pax(&[("path", "package/from-pax.js")]);
    let with = |records: &[u8], path: &'static str, data: &'static [u8]| {
        tgz(&[
            RawEntry {
                data: records,
                ..entry("PaxHeader/x", EntryType::XHeader)
            },
            file(path, data),
        ])
    };
    let dir = tempfile::tempdir().unwrap();
    let cas = Cas::new(&dir.path().join("v11"));
    let row = extract_to_store(
        &cas,
        &with(&records, "package/short.js", b"x"),
        "ok@1.0.0",
        &ExtractLimits::default(),
    )
    .unwrap();
    assert_eq!(row.files[0].0, "from-pax.js");

    let escaping = pax(&[("path", "package/../../escape.js")]);
    assert_unsafe(
        extract(
            &with(&escaping, "package/short.js", b"x"),
            &ExtractLimits::default(),
        )
        .unwrap_err(),
        "package/../../escape.js",
        "escapes",
    );

    let lying = pax(&[("size", "1024")]);
    assert_unsafe(
        extract(
            &with(&lying, "package/short.js", b"x"),
            &ExtractLimits::default(),
        )
        .unwrap_err(),
        "package/short.js",
        "PAX size",
    );
}

#[test]
fn dangling_or_doubled_extension_headers_are_corrupt() {
    let name = RawEntry {
        data: b"package/long.js\0",
        ..entry("././@LongLink", EntryType::GNULongName)
    };
    let dangling = extract(
        &tgz(&[file("package/a.js", b"a"), name]),
        &ExtractLimits::default(),
    )
    .unwrap_err();
    assert_eq!(code(&dangling), "ERR_PACQUET_TARBALL_CORRUPT", "{dangling}");

    let name = || RawEntry {
        data: b"package/long.js\0",
        ..entry("././@LongLink", EntryType::GNULongName)
    };
    let doubled = extract(
        &tgz(&[name(), name(), file("package/a.js", b"a")]),
        &ExtractLimits::default(),
    )
    .unwrap_err();
    assert_eq!(code(&doubled), "ERR_PACQUET_TARBALL_CORRUPT", "{doubled}");
}

/// `a` as a file and `a/b` as a file cannot both be laid out.
#[test]
fn a_file_that_is_also_a_directory_is_refused() {
    assert_unsafe(
        refused(&[
            file("package/lib", b"i am a file"),
            file("package/lib.js", b"x"),
            file("package/lib/index.js", b"x"),
        ]),
        "lib",
        "both a file and a directory",
    );
    assert_unsafe(
        refused(&[file("package/a/b/c.js", b"x"), file("package/a/b", b"x")]),
        "a/b",
        "both a file and a directory",
    );
}

#[test]
fn sparse_files_are_refused() {
    assert_unsafe(
        refused(&[entry("package/sparse", EntryType::GNUSparse)]),
        "package/sparse",
        "unsupported entry type",
    );
}
