//! `pacquet-tree-diff PROJECT_A STORE_A PROJECT_B STORE_B`: compares two
//! installed projects as the compatibility tests do (paths, kinds, contents,
//! exec bits, symlink targets, state files with store and project paths
//! normalized). With the global virtual store (`STORE/links` on both sides)
//! the slots are compared too, and store paths inside files (shims) are
//! normalized as well. Prints the differences; exit 1 when there are any.
//! Used by `tasks/compat-fixture.sh` for fixtures too large for the test
//! suite.

use std::path::PathBuf;

use pacquet_testing::{DiffOptions, diff_trees, format_report};

fn main() {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [a, store_a, b, store_b] = args.as_slice() else {
        eprintln!("usage: pacquet-tree-diff PROJECT_A STORE_A PROJECT_B STORE_B");
        std::process::exit(2);
    };
    let mut opts = DiffOptions::for_installs(a, store_a, b, store_b);
    let (links_a, links_b) = (store_a.join("links"), store_b.join("links"));
    let global = links_a.is_dir() && links_b.is_dir();
    opts.substitute_contents = global;
    let mut failed = false;
    let mut compare = |a: &PathBuf, b: &PathBuf| {
        let diffs = diff_trees(a, b, &opts);
        if diffs.is_empty() {
            println!("no differences between {} and {}", a.display(), b.display());
        } else {
            println!("{}", format_report(&diffs, opts.report_limit));
            failed = true;
        }
    };
    compare(a, b);
    if global {
        compare(&links_a, &links_b);
    }
    if failed {
        std::process::exit(1);
    }
}
