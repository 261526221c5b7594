//! Inflating a 5 MB npm-like tarball: flate2 streaming in 8 KiB reads (the
//! path before whole-buffer inflate) against libdeflate on the whole
//! buffer into a reused output (the path now). Throughput in tar bytes.

use std::io::{Read, Write};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

#[path = "support/mod.rs"]
mod support;
use support::text;

fn bench(c: &mut Criterion) {
    let tar = text(1, 5 << 20);
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    encoder.write_all(&tar).unwrap();
    let tgz = encoder.finish().unwrap();
    let mut group = c.benchmark_group("inflate-5MB");
    group.throughput(Throughput::Bytes(tar.len() as u64));
    group.bench_function("flate2-streaming-8KiB", |b| {
        b.iter(|| {
            let mut decoder = flate2::read::GzDecoder::new(&tgz[..]);
            let mut buf = [0u8; 8192];
            let mut total = 0;
            loop {
                let n = decoder.read(&mut buf).unwrap();
                if n == 0 {
                    break total;
                }
                total += n;
            }
        })
    });
    let mut out = vec![0u8; tar.len()];
    group.bench_function("libdeflate-whole", |b| {
        b.iter(|| {
            libdeflater::Decompressor::new()
                .gzip_decompress(&tgz, &mut out)
                .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
