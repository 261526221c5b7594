//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::time::Duration;

use pacquet_tarball::{Fetcher, FetcherOptions};

/// Installs the ring TLS provider (reqwest is built without one).
pub fn init_tls() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// Options with retries measured in milliseconds.
pub fn fast_options() -> FetcherOptions {
    FetcherOptions {
        retries: 2,
        retry_factor: 2,
        retry_min_timeout: Duration::from_millis(10),
        retry_max_timeout: Duration::from_millis(50),
        fetch_timeout: Duration::from_secs(5),
        ..FetcherOptions::default()
    }
}

pub fn fetcher(opts: FetcherOptions) -> Fetcher {
    init_tls();
    Fetcher::new(opts)
}

/// Deterministic bytes that differ by `seed`.
pub fn bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// One raw tar entry; `path` bytes go into the header as they are (so
/// `../x` or `/etc/passwd` can be written).
pub struct RawEntry<'a> {
    pub path: &'a [u8],
    pub kind: tar::EntryType,
    pub mode: u32,
    pub data: &'a [u8],
    pub link: Option<&'a [u8]>,
}

pub fn file<'a>(path: &'a str, data: &'a [u8]) -> RawEntry<'a> {
    RawEntry {
        path: path.as_bytes(),
        kind: tar::EntryType::Regular,
        mode: 0o644,
        data,
        link: None,
    }
}

pub fn entry<'a>(path: &'a str, kind: tar::EntryType) -> RawEntry<'a> {
    RawEntry {
        path: path.as_bytes(),
        kind,
        mode: 0o644,
        data: b"",
        link: None,
    }
}

/// Uncompressed tar bytes of `entries`, in order (duplicates allowed).
pub fn tar_bytes(entries: &[RawEntry<'_>]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for e in entries {
        let mut header = tar::Header::new_gnu();
        {
            let name = &mut header.as_old_mut().name;
            name[..e.path.len()].copy_from_slice(e.path);
        }
        if let Some(link) = e.link {
            header.as_old_mut().linkname[..link.len()].copy_from_slice(link);
        }
        header.set_entry_type(e.kind);
        header.set_mode(e.mode);
        header.set_size(e.data.len() as u64);
        header.set_mtime(0);
        header.set_cksum();
        builder.append(&header, e.data).expect("tar into memory");
    }
    builder.into_inner().expect("tar into memory")
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

pub fn tgz(entries: &[RawEntry<'_>]) -> Vec<u8> {
    gzip(&tar_bytes(entries))
}

pub fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

pub fn sri_sha512(bytes: &[u8]) -> String {
    pacquet_testing::sri_sha512(bytes)
}

pub fn code(e: &dyn miette::Diagnostic) -> String {
    e.code().map(|c| c.to_string()).unwrap_or_default()
}

/// Starts the fixture registry from a plain thread: it builds its own tokio
/// runtime, which cannot happen inside a test's runtime.
pub fn start_registry() -> pacquet_testing::Registry {
    std::thread::spawn(pacquet_testing::Registry::start_fixtures)
        .join()
        .expect("registry thread")
}
