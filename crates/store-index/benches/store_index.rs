//! Prefetch of 1,400 keys from a synthetic index, and decode of a typical row.

use criterion::{Criterion, criterion_group, criterion_main};
use pacquet_store_index::{
    FileInfo, IndexWriter, PackageFilesIndex, decode, encode, prefetch, prefetch_raw,
};
use serde_json::json;
use std::hint::black_box;

/// A row shaped like a mid-sized npm package: 40 files and a manifest.
fn typical_row(i: usize) -> PackageFilesIndex {
    let files = (0..40)
        .map(|f| {
            let info = FileInfo {
                digest: format!("{:0128x}", i * 1000 + f),
                mode: if f == 0 { 0o755 } else { 0o644 },
                size: 1000 + f as u64 * 37,
                checked_at: Some(1_795_331_361_223.0),
            };
            (format!("lib/file-{f:02}.js"), info)
        })
        .collect();
    PackageFilesIndex {
        algo: "sha512".into(),
        requires_build: Some(false),
        manifest: Some(json!({
            "version": "1.0.0",
            "bin": {"pkg": "bin/pkg.js"},
            "dependencies": {"a": "^1.0.0", "b": "^2.0.0"},
            "engines": {"node": ">=18"},
            "name": format!("pkg-{i}"),
        })),
        files,
        tar_integrity: Some(format!("sha512-{i:086}==")),
        ..Default::default()
    }
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let keys: Vec<String> = (0..1400)
        .map(|i| format!("sha512-{i:086}==\tpkg-{i}@1.0.0"))
        .collect();
    let writer = IndexWriter::spawn(dir.path()).expect("writer");
    for (i, key) in keys.iter().enumerate() {
        writer.put(key.clone(), typical_row(i));
    }
    writer.finish().expect("flush");
    let key_refs: Vec<&str> = keys.iter().map(String::as_str).collect();

    c.bench_function("prefetch_1400_keys", |b| {
        b.iter(|| {
            let rows = prefetch(dir.path(), black_box(&key_refs));
            assert!(rows.iter().all(Option::is_some));
            rows
        })
    });

    c.bench_function("prefetch_raw_1400_keys", |b| {
        b.iter(|| prefetch_raw(dir.path(), black_box(&key_refs)))
    });

    let blob = encode(&typical_row(7));
    c.bench_function("decode_typical_row", |b| {
        b.iter(|| decode(black_box(&blob)))
    });
    let row = typical_row(7);
    c.bench_function("encode_typical_row", |b| b.iter(|| encode(black_box(&row))));
}

criterion_group!(store_index, benches);
criterion_main!(store_index);
