//! Which program runs a bin target, from its shebang or extension.

use std::path::Path;

/// The program a shim hands the target to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Runtime {
    /// Program as written in the shebang (`node`, `/bin/sh`, …) or implied
    /// by the extension.
    pub program: String,
    /// Everything after the program on the shebang line, verbatim (leading
    /// whitespace included), or `/C` for `cmd`.
    pub args: String,
    /// `.cmd`/`.bat` targets: the shim tells MSYS not to convert `/C`.
    pub cmd: bool,
}

/// The runtime for `target` whose first bytes are `head` (at least its first
/// line when it starts with `#!`), or `None` to exec the target directly.
///
/// A shebang `#!prog args` or `#!/usr/bin/env [-S] prog args` wins (a
/// trailing `\r` is dropped); `#!/usr/bin/env` with no program is ignored.
/// Without one, the extension decides: `.js`/`.cjs`/`.mjs` → `node`,
/// `.sh` → `sh`, `.ps1` → `pwsh`, `.cmd`/`.bat` → `cmd /C`.
pub fn detect_runtime(target: &Path, head: &[u8]) -> Option<Runtime> {
    shebang(head).or_else(|| by_extension(target))
}

fn shebang(head: &[u8]) -> Option<Runtime> {
    let rest = head.strip_prefix(b"#!")?;
    let line = match rest.iter().position(|&b| b == b'\n') {
        Some(end) => &rest[..end],
        None => rest,
    };
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = String::from_utf8_lossy(line);
    let mut rest = trim_blank_start(&line);
    if let Some(after) = rest.strip_prefix("/usr/bin/env")
        && (after.is_empty() || after.starts_with(is_blank))
    {
        rest = trim_blank_start(after);
        if let Some(after) = rest.strip_prefix("-S")
            && after.starts_with(is_blank)
        {
            rest = trim_blank_start(after);
        }
    }
    let end = rest.find(is_blank).unwrap_or(rest.len());
    if end == 0 {
        return None;
    }
    Some(Runtime {
        program: rest[..end].to_owned(),
        args: rest[end..].to_owned(),
        cmd: false,
    })
}

fn by_extension(target: &Path) -> Option<Runtime> {
    let ext = target.extension()?.to_str()?;
    let (program, args, cmd) = match ext {
        "js" | "cjs" | "mjs" => ("node", "", false),
        "sh" => ("sh", "", false),
        "ps1" => ("pwsh", "", false),
        "cmd" | "bat" => ("cmd", "/C", true),
        _ => return None,
    };
    Some(Runtime {
        program: program.to_owned(),
        args: args.to_owned(),
        cmd,
    })
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn trim_blank_start(s: &str) -> &str {
    s.trim_start_matches(is_blank)
}

#[cfg(test)]
mod tests;
