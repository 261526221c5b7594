//! Lexical relative paths between absolute paths (no syscalls).

use std::path::{Component, Path, PathBuf};

/// `to` relative to the directory `from`, like Node's `path.relative`:
/// both are taken as given (not canonicalized), `.` components are ignored
/// and `..` components pop. Equal paths give an empty path.
pub fn relative_path(from: &Path, to: &Path) -> PathBuf {
    let from = normal_components(from);
    let to = normal_components(to);
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for part in &to[common..] {
        out.push(part);
    }
    out
}

fn normal_components(path: &Path) -> Vec<Component<'_>> {
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.last(), Some(Component::Normal(_))) {
                    out.pop();
                } else if out.is_empty() {
                    out.push(c);
                }
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
