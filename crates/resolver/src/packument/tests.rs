use serde_json::json;

use super::*;

#[test]
fn fields_of_the_wrong_shape_count_as_absent() {
    let manifest = VersionManifest::from_value(&json!({
        "name": "a",
        "version": "1.0.0",
        "dependencies": [],
        "optionalDependencies": {"b": "^1", "c": 3},
        "peerDependencies": {"p": "*"},
        "peerDependenciesMeta": {"p": {"optional": true}, "q": "yes"},
        "engines": ["node"],
        "os": "linux",
        "cpu": ["x64", 1],
        "deprecated": "",
        "bin": {},
        "directories": {"bin": "./bin"},
        "bundleDependencies": ["b"],
        "dist": {"integrity": "sha512-x", "tarball": "http://r/a/-/a-1.0.0.tgz"}
    }));
    assert!(manifest.dependencies.is_empty());
    assert_eq!(manifest.optional_dependencies.len(), 1);
    assert!(manifest.is_optional_peer("p"));
    assert!(!manifest.is_optional_peer("q"));
    assert_eq!(manifest.engines, None);
    assert_eq!(manifest.os, Some(vec!["linux".to_owned()]));
    assert_eq!(manifest.cpu, Some(vec!["x64".to_owned()]));
    assert_eq!(manifest.deprecated, None);
    assert!(manifest.has_bin, "directories.bin counts");
    assert_eq!(manifest.bundled_dependencies, Some(json!(["b"])));
    assert_eq!(manifest.integrity.as_deref(), Some("sha512-x"));
}

#[test]
fn versions_stay_raw_until_picked() {
    let doc = json!({
        "name": "a",
        "dist-tags": {"latest": "1.0.0", "bad": 5},
        "versions": {"1.0.0": {"version": "1.0.0"}, "not-semver": {}},
        "time": {"1.0.0": "2020-01-01T00:00:00.000Z"}
    });
    let p = Packument::parse(doc.to_string().into_bytes()).unwrap();
    assert_eq!(p.name, "a");
    assert_eq!(
        p.versions.len(),
        1,
        "versions that are not semver are left out"
    );
    assert_eq!(p.dist_tags.len(), 1);
    let v = Version::parse("1.0.0").unwrap();
    assert_eq!(p.version_json(&v).unwrap(), r#"{"version":"1.0.0"}"#);
    assert!(p.time.is_some());
    assert!(Packument::parse(b"{\"name\":".to_vec()).is_err());
    assert!(Packument::parse(b"\"text\"".to_vec()).is_err());
    assert!(
        Packument::parse(vec![b'{', 0xff, b'}']).is_err(),
        "not UTF-8"
    );
}
