//! `pacquet-tree-diff PROJECT_A STORE_A PROJECT_B STORE_B`: compares two
//! installed projects as the compatibility tests do (paths, kinds, contents,
//! exec bits, symlink targets, state files with store and project paths
//! normalized). Prints the differences; exit 1 when there are any. Used by
//! `tasks/compat-fixture.sh` for fixtures too large for the test suite.

use std::path::PathBuf;

use pacquet_testing::{DiffOptions, diff_trees, format_report};

fn main() {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [a, store_a, b, store_b] = args.as_slice() else {
        eprintln!("usage: pacquet-tree-diff PROJECT_A STORE_A PROJECT_B STORE_B");
        std::process::exit(2);
    };
    let opts = DiffOptions::for_installs(a, store_a, b, store_b);
    let diffs = diff_trees(a, b, &opts);
    if diffs.is_empty() {
        println!("no differences between {} and {}", a.display(), b.display());
        return;
    }
    println!("{}", format_report(&diffs, opts.report_limit));
    std::process::exit(1);
}
