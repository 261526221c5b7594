use serde_json::json;

use super::*;
use crate::spec::{Spec, parse};

/// A packument of `versions` (`d` suffix: deprecated) tagged `latest`.
fn packument(versions: &[&str], latest: &str, tags: &[(&str, &str)]) -> Packument {
    let mut docs = serde_json::Map::new();
    for v in versions {
        let (version, deprecated) = match v.strip_suffix('d') {
            Some(version) => (version, true),
            None => (*v, false),
        };
        let mut doc = json!({"name": "p", "version": version, "dist": {"integrity": "sha512-x"}});
        if deprecated {
            doc["deprecated"] = json!("do not use");
        }
        docs.insert(version.to_owned(), doc);
    }
    let mut dist_tags = serde_json::Map::new();
    dist_tags.insert("latest".into(), json!(latest));
    for (tag, v) in tags {
        dist_tags.insert((*tag).into(), json!(v));
    }
    let doc = json!({"name": "p", "dist-tags": dist_tags, "versions": docs});
    Packument::parse(doc.to_string().into_bytes()).unwrap()
}

fn picked(p: &Packument, spec: &str) -> Option<String> {
    let Spec::Registry(spec) = parse("p", spec) else {
        panic!("{spec}")
    };
    pick(p, &spec.selector, &|_| 0, &|_| true).map(|v| v.to_string())
}

/// The cases docs/resolution.md §1 records from pnpm 12.21.
#[test]
fn picks_as_pnpm_12_does() {
    let p = packument(&["1.0.0", "1.1.0", "1.2.0", "2.0.0-beta.1"], "1.1.0", &[]);
    for spec in ["^1.0.0", "*", "latest"] {
        assert_eq!(picked(&p, spec).as_deref(), Some("1.1.0"), "{spec}");
    }
    let p = packument(&["1.0.0", "1.1.0d", "2.0.0"], "2.0.0", &[]);
    assert_eq!(picked(&p, "^1.0.0").as_deref(), Some("1.0.0"));
    let p = packument(&["1.0.0", "1.1.0d"], "1.1.0", &[]);
    assert_eq!(picked(&p, "^1.0.0").as_deref(), Some("1.0.0"));
    assert_eq!(picked(&p, "latest").as_deref(), Some("1.1.0"));
    let p = packument(&["1.0.0", "1.1.0d", "1.2.0"], "1.1.0", &[]);
    assert_eq!(picked(&p, "^1.0.0").as_deref(), Some("1.2.0"));
    let p = packument(&["1.0.0", "2.0.0d"], "2.0.0", &[]);
    assert_eq!(picked(&p, "*").as_deref(), Some("1.0.0"));
    let p = packument(&["1.0.0d", "1.1.0d"], "1.0.0", &[]);
    assert_eq!(picked(&p, "^1.0.0").as_deref(), Some("1.0.0"));
    let p = packument(&["1.0.0", "2.0.0-beta.1"], "2.0.0-beta.1", &[]);
    assert_eq!(picked(&p, "*").as_deref(), Some("1.0.0"));
    assert_eq!(picked(&p, ">=2.0.0-0").as_deref(), Some("2.0.0-beta.1"));
    let p = packument(&["1.0.0-alpha", "1.0.0-beta"], "1.0.0-alpha", &[]);
    assert_eq!(picked(&p, "*").as_deref(), Some("1.0.0-alpha"));
    let p = packument(&["1.0.0", "1.1.0", "1.2.0-rc.1"], "1.1.0", &[]);
    assert_eq!(picked(&p, "^1.1.0").as_deref(), Some("1.1.0"));
    assert_eq!(picked(&p, "^1.2.0-rc.0").as_deref(), Some("1.2.0-rc.1"));
    let p = packument(&["1.0.0", "2.0.0-rc.1"], "1.0.0", &[("next", "2.0.0-rc.1")]);
    assert_eq!(picked(&p, "next").as_deref(), Some("2.0.0-rc.1"));
    assert_eq!(picked(&p, ">=1.0.0").as_deref(), Some("1.0.0"));
    assert_eq!(picked(&p, "^3.0.0"), None);
    assert_eq!(picked(&p, "1.0.1"), None);
}

#[test]
fn preferred_versions_win_over_latest_and_deprecation() {
    let p = packument(&["1.0.0", "1.1.0d", "1.2.0"], "1.2.0", &[]);
    let spec = Selector::Range(nodejs_semver::Range::parse("^1.0.0").unwrap());
    let prefer = |wanted: &'static str| move |v: &Version| u32::from(v.to_string() == wanted);
    let got = |w: &dyn Fn(&Version) -> u32| pick(&p, &spec, w, &|_| true).map(|v| v.to_string());
    assert_eq!(got(&prefer("1.1.0")).as_deref(), Some("1.1.0"));
    assert_eq!(got(&prefer("1.0.0")).as_deref(), Some("1.0.0"));
    // The heaviest group wins; a tie goes to the highest.
    let weights = |v: &Version| match v.to_string().as_str() {
        "1.0.0" => 1000,
        "1.2.0" => 1,
        _ => 0,
    };
    assert_eq!(got(&weights).as_deref(), Some("1.0.0"));
    // Versions `eligible` refuses are never picked.
    let young = pick(&p, &spec, &|_| 0, &|v| v.to_string() != "1.2.0");
    assert_eq!(young.map(|v| v.to_string()).as_deref(), Some("1.0.0"));
}

#[test]
fn lowest_direct_picks_the_lowest_satisfying_version() {
    let p = packument(
        &["0.9.0-rc.1", "1.0.0d", "1.1.0", "1.2.0", "2.0.0"],
        "1.2.0",
        &[],
    );
    let lowest = |spec: &str, weight: &dyn Fn(&Version) -> u32| {
        let Spec::Registry(spec) = parse("p", spec) else {
            panic!("{spec}")
        };
        pick_lowest(&p, &spec.selector, weight, &|v| v.to_string() != "1.1.0")
            .map(|v| v.to_string())
    };
    // Deprecated and not `latest`, still the lowest; ineligible skipped.
    assert_eq!(lowest("^1.0.0", &|_| 0).as_deref(), Some("1.0.0"));
    assert_eq!(lowest(">=1.1.0", &|_| 0).as_deref(), Some("1.2.0"));
    // `*`: the lowest of all, prereleases included.
    assert_eq!(lowest("*", &|_| 0).as_deref(), Some("0.9.0-rc.1"));
    // Preferred versions first, the lowest of the heaviest group.
    let prefer = |v: &Version| u32::from(v.major() == 2 || v.minor() == 2);
    assert_eq!(lowest(">=1.0.0", &prefer).as_deref(), Some("1.2.0"));
    // Tags and exact versions as `pick` does.
    assert_eq!(lowest("latest", &|_| 0).as_deref(), Some("1.2.0"));
    assert_eq!(lowest("2.0.0", &|_| 0).as_deref(), Some("2.0.0"));
}
