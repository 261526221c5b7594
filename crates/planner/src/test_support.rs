//! What the planner's tests share: the host they plan for and a made-up
//! registry.

use crate::HostPlatform;

/// The host every planner test plans for: linux, x64, glibc.
pub(crate) fn host() -> HostPlatform {
    HostPlatform {
        os: "linux".into(),
        cpu: "x64".into(),
        libc: Some("glibc".into()),
    }
}

/// Tarball URLs of a made-up registry.
pub(crate) fn url(name: &str, version: &str) -> String {
    format!("https://r.example/{name}/-/{version}.tgz")
}
