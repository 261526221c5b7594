//! Platform fields inferred from a package name (pnpm 11+): an optional
//! package such as `@scope/tool-darwin-arm64` without `os`/`cpu`/`libc` in
//! the lockfile is still treated as darwin/arm64-only. Observed with pnpm
//! 12.21: removing `os`/`cpu` from `@typescript/typescript-darwin-arm64`'s
//! lockfile entry still gets it skipped on linux-x64.

/// `(os, cpu, libc)` named by the tokens of `name`, each `None` when no
/// token names one.
pub(crate) fn infer_platform(name: &str) -> [Option<String>; 3] {
    let mut out: [Option<String>; 3] = [None, None, None];
    for token in name.split(['-', '_', '.', '/', '@']) {
        let token = token.to_ascii_lowercase();
        let (slot, value) = match token.as_str() {
            "linux" => (0, "linux"),
            "darwin" | "macos" | "osx" => (0, "darwin"),
            "win32" | "windows" => (0, "win32"),
            "freebsd" | "openbsd" | "netbsd" | "sunos" | "aix" | "android" => (0, &*token),
            "x64" | "amd64" | "x86_64" => (1, "x64"),
            "arm64" | "aarch64" => (1, "arm64"),
            "arm" | "armv7" | "armv7l" => (1, "arm"),
            "ia32" | "x86" | "i686" => (1, "ia32"),
            "ppc64" | "ppc64le" | "s390x" | "riscv64" | "loong64" | "mips64el" => (1, &*token),
            "gnu" | "glibc" | "gnueabihf" => (2, "glibc"),
            "musl" | "musleabihf" => (2, "musl"),
            _ => continue,
        };
        if out[slot].is_none() {
            out[slot] = Some(value.to_owned());
        }
    }
    out
}
