use serde_json::json;

use super::*;

fn manifest(name: &str, version: &str, extra: Value) -> VersionManifest {
    let mut doc = json!({"name": name, "version": version});
    for (k, v) in extra.as_object().unwrap() {
        doc[k] = v.clone();
    }
    VersionManifest::from_value(&doc)
}

#[test]
fn the_builtin_set_adds_debugs_optional_peer() {
    // pnpm 12.21 records `supports-color` as an optional peer of debug,
    // which the package itself does not declare.
    let mut debug = manifest("debug", "3.2.7", json!({"dependencies": {"ms": "^2.1.1"}}));
    Extensions::builtin().apply(&mut debug);
    assert!(debug.is_optional_peer("supports-color"));
    assert_eq!(debug.dependencies.len(), 1);
}

#[test]
fn extensions_fill_gaps_and_respect_ranges() {
    let mut extensions = Extensions::default();
    let ext: Extension = serde_json::from_value(json!({
        "dependencies": {"a": "^1.0.0", "b": "^2.0.0"},
        "peerDependencies": {"p": "*"},
        "peerDependenciesMeta": {"p": {"optional": true}}
    }))
    .unwrap();
    extensions.add("x@<2", ext.clone());
    extensions.add("@s/y", ext);
    extensions.add("z@not a range", Extension::default());

    let mut old = manifest("x", "1.5.0", json!({"dependencies": {"a": "1.0.0"}}));
    extensions.apply(&mut old);
    assert_eq!(
        old.dependencies["a"], "1.0.0",
        "the manifest's own entry wins"
    );
    assert_eq!(old.dependencies["b"], "^2.0.0");
    assert!(old.is_optional_peer("p"));

    let mut new = manifest("x", "2.0.0", json!({}));
    extensions.apply(&mut new);
    assert!(new.dependencies.is_empty(), "outside the selector's range");

    let mut scoped = manifest("@s/y", "9.9.9", json!({}));
    extensions.apply(&mut scoped);
    assert_eq!(scoped.peer_dependencies["p"], "*");
}
