//! The `.ps1` shim (PowerShell, also PowerShell 7 on Linux/WSL): LF line
//! ends, `$basedir` is the shim's directory.

use std::fmt::Write as _;

use super::{WindowsShim, is_absolute};

/// The `.ps1` text cmd-shim 7.0.0 writes for `shim`.
pub fn pwsh_shim(shim: &WindowsShim<'_>) -> String {
    let target = shim.target.replace('\\', "/");
    let target = if is_absolute(&target) {
        format!("\"{target}\"")
    } else {
        format!("\"$basedir/{target}\"")
    };
    let win32 = shim.node_path_win32();
    let mut out = String::from(
        "#!/usr/bin/env pwsh\n$basedir=Split-Path $MyInvocation.MyCommand.Definition -Parent\n\n$exe=\"\"\n",
    );
    if !win32.is_empty() {
        let _ = write!(
            out,
            "$pathsep=\":\"\n$env_node_path=$env:NODE_PATH\n$new_node_path=\"{win32}\"\n"
        );
    }
    out.push_str(
        "if ($PSVersionTable.PSVersion -lt \"6.0\" -or $IsWindows) {\n  # Fix case when both the Windows and Linux builds of Node\n  # are installed in the same directory\n  $exe=\".exe\"\n",
    );
    if !win32.is_empty() {
        out.push_str("  $pathsep=\";\"\n");
    }
    out.push('}');
    let restore = if win32.is_empty() {
        ""
    } else {
        let posix = shim.node_path_posix();
        let _ = write!(
            out,
            " else {{\n  $new_node_path=\"{posix}\"\n}}\nif ([string]::IsNullOrEmpty($env_node_path)) {{\n  $env:NODE_PATH=$new_node_path\n}} else {{\n  $env:NODE_PATH=\"$new_node_path$pathsep$env_node_path\"\n}}\n"
        );
        "$env:NODE_PATH=$env_node_path\n"
    };
    match shim.runtime {
        None => {
            // The target is the program; the empty argument slots remain.
            let call = format!("{target}   $args");
            let _ = write!(
                out,
                "\n# Support pipeline input\nif ($MyInvocation.ExpectingInput) {{\n  $input | & {call}\n}} else {{\n  & {call}\n}}\n{restore}exit $LASTEXITCODE\n"
            );
        }
        Some(runtime) => {
            let args = &runtime.args;
            let local = format!("\"$basedir/{}$exe\"", runtime.program);
            let on_path = format!("\"{}$exe\"", runtime.program.replace('\\', "/"));
            let call = |prog: &str| format!("{prog} {args} {target} $args");
            let _ = write!(
                out,
                "\n$ret=0\nif (Test-Path {local}) {{\n  # Support pipeline input\n  if ($MyInvocation.ExpectingInput) {{\n    $input | & {a}\n  }} else {{\n    & {a}\n  }}\n  $ret=$LASTEXITCODE\n}} else {{\n  # Support pipeline input\n  if ($MyInvocation.ExpectingInput) {{\n    $input | & {b}\n  }} else {{\n    & {b}\n  }}\n  $ret=$LASTEXITCODE\n}}\n{restore}exit $ret\n",
                a = call(&local),
                b = call(&on_path),
            );
        }
    }
    out
}
