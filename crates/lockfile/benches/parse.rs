//! Parse and serialize the 389 KB `alotta` lockfile.

use std::{hint::black_box, path::Path};

use criterion::{Criterion, criterion_group, criterion_main};
use pacquet_lockfile::Lockfile;

fn bench(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../benchmarks/fixtures/alotta/pnpm-lock.yaml");
    let text = std::fs::read_to_string(&path).expect("alotta fixture");
    let lockfile = Lockfile::parse(&text, &path).expect("parses");
    c.bench_function("parse alotta", |b| {
        b.iter(|| Lockfile::parse(black_box(&text), &path))
    });
    c.bench_function("to_yaml alotta", |b| {
        b.iter(|| black_box(&lockfile).to_yaml())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
