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
