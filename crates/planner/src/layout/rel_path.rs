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
    join_all(&[dir, child])
}

/// `a/b/c…`, skipping empty parts (`""` is the root), in one allocation:
/// `format!` for each of a plan's ~10,000 joins was a fifth of planning
/// alotta (`perf`, a lockfile-change install).
pub fn join_all(parts: &[&str]) -> String {
    let len = parts.iter().map(|p| p.len() + 1).sum::<usize>();
    let mut out = String::with_capacity(len);
    for part in parts.iter().filter(|p| !p.is_empty()) {
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(part);
    }
    out
}

/// The relative path from directory `from` to `to`, as `path.relative` gives
/// it (both normalized, relative to the same root).
///
/// Components are compared as they are split, with no intermediate
/// vectors: planning alotta computes ~4,000 of these, twice on a changed
/// lockfile, and the two allocations per call were 6 % of such an install.
pub fn relative(from: &str, to: &str) -> String {
    let (from_len, to_len) = (from.len(), to.len());
    let parts = |path| str::split(path, '/').filter(|p: &&str| !p.is_empty());
    let (mut from, mut to) = (parts(from).peekable(), parts(to).peekable());
    while let (Some(a), Some(b)) = (from.peek(), to.peek()) {
        if a != b {
            break;
        }
        from.next();
        to.next();
    }
    let mut out = String::with_capacity(from_len + to_len);
    for _ in from {
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str("..");
    }
    for part in to {
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
