//! What the resolver's tests share.

use pacquet_resolver::ResolveOptions;

/// pnpm 12.21's defaults, packages from the registry `registry_for` names,
/// every version eligible, no extensions: tests change what they test.
pub fn options<'a>(registry_for: &'a dyn Fn(&str) -> String) -> ResolveOptions<'a> {
    ResolveOptions {
        auto_install_peers: true,
        exclude_links_from_lockfile: false,
        dedupe_peers: false,
        peers_suffix_max_length: 1000,
        registry_for,
        eligible: &|_, _| true,
        extensions: None,
        previous: None,
        unlock: None,
        // Empty, and alive as long as the test.
        overrides: Box::leak(Box::default()),
        catalogs: Box::leak(Box::default()),
        read_directory: None,
        read_tarball: None,
        remote: None,
        resolve_peers_from_workspace_root: true,
        dedupe_peer_dependents: true,
        read_package: None,
        ignored_optional_dependencies: &[],
        inject_workspace_packages: false,
        dedupe_injected_deps: true,
        block_exotic_subdeps: true,
        package_extensions_checksum: None,
        patches: None,
        link_workspace_packages: false,
        prefer_workspace_packages: false,
        resolution_mode: Default::default(),
    }
}
