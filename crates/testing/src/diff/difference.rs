//! Differences between two trees and their report.

use std::fmt;
use std::path::PathBuf;

/// Kind of a tree entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    File,
    Dir,
    Symlink,
    Other,
}

/// One difference; `path` is relative to the compared roots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    OnlyInA {
        path: String,
        kind: EntryKind,
    },
    OnlyInB {
        path: String,
        kind: EntryKind,
    },
    Kind {
        path: String,
        a: EntryKind,
        b: EntryKind,
    },
    Content {
        path: String,
        detail: String,
    },
    ExecBits {
        path: String,
        a: u32,
        b: u32,
    },
    Mode {
        path: String,
        a: u32,
        b: u32,
    },
    SymlinkTarget {
        path: String,
        a: PathBuf,
        b: PathBuf,
    },
    State {
        path: String,
        detail: String,
    },
}

impl Difference {
    /// The relative path this difference is about.
    pub fn path(&self) -> &str {
        match self {
            Difference::OnlyInA { path, .. }
            | Difference::OnlyInB { path, .. }
            | Difference::Kind { path, .. }
            | Difference::Content { path, .. }
            | Difference::ExecBits { path, .. }
            | Difference::Mode { path, .. }
            | Difference::SymlinkTarget { path, .. }
            | Difference::State { path, .. } => path,
        }
    }
}

impl fmt::Display for EntryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EntryKind::File => "file",
            EntryKind::Dir => "dir",
            EntryKind::Symlink => "symlink",
            EntryKind::Other => "other",
        })
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Difference::OnlyInA { path, kind } => write!(f, "only in a ({kind}): {path}"),
            Difference::OnlyInB { path, kind } => write!(f, "only in b ({kind}): {path}"),
            Difference::Kind { path, a, b } => {
                write!(f, "kind differs: {path}: a is {a}, b is {b}")
            }
            Difference::Content { path, detail } => write!(f, "content differs: {path}: {detail}"),
            Difference::ExecBits { path, a, b } => {
                write!(
                    f,
                    "exec bits differ: {path}: a {:o}, b {:o}",
                    a & 0o7777,
                    b & 0o7777
                )
            }
            Difference::Mode { path, a, b } => {
                write!(
                    f,
                    "mode differs: {path}: a {:o}, b {:o}",
                    a & 0o7777,
                    b & 0o7777
                )
            }
            Difference::SymlinkTarget { path, a, b } => {
                write!(
                    f,
                    "symlink target differs: {path}: a -> {}, b -> {}",
                    a.display(),
                    b.display()
                )
            }
            Difference::State { path, detail } => {
                write!(f, "state file differs: {path}:\n{detail}")
            }
        }
    }
}

/// One line (or block) per difference, at most `limit` of them.
pub fn format_report(diffs: &[Difference], limit: usize) -> String {
    let mut out = format!("{} difference(s):\n", diffs.len());
    for d in diffs.iter().take(limit) {
        out.push_str("  ");
        out.push_str(&d.to_string().replace('\n', "\n    "));
        out.push('\n');
    }
    if diffs.len() > limit {
        out.push_str(&format!("  … and {} more\n", diffs.len() - limit));
    }
    out
}

/// Sizes and the first differing line (text) or byte offset (binary).
pub fn describe_content(a: &[u8], b: &[u8]) -> String {
    let sizes = format!("{} vs {} bytes", a.len(), b.len());
    if let (Ok(ta), Ok(tb)) = (std::str::from_utf8(a), std::str::from_utf8(b)) {
        let mut la = ta.lines();
        let mut lb = tb.lines();
        let mut n = 1;
        loop {
            match (la.next(), lb.next()) {
                (Some(x), Some(y)) if x == y => n += 1,
                (None, None) => return format!("{sizes}, line endings differ"),
                (x, y) => {
                    return format!(
                        "{sizes}, first difference at line {n}:\n- {}\n+ {}",
                        clip(x.unwrap_or("<end of file>")),
                        clip(y.unwrap_or("<end of file>"))
                    );
                }
            }
        }
    }
    let offset = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    format!("{sizes}, first differing byte at offset {offset}")
}

fn clip(line: &str) -> String {
    if line.chars().count() > 160 {
        let head: String = line.chars().take(160).collect();
        format!("{head}…")
    } else {
        line.to_string()
    }
}
