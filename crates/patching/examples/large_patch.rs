//! Times applying a large patch: 5,000 one-line hunks over a 100,000-line
//! file (`cargo run --release -p pacquet-patching --example large_patch`).

use std::{fmt::Write, time::Instant};

fn main() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pkg = dir.path().join("pkg");
    std::fs::create_dir_all(&pkg).expect("package dir");
    let lines = 100_000;
    let text: String = (0..lines).map(|i| format!("line {i}\n")).collect();
    std::fs::write(pkg.join("big.js"), &text).expect("write file");
    let mut patch = String::from("--- a/big.js\n+++ b/big.js\n");
    for h in 0..5_000 {
        let at = h * 20 + 2; // 1-based line of the hunk's first context line
        let line = at - 1;
        let _ = write!(
            patch,
            "@@ -{at},3 +{at},3 @@\n line {line}\n-line {}\n+changed {}\n line {}\n",
            line + 1,
            line + 1,
            line + 2
        );
    }
    let patch_file = dir.path().join("big.patch");
    std::fs::write(&patch_file, &patch).expect("write patch");
    let started = Instant::now();
    pacquet_patching::apply_patch(&pkg, &patch_file).expect("applies");
    let took = started.elapsed();
    let after = std::fs::read_to_string(pkg.join("big.js")).expect("read");
    assert_eq!(after.matches("changed").count(), 5_000);
    println!(
        "applied 5000 hunks to a {lines}-line file ({} KiB patch) in {:.1} ms",
        patch.len() / 1024,
        took.as_secs_f64() * 1000.0
    );
}
