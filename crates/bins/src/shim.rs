//! The pnpm 12.21 `sh` shim text (docs/layout.md §6).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::runtime::{Runtime, detect_runtime};
use pacquet_planner::layout::{normalize, relative_path};

/// Fixed head of every shim: resolve `$0` to the shim's real directory and
/// detect Cygwin/MSYS/WSL. Recorded from pnpm 12.21.0 output.
const PROLOGUE: &str = include_str!("prologue.sh");

/// Prefix of a shim's last line, followed by the target relative to the
/// shim's directory. pnpm compares it to decide whether a shim is current.
pub const SHIM_TARGET_MARKER: &str = "# cmd-shim-target=";

/// The shim for `target` placed in `shim_dir`, byte-identical to pnpm
/// 12.21.0's: the prologue, `NODE_PATH` from `node_path` (absolute dirs,
/// written relative to `shim_dir`, duplicates dropped; omitted when empty),
/// then either the six-branch runtime tail (runtime from
/// [`detect_runtime`] on `target_head`) or a direct `exec`, and the
/// `# cmd-shim-target=` line. Paths are used as given, so pass real
/// (symlink-free) paths.
pub fn shim_script(
    shim_dir: &Path,
    target: &Path,
    target_head: &[u8],
    node_path: &[PathBuf],
) -> String {
    shim_script_within(shim_dir, target, target_head, node_path, None)
}

/// [`shim_script`], with `NODE_PATH` directories outside `project` written
/// as given instead of relative to the shim, as pnpm 12.21 writes those of
/// a virtual store outside the project (the global virtual store,
/// `virtualStoreDir: ../vs`; docs/layout.md §16.3).
pub fn shim_script_within(
    shim_dir: &Path,
    target: &Path,
    target_head: &[u8],
    node_path: &[PathBuf],
    project: Option<&Path>,
) -> String {
    let rel = relative_path(shim_dir, target);
    let quoted = quote(&rel);
    let mut out = String::with_capacity(PROLOGUE.len() + 1536);
    out.push_str(PROLOGUE);
    out.push('\n');
    write_node_path(&mut out, shim_dir, node_path, project);
    match detect_runtime(target, target_head) {
        Some(runtime) => write_runtime_tail(&mut out, &runtime, &quoted),
        None => {
            let _ = writeln!(out, "exec \"$basedir_abs\"/{quoted}  \"$@\"");
            out.push_str("exit $?\n");
        }
    }
    // Outside the project the marker names the target as it is (pnpm 12.21
    // with the global virtual store).
    if inside(target, project) {
        let _ = writeln!(out, "{SHIM_TARGET_MARKER}{rel}");
    } else {
        let _ = writeln!(out, "{SHIM_TARGET_MARKER}{}", target.display());
    }
    out
}

fn write_node_path(
    out: &mut String,
    shim_dir: &Path,
    node_path: &[PathBuf],
    project: Option<&Path>,
) {
    let mut seen: Vec<&PathBuf> = Vec::with_capacity(node_path.len());
    // Directories written as given run together in one quoted string.
    let mut list = String::new();
    let mut verbatim = String::new();
    for dir in node_path {
        if seen.contains(&dir) {
            continue;
        }
        seen.push(dir);
        if inside(dir, project) {
            flush_verbatim(&mut list, &mut verbatim);
            if !list.is_empty() {
                list.push(':');
            }
            let rel = relative_path(shim_dir, dir);
            let _ = write!(list, "\"$basedir_abs\"/{}", quote(&rel));
        } else {
            if !verbatim.is_empty() {
                verbatim.push(':');
            }
            verbatim.push_str(&dir.to_string_lossy());
        }
    }
    flush_verbatim(&mut list, &mut verbatim);
    if list.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "if [ -z \"$NODE_PATH\" ]; then\n  export NODE_PATH={list}\nelse\n  export NODE_PATH={list}:\"$NODE_PATH\"\nfi\n"
    );
}

/// Whether `path` is within `project` (lexically), or no project is given.
fn inside(path: &Path, project: Option<&Path>) -> bool {
    project.is_none_or(|p| {
        let (path, p) = (path.to_string_lossy(), p.to_string_lossy());
        let (path, p) = (normalize(&path), normalize(&p));
        path.strip_prefix(p.as_str())
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

fn flush_verbatim(list: &mut String, verbatim: &mut String) {
    if verbatim.is_empty() {
        return;
    }
    if !list.is_empty() {
        list.push(':');
    }
    list.push_str(&quote(verbatim));
    verbatim.clear();
}

fn write_runtime_tail(out: &mut String, runtime: &Runtime, target: &str) {
    if runtime.cmd {
        out.push_str(
            "if [ -n \"$msys\" ]; then\n  export MSYS2_ARG_CONV_EXCL=\"/C${MSYS2_ARG_CONV_EXCL:+;$MSYS2_ARG_CONV_EXCL}\"\nfi\n",
        );
    }
    let prog = &runtime.program;
    let args = &runtime.args;
    let win = format!("{args} \"$basedir_win\"/{target} \"$@\"");
    let abs = format!("{args} \"$basedir_abs\"/{target} \"$@\"");
    let _ = write!(
        out,
        "if [ -n \"$exe\" ] && [ -x \"$basedir/{prog}.exe\" ]; then\n  exec \"$basedir/{prog}.exe\" {win}\n\
         elif [ -x \"$basedir/{prog}\" ]; then\n  exec \"$basedir/{prog}\" {abs}\n\
         elif [ -n \"$msys\" ] && command -v {prog} >/dev/null 2>&1; then\n  exec {prog} {win}\n\
         elif command -v {prog} >/dev/null 2>&1; then\n  exec {prog} {abs}\n\
         elif [ -n \"$exe\" ] && command -v {prog}.exe >/dev/null 2>&1; then\n  exec {prog}.exe {win}\n\
         else\n  exec {prog} {abs}\nfi\n"
    );
}

/// Single-quoted for `sh`: `'` becomes `'\''`.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests;
