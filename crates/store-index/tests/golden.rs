//! Rows written by pnpm 12.21 itself (`tests/fixtures/pnpm12-rows.txt`):
//! decode, check fields, re-encode byte for byte.

mod support;

use pacquet_store_index::{decode, encode};
use pretty_assertions::assert_eq;
use serde_json::json;
use support::{pnpm12_row, pnpm12_rows};

#[test]
fn every_pnpm12_row_round_trips_byte_for_byte() {
    let rows = pnpm12_rows();
    assert_eq!(rows.len(), 11);
    for (key, data) in rows {
        let row = decode(&data).unwrap_or_else(|e| panic!("{key}: {e}"));
        assert_eq!(row.algo, "sha512", "{key}");
        assert!(
            row.tar_integrity
                .as_deref()
                .is_some_and(|t| t.starts_with("sha512-")),
            "{key}"
        );
        assert!(row.extra.is_empty(), "{key}: {:?}", row.extra);
        let pkg_id = key.split('\t').nth(1).unwrap();
        let manifest = row.manifest.as_ref().unwrap();
        assert_eq!(
            format!(
                "{}@{}",
                manifest["name"].as_str().unwrap(),
                manifest["version"].as_str().unwrap()
            ),
            pkg_id
        );
        // pnpm 12 sorts `files` bytewise.
        assert!(
            row.files
                .windows(2)
                .all(|w| w[0].0.as_bytes() < w[1].0.as_bytes()),
            "{key}"
        );
        for (path, info) in &row.files {
            assert_eq!(info.digest.len(), 128, "{key} {path}");
            assert!(info.checked_at.is_some_and(|c| c > 1.7e12), "{key} {path}");
        }
        assert_eq!(encode(&row), data, "{key}: re-encoded bytes differ");
    }
}

#[test]
fn is_number_row_matches_spec_example_a() {
    let (_, data) = pnpm12_row("is-number@7.0.0");
    assert_eq!(data.len(), 954);
    let row = decode(&data).unwrap();
    assert_eq!(row.requires_build, Some(false));
    assert_eq!(
        row.manifest,
        Some(json!({
            "version": "7.0.0",
            "devDependencies": {"ansi": "^0.3.1", "benchmark": "^2.1.4", "gulp-format-md": "^1.0.0", "mocha": "^3.5.3"},
            "engines": {"node": ">=0.12.0"},
            "name": "is-number",
        }))
    );
    let names: Vec<&str> = row.files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(names, ["LICENSE", "README.md", "index.js", "package.json"]);
    let license = &row.files[0].1;
    assert!(license.digest.starts_with("72392bcc"));
    assert_eq!((license.mode, license.size), (420, 1091));
    assert!(!license.is_executable());
}

#[test]
fn esbuild_platform_row_matches_spec_example_b() {
    let (_, data) = pnpm12_row("@esbuild/linux-x64@0.23.1");
    assert_eq!(data.len(), 745);
    let row = decode(&data).unwrap();
    let manifest = row.manifest.as_ref().unwrap();
    assert_eq!(manifest["cpu"], json!(["x64"]));
    assert_eq!(manifest["os"], json!(["linux"]));
    let (path, bin) = &row.files[1];
    assert_eq!(path, "bin/esbuild");
    assert_eq!((bin.mode, bin.size), (493, 9_978_008));
    assert!(bin.is_executable());
    assert_eq!(
        row.tar_integrity.as_deref(),
        Some(
            "sha512-48iIdPcluI5svOcDQHnKKWLMO81GJgKG8+aSUR8PqW/XW+NQ39CWhuURzyrDHtTLlCmM5Bv5TwecdZZpOBvT8Q=="
        )
    );
}

#[test]
fn esbuild_row_has_side_effects_between_files_and_tar_integrity() {
    let (_, data) = pnpm12_row("esbuild@0.23.1");
    // Top-level key list as pnpm 12 writes it.
    let header = b"\xd4\x72\x40\x96\xa4algo\xadrequiresBuild\xa8manifest\xa5files\xabsideEffects\xactarIntegrity";
    assert!(data.starts_with(header));
    let row = decode(&data).unwrap();
    assert_eq!(row.requires_build, Some(true));
    let manifest = row.manifest.as_ref().unwrap();
    assert_eq!(
        manifest["scripts"],
        json!({"postinstall": "node install.js"})
    );
    assert_eq!(manifest["bin"], json!({"esbuild": "bin/esbuild"}));
    assert_eq!(
        manifest["optionalDependencies"].as_object().unwrap().len(),
        24
    );
    let side_effects = row.side_effects.as_ref().unwrap();
    assert_eq!(side_effects.len(), 1);
    let (cache_key, diff) = &side_effects[0];
    assert_eq!(
        cache_key,
        "linux;x64;node20;format=2;deps=C7BeTK1x8RXfmxnbuGyLOQiLhgAG2XUNJo64ao/yV7w="
    );
    assert_eq!(diff.deleted, None);
    let added = diff.added.as_ref().unwrap();
    assert_eq!(added.len(), 1);
    assert_eq!(added[0].0, "bin/esbuild");
    assert_eq!(
        (added[0].1.mode, added[0].1.size, added[0].1.checked_at),
        (493, 9_978_008, None)
    );
}

#[test]
fn rich_manifests_decode() {
    let ws = decode(&pnpm12_row("ws@8.18.0").1).unwrap();
    let manifest = ws.manifest.unwrap();
    assert_eq!(
        manifest["peerDependenciesMeta"]["bufferutil"],
        json!({"optional": true})
    );
    assert_eq!(
        manifest["peerDependencies"]["utf-8-validate"],
        json!(">=5.0.2")
    );

    let semver = decode(&pnpm12_row("semver@7.6.3").1).unwrap();
    assert_eq!(
        semver.manifest.unwrap()["bin"],
        json!({"semver": "bin/semver.js"})
    );

    let fsevents = decode(&pnpm12_row("fsevents@2.3.3").1).unwrap();
    assert_eq!(fsevents.manifest.unwrap()["os"], json!(["darwin"]));

    let react_dom = decode(&pnpm12_row("react-dom@18.3.1").1).unwrap();
    let manifest = react_dom.manifest.unwrap();
    assert_eq!(manifest["peerDependencies"], json!({"react": "^18.3.1"}));
    let keys: Vec<&String> = manifest.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["version", "dependencies", "name", "peerDependencies"]
    );
}

/// The summary of every pnpm 12 row says what the full row says, and of a
/// row with a skill and without `package.json` too.
#[test]
fn summaries_agree_with_full_rows() {
    use pacquet_store_index::{FileInfo, decode_summary, is_skill_file};
    let mut rows = pnpm12_rows();
    let mut extra = decode(&rows[0].1).unwrap();
    extra.files.retain(|(path, _)| path != "package.json");
    let info = extra.files[0].1.clone();
    extra
        .files
        .push(("skills/review/SKILL.md".to_owned(), FileInfo { ..info }));
    extra
        .files
        .sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    extra.requires_build = Some(true);
    rows.push(("edited".to_owned(), encode(&extra)));
    let mut skills = 0;
    for (key, data) in rows {
        let row = decode(&data).unwrap();
        let summary = decode_summary(&data).unwrap_or_else(|e| panic!("{key}: {e}"));
        assert_eq!(summary.algo, row.algo, "{key}");
        assert_eq!(summary.requires_build, row.requires_build, "{key}");
        assert_eq!(summary.manifest, row.manifest, "{key}");
        let has_package_json = row.files.iter().any(|(p, _)| p == "package.json");
        assert_eq!(summary.has_package_json, has_package_json, "{key}");
        let provides = row.files.iter().any(|(p, _)| is_skill_file(p));
        assert_eq!(summary.provides_skills, provides, "{key}");
        // A row made in memory summarizes as it reads back once stored.
        assert_eq!(row.summary(), summary, "{key}");
        skills += usize::from(provides);
    }
    assert_eq!(skills, 1);
    // A truncated row is an error, as for the full decoder.
    let (_, data) = &pnpm12_rows()[0];
    assert!(decode_summary(&data[..data.len() - 3]).is_err());
}
