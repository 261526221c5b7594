//! Facts about the Node.js that runs lifecycle scripts.

use std::process::Command;
use std::sync::OnceLock;

/// `process.platform` for the current OS (`linux`, `darwin`, `win32`, …).
pub fn node_platform() -> &'static str {
    match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        "illumos" => "sunos",
        other => other,
    }
}

/// `process.arch` for the current CPU (`x64`, `arm64`, `ia32`, …).
pub fn node_arch() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        "x86" => "ia32",
        "powerpc64" => "ppc64",
        "powerpc" => "ppc",
        "loongarch64" => "loong64",
        "mips64" => "mips64el",
        "mips" => "mipsel",
        other => other,
    }
}

/// Major version of `node` on `PATH` (`node --version` runs once per
/// process); `None` when there is no usable `node`.
pub fn node_major() -> Option<u32> {
    static MAJOR: OnceLock<Option<u32>> = OnceLock::new();
    *MAJOR.get_or_init(|| {
        let out = Command::new("node").arg("--version").output().ok()?;
        if !out.status.success() {
            return None;
        }
        parse_node_major(&String::from_utf8_lossy(&out.stdout))
    })
}

/// `v20.20.2` → 20.
pub fn parse_node_major(version: &str) -> Option<u32> {
    let v = version.trim();
    let v = v.strip_prefix('v').unwrap_or(v);
    v.split('.').next()?.parse().ok()
}
