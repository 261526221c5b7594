use std::path::Path;

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../planner/tests/fixtures")
        .join(name)
        .join("workspace-state.json");
    std::fs::read_to_string(path).unwrap()
}

fn recorded(name: &str) -> (u64, String, String) {
    let doc: serde_json::Value = serde_json::from_str(&fixture(name)).unwrap();
    let ts = doc["lastValidatedTimestamp"].as_u64().unwrap();
    let (dir, _) = doc["projects"].as_object().unwrap().iter().next().unwrap();
    let store = doc["settings"]["storeDir"].as_str().unwrap().to_owned();
    (ts, dir.clone(), store)
}

/// pnpm 12.21's file for `small` with its `validation` block removed.
#[test]
fn workspace_state_matches_pnpm_defaults() {
    let (ts, dir, store) = recorded("small");
    let state = WorkspaceState {
        last_validated_timestamp: ts,
        projects: vec![ProjectEntry {
            dir,
            name: Some("fixture-small".into()),
            version: Some("0.0.1".into()),
            has_modules_dir: false,
        }],
        pnpmfiles: Vec::new(),
        filtered_install: false,
        settings: WorkspaceStateSettings::new(&store),
        validation: None,
    };
    assert_eq!(workspace_state(&state), fixture("small"));
}

/// `allowBuilds` and `supportedArchitectures` appear when configured.
#[test]
fn workspace_state_with_allow_builds_and_architectures() {
    let (ts, dir, store) = recorded("alotta");
    let mut settings = WorkspaceStateSettings::new(&store);
    settings.allow_builds = [("core-js", false), ("es5-ext", false), ("fsevents", false)]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
    settings.supported_architectures = Some(json!({
        "os": ["darwin", "linux", "win32"],
        "cpu": ["x64", "arm64"],
        "libc": ["glibc", "musl"],
    }));
    let state = WorkspaceState {
        last_validated_timestamp: ts,
        projects: vec![ProjectEntry {
            dir,
            name: Some("alotta-modules".into()),
            version: Some("0.0.1".into()),
            has_modules_dir: false,
        }],
        pnpmfiles: Vec::new(),
        filtered_install: false,
        settings,
        validation: None,
    };
    assert_eq!(workspace_state(&state), fixture("alotta"));
}

#[test]
fn http_dates() {
    assert_eq!(http_date(0), "Thu, 01 Jan 1970 00:00:00 GMT");
    // pnpm's prunedAt of the small fixture install.
    assert_eq!(http_date(1_795_358_131), "Sun, 22 Nov 2026 14:35:31 GMT");
    assert_eq!(http_date(951_782_400), "Tue, 29 Feb 2000 00:00:00 GMT");
}

#[test]
fn http_dates_parse_back() {
    for secs in [0, 951_782_400, 1_795_358_131, 4_102_444_799] {
        assert_eq!(parse_http_date(&http_date(secs)), Some(secs));
    }
    assert_eq!(
        parse_http_date("Sun, 22 Nov 2026 14:35:31 GMT"),
        Some(1_795_358_131)
    );
    assert_eq!(parse_http_date("yesterday"), None);
    assert_eq!(parse_http_date("Sun, 22 Foo 2026 14:35:31 GMT"), None);
}

#[test]
fn iso_dates_parse_registry_forms() {
    assert_eq!(parse_iso_date("1970-01-01T00:00:00.000Z"), Some(0));
    assert_eq!(
        parse_iso_date("2020-01-01T00:00:00.000Z"),
        Some(1_577_836_800_000)
    );
    assert_eq!(
        parse_iso_date("2020-01-01T00:00:00Z"),
        Some(1_577_836_800_000)
    );
    assert_eq!(
        parse_iso_date("2020-01-01T01:00:00.5+01:00"),
        Some(1_577_836_800_500)
    );
    assert_eq!(
        parse_iso_date("2024-02-29T12:34:56.789Z"),
        Some(1_709_210_096_789)
    );
}

#[test]
fn iso_dates_reject_what_is_not_a_date() {
    for bad in [
        "",
        "yesterday",
        "2020-13-01T00:00:00Z",
        "2020-01-01",
        "2020-01-01T00:00:00",
    ] {
        assert_eq!(parse_iso_date(bad), None, "{bad}");
    }
}

#[test]
fn iso_dates_format_with_milliseconds() {
    assert_eq!(iso_date(0), "1970-01-01T00:00:00.000Z");
    assert_eq!(iso_date(1_709_210_096_789), "2024-02-29T12:34:56.789Z");
    let t = "2025-11-30T22:00:00.000Z";
    assert_eq!(iso_date(parse_iso_date(t).unwrap()), t);
}

/// Digests pnpm 12.21 recorded for these manifests (docs/layout.md §9.1).
#[test]
fn manifest_digests_match_pnpm() {
    let cases = [
        (json!({}), "5a3590fbe3ffbfe0a65167de3111dcd0"),
        (
            json!({"name": "v1", "version": "1.0.0", "dependencies": {"is-number": "7.0.0"}}),
            "40369a6afff3bbb30540a3c78a064b8d",
        ),
        (
            // Key order does not count.
            json!({"dependencies": {"is-number": "7.0.0"}, "version": "1.0.0", "name": "v1"}),
            "40369a6afff3bbb30540a3c78a064b8d",
        ),
        (
            json!({"name": "v1", "version": "1.0.0", "description": "x",
                   "dependencies": {"is-number": "7.0.0"}}),
            "be8b1e3fb9c1cd6cb3cda39c91ddd17a",
        ),
        (
            serde_json::from_str(
                r#"{"a":[1,"x",true,false,null,1.5,-2,{"k":[]}],"big":12345678901234567890,"e":1e3}"#,
            )
            .unwrap(),
            "ce4722447d3ffb55f30bef52d8c749bf",
        ),
    ];
    for (manifest, digest) in cases {
        assert_eq!(value_digest(&manifest), digest, "{manifest}");
    }
}

#[test]
fn file_digest_is_truncated_sha256() {
    assert_eq!(bytes_digest(b""), "e3b0c44298fc1c149afbf4c8996fb924");
}

fn record(manifest: serde_json::Value) -> ManifestRecord {
    ManifestRecord {
        record_file: true,
        stat: FileStat {
            mtime_ns: 1_795_655_717_410_611_786,
            ctime_ns: 1_795_655_717_410_611_786,
            size: 93,
        },
        manifest,
    }
}

/// A workspace as pnpm 12.21 recorded it: the root without bins or
/// dependencies of its own, `a` with a bin, `b` with dependencies and a
/// local directory dependency.
#[test]
fn validation_block_as_pnpm_writes_it() {
    let root = json!({"name": "root", "private": true});
    let a = json!({"name": "a", "version": "1.0.0", "bin": {"a-cli": "cli.js"},
                   "dependencies": {"is-number": "7.0.0"}});
    let b = json!({"name": "b", "version": "1.0.0", "scripts": {"t": "x"},
                   "dependencies": {"a": "workspace:*", "g": "git+https://h/g.git",
                                    "d": "d@file:///ws/d", "l": "file:../l"},
                   "dependenciesMeta": {}});
    let c = json!({"name": "c"});
    let lockfile = FileSignature {
        stat: FileStat {
            mtime_ns: 1,
            ctime_ns: 2,
            size: 6498,
        },
        digest: "8a9d6172016cacd30e60b0117008105c".into(),
    };
    let validation = Validation {
        recorded_at_ns: 3,
        files: [("/ws/pnpm-lock.yaml".to_owned(), lockfile)].into(),
        lockfile_digest: "8a9d6172016cacd30e60b0117008105c".into(),
        // `c` was left out by a filter.
        manifests: [
            (".".to_owned(), record(root.clone())),
            ("packages/a".to_owned(), record(a.clone())),
            ("packages/b".to_owned(), record(b.clone())),
        ]
        .into(),
        workspace_manifests: [
            (".".to_owned(), root),
            ("packages/a".to_owned(), a),
            ("packages/b".to_owned(), b),
            ("packages/c".to_owned(), c),
        ]
        .into(),
        local_directories: vec!["/ws/z".into(), "/ws/l-x".into(), "/ws/l/y".into()],
        local_tarballs: vec!["/ws/t.tgz".into()],
    };
    let stat = json!({"mtimeNs": 1_795_655_717_410_611_786_i64,
                      "ctimeNs": 1_795_655_717_410_611_786_i64, "size": 93});
    let file = |fields: serde_json::Value| {
        let mut out = stat.clone();
        let out_map = out.as_object_mut().unwrap();
        out_map.shift_insert(0, "fileName".into(), json!("package.json"));
        out_map.insert("fields".into(), fields);
        out_map.insert("fieldsRevision".into(), json!(2));
        out
    };
    let bins = "30ddfb2b3785019766e6a3917fb6ade9";
    let expected = json!({
        "recordedAtNs": 3,
        "files": {"/ws/pnpm-lock.yaml": {"mtimeNs": 1, "ctimeNs": 2, "size": 6498,
                                         "digest": "8a9d6172016cacd30e60b0117008105c"}},
        "lockfile": "8a9d6172016cacd30e60b0117008105c",
        "manifests": {
            ".": value_digest(&json!({"name": "root", "private": true})),
            "packages/a": "e7c7f81490ea0d3e110f85a90bcf7921",
            "packages/b": value_digest(&json!({"name": "b", "version": "1.0.0",
                "scripts": {"t": "x"}, "dependencies": {"a": "workspace:*",
                "g": "git+https://h/g.git", "d": "d@file:///ws/d", "l": "file:../l"},
                "dependenciesMeta": {}})),
        },
        // The root always, and the projects that declare dependencies.
        "workspaceBins": {".": bins, "packages/a": bins, "packages/b": bins},
        "localDependencies": {"8a9d6172016cacd30e60b0117008105c": {
            "tarballs": ["/ws/t.tgz"], "directories": ["/ws/l/y", "/ws/l-x", "/ws/z"]}},
        "manifestFiles": {
            ".": file(json!({"name": "root"})),
            "packages/a": file(json!({"name": "a", "version": "1.0.0",
                "dependencies": {"is-number": "7.0.0"}, "bin": {"a-cli": "cli.js"}})),
            // URL specifiers recorded as `*`.
            "packages/b": file(json!({"name": "b", "version": "1.0.0",
                "dependencies": {"a": "workspace:*", "g": "*", "d": "d@file:///ws/d",
                                 "l": "file:../l"}})),
        },
    });
    let actual = validation.to_json();
    assert_eq!(
        serde_json::to_string_pretty(&actual).unwrap(),
        serde_json::to_string_pretty(&expected).unwrap()
    );
}
