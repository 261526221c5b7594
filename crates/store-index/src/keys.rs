//! `package_index` key formats (docs/store.md §5.4).

/// Key of a package fetched by integrity: `<integrity>\t<pkgId>`.
///
/// `integrity` is used exactly as written in the lockfile; `pkg_id` is
/// `name@version` for registry packages (no peer or patch suffix), or the
/// tarball URL / `file:` path for tarball dependencies.
pub fn store_key(integrity: &str, pkg_id: &str) -> String {
    let mut key = String::with_capacity(integrity.len() + 1 + pkg_id.len());
    key.push_str(integrity);
    key.push('\t');
    key.push_str(pkg_id);
    key
}

/// Key of a package without integrity (git-hosted, `type: git`):
/// `<pkgId>\tbuilt` when its build/prepare scripts ran, else `<pkgId>\tnot-built`.
pub fn built_key(pkg_id: &str, built: bool) -> String {
    let suffix = if built { "\tbuilt" } else { "\tnot-built" };
    let mut key = String::with_capacity(pkg_id.len() + suffix.len());
    key.push_str(pkg_id);
    key.push_str(suffix);
    key
}
