//! The "bundled manifest" and `requiresBuild` of a row (docs/store.md §7).

use serde_json::{Map, Value};

/// Manifest fields kept after `version`, in this order.
const BUNDLED_KEYS: [&str; 14] = [
    "bin",
    "bundledDependencies",
    "bundleDependencies",
    "cpu",
    "dependencies",
    "devDependencies",
    "directories",
    "engines",
    "libc",
    "name",
    "optionalDependencies",
    "os",
    "peerDependencies",
    "peerDependenciesMeta",
];

/// The scripts that make a package need a build, in the order pnpm keeps.
const INSTALL_SCRIPTS: [&str; 3] = ["preinstall", "install", "postinstall"];

/// The subset of `package.json` pnpm stores in the index row: `version`
/// first, then [`BUNDLED_KEYS`] that are non-null, then `scripts` reduced to
/// the install scripts (omitted when none is present). Values are copied as
/// they are, nested key order included; pnpm 12 stores `version` verbatim
/// (no semver cleaning). `None` when nothing is kept.
pub fn bundled_manifest(package_json: &Value) -> Option<Value> {
    let pkg = package_json.as_object()?;
    let mut out = Map::new();
    for key in std::iter::once("version").chain(BUNDLED_KEYS) {
        if let Some(value) = pkg.get(key).filter(|v| !v.is_null()) {
            out.insert(key.to_string(), value.clone());
        }
    }
    if let Some(scripts) = pkg.get("scripts").and_then(Value::as_object) {
        let kept: Map<String, Value> = INSTALL_SCRIPTS
            .iter()
            .filter_map(|name| {
                let script = scripts.get(*name).filter(|v| !v.is_null())?;
                Some((name.to_string(), script.clone()))
            })
            .collect();
        if !kept.is_empty() {
            out.insert("scripts".to_string(), Value::Object(kept));
        }
    }
    (!out.is_empty()).then_some(Value::Object(out))
}

/// `requiresBuild`: a non-empty install script, a `binding.gyp` at the
/// package root, or anything under `.hooks/`.
pub fn requires_build<'a>(
    package_json: Option<&Value>,
    file_paths: impl IntoIterator<Item = &'a str>,
) -> bool {
    let has_script = package_json
        .and_then(|p| p.get("scripts"))
        .is_some_and(|scripts| {
            INSTALL_SCRIPTS.iter().any(|name| {
                scripts
                    .get(*name)
                    .and_then(Value::as_str)
                    .is_some_and(|s| !s.is_empty())
            })
        });
    has_script
        || file_paths.into_iter().any(|path| {
            path == "binding.gyp" || path.starts_with(".hooks/") || path.starts_with(".hooks\\")
        })
}
