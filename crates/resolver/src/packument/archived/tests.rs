use pacquet_registry_metadata::mirror::{self, FileBytes, KeptFile};
use serde_json::json;

use super::*;

/// A mirror file pnpm 12.21 wrote (the registry-metadata crate's fixture).
const WRITTEN_BY_PNPM: &[u8] =
    include_bytes!("../../../../registry-metadata/src/mirror/written-by-pnpm.jsonl");

fn file_of(document: &serde_json::Value) -> Vec<u8> {
    mirror::encode(&serde_json::to_vec(document).unwrap(), false, Some("\"e\"")).unwrap()
}

/// The packument a kept file reads as without an index entry.
fn parsed(file: &[u8]) -> Packument {
    match mirror::decode_file(FileBytes::Read(file.to_vec())) {
        Some(KeptFile::Indexed(kept)) => Packument::from_kept(kept),
        other => panic!("not an indexed file: {other:?}"),
    }
}

fn entry_of(file: &[u8]) -> Vec<u8> {
    let mut entry = Vec::new();
    encode(&parsed(file), &mut entry).unwrap();
    entry
}

/// Everything resolution reads of a packument, as text.
fn summary(p: &Packument) -> String {
    let mut tags: Vec<_> = p.dist_tags.iter().collect();
    tags.sort();
    let versions: Vec<_> = p
        .versions
        .iter()
        .map(|(v, at)| {
            let parts = (v.major(), v.minor(), v.patch(), v.pre_release().to_vec());
            format!("{v} {parts:?} {:?} {}", v.build(), p.json_at(at))
        })
        .collect();
    let times: Vec<_> = p
        .versions
        .iter()
        .map(|(v, _)| p.published(&v.to_string()).map(str::to_owned))
        .chain(["modified", "created"].map(|k| p.published(k).map(str::to_owned)))
        .collect();
    format!(
        "{}\n{tags:?}\n{versions:#?}\n{times:?}\n{:?} {}",
        p.name,
        p.modified_ms,
        p.has_time()
    )
}

fn documents() -> Vec<serde_json::Value> {
    vec![
        json!({
            "name": "ü-pkg",
            "dist-tags": {"latest": "1.1.0", "next": "2.0.0-rc.1", "bad": 5},
            "modified": "2024-01-02T00:00:00.000Z",
            "time": {"1.0.0": "2020-01-01T00:00:00.000Z", "2.0.0-rc.1": "2021-01-01T00:00:00.000Z"},
            "versions": {
                "1.0.0": {"name": "ü-pkg", "version": "1.0.0", "description": "ünïcode"},
                "not-semver": {"name": "ü-pkg"},
                "1.1.0": {"name": "ü-pkg", "version": "1.1.0", "deprecated": "use 2"},
                "2.0.0-rc.1": {"version": "2.0.0-rc.1"},
                "2.0.0-rc.1+build.5": {"version": "2.0.0-rc.1+build.5"},
                "3.0.0+sha.abc": {"version": "3.0.0+sha.abc"},
                "v4.0.0": {"version": "4.0.0"},
                "1.2.3-beta": {"version": "1.2.3-beta"},
                "4294967296.0.1": {"version": "past u32"},
                "18446744073709551615.0.1": {}
            }
        }),
        json!({"name": "bare", "versions": {}}),
        json!({"name": "no-time", "dist-tags": {"latest": "0.0.1"}, "versions": {"0.0.1": {}}}),
    ]
}

#[test]
fn an_entry_reads_as_the_file_it_was_made_from() {
    let mut files: Vec<Vec<u8>> = documents().iter().map(file_of).collect();
    files.push(WRITTEN_BY_PNPM.to_vec());
    for file in files {
        let entry = entry_of(&file);
        let from_entry = decode(&entry, FileBytes::Read(file.clone()))
            .unwrap_or_else(|_| panic!("entry refused its own file"));
        assert_eq!(summary(&from_entry), summary(&parsed(&file)));
    }
    let first = summary(&parsed(&file_of(&documents()[0])));
    for version in [
        "4294967296.0.1",
        "2.0.0-rc.1+build.5",
        "3.0.0+sha.abc",
        "4.0.0",
    ] {
        assert!(
            first.contains(version),
            "{version} is among the versions read"
        );
    }
}

/// The versions' manifests are read from the file, not kept in the entry:
/// a file whose index is the same answers with its own manifests.
#[test]
fn manifests_come_from_the_file() {
    let file = file_of(&documents()[0]);
    let entry = entry_of(&file);
    // A shorter manifest moves the others: the index says so, and it is
    // another index.
    let mut document = documents()[0].clone();
    document["versions"]["1.0.0"]["description"] = json!("unicode");
    assert!(decode(&entry, FileBytes::Read(file_of(&document))).is_err());
    // The same index with another manifest of the same length.
    let same_length = String::from_utf8(file.clone())
        .unwrap()
        .replace("use 2", "use 3")
        .into_bytes();
    let from_entry = decode(&entry, FileBytes::Read(same_length.clone()))
        .unwrap_or_else(|_| panic!("same index"));
    assert_eq!(summary(&from_entry), summary(&parsed(&same_length)));
    assert!(summary(&from_entry).contains("use 3"));
}

#[test]
fn an_entry_refuses_other_files() {
    let file = file_of(&documents()[0]);
    let entry = entry_of(&file);
    let other_etag = mirror::encode(
        &serde_json::to_vec(&documents()[0]).unwrap(),
        false,
        Some("\"f\""),
    )
    .unwrap();
    assert!(decode(&entry, FileBytes::Read(other_etag)).is_err());
    let other_document = file_of(&documents()[2]);
    assert!(decode(&entry, FileBytes::Read(other_document)).is_err());
    // Cut short: the index is whole, the manifests are not.
    let last = parsed(&file)
        .versions
        .iter()
        .map(|(_, at)| at.end)
        .max()
        .unwrap();
    assert!(decode(&entry, FileBytes::Read(file[..last - 1].to_vec())).is_err());
    assert!(decode(&entry, FileBytes::Read(file[..last].to_vec())).is_ok());
    // Not an indexed file at all.
    assert!(decode(&entry, FileBytes::Read(b"{\"etag\":\"e\"}\n{}".to_vec())).is_err());
    assert!(decode(&entry, FileBytes::Read(Vec::new())).is_err());
}

#[test]
fn a_damaged_entry_is_refused_not_trusted() {
    let file = file_of(&documents()[0]);
    let entry = entry_of(&file);
    for len in 0..entry.len() {
        assert!(
            decode(&entry[..len], FileBytes::Read(file.clone())).is_err(),
            "cut at {len}"
        );
    }
    // Counts and lengths that claim more than there is.
    for at in 0..entry.len() {
        let mut damaged = entry.clone();
        damaged[at] = 0xff;
        // Either refused or read without a panic; a changed digest is refused.
        let result = decode(&damaged, FileBytes::Read(file.clone()));
        if at < 16 {
            assert!(result.is_err(), "digest byte {at}");
        }
    }
}

#[test]
fn only_kept_files_have_entries() {
    let document = serde_json::to_vec(&documents()[0]).unwrap();
    let packument = Packument::parse(document).unwrap();
    let mut out = Vec::new();
    assert!(encode(&packument, &mut out).is_none());
    assert!(out.is_empty());
    assert_eq!(head_digest(b"{\"etag\":\"e\"}\n{}"), None);
}
