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

/// A `packageExtensions` setting that is not a map of selectors to
/// extensions is refused with a code, not half applied.
#[test]
fn a_malformed_setting_is_refused() {
    for setting in [
        serde_json::json!({"pq-plain": {"dependencies": {"pq-dup": 5}}}),
        serde_json::json!({"pq-plain": "pq-dup"}),
        serde_json::json!(["pq-plain"]),
    ] {
        let err = Extensions::with_setting(true, &setting).unwrap_err();
        assert_eq!(
            miette::Diagnostic::code(&err).unwrap().to_string(),
            "ERR_PACQUET_INVALID_PACKAGE_EXTENSIONS",
            "{setting}"
        );
    }
    let ok = serde_json::json!({"pq-plain@1": {"dependencies": {"pq-dup": "1.0.0"}}});
    assert!(Extensions::with_setting(false, &ok).is_ok());
}
