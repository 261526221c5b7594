mod fixtures;
mod pnpm_details;
mod unit;

use crate::HostPlatform;

/// The host every planner test plans for: linux, x64, glibc.
fn host() -> HostPlatform {
    HostPlatform {
        os: "linux".into(),
        cpu: "x64".into(),
        libc: Some("glibc".into()),
    }
}

/// Tarball URLs of a made-up registry.
fn url(name: &str, version: &str) -> String {
    format!("https://r.example/{name}/-/{version}.tgz")
}
