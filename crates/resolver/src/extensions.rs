//! Package extensions: fields added to published manifests before they are
//! resolved (docs/resolution.md §3.1). pnpm 12 carries a built-in set
//! (`data/`), applied unless `ignoreCompatibilityDb` is set.

use std::collections::HashMap;
use std::sync::LazyLock;

use indexmap::IndexMap;
use nodejs_semver::{Range, Version};
use serde::Deserialize;
use serde_json::Value;

use crate::ResolveError;
use crate::packument::VersionManifest;

/// What an extension adds to a manifest.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Extension {
    #[serde(default)]
    pub dependencies: IndexMap<String, String>,
    #[serde(default)]
    pub optional_dependencies: IndexMap<String, String>,
    #[serde(default)]
    pub peer_dependencies: IndexMap<String, String>,
    #[serde(default)]
    pub peer_dependencies_meta: IndexMap<String, Value>,
}

/// Extensions grouped by package name, each with its version range
/// (`None`: every version).
#[derive(Debug, Clone, Default)]
pub struct Extensions {
    by_name: HashMap<String, Vec<(Option<Range>, Extension)>>,
}

static BUILTIN: LazyLock<Extensions> = LazyLock::new(|| {
    let mut extensions = Extensions::default();
    for source in [
        include_str!("../data/yarnpkg-extensions.json"),
        include_str!("../data/pnpm-extensions.json"),
    ] {
        let entries: Vec<(String, Extension)> =
            serde_json::from_str(source).expect("the built-in extensions parse");
        for (selector, extension) in entries {
            extensions.add(&selector, extension);
        }
    }
    extensions
});

impl Extensions {
    /// The set pnpm 12.21 applies by default.
    pub fn builtin() -> &'static Extensions {
        &BUILTIN
    }

    /// The `packageExtensions` setting (selector → extension) after the
    /// built-in set when `builtin`: an earlier entry's fields win, as
    /// pnpm merges them.
    pub fn with_setting(builtin: bool, setting: &Value) -> Result<Extensions, ResolveError> {
        let mut extensions = if builtin {
            BUILTIN.clone()
        } else {
            Extensions::default()
        };
        let entries: IndexMap<String, Extension> = serde_json::from_value(setting.clone())
            .map_err(|e| ResolveError::InvalidPackageExtensions {
                reason: e.to_string(),
            })?;
        for (selector, extension) in entries {
            extensions.add(&selector, extension);
        }
        Ok(extensions)
    }

    /// Adds the extension of `selector` (`name` or `name@range`). A range
    /// that does not parse selects nothing.
    pub fn add(&mut self, selector: &str, extension: Extension) {
        let (name, range) = match selector[1.min(selector.len())..].find('@') {
            Some(at) => (&selector[..at + 1], Some(&selector[at + 2..])),
            None => (selector, None),
        };
        let range = match range {
            None => None,
            Some(raw) => match Range::parse(raw) {
                Ok(range) => Some(range),
                Err(_) => return,
            },
        };
        self.by_name
            .entry(name.to_owned())
            .or_default()
            .push((range, extension));
    }

    /// Adds what the extensions selecting `manifest` declare, under what
    /// the manifest declares itself: an extension only fills gaps.
    pub fn apply(&self, manifest: &mut VersionManifest) {
        let Some(entries) = self.by_name.get(&manifest.name) else {
            return;
        };
        let version = Version::parse(&manifest.version).ok();
        for (range, extension) in entries {
            let selected = match range {
                None => true,
                Some(range) => version.as_ref().is_some_and(|v| v.satisfies(range)),
            };
            if !selected {
                continue;
            }
            fill(&mut manifest.dependencies, &extension.dependencies);
            fill(
                &mut manifest.optional_dependencies,
                &extension.optional_dependencies,
            );
            fill(
                &mut manifest.peer_dependencies,
                &extension.peer_dependencies,
            );
            fill(
                &mut manifest.peer_dependencies_meta,
                &extension.peer_dependencies_meta,
            );
        }
    }
}

fn fill<V: Clone>(into: &mut IndexMap<String, V>, from: &IndexMap<String, V>) {
    for (key, value) in from {
        if !into.contains_key(key) {
            into.insert(key.clone(), value.clone());
        }
    }
}

#[cfg(test)]
mod tests;
