//! Root-relative POSIX paths as plain strings (`""` is the root), and the
//! one relative-path rule every crate uses (Node's `path.relative`).

use std::path::Path;

/// Resolves `.` and `..` components; leading `..` that climb above the root
/// are kept.
pub fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    parts.join("/")
}

/// `dir/child`, treating `""` as the root.
pub fn join(dir: &str, child: &str) -> String {
    if dir.is_empty() {
        child.to_owned()
    } else if child.is_empty() {
        dir.to_owned()
    } else {
        format!("{dir}/{child}")
    }
}

/// The relative path from directory `from` to `to`, as `path.relative` gives
/// it (both normalized, relative to the same root).
pub fn relative(from: &str, to: &str) -> String {
    let from: Vec<&str> = from.split('/').filter(|p| !p.is_empty()).collect();
    let to: Vec<&str> = to.split('/').filter(|p| !p.is_empty()).collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out = String::new();
    for _ in common..from.len() {
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str("..");
    }
    for part in &to[common..] {
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(part);
    }
    out
}

/// [`relative`] between filesystem paths, `.` and `..` resolved first
/// (lexically: no syscalls, symlinks are not followed).
pub fn relative_path(from: &Path, to: &Path) -> String {
    relative(
        &normalize(&from.to_string_lossy()),
        &normalize(&to.to_string_lossy()),
    )
}

#[cfg(test)]
mod tests;
