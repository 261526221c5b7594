//! Times writing the metadata mirror's files for every registry document
//! in a directory mirror (`<dir>/<name>/index.json`, as registry-mirror
//! keeps them): `cargo run --release -p pacquet-registry-metadata --example
//! encode_mirror -- benchmarks/work/mirror`.

use std::time::Instant;

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: encode_mirror <mirror dir>");
    let mut docs = Vec::new();
    for entry in walk(std::path::Path::new(&dir)) {
        if entry.file_name().is_some_and(|n| n == "index.json") {
            docs.push(std::fs::read(&entry).expect("readable"));
        }
    }
    let bytes: usize = docs.iter().map(Vec::len).sum();
    for (label, abbreviate) in [("full", false), ("abbreviated from full", true)] {
        let started = Instant::now();
        let mut written = 0;
        for doc in &docs {
            written += pacquet_registry_metadata::mirror::encode(doc, abbreviate, Some("\"e\""))
                .expect("valid JSON")
                .len();
        }
        println!(
            "{label}: {} documents, {} MB in, {} MB out, {:.0} ms",
            docs.len(),
            bytes >> 20,
            written >> 20,
            started.elapsed().as_secs_f64() * 1e3
        );
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}
