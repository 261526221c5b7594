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

/// What `pick` answers for a range, computed the plain way: every
/// satisfying eligible version is a candidate; the heaviest preferred
/// group, else the candidates that are not deprecated (all if none is),
/// and in the group `latest` if present, else the highest.
fn reference_pick(
    p: &Packument,
    range: &nodejs_semver::Range,
    weight: &dyn Fn(&Version) -> u32,
    eligible: &dyn Fn(&Version) -> bool,
) -> Option<Version> {
    let latest = Version::parse(p.dist_tags.get("latest")?).ok();
    let candidates: Vec<&(Version, _)> = p
        .versions
        .iter()
        .filter(|(v, _)| v.satisfies(range) && eligible(v))
        .collect();
    if candidates.is_empty() {
        let latest = latest.filter(|_| is_any(range))?;
        return p
            .versions
            .iter()
            .map(|(v, _)| v)
            .find(|v| **v == latest && eligible(v))
            .cloned();
    }
    let best = |group: &[&(Version, _)]| {
        group
            .iter()
            .map(|(v, _)| v)
            .find(|v| Some(*v) == latest.as_ref())
            .or_else(|| group.iter().map(|(v, _)| v).max())
            .cloned()
    };
    let heaviest = candidates.iter().map(|(v, _)| weight(v)).max().unwrap_or(0);
    if heaviest > 0 {
        let group: Vec<_> = candidates
            .iter()
            .copied()
            .filter(|(v, _)| weight(v) == heaviest)
            .collect();
        return best(&group);
    }
    let fresh: Vec<_> = candidates
        .iter()
        .copied()
        .filter(|(_, at)| !is_deprecated(p.json_at(at)))
        .collect();
    if fresh.is_empty() {
        best(&candidates)
    } else {
        best(&fresh)
    }
}

/// The pick that asks eligibility and deprecation lazily answers as the
/// plain one on random packuments, preferences and age limits.
#[test]
fn lazy_range_picks_match_the_plain_pick() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |bound: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % bound
    };
    let ranges = [
        "^1.0.0",
        "*",
        ">=1.1.0",
        "~1.2.0",
        "^2.0.0-0",
        "<2.0.0",
        "1.x || 3.x",
    ];
    for _ in 0..3000 {
        let mut versions = Vec::new();
        for major in 1..=3 {
            for minor in 0..=2 {
                match next(5) {
                    0 => {}
                    1 => versions.push(format!("{major}.{minor}.0d")),
                    2 => versions.push(format!("{major}.{minor}.0-rc.1")),
                    _ => versions.push(format!("{major}.{minor}.0")),
                }
            }
        }
        if versions.is_empty() {
            continue;
        }
        // Out of publish order, as some documents are.
        let shift = next(versions.len() as u64) as usize;
        versions.rotate_left(shift);
        let latest = versions[next(versions.len() as u64) as usize]
            .trim_end_matches('d')
            .to_owned();
        let refs: Vec<&str> = versions.iter().map(String::as_str).collect();
        let p = packument(&refs, &latest, &[]);
        let weights: Vec<u32> = (0..9)
            .map(|_| [0, 0, 0, 1, 1000][next(5) as usize])
            .collect();
        let young: Vec<bool> = (0..9).map(|_| next(4) == 0).collect();
        let slot = |v: &Version| ((v.major() - 1) * 3 + v.minor()) as usize;
        let weight = |v: &Version| weights[slot(v)];
        let eligible = |v: &Version| !young[slot(v)];
        for raw in ranges {
            let range = nodejs_semver::Range::parse(raw).unwrap();
            let want = reference_pick(&p, &range, &weight, &eligible);
            let got = pick(&p, &Selector::Range(range), &weight, &eligible).cloned();
            assert_eq!(got, want, "{raw} over {versions:?}, latest {latest}");
        }
    }
}
