//! What the fuzz targets check, in one place: the cargo-fuzz targets in
//! `fuzz/` (nightly, coverage-guided) and the stable smoke test in
//! `tests/smoke.rs` (seeded mutations of the committed corpus) call the same
//! functions. Each one feeds arbitrary bytes to an entry point that reads
//! untrusted input and panics when a property breaks: no panic inside the
//! entry point, errors are diagnostics with a code and a message, and
//! results are sane.

pub mod mutate;

use std::path::{Component, Path};

use miette::Diagnostic;
use pacquet_cas::Cas;
use pacquet_lockfile::Lockfile;
use pacquet_tarball::{ExtractLimits, extract_to_store};

/// An error reaching the user must carry a code and say something.
fn assert_diagnostic(e: &dyn Diagnostic, what: &str) {
    let code = e.code().map(|c| c.to_string()).unwrap_or_default();
    assert!(!code.is_empty(), "{what} error without a code: {e}");
    assert!(
        !e.to_string().trim().is_empty(),
        "{what} error {code} is empty"
    );
}

/// `pnpm-lock.yaml` text (bytes made UTF-8 lossily, as a file read would
/// fail otherwise): parsing returns a lockfile or a coded error.
pub fn lockfile(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = Lockfile::parse(&text, Path::new("/fuzz/pnpm-lock.yaml")) {
        assert_diagnostic(&e, "lockfile");
    }
}

/// A `package_index` row: decoding returns a row or an error (a cache
/// miss for the installer); a decoded row re-encodes to bytes that decode
/// to the same encoding (compared as bytes, so NaN floats compare equal).
pub fn store_index(data: &[u8]) {
    // The summary reader never panics either, and says what the full row
    // says whenever that decodes.
    let summary = pacquet_store_index::decode_summary(data);
    match pacquet_store_index::decode(data) {
        Ok(row) => {
            let summary = summary.unwrap_or_else(|e| panic!("the summary of a row fails: {e}"));
            assert_eq!(summary.algo, row.algo);
            assert_eq!(summary.requires_build, row.requires_build);
            assert_eq!(summary.manifest, row.manifest);
            let has_package_json = row.files.iter().any(|(p, _)| p == "package.json");
            assert_eq!(summary.has_package_json, has_package_json);
            let encoded = pacquet_store_index::encode(&row);
            let again = pacquet_store_index::decode(&encoded)
                .unwrap_or_else(|e| panic!("a re-encoded row does not decode: {e}"));
            assert_eq!(
                pacquet_store_index::encode(&again),
                encoded,
                "encode(decode(encode(row))) differs from encode(row)"
            );
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// Limits small enough that one input stays fast, with the same code paths
/// as the defaults.
pub const FUZZ_LIMITS: ExtractLimits = ExtractLimits {
    max_unpacked_bytes: 8 << 20,
    max_entries: 10_000,
};

/// A tarball. The first byte picks the form of the rest: odd means a raw
/// `.tgz` as downloaded; even means an uncompressed tar that is gzipped here
/// first, so mutations reach the tar headers instead of dying in the gzip
/// checksum. Extraction into a CAS under `store` returns a row whose paths
/// are all inside the package and whose files are in the CAS, or a coded
/// error.
pub fn tarball(data: &[u8], store: &Path) {
    let Some((&form, rest)) = data.split_first() else {
        return;
    };
    let tgz = if form & 1 == 1 {
        rest.to_vec()
    } else {
        gzip(rest)
    };
    let cas = Cas::new(store);
    match extract_to_store(&cas, &tgz, "fuzz@1.0.0", &FUZZ_LIMITS) {
        Ok(row) => {
            for (path, info) in &row.files {
                assert!(!path.is_empty(), "empty path in {:?}", row.files);
                assert!(
                    Path::new(path)
                        .components()
                        .all(|c| matches!(c, Component::Normal(_))),
                    "path {path:?} is not plainly relative"
                );
                assert!(!path.contains('\\') || cfg!(unix), "{path:?}");
                let blob = cas.file_path(&info.digest, info.is_executable());
                let meta = std::fs::metadata(&blob)
                    .unwrap_or_else(|e| panic!("{path}: {} missing: {e}", blob.display()));
                assert_eq!(meta.len(), info.size, "{path}: size differs from the row");
            }
        }
        Err(e) => assert_diagnostic(&e, "tarball"),
    }
}

/// Gzip with the fastest setting (the fuzz input is the tar stream).
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(bytes).expect("gzip into memory");
    enc.finish().expect("gzip into memory")
}
