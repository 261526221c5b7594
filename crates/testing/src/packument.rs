//! npm-registry packument documents for fixture packages.

use serde_json::{Map, Value, json};

use crate::fixtures::FixturePackage;
use crate::semver_order::highest_release;

/// Publish time recorded for every fixture version: old enough for any
/// `minimumReleaseAge`.
pub const PUBLISH_TIME: &str = "2020-01-01T00:00:00.000Z";

/// The full packument of one package whose versions are `versions`, with
/// tarball URLs under `registry_url` (ending in `/`).
pub fn packument<'a>(
    name: &str,
    versions: impl IntoIterator<Item = &'a FixturePackage>,
    registry_url: &str,
) -> Value {
    let mut version_docs = Map::new();
    let mut time = Map::new();
    time.insert("created".into(), PUBLISH_TIME.into());
    time.insert("modified".into(), PUBLISH_TIME.into());
    let mut all = Vec::new();
    for pkg in versions {
        version_docs.insert(pkg.version.clone(), version_doc(pkg, registry_url));
        time.insert(pkg.version.clone(), PUBLISH_TIME.into());
        all.push(pkg.version.clone());
    }
    let mut dist_tags = Map::new();
    if let Some(latest) = highest_release(all.iter().map(String::as_str)) {
        dist_tags.insert("latest".into(), latest.into());
    }
    json!({
        "_id": name,
        "name": name,
        "dist-tags": dist_tags,
        "versions": version_docs,
        "time": time,
    })
}

/// `versions.<v>`: the manifest plus `_id` and `dist`.
fn version_doc(pkg: &FixturePackage, registry_url: &str) -> Value {
    let mut doc = match &pkg.manifest {
        Value::Object(m) => m.clone(),
        _ => Map::new(),
    };
    doc.insert("_id".into(), format!("{}@{}", pkg.name, pkg.version).into());
    doc.insert(
        "dist".into(),
        json!({
            "tarball": format!("{registry_url}{}", pkg.tarball_path()),
            "integrity": pkg.integrity,
            "shasum": pkg.shasum,
        }),
    );
    Value::Object(doc)
}
