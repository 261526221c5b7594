/// `<platform>;<arch>;node<major>;format=2[;deps=<depsHash>][;patch=<patchHash>]`.
///
/// `deps_hash` is present when the package will be built
/// (`!ignoreScripts && requiresBuild`); `patch_hash` when it is patched.
pub fn side_effects_cache_key(
    platform: &str,
    arch: &str,
    node_major: u32,
    deps_hash: Option<&str>,
    patch_hash: Option<&str>,
) -> String {
    let mut key = format!("{platform};{arch};node{node_major};format=2");
    if let Some(deps) = deps_hash {
        key.push_str(";deps=");
        key.push_str(deps);
    }
    if let Some(patch) = patch_hash {
        key.push_str(";patch=");
        key.push_str(patch);
    }
    key
}
