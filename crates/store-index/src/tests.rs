//! Unit tests for the codec against the msgpackr vectors of docs/store.md §6.5.

use crate::{FileInfo, PackageFilesIndex, SideEffectsDiff, built_key, decode, encode, store_key};
use pretty_assertions::assert_eq;
use serde_json::json;

fn hex(s: &str) -> Vec<u8> {
    let clean: String = s.split_whitespace().collect();
    (0..clean.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&clean[i..i + 2], 16).unwrap())
        .collect()
}

fn file(digest: &str, mode: u32, size: u64, checked_at: Option<f64>) -> FileInfo {
    FileInfo {
        digest: digest.to_owned(),
        mode,
        size,
        checked_at,
    }
}

/// Encodes a manifest value alone by wrapping it as the only extra field
/// and stripping the fixed prefix, to compare with msgpackr's output.
fn minimal_row() -> PackageFilesIndex {
    PackageFilesIndex {
        algo: "sha512".into(),
        files: vec![(
            "package.json".into(),
            file("abc", 0o644, 17, Some(1_700_000_000_000.0)),
        )],
        ..Default::default()
    }
}

#[test]
fn golden_minimal_vector() {
    let expected = hex(
        "d4 72 40 92 a4 61 6c 67 6f a5 66 69 6c 65 73
         a6 73 68 61 35 31 32
         81 ac 70 61 63 6b 61 67 65 2e 6a 73 6f 6e
         d4 72 41 94 a6 64 69 67 65 73 74 a4 6d 6f 64 65 a4 73 69 7a 65 a9 63 68 65 63 6b 65 64 41 74
         a3 61 62 63 cd 01 a4 11 cb 42 78 bc fe 56 80 00 00",
    );
    assert_eq!(expected.len(), 84);
    assert_eq!(encode(&minimal_row()), expected);
    assert_eq!(decode(&expected).unwrap(), minimal_row());
}

/// Row `{algo, files: Map{}, <extra>: value}` so extra values show msgpackr's
/// object encoding after a known prefix.
fn extra_bytes(value: serde_json::Value) -> Vec<u8> {
    let row = PackageFilesIndex {
        algo: "a".into(),
        extra: vec![("v".into(), value)],
        ..Default::default()
    };
    let bytes = encode(&row);
    // d4 72 40 93 a4"algo" a5"files" a1"v" a1"a" 80
    let prefix = hex("d4 72 40 93 a4 61 6c 67 6f a5 66 69 6c 65 73 a1 76 a1 61 80");
    assert_eq!(&bytes[..prefix.len()], &prefix[..]);
    // Byte-level round trip (JSON `2.0` decodes as the JS number 2).
    assert_eq!(encode(&decode(&bytes).unwrap()), bytes, "round trip");
    bytes[prefix.len()..].to_vec()
}

#[test]
fn records_reuse_and_define_slots_like_msgpackr() {
    // Slot 0x40 is the top-level record here, so vectors shift by one slot.
    assert_eq!(
        extra_bytes(json!({"a": {}})),
        hex("d4 72 41 91 a1 61 d4 72 42 90")
    );
    assert_eq!(
        extra_bytes(json!([{"x": 1}, {"x": 2}, {"y": 3}])),
        hex("93 d4 72 41 91 a1 78 01 41 02 d4 72 42 91 a1 79 03")
    );
}

#[test]
fn integers_follow_msgpackr_widths() {
    let cases: &[(serde_json::Value, &str)] = &[
        (json!(0), "00"),
        (json!(63), "3f"),
        (json!(64), "cc 40"),
        (json!(141), "cc 8d"),
        (json!(255), "cc ff"),
        (json!(420), "cd 01 a4"),
        (json!(9_978_008), "ce 00 98 40 98"),
        (json!(4_294_967_295u64), "ce ff ff ff ff"),
        (json!(4_294_967_296u64), "cb 41 f0 00 00 00 00 00 00"),
        (json!(-1), "ff"),
        (json!(-32), "e0"),
        (json!(-33), "d0 df"),
        (json!(-200), "d1 ff 38"),
        (json!(-40000), "d2 ff ff 63 c0"),
        (json!(1.5), "cb 3f f8 00 00 00 00 00 00"),
        (json!(2.0), "02"),
        (json!(true), "c3"),
        (json!(null), "c0"),
    ];
    for (value, expected) in cases {
        assert_eq!(
            extra_bytes(json!([value])),
            [vec![0x91], hex(expected)].concat(),
            "{value}"
        );
    }
}

#[test]
fn strings_use_smallest_header() {
    for (len, header) in [
        (31, vec![0xbf]),
        (32, vec![0xd9, 32]),
        (300, vec![0xda, 0x01, 0x2c]),
    ] {
        let s = "x".repeat(len);
        let bytes = extra_bytes(json!(s));
        assert_eq!(&bytes[..header.len()], &header[..]);
        assert_eq!(bytes.len(), header.len() + len);
    }
    // Byte length, not char count, picks the header.
    let bytes = extra_bytes(json!("é".repeat(16)));
    assert_eq!(&bytes[..2], &[0xd9, 32]);
}

#[test]
fn slot_65_wraps_to_0x40_and_redefines_it() {
    // Top-level record is 0x40; shapes k0..k62 take 0x41..=0x7f; k63 wraps
    // to 0x40, k64 evicts k0 from 0x41, so k0 again defines 0x42.
    let mut shapes: Vec<serde_json::Value> = (0..65)
        .map(|i| json!({ format!("k{i}"): i % 60 }))
        .collect();
    shapes.push(json!({"k0": 1}));
    shapes.push(json!({"k64": 2}));
    let bytes = extra_bytes(json!(shapes));
    let find = |needle: &[u8]| bytes.windows(needle.len()).position(|w| w == needle);
    assert!(
        find(&hex("d4 72 40 91 a3 6b 36 33")).is_some(),
        "k63 redefines 0x40"
    );
    assert!(
        find(&hex("d4 72 41 91 a3 6b 36 34")).is_some(),
        "k64 redefines 0x41"
    );
    assert!(
        bytes.ends_with(&hex("d4 72 42 91 a2 6b 30 01 41 02")),
        "{:02x?}",
        &bytes[bytes.len() - 10..]
    );
    let row = decode(
        &[
            hex("d4 72 40 93 a4 61 6c 67 6f a5 66 69 6c 65 73 a1 76 a1 61 80"),
            bytes,
        ]
        .concat(),
    )
    .unwrap();
    assert_eq!(row.extra[0].1, json!(shapes));
}

#[test]
fn manifest_objects_keep_order_but_js_index_keys_go_first() {
    let row = PackageFilesIndex {
        algo: "sha512".into(),
        manifest: Some(json!({"version": "1.0.0", "bin": {"b": "x", "10": "y", "2": "z"}})),
        ..Default::default()
    };
    let decoded = decode(&encode(&row)).unwrap();
    let keys: Vec<&String> = decoded.manifest.as_ref().unwrap()["bin"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["2", "10", "b"]);
}

#[test]
fn pnpm11_shapes_decode() {
    // Top record [requiresBuild, manifest, algo, files, extra] with an
    // undefined manifest, file record [checkedAt, digest, mode, size], and a
    // legacy plain integer 0x41 where no slot 0x41 is defined.
    let mut bytes = hex("d4 72 40 95");
    for key in ["requiresBuild", "manifest", "algo", "files", "legacy"] {
        bytes.push(0xa0 | key.len() as u8);
        bytes.extend_from_slice(key.as_bytes());
    }
    bytes.extend(hex("c3 d4 00 00 a6 73 68 61 35 31 32 82"));
    bytes.extend(hex("a1 62 d4 72 41 94 a9 63 68 65 63 6b 65 64 41 74 a6 64 69 67 65 73 74 a4 6d 6f 64 65 a4 73 69 7a 65"));
    bytes.extend(hex("cb 42 78 bc fe 56 80 00 00 a1 64 cd 01 ed 05"));
    bytes.extend(hex("a1 61 41 d4 00 00 a1 65 cc 90 07"));
    bytes.push(0x42); // no slot 0x42 defined: the integer 66
    let row = decode(&bytes).unwrap();
    assert_eq!(row.algo, "sha512");
    assert_eq!(row.requires_build, Some(true));
    assert_eq!(row.manifest, None);
    assert_eq!(
        row.files,
        vec![
            (
                "b".to_owned(),
                file("d", 0o755, 5, Some(1_700_000_000_000.0))
            ),
            ("a".to_owned(), file("e", 0o220, 7, None)),
        ]
    );
    assert_eq!(row.extra, vec![("legacy".to_owned(), json!(66))]);
}

#[test]
fn side_effects_round_trip() {
    let mut row = minimal_row();
    row.requires_build = Some(true);
    row.side_effects = Some(vec![(
        "linux;x64;node20;format=2;deps=abc".into(),
        SideEffectsDiff {
            added: Some(vec![("bin/x".into(), file("ff", 0o755, 9_978_008, None))]),
            deleted: Some(vec!["install.js".into()]),
            extra: vec![],
        },
    )]);
    row.tar_integrity = Some("sha512-xyz".into());
    row.extra = vec![("requiresPrepare".into(), json!(false))];
    assert_eq!(decode(&encode(&row)).unwrap(), row);
}

#[test]
fn huge_sizes_are_float64_never_cf() {
    let mut row = minimal_row();
    row.files[0].1.size = 5_000_000_000;
    let bytes = encode(&row);
    assert!(!bytes.contains(&0xcf) || !bytes.windows(2).any(|w| w[0] == 0xcf && w[1] == 0));
    let tail = hex("cb 41 f2 a0 5f 20 00 00 00");
    assert!(bytes.windows(tail.len()).any(|w| w == tail.as_slice()));
    assert_eq!(decode(&bytes).unwrap(), row);
}

#[test]
fn rejects_garbage() {
    let good = encode(&minimal_row());
    for len in 0..good.len() {
        assert!(decode(&good[..len]).is_err(), "truncated at {len}");
    }
    assert!(decode(&[good.as_slice(), &[0xc0]].concat()).is_err());
    // A top-level map without `files` is unusable.
    assert!(decode(&hex("81 a4 61 6c 67 6f a1 78")).is_err());
    // Two-byte record ids are not produced by pnpm's options.
    assert!(decode(&hex("d5 72 40 00")).is_err());
    assert!(decode(&[0x00]).is_err());
    // Deep nesting fails cleanly instead of overflowing the stack.
    let mut deep = hex("d4 72 40 93 a4 61 6c 67 6f a5 66 69 6c 65 73 a1 76 a1 61 80");
    deep.extend(std::iter::repeat_n(0x91, 100_000));
    deep.push(0xc0);
    assert!(decode(&deep).is_err());
}

#[test]
fn keys() {
    assert_eq!(
        store_key("sha512-abc==", "is-number@7.0.0"),
        "sha512-abc==\tis-number@7.0.0"
    );
    assert_eq!(
        built_key("github.com/a/b/123", true),
        "github.com/a/b/123\tbuilt"
    );
    assert_eq!(
        built_key("github.com/a/b/123", false),
        "github.com/a/b/123\tnot-built"
    );
}

#[test]
fn null_optional_fields_read_as_absent() {
    let mut bytes = hex("d4 72 40 94 a4 61 6c 67 6f a5 66 69 6c 65 73");
    bytes.extend(hex("ac 74 61 72 49 6e 74 65 67 72 69 74 79")); // "tarIntegrity"
    bytes.extend(hex("ad 72 65 71 75 69 72 65 73 42 75 69 6c 64")); // "requiresBuild"
    bytes.extend(hex("a6 73 68 61 35 31 32 80 c0 c0"));
    let row = decode(&bytes).unwrap();
    assert_eq!((row.tar_integrity, row.requires_build), (None, None));
    assert!(row.files.is_empty());
}

#[test]
fn writer_handles_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<crate::IndexSender>();
    assert_send_sync::<crate::IndexWriter>();
}

#[test]
fn rich_manifest_round_trips() {
    let manifest = json!({
        "version": "2.0.0",
        "bin": "cli.js",
        "bundledDependencies": ["a", "b"],
        "bundleDependencies": true,
        "cpu": ["x64", "!arm"],
        "dependencies": {"a": "^1.0.0"},
        "directories": {"bin": "./bin"},
        "engines": {"node": ">=18", "npm": "*"},
        "libc": ["glibc"],
        "name": "@scope/rich",
        "optionalDependencies": {},
        "os": ["linux", "darwin"],
        "peerDependencies": {"react": ">=18"},
        "peerDependenciesMeta": {"react": {"optional": true}},
        "scripts": {"postinstall": "node-gyp rebuild"},
    });
    let row = PackageFilesIndex {
        algo: "sha512".into(),
        requires_build: Some(true),
        manifest: Some(manifest.clone()),
        files: vec![(
            "binding.gyp".into(),
            file(&"0".repeat(128), 0o644, 70_000, Some(1.5)),
        )],
        ..Default::default()
    };
    let bytes = encode(&row);
    // Ten shapes: top, manifest, {a}, {bin}, {node,npm}, {}, {react},
    // {optional}, {postinstall}, file; peerDependenciesMeta reuses {react}.
    let definitions = bytes.windows(2).filter(|w| *w == [0xd4, 0x72]).count();
    assert_eq!(definitions, 10);
    let decoded = decode(&bytes).unwrap();
    assert_eq!(decoded, row);
    let keys: Vec<&String> = decoded
        .manifest
        .as_ref()
        .unwrap()
        .as_object()
        .unwrap()
        .keys()
        .collect();
    let expected: Vec<&String> = manifest.as_object().unwrap().keys().collect();
    assert_eq!(keys, expected);
}
