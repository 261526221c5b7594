//! SHA-512 over npm-sized files (2–10 KB, 2,000 of them) with each
//! backend, and over whole packages (their files and their `.tgz`) one
//! package per call or several together: throughput in bytes of input.

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

/// 400 packages shaped like npm's: 1 to 60 files of 100 B to 100 KB
/// (log-uniform), and a `.tgz` a quarter of their size. Each package is its
/// inputs, the `.tgz` first.
fn packages() -> Vec<Vec<Vec<u8>>> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..400)
        .map(|_| {
            let count = 1 + (next() % 60) as usize;
            let mut inputs: Vec<Vec<u8>> = (0..count)
                .map(|_| {
                    let len = 100f64 * 1000f64.powf((next() % 1000) as f64 / 1000.0);
                    let seed = next();
                    (0..len as usize).map(|i| (i as u64 ^ seed) as u8).collect()
                })
                .collect();
            let tgz_len = inputs.iter().map(Vec::len).sum::<usize>() / 4;
            let seed = next();
            inputs.insert(0, (0..tgz_len).map(|i| (i as u64 ^ seed) as u8).collect());
            inputs
        })
        .collect()
}

fn bench_packages(c: &mut Criterion) {
    let packages = packages();
    let total: usize = packages.iter().flatten().map(Vec::len).sum();
    let mut group = c.benchmark_group("sha512-npm-packages");
    group.throughput(Throughput::Bytes(total as u64));
    let backend = Backend::detect();
    for together in [1, 4, 8, 16] {
        let calls: Vec<Vec<&[u8]>> = packages
            .chunks(together)
            .map(|chunk| chunk.iter().flatten().map(Vec::as_slice).collect())
            .collect();
        group.bench_function(format!("{backend:?}, {together} per call"), |b| {
            b.iter(|| {
                for inputs in &calls {
                    std::hint::black_box(digest_many_with(backend, inputs));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench, bench_packages);
criterion_main!(benches);
