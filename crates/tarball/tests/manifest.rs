//! The bundled manifest (docs/store.md §7, pnpm 12.21 behaviour).

use pacquet_tarball::{bundled_manifest, requires_build};
use serde_json::{Value, json};

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

#[test]
fn version_first_then_listed_keys_in_order_then_install_scripts() {
    let pkg: Value = serde_json::from_str(
        r#"{
        "scripts": {"test": "t", "postinstall": "post", "preinstall": "pre", "install": ""},
        "name": "exp-a",
        "description": "dropped",
        "os": null,
        "peerDependenciesMeta": {"b": {"optional": true}},
        "devDependencies": {"z": "1", "a": "2"},
        "bin": {"q": "q.js"},
        "main": "dropped.js",
        "version": "v1.2.3-Beta.01+build",
        "engines": {"node": ">=1"},
        "libc": [],
        "bundleDependencies": false,
        "cpu": ["x64"]
    }"#,
    )
    .unwrap();
    let m = bundled_manifest(&pkg).unwrap();
    assert_eq!(
        keys(&m),
        [
            "version",
            "bin",
            "bundleDependencies",
            "cpu",
            "devDependencies",
            "engines",
            "libc",
            "name",
            "peerDependenciesMeta",
            "scripts"
        ]
    );
    // pnpm 12 stores the version as written.
    assert_eq!(m["version"], "v1.2.3-Beta.01+build");
    // Nested objects keep package.json order; scripts use pnpm's order.
    assert_eq!(keys(&m["devDependencies"]), ["z", "a"]);
    assert_eq!(
        keys(&m["scripts"]),
        ["preinstall", "install", "postinstall"]
    );
    assert_eq!(m["bundleDependencies"], json!(false));
}

#[test]
fn scripts_without_install_scripts_are_dropped() {
    let m = bundled_manifest(&json!({"name": "b", "version": "1.0.0", "scripts": {"test": "x"}}));
    assert_eq!(m, Some(json!({"version": "1.0.0", "name": "b"})));
}

#[test]
fn nothing_to_keep_means_no_manifest() {
    assert_eq!(bundled_manifest(&json!({"description": "d"})), None);
    assert_eq!(bundled_manifest(&json!({"version": null})), None);
    assert_eq!(bundled_manifest(&json!([1, 2])), None);
}

#[test]
fn requires_build_rules() {
    let with = |scripts: Value| json!({"scripts": scripts});
    assert!(requires_build(Some(&with(json!({"postinstall": "x"}))), []));
    assert!(!requires_build(
        Some(&with(json!({"install": "", "test": "x"}))),
        []
    ));
    assert!(requires_build(None, ["binding.gyp"]));
    assert!(!requires_build(None, ["a/binding.gyp"]));
    assert!(requires_build(None, [".hooks/x"]));
    assert!(!requires_build(None, ["x/.hooks/x", ".hooksy"]));
}
