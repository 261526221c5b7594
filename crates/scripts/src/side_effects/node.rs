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
    parse_node_major(node_version()?)
}

/// The version of `node` on `PATH` without its `v` (`20.20.2`), asked once
/// per process. Asking costs a process (~40 ms here, a tenth of a warm
/// install), so the answer is cached per `node` binary (docs/store.md §9.2).
pub fn node_version() -> Option<&'static str> {
    static VERSION: OnceLock<Option<String>> = OnceLock::new();
    VERSION
        .get_or_init(|| {
            let binary = super::node_cache::NodeBinary::on_path();
            if let Some(version) = binary.as_ref().and_then(|b| b.cached_version()) {
                return Some(version);
            }
            let out = Command::new("node").arg("--version").output().ok()?;
            if !out.status.success() {
                return None;
            }
            let text = String::from_utf8_lossy(&out.stdout);
            let text = text.trim();
            let version = text.strip_prefix('v').unwrap_or(text).to_owned();
            if let Some(binary) = binary {
                binary.remember(&version);
            }
            Some(version)
        })
        .as_deref()
}

/// `v20.20.2` → 20.
pub fn parse_node_major(version: &str) -> Option<u32> {
    let v = version.trim();
    let v = v.strip_prefix('v').unwrap_or(v);
    v.split('.').next()?.parse().ok()
}
