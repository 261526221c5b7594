//! A pnpmfile's `readPackage` applied to a package's manifest
//! (docs/pnpmfile.md).

use indexmap::IndexMap;
use serde_json::{Map, Value};

use crate::{ResolveError, packument::VersionManifest, remote::ReadPackage};

/// `manifest` after the hook. The hook sees the registry's version
/// document (`raw`; a local package's manifest fields otherwise) with the
/// extensions' dependencies in it; resolution takes back the dependency
/// groups and `peerDependenciesMeta`, and keeps where the package comes
/// from.
pub(crate) fn read_package(
    hook: &dyn ReadPackage,
    manifest: VersionManifest,
    raw: Option<&str>,
) -> Result<VersionManifest, ResolveError> {
    let mut object = raw
        .and_then(|raw| serde_json::from_str::<Value>(raw).ok())
        .and_then(|value| match value {
            Value::Object(map) => Some(map),
            _ => None,
        })
        .unwrap_or_default();
    object.insert("name".into(), manifest.name.clone().into());
    object.insert("version".into(), manifest.version.clone().into());
    // The registry lists optional dependencies in `dependencies` too.
    let mut dependencies = manifest.dependencies.clone();
    for (name, spec) in &manifest.optional_dependencies {
        dependencies
            .entry(name.clone())
            .or_insert_with(|| spec.clone());
    }
    object.insert("dependencies".into(), strings(&dependencies));
    put_group(
        &mut object,
        "optionalDependencies",
        &manifest.optional_dependencies,
    );
    put_group(&mut object, "peerDependencies", &manifest.peer_dependencies);
    if !manifest.peer_dependencies_meta.is_empty() {
        object.insert(
            "peerDependenciesMeta".into(),
            Value::Object(
                manifest
                    .peer_dependencies_meta
                    .clone()
                    .into_iter()
                    .collect(),
            ),
        );
    }
    let out = VersionManifest::from_value(&hook.read_package(Value::Object(object))?);
    Ok(VersionManifest {
        dependencies: out.dependencies,
        optional_dependencies: out.optional_dependencies,
        peer_dependencies: out.peer_dependencies,
        peer_dependencies_meta: out.peer_dependencies_meta,
        ..manifest
    })
}

fn strings(map: &IndexMap<String, String>) -> Value {
    Value::Object(
        map.iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect(),
    )
}

/// Sets `key` to `map`, leaving an absent group absent when it is empty
/// (the hook's wrapper adds `{}`).
fn put_group(object: &mut Map<String, Value>, key: &str, map: &IndexMap<String, String>) {
    if map.is_empty() {
        object.remove(key);
    } else {
        object.insert(key.into(), strings(map));
    }
}
