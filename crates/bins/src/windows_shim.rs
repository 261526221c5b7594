//! The `.cmd` and `.ps1` shims pnpm writes next to each `sh` shim on
//! Windows (docs/layout.md §6.3), in the format of `@zkochan/cmd-shim`
//! 7.0.0. Pure text: compiled and tested on every platform, written to disk
//! only on Windows (`link::windows`).

mod cmd;
mod pwsh;

pub use cmd::{cmd_extension, cmd_shim};
pub use pwsh::pwsh_shim;

use crate::runtime::Runtime;

/// What both Windows shims are made of.
#[derive(Debug, Clone, Copy)]
pub struct WindowsShim<'a> {
    /// The target relative to the shim's directory as [`win32_relative`]
    /// gives it, or absolute when it is on another drive.
    pub target: &'a str,
    /// From [`crate::detect_runtime`]; `None` runs the target directly.
    pub runtime: Option<&'a Runtime>,
    /// Absolute `NODE_PATH` directories in Windows form, in order; repeated
    /// ones are dropped (pnpm passes a set). May be empty.
    pub node_path: &'a [String],
}

impl WindowsShim<'_> {
    /// The entries once each, in order.
    fn node_path_entries(&self) -> Vec<&str> {
        let mut seen: Vec<&str> = Vec::with_capacity(self.node_path.len());
        for dir in self.node_path {
            if !seen.contains(&dir.as_str()) {
                seen.push(dir);
            }
        }
        seen
    }

    /// `NODE_PATH` as Windows reads it: `\`-separated, joined by `;`.
    fn node_path_win32(&self) -> String {
        self.node_path_entries()
            .iter()
            .map(|dir| dir.replace('/', "\\"))
            .collect::<Vec<_>>()
            .join(";")
    }

    /// `NODE_PATH` for PowerShell on WSL: `/`-separated, a drive `C:`
    /// becoming `/mnt/c`, joined by `:`.
    fn node_path_posix(&self) -> String {
        self.node_path_entries()
            .iter()
            .map(|dir| wsl_path(&dir.replace('\\', "/")))
            .collect::<Vec<_>>()
            .join(":")
    }
}

/// cmd-shim's drive rewrite: a first `X:` (nothing before it but
/// non-separators) becomes `/mnt/x`.
fn wsl_path(path: &str) -> String {
    match path.split_once(':') {
        Some((drive, rest)) if !drive.contains(['/', '\\']) => {
            format!("/mnt/{}{rest}", drive.to_lowercase())
        }
        _ => path.to_owned(),
    }
}

/// Node's `path.win32.isAbsolute`: a leading separator, or `X:` and one.
fn is_absolute(path: &str) -> bool {
    let b = path.as_bytes();
    match b.first() {
        None => false,
        Some(b'/' | b'\\') => true,
        Some(c) => {
            c.is_ascii_alphabetic()
                && b.get(1) == Some(&b':')
                && matches!(b.get(2), Some(b'/' | b'\\'))
        }
    }
}

/// Node's `path.win32.relative(from_dir, to)` for absolute paths: segments
/// compared case-insensitively, the result `\`-separated; `to` itself
/// (with `\` separators) when the two have different roots (drives).
pub fn win32_relative(from_dir: &str, to: &str) -> String {
    let split = |p: &str| -> Vec<String> {
        p.split(['/', '\\'])
            .filter(|s| !s.is_empty() && *s != ".")
            .map(str::to_owned)
            .collect()
    };
    let (from, to_parts) = (split(from_dir), split(to));
    let same = |a: &String, b: &String| a.eq_ignore_ascii_case(b);
    if from
        .first()
        .zip(to_parts.first())
        .is_none_or(|(a, b)| !same(a, b))
    {
        return to.replace('/', "\\");
    }
    let common = from
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| same(a, b))
        .count();
    let ups = std::iter::repeat_n("..", from.len() - common);
    ups.chain(to_parts[common..].iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join("\\")
}

#[cfg(test)]
mod tests;
