use serde_json::json;

use super::*;

fn packument(times: &[(&str, &str)]) -> Packument {
    let mut versions = serde_json::Map::new();
    let mut time = serde_json::Map::new();
    for (version, stamp) in times {
        versions.insert((*version).into(), json!({"name": "p", "version": version}));
        time.insert((*version).into(), json!(stamp));
    }
    let doc = json!({"name": "p", "dist-tags": {}, "versions": versions, "time": time});
    Packument::parse(doc.to_string().into_bytes()).unwrap()
}

#[test]
fn the_ceiling_is_an_hour_after_the_newest_direct_pick() {
    let p = packument(&[
        ("1.0.0", "2020-01-01T00:00:00.000Z"),
        ("2.0.0", "2021-06-01T12:00:00.000Z"),
    ]);
    let picks = [
        "p@1.0.0".to_owned(),
        "p@2.0.0".to_owned(),
        "p@3.0.0".to_owned(),
    ];
    let (ceiling, dates) = time_ceiling(&picks, |_| Some(&p));
    let newest = pacquet_state::parse_iso_date("2021-06-01T12:00:00.000Z").unwrap();
    assert_eq!(ceiling, Some(newest + 3_600_000));
    // Undated picks are left out.
    assert_eq!(dates.keys().collect::<Vec<_>>(), ["p@1.0.0", "p@2.0.0"]);
    assert!(published_by(&p, &Version::parse("2.0.0").unwrap(), newest));
    assert!(!published_by(
        &p,
        &Version::parse("2.0.0").unwrap(),
        newest - 1
    ));
    // A version without a date passes.
    assert!(published_by(&p, &Version::parse("3.0.0").unwrap(), 0));
    assert_eq!(time_ceiling(&[], |_| Some(&p)).0, None);
}

#[test]
fn the_setting_values() {
    assert_eq!(
        ResolutionMode::parse("highest"),
        Some(ResolutionMode::Highest)
    );
    assert_eq!(
        ResolutionMode::parse("lowest-direct"),
        Some(ResolutionMode::LowestDirect)
    );
    assert_eq!(
        ResolutionMode::parse("time-based"),
        Some(ResolutionMode::TimeBased)
    );
    assert_eq!(ResolutionMode::parse("lowest"), None);
}
