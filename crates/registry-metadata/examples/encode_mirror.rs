//! Times writing the metadata mirror's files (without the disk) for every
//! registry document in a directory mirror (`<dir>/<name>/index.json`, as
//! registry-mirror keeps them): `cargo run --release -p
//! pacquet-registry-metadata --example encode_mirror -- benchmarks/work/mirror`.

use std::path::{Path, PathBuf};
use std::time::Instant;

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: encode_mirror <mirror dir>");
    let docs: Vec<Vec<u8>> = walk(Path::new(&dir))
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "index.json"))
        .map(|p| std::fs::read(p).expect("readable"))
        .collect();
    let bytes: usize = docs.iter().map(Vec::len).sum();
    let started = Instant::now();
    for doc in &docs {
        pacquet_registry_metadata::mirror::encode(doc, Some("\"e\"")).expect("valid JSON");
    }
    println!(
        "{} documents, {} MB: {:.0} ms",
        docs.len(),
        bytes >> 20,
        started.elapsed().as_secs_f64() * 1e3
    );
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .flat_map(|e| {
            let path = e.path();
            if path.is_dir() {
                walk(&path)
            } else {
                vec![path]
            }
        })
        .collect()
}
