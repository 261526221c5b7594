//! Extraction of a 5 MB tarball (400 files of text-like content, gzip
//! level 6 as npm packs) into a fresh CAS: inflate, hash, write, build the
//! index row; with and without making the CAS's 256 shard directories.
//! Creating and deleting files in the temporary directory of a
//! journal-less ext4 slows the next runs down (ext4 skips recently freed
//! inodes): point `TMPDIR` at tmpfs or a journaled filesystem.

use std::io::Write;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use pacquet_cas::Cas;
use pacquet_tarball::{ExtractLimits, extract_to_store};

#[path = "support/mod.rs"]
mod support;
use support::text;

fn tarball() -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    let mut tar = tar::Builder::new(gz);
    let manifest = br#"{"name":"bench","version":"1.0.0"}"#;
    let mut header = tar::Header::new_gnu();
    header.set_size(manifest.len() as u64);
    header.set_mode(0o644);
    header.set_cksum();
    tar.append_data(&mut header, "package/package.json", &manifest[..])
        .unwrap();
    for i in 0..400u64 {
        let body = text(i, 12_500);
        let mut header = tar::Header::new_gnu();
        header.set_size(body.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, format!("package/lib/f{i:03}.js"), &body[..])
            .unwrap();
    }
    let mut gz = tar.into_inner().unwrap();
    gz.flush().unwrap();
    gz.finish().unwrap()
}

fn benches(c: &mut Criterion) {
    let tgz = tarball();
    eprintln!("tarball: {} bytes gzipped, 5,000,000 unpacked", tgz.len());
    let mut group = c.benchmark_group("tarball");
    group.sample_size(20);
    group.bench_function("extract 5 MB into a fresh CAS", |b| {
        b.iter_batched(
            || tempfile::tempdir().unwrap(),
            |dir| {
                let cas = Cas::new(dir.path());
                extract_to_store(&cas, &tgz, "bench@1.0.0", &ExtractLimits::default()).unwrap();
                dir
            },
            BatchSize::PerIteration,
        )
    });
    // What an install pays per package: the store's shard directories are
    // made once per store, not per tarball.
    group.bench_function("extract 5 MB into a CAS with its shards", |b| {
        b.iter_batched(
            || {
                let dir = tempfile::tempdir().unwrap();
                let cas = Cas::new(dir.path());
                cas.prepare_for_writes().unwrap();
                (dir, cas)
            },
            |(dir, cas)| {
                extract_to_store(&cas, &tgz, "bench@1.0.0", &ExtractLimits::default()).unwrap();
                (dir, cas)
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(extract, benches);
criterion_main!(extract);
