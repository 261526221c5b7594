//! The fuzz targets' properties on the stable toolchain: a fixed number of
//! seeded mutations of the committed corpus (`fuzz/corpus/<target>/`) per
//! target, the same on every run. Coverage-guided fuzzing is `just fuzz`.

use std::path::{Path, PathBuf};

use pacquet_fuzz_harness::mutate::{Format, Rng, mutate};

fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .collect();
    paths.sort();
    let seeds: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    assert!(!seeds.is_empty(), "no seeds in {}", dir.display());
    seeds
}

/// Runs `check` on every seed, then on `iterations` mutants; a panic names
/// the seed and iteration so it can be replayed.
fn run(target: &str, format: Format, iterations: usize, mut check: impl FnMut(&[u8])) {
    let seeds = corpus(target);
    for seed in &seeds {
        check(seed);
    }
    let mut rng = Rng::new(0x5eed_0000 ^ target.len() as u64);
    for i in 0..iterations {
        let seed = &seeds[i % seeds.len()];
        let other = &seeds[rng.below(seeds.len())];
        let input = mutate(seed, other, format, &mut rng);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&input)));
        if let Err(panic) = result {
            let path = std::env::temp_dir().join(format!("pacquet-fuzz-{target}-{i}"));
            std::fs::write(&path, &input).unwrap();
            std::panic::resume_unwind(Box::new(format!(
                "{target} iteration {i} failed; input saved to {} ({:?})",
                path.display(),
                panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
            )));
        }
    }
}

#[test]
fn lockfile_parser_survives_mutations() {
    run(
        "lockfile",
        Format::Yaml,
        3000,
        pacquet_fuzz_harness::lockfile,
    );
}

#[test]
fn store_index_decoder_survives_mutations() {
    run(
        "store_index",
        Format::Msgpack,
        5000,
        pacquet_fuzz_harness::store_index,
    );
}

#[test]
fn tarball_extraction_survives_mutations() {
    let store = tempfile::tempdir().unwrap();
    let mut n = 0;
    run("tarball", Format::Tar, 2000, |data| {
        // A fresh store now and then keeps the CAS small.
        n += 1;
        if n % 500 == 0 {
            let _ = std::fs::remove_dir_all(store.path().join("files"));
        }
        pacquet_fuzz_harness::tarball(data, store.path());
    });
}
