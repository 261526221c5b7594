//! Plan the `alotta` lockfile (1,352 snapshots) in both layouts: the
//! planner runs on the main thread before anything is installed, so its
//! time is on every install's critical path.

use std::{hint::black_box, path::Path};

use criterion::{Criterion, criterion_group, criterion_main};
use pacquet_lockfile::Lockfile;
use pacquet_planner::{HostPlatform, Layout, PlanOptions, plan};

fn url(name: &str, version: &str) -> String {
    format!("https://registry.npmjs.org/{name}/-/{version}.tgz")
}

fn bench(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../benchmarks/fixtures/alotta/pnpm-lock.yaml");
    let text = std::fs::read_to_string(&path).expect("alotta fixture");
    let lockfile = Lockfile::parse(&text, &path).expect("parses");
    let host = HostPlatform {
        os: "linux".into(),
        cpu: "x64".into(),
        libc: Some("glibc".into()),
    };
    for (name, layout) in [
        ("plan alotta isolated", Layout::Isolated),
        ("plan alotta hoisted", Layout::Hoisted),
    ] {
        let mut opts = PlanOptions::new(host.clone(), &url);
        opts.layout = layout;
        c.bench_function(name, |b| {
            b.iter(|| plan(black_box(&lockfile), &opts).expect("plans"))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
