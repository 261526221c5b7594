//! Registry selection and tarball URLs (docs/settings.md §2.2, docs/lockfile.md §5).

use std::fmt;

use indexmap::IndexMap;

/// The default registry.
pub const NPM_REGISTRY: &str = "https://registry.npmjs.org/";

/// Built-in `@jsr` scope registry.
pub const JSR_REGISTRY: &str = "https://npm.jsr.io/";

/// The default registry and the per-scope ones. `Debug` hides URL
/// passwords.
#[derive(Clone, PartialEq, Eq)]
pub struct Registries {
    /// Registry for unscoped packages, always ends with `/`.
    pub default: String,
    /// `@scope` → registry URL (ends with `/`).
    pub scoped: IndexMap<String, String>,
}

impl Default for Registries {
    fn default() -> Self {
        Registries {
            default: NPM_REGISTRY.to_owned(),
            scoped: IndexMap::from([("@jsr".to_owned(), JSR_REGISTRY.to_owned())]),
        }
    }
}

impl Registries {
    /// The registry that serves `package_name`.
    pub fn registry_for(&self, package_name: &str) -> &str {
        scope_of(package_name)
            .and_then(|scope| self.scoped.get(scope))
            .map_or(self.default.as_str(), String::as_str)
    }

    /// `<registry><name>/-/<unscoped name>-<version without +build>.tgz`.
    pub fn tarball_url(&self, name: &str, version: &str) -> String {
        let registry = self.registry_for(name);
        let version = version.split_once('+').map_or(version, |(v, _)| v);
        let file_stem = match scope_of(name) {
            Some(scope) => name[scope.len()..].trim_start_matches('/'),
            None => name,
        };
        let slash = if registry.ends_with('/') { "" } else { "/" };
        format!("{registry}{slash}{name}/-/{file_stem}-{version}.tgz")
    }
}

/// `@scope` of `@scope/name`, `None` for unscoped names.
pub fn scope_of(package_name: &str) -> Option<&str> {
    if !package_name.starts_with('@') {
        return None;
    }
    package_name.split_once('/').map(|(scope, _)| scope)
}

/// Adds the trailing `/` pnpm always stores registries with.
pub fn normalize_registry(url: &str) -> String {
    let url = url.trim();
    if url.ends_with('/') {
        url.to_owned()
    } else {
        format!("{url}/")
    }
}

impl fmt::Debug for Registries {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scoped: IndexMap<&str, String> = self
            .scoped
            .iter()
            .map(|(scope, url)| (scope.as_str(), redact_userinfo(url)))
            .collect();
        f.debug_struct("Registries")
            .field("default", &redact_userinfo(&self.default))
            .field("scoped", &scoped)
            .finish()
    }
}

/// `https://u:secret@host/` → `https://u:***@host/`.
pub fn redact_userinfo(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_owned(),
    }
}
