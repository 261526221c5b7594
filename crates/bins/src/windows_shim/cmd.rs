//! The `.cmd` shim (Command Prompt): CRLF line ends, `%~dp0` is the shim's
//! directory.

use std::fmt::Write as _;

use super::{WindowsShim, is_absolute};

/// The shim's extension: `.CMD` as `PATHEXT` spells it (its default is
/// upper case), else `.cmd`, as the `cmd-extension` package picks it.
pub fn cmd_extension(pathext: Option<&str>) -> String {
    pathext
        .and_then(|list| list.split(';').find(|ext| ext.eq_ignore_ascii_case(".cmd")))
        .unwrap_or(".cmd")
        .to_owned()
}

/// The `.cmd` text cmd-shim 7.0.0 writes for `shim`, with every `%` of a
/// path or argument doubled (pnpm's copy of cmd-shim does this since a
/// lone `%` expands a variable even inside quotes).
pub fn cmd_shim(shim: &WindowsShim<'_>) -> String {
    let target = escape(&shim.target.replace('/', "\\"));
    let target = if is_absolute(&target) {
        format!("\"{target}\"")
    } else {
        format!("\"%~dp0\\{target}\"")
    };
    let mut out = String::from("@SETLOCAL\r\n");
    let node_path = escape(&shim.node_path_win32());
    if !node_path.is_empty() {
        let _ = write!(
            out,
            "@IF NOT DEFINED NODE_PATH (\r\n  @SET \"NODE_PATH={node_path}\"\r\n) ELSE (\r\n  @SET \"NODE_PATH={node_path};%NODE_PATH%\"\r\n)\r\n"
        );
    }
    match shim.runtime {
        // The empty argument and program-argument slots leave three spaces.
        None => {
            let _ = write!(out, "@{target}   %*\r\n");
        }
        Some(runtime) => {
            let prog = escape(&runtime.program);
            let args = escape(&runtime.args);
            let local = format!("\"%~dp0\\{prog}.exe\"");
            let _ = write!(
                out,
                "@IF EXIST {local} (\r\n  {local} {args} {target} %*\r\n) ELSE (\r\n  @SET PATHEXT=%PATHEXT:;.JS;=;%\r\n  {prog} {args} {target} %*\r\n)\r\n"
            );
        }
    }
    out
}

fn escape(text: &str) -> String {
    text.replace('%', "%%")
}
