//! Comparing two `node_modules` (or whole project) trees.
//!
//! [`diff_trees`] walks both trees without following symlinks and reports
//! every [`Difference`]: entries present on one side only, kind changes
//! (file / dir / symlink), file contents, exec bits and (optionally) full
//! file modes, and raw symlink targets. State files (`.modules.yaml`,
//! `.pnpm-workspace-state-v1.json`) are compared as JSON after dropping
//! volatile keys and mapping absolute paths through
//! [`DiffOptions::substitutions`]. [`assert_trees_equal`] panics with a
//! readable report.

mod difference;
mod json;
mod options;
mod walk;

use std::path::Path;

pub use difference::{Difference, EntryKind, format_report};
pub use options::DiffOptions;

use walk::{Entry, walk_tree};

/// Every difference between trees `a` and `b`, in path order.
pub fn diff_trees(a: &Path, b: &Path, opts: &DiffOptions) -> Vec<Difference> {
    let left = walk_tree(a, opts);
    let right = walk_tree(b, opts);
    let mut out = Vec::new();
    for (path, ea) in &left {
        match right.get(path) {
            None => out.push(Difference::OnlyInA {
                path: path.clone(),
                kind: ea.kind(),
            }),
            Some(eb) => compare_entry(path, ea, eb, a, b, opts, &mut out),
        }
    }
    for (path, eb) in &right {
        if !left.contains_key(path) {
            out.push(Difference::OnlyInB {
                path: path.clone(),
                kind: eb.kind(),
            });
        }
    }
    out.sort_by(|x, y| x.path().cmp(y.path()));
    out
}

/// Panics with a report listing every difference between `a` and `b`.
pub fn assert_trees_equal(a: &Path, b: &Path, opts: &DiffOptions) {
    let diffs = diff_trees(a, b, opts);
    if !diffs.is_empty() {
        panic!(
            "trees differ\n  a: {}\n  b: {}\n{}",
            a.display(),
            b.display(),
            format_report(&diffs, opts.report_limit)
        );
    }
}

/// Whether `a` and `b` are the same text once each side's paths are
/// replaced by their placeholders.
fn substituted_equal(a: &[u8], b: &[u8], opts: &DiffOptions) -> bool {
    let (Ok(a), Ok(b)) = (std::str::from_utf8(a), std::str::from_utf8(b)) else {
        return false;
    };
    let mut subs: Vec<&(String, String)> = opts.substitutions.iter().collect();
    subs.sort_by_key(|(from, _)| std::cmp::Reverse(from.len()));
    let apply = |text: &str| {
        subs.iter().fold(text.to_owned(), |t, (from, to)| {
            t.replace(from.as_str(), to)
        })
    };
    apply(a) == apply(b)
}

fn compare_entry(
    path: &str,
    ea: &Entry,
    eb: &Entry,
    root_a: &Path,
    root_b: &Path,
    opts: &DiffOptions,
    out: &mut Vec<Difference>,
) {
    match (ea, eb) {
        (Entry::Dir, Entry::Dir) => {}
        (Entry::Symlink(ta), Entry::Symlink(tb)) => {
            if ta != tb {
                out.push(Difference::SymlinkTarget {
                    path: path.to_string(),
                    a: ta.clone(),
                    b: tb.clone(),
                });
            }
        }
        (Entry::File { mode: ma }, Entry::File { mode: mb }) => {
            let bytes_a = std::fs::read(root_a.join(path)).unwrap_or_default();
            let bytes_b = std::fs::read(root_b.join(path)).unwrap_or_default();
            if opts.is_state_file(path) {
                if let Some(detail) = json::compare_state(&bytes_a, &bytes_b, opts) {
                    out.push(Difference::State {
                        path: path.to_string(),
                        detail,
                    });
                }
            } else if bytes_a != bytes_b
                && !(opts.substitute_contents && substituted_equal(&bytes_a, &bytes_b, opts))
            {
                out.push(Difference::Content {
                    path: path.to_string(),
                    detail: difference::describe_content(&bytes_a, &bytes_b),
                });
            }
            if ma & 0o111 != mb & 0o111 {
                out.push(Difference::ExecBits {
                    path: path.to_string(),
                    a: *ma,
                    b: *mb,
                });
            } else if opts.compare_full_mode && ma & 0o7777 != mb & 0o7777 {
                out.push(Difference::Mode {
                    path: path.to_string(),
                    a: *ma,
                    b: *mb,
                });
            }
        }
        _ => out.push(Difference::Kind {
            path: path.to_string(),
            a: ea.kind(),
            b: eb.kind(),
        }),
    }
}
