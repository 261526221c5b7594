//! SHA-512 over npm-sized files (2–10 KB, 2,000 of them) with each
//! backend: throughput in bytes of input.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pacquet_sha512::{Backend, digest_many_with};

fn files() -> Vec<Vec<u8>> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    (0..2000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = 2048 + (state % 8192) as usize;
            (0..len).map(|i| (i as u64 ^ state) as u8).collect()
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let files = files();
    let refs: Vec<&[u8]> = files.iter().map(Vec::as_slice).collect();
    let total: usize = files.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group("sha512-npm-files");
    group.throughput(Throughput::Bytes(total as u64));
    for backend in Backend::available() {
        group.bench_function(format!("{backend:?}"), |b| {
            b.iter(|| digest_many_with(backend, &refs))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
