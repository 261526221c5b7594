//! The host platform in Node's naming (`process.platform`, `process.arch`,
//! and pnpm's libc detection).

use std::path::Path;

/// `(os, cpu, libc)` of the running machine, e.g. `("linux", "x64", "glibc")`.
/// `libc` is `None` off Linux.
pub fn host_platform() -> (&'static str, &'static str, Option<&'static str>) {
    (host_os(), host_cpu(), host_libc())
}

/// Node's `process.platform`.
pub fn host_os() -> &'static str {
    match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        "solaris" | "illumos" => "sunos",
        other => other,
    }
}

/// Node's `process.arch`.
pub fn host_cpu() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "x64",
        "x86" => "ia32",
        "aarch64" => "arm64",
        "powerpc64" if cfg!(target_endian = "little") => "ppc64le",
        "powerpc64" => "ppc64",
        "powerpc" => "ppc",
        "loongarch64" => "loong64",
        "riscv64" => "riscv64",
        "s390x" => "s390x",
        other => other,
    }
}

/// `glibc` or `musl` on Linux, `None` elsewhere.
pub fn host_libc() -> Option<&'static str> {
    if host_os() != "linux" {
        return None;
    }
    Some(if is_musl() { "musl" } else { "glibc" })
}

fn is_musl() -> bool {
    if cfg!(target_env = "musl") {
        return true;
    }
    // Like detect-libc: a musl loader on the system and no glibc one.
    let has_musl_loader = std::fs::read_dir("/lib")
        .map(|entries| {
            entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("ld-musl-"))
        })
        .unwrap_or(false);
    has_musl_loader && !Path::new("/lib64/ld-linux-x86-64.so.2").exists() && !has_glibc_loader()
}

fn has_glibc_loader() -> bool {
    ["/lib", "/lib64", "/usr/lib"].iter().any(|dir| {
        std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with("ld-linux"))
            })
            .unwrap_or(false)
    })
}
