//! Regenerates the committed seed corpus in `fuzz/corpus/<target>/` from
//! the test fixtures: `cargo run -p pacquet-fuzz-harness --example write_seeds`.

use std::io::Read;
use std::path::Path;

use pacquet_cas::Cas;
use pacquet_fuzz_harness::FUZZ_LIMITS;
use pacquet_tarball::extract_to_store;

/// Small fixture packages covering bins, scripts, scopes and uppercase.
const PACKAGES: &[(&str, &str)] = &[
    ("pq-plain", "1.0.0"),
    ("@pq/bin-map", "1.0.0"),
    ("pq-bin-dir", "1.0.0"),
    ("pq-scripts", "1.0.0"),
    ("PqUpper", "1.0.0"),
    ("pq-native", "1.0.0"),
];

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    let dir = |target: &str| {
        let d = root.join(target);
        std::fs::create_dir_all(&d).unwrap();
        d
    };

    let projects = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testing/projects");
    let mut names: Vec<_> = std::fs::read_dir(&projects)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let lockfile = projects.join(&name).join("pnpm-lock.yaml");
        if lockfile.exists() {
            std::fs::copy(&lockfile, dir("lockfile").join(format!("{name}.yaml"))).unwrap();
        }
    }

    let set = pacquet_testing::PackageSet::load(&pacquet_testing::packages_dir());
    let store = tempfile::tempdir().unwrap();
    let cas = Cas::new(store.path());
    let mut tarballs: Vec<(String, Vec<u8>)> = PACKAGES
        .iter()
        .map(|(name, version)| {
            let pkg = set.get(name, version).expect("fixture package");
            (
                format!("{}-{version}", name.replace('/', "+")),
                pkg.tarball.clone(),
            )
        })
        .collect();
    tarballs.push(("long-names".to_string(), long_names()));
    for (name, tgz) in &tarballs {
        let mut tar = vec![0u8];
        flate2::read::GzDecoder::new(&tgz[..])
            .read_to_end(&mut tar)
            .unwrap();
        std::fs::write(dir("tarball").join(format!("{name}.tar")), &tar).unwrap();
        let mut raw = vec![1u8];
        raw.extend_from_slice(tgz);
        std::fs::write(dir("tarball").join(format!("{name}.tgz")), &raw).unwrap();

        let row = extract_to_store(&cas, tgz, name, &FUZZ_LIMITS).expect("seed extracts");
        std::fs::write(
            dir("store_index").join(format!("{name}.msgpack")),
            pacquet_store_index::encode(&row),
        )
        .unwrap();
    }
}

/// A package whose paths need a GNU long name and a PAX `path` record.
fn long_names() -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    let manifest = br#"{"name":"long-names","version":"1.0.0","bin":{"x":"bin/x.js"}}"#;
    let mut header = tar::Header::new_gnu();
    header.set_size(manifest.len() as u64);
    header.set_mode(0o644);
    builder
        .append_data(&mut header, "package/package.json", &manifest[..])
        .unwrap();
    let gnu_long = format!("package/{}/gnu.js", "g".repeat(120));
    let mut header = tar::Header::new_gnu();
    header.set_size(2);
    header.set_mode(0o755);
    builder
        .append_data(&mut header, &gnu_long, &b"g\n"[..])
        .unwrap();
    let pax_long = format!("package/{}/pax.js", "p".repeat(120));
    builder
        .append_pax_extensions([("path", pax_long.as_bytes())])
        .unwrap();
    let mut header = tar::Header::new_ustar();
    header.set_path("package/short.js").unwrap();
    header.set_size(2);
    header.set_mode(0o644);
    header.set_cksum();
    builder.append(&header, &b"p\n"[..]).unwrap();
    pacquet_fuzz_harness::gzip(&builder.into_inner().unwrap())
}
