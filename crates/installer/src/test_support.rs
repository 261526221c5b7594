//! What the installer's unit tests share: a one-package lockfile as pnpm
//! 12 writes it and the host and registry it is planned for.

use pacquet_planner::HostPlatform;

/// `a@1.0.0`, the root's one dependency, as pacquet and pnpm 12 write it.
pub(crate) const LOCK_YAML: &str = "lockfileVersion: '9.0'

importers:

  .:
    dependencies:
      a:
        specifier: 1.0.0
        version: 1.0.0

packages:

  a@1.0.0:
    resolution: {integrity: sha512-a}

snapshots:

  a@1.0.0: {}
";

/// Tarball URLs of a made-up registry.
pub(crate) fn url(name: &str, version: &str) -> String {
    format!("https://r.example/{name}/-/{version}.tgz")
}

/// The host the tests plan for: linux, x64, no libc named.
pub(crate) fn host() -> HostPlatform {
    HostPlatform {
        os: "linux".into(),
        cpu: "x64".into(),
        libc: None,
    }
}
