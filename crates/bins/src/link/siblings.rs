//! The `.cmd` and `.ps1` shims pnpm writes next to each `sh` shim on
//! Windows (docs/layout.md §6.3); nothing elsewhere.

use std::path::{Path, PathBuf};

use crate::error::BinError;

/// What the siblings of one shim are made from (read by the Windows writer
/// only).
#[cfg_attr(not(windows), allow(dead_code))]
pub(super) struct Siblings<'a> {
    /// The `sh` shim; the siblings are `<shim>.CMD` and `<shim>.ps1`.
    pub shim_path: &'a Path,
    pub target: &'a Path,
    pub target_head: &'a [u8],
    pub node_path: &'a [PathBuf],
    /// pnpm writes no `.ps1` for the `pnpm` package's own commands (and
    /// removes one left behind): PowerShell would prefer it over the
    /// `.cmd` of every later pnpm installation.
    pub powershell: bool,
}

/// Writes the siblings; `true` when any file was (re)written.
#[cfg(windows)]
pub(super) fn write_siblings(s: &Siblings<'_>) -> Result<bool, BinError> {
    use crate::runtime::detect_runtime;
    use crate::windows_shim::{WindowsShim, cmd_extension, cmd_shim, pwsh_shim, win32_relative};

    let shim_dir = s.shim_path.parent().unwrap_or(Path::new("."));
    let target = win32_relative(&shim_dir.to_string_lossy(), &s.target.to_string_lossy());
    let runtime = detect_runtime(s.target, s.target_head);
    let node_path: Vec<String> = s
        .node_path
        .iter()
        .map(|dir| dir.to_string_lossy().into_owned())
        .collect();
    let shim = WindowsShim {
        target: &target,
        runtime: runtime.as_ref(),
        node_path: &node_path,
    };
    let pathext = std::env::var("PATHEXT").ok();
    let cmd_path = with_suffix(s.shim_path, &cmd_extension(pathext.as_deref()));
    let mut written = super::write::write_shim(&cmd_path, cmd_shim(&shim).as_bytes())?;
    let ps1_path = with_suffix(s.shim_path, ".ps1");
    if s.powershell {
        written |= super::write::write_shim(&ps1_path, pwsh_shim(&shim).as_bytes())?;
    } else {
        match std::fs::remove_file(&ps1_path) {
            Ok(()) => written = true,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return Err(BinError::Write {
                    path: ps1_path,
                    source,
                });
            }
        }
    }
    Ok(written)
}

/// Elsewhere the `sh` shim is the only one.
#[cfg(not(windows))]
pub(super) fn write_siblings(_s: &Siblings<'_>) -> Result<bool, BinError> {
    Ok(false)
}

/// `name` + `suffix`: a command name may itself contain dots.
#[cfg(windows)]
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}
