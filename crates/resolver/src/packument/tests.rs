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
    assert!(p.has_time());
    assert_eq!(p.published("1.0.0"), Some("2020-01-01T00:00:00.000Z"));
    assert_eq!(p.published("2.0.0"), None);
    assert!(Packument::parse(b"{\"name\":".to_vec()).is_err());
    assert!(Packument::parse(b"\"text\"".to_vec()).is_err());
    assert!(
        Packument::parse(vec![b'{', 0xff, b'}']).is_err(),
        "not UTF-8"
    );
}

/// Each version and its manifest's JSON, in order.
fn versions(p: &Packument) -> Vec<(String, String)> {
    p.versions
        .iter()
        .map(|(v, range)| (v.to_string(), p.json_at(range).to_owned()))
        .collect()
}

/// A document as a mirror file keeps it.
fn kept(document: &serde_json::Value) -> pacquet_registry_metadata::mirror::Kept {
    kept_bytes(&serde_json::to_vec(document).unwrap())
}

fn kept_bytes(bytes: &[u8]) -> pacquet_registry_metadata::mirror::Kept {
    let file = pacquet_registry_metadata::mirror::encode(bytes, false, Some("\"e\"")).unwrap();
    match pacquet_registry_metadata::mirror::decode_file(
        pacquet_registry_metadata::mirror::FileBytes::Read(file),
    ) {
        Some(pacquet_registry_metadata::mirror::KeptFile::Indexed(kept)) => kept,
        other => panic!("not an indexed file: {other:?}"),
    }
}

#[test]
fn a_mirror_file_reads_as_its_document_does() {
    let document = json!({
        "name": "ü-pkg",
        "dist-tags": {"latest": "1.1.0", "next": 2},
        "modified": "2024-01-02T00:00:00.000Z",
        "time": {"1.0.0": "2020-01-01T00:00:00.000Z", "modified": "2024-01-02T00:00:00.000Z"},
        "versions": {
            "1.0.0": {"name": "ü-pkg", "version": "1.0.0", "description": "ünïcode"},
            "not-semver": {"name": "ü-pkg"},
            "1.1.0": {"name": "ü-pkg", "version": "1.1.0", "deprecated": "use 2"}
        }
    });
    let parsed = Packument::parse(serde_json::to_vec(&document).unwrap()).unwrap();
    let from_file = Packument::from_kept(kept(&document));
    assert_eq!(from_file.name, parsed.name);
    assert_eq!(from_file.dist_tags, parsed.dist_tags);
    for key in ["1.0.0", "modified", "1.1.0"] {
        assert_eq!(from_file.published(key), parsed.published(key), "{key}");
    }
    assert_eq!(from_file.has_time(), parsed.has_time());
    assert_eq!(from_file.modified_ms, parsed.modified_ms);
    assert_eq!(versions(&from_file), versions(&parsed));
    assert_eq!(versions(&from_file).len(), 2);
}

/// What a document the registry sent is read as (its mirror file, in
/// place of the document: `Client::get_body`), also with a repeated
/// version and `modified` only among the publish times.
#[test]
fn a_registry_document_reads_as_its_mirror_file() {
    let document = br#"{"name":"a","dist-tags":{"latest":"1.0.0"},
        "time":{"1.0.0":"2020-01-01T00:00:00.000Z","modified":"2021-05-06T07:08:09.000Z"},
        "versions":{"1.0.0":{"version":"1.0.0","first":true},"2.0.0":{"version":"2.0.0"},
        "1.0.0":{"version":"1.0.0","last":true}}}"#;
    let parsed = Packument::parse(document.to_vec()).unwrap();
    let from_file = Packument::from_kept(kept_bytes(document));
    assert_eq!(versions(&from_file), versions(&parsed));
    assert_eq!(
        versions(&parsed)[0],
        (
            "1.0.0".to_owned(),
            r#"{"version":"1.0.0","last":true}"#.to_owned()
        )
    );
    assert_eq!(from_file.modified_ms, parsed.modified_ms);
    assert!(parsed.modified_ms.is_some());
    assert_eq!(from_file.published("1.0.0"), parsed.published("1.0.0"));
}

#[test]
fn a_mirror_index_that_cuts_a_character_reads_as_no_json() {
    let mut kept = kept(&json!({
        "name": "a",
        "versions": {"1.0.0": {"description": "ü"}}
    }));
    let range = kept.versions[0].1.clone();
    let inside = range.start
        + kept.file[range.clone()]
            .iter()
            .position(|&b| b >= 0x80)
            .unwrap()
        + 1;
    kept.versions[0].1 = range.start..inside;
    let packument = Packument::from_kept(kept);
    let (_, range) = &packument.versions[0];
    assert_eq!(packument.json_at(range), "");
    assert!(VersionManifest::parse(packument.json_at(range)).is_err());
}

/// `published` reads the `time` text as a JSON parser would: the last of
/// duplicate members, string values only, escapes and nested values
/// through the parser.
#[test]
fn publish_times_read_as_parsed() {
    let times = [
        r#"{"1.0.0":"2020-01-01T00:00:00.000Z","modified":"2021-01-01T00:00:00.000Z"}"#,
        r#"{ "1.0.0" : "a" , "1.0.0":"b", "2.0.0": 5, "3.0.0": null }"#,
        r#"{"x":"1.0.0","1.0.0":"c\"d","y":"\"1.0.0\":\"e\""}"#,
        r#"{"x":{"1.0.0":"nested"},"2.0.0":"f"}"#,
        r#"{"x":["1.0.0"],"1.0.0":"g"}"#,
        r#"{"latest":"1.0.0"}"#,
        r#"{}"#,
    ];
    for time in times {
        let doc = format!(r#"{{"name":"p","versions":{{}},"time":{time}}}"#);
        let p = Packument::parse(doc.into_bytes()).unwrap();
        let parsed: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(time).unwrap();
        for key in [
            "1.0.0", "2.0.0", "3.0.0", "modified", "x", "y", "latest", "4.0.0",
        ] {
            let want = parsed.get(key).and_then(|v| v.as_str());
            assert_eq!(p.published(key), want, "{key} in {time}");
        }
    }
}

/// Reading only the fields used gives what reading the whole manifest
/// gives: repeated keys (the last counts), wrong shapes, fields skipped of
/// every kind, escapes in keys, documents that are not objects.
#[test]
fn a_manifest_reads_as_its_whole_value_does() {
    let manifests = [
        r#"{"name":"a","version":"1.0.0","dependencies":{"b":"^1"},"dependencies":{"c":"2"}}"#,
        r#"{"devDependencies":{"x":"1"},"scripts":{"install":"x"},"readme":"}{\"","_npmUser":{"name":"n"},
           "dist":{"integrity":"sha512-x","signatures":[{"sig":"s"}]},"d\u0065precated":"old"}"#,
        r#"{"bin":"","directories":{"bin":"b"},"bundleDependencies":true,"bundledDependencies":[],
           "os":"linux","cpu":["x64",1],"engines":{"node":">=1","npm":2},"hasInstallScript":true}"#,
        r#"{"peerDependencies":{"p":"*"},"peerDependenciesMeta":{"p":{"optional":true},"q":1},"optionalDependencies":[]}"#,
        r#"{"dependencies":{"a":"1","b":{"x":[1]},"a":2,"c":"3","b":"4"},"engines":{"node":null},"name":7}"#,
        r#"{"dist":{"tarball":"t","integrity":1,"integrity":"sha512-y","shasum":"s","x":{}},"dist":{"shasum":"z"}}"#,
        r#"{"dist":["integrity"],"directories":["bin"],"os":[["linux"],null,"darwin"],"libc":{"a":"b"},"cpu":7}"#,
        r#"{"bin":{"a":"b"},"bundledDependencies":false,"bundleDependencies":["x"],"deprecated":"","version":"1"}"#,
        r#"{"bin":{},"directories":{"lib":"x"},"bundleDependencies":["x"],"hasInstallScript":"yes","deprecated":true}"#,
        r#"{"peerDependenciesMeta":[1],"peerDependencies":"p","optionalDependencies":{"o":"1"},"version":null}"#,
        r#"{"directories":{"bin":null},"deprecated":"gone","deprecated":"","name":"a","name":"b"}"#,
        r#"[1,2]"#,
        r#""just a string""#,
        r#"  {"name":"spaced"}"#,
    ];
    for json in manifests {
        let whole: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(
            VersionManifest::parse(json).unwrap(),
            VersionManifest::from_value(&whole),
            "{json}"
        );
    }
    for broken in [r#"{"name":"a""#, r#"{"x":[}"#, r#"{"name":"a"} x"#] {
        assert!(VersionManifest::parse(broken).is_err(), "{broken}");
    }
}
