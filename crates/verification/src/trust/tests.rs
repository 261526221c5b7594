use std::collections::HashMap;

use super::check;
use crate::packument::{Packument, TrustEvidence, VersionMeta};
use crate::timestamp::parse;

fn meta(versions: &[(&str, &str, Option<TrustEvidence>)]) -> Packument {
    Packument {
        modified: None,
        versions: versions
            .iter()
            .map(|(v, _, e)| {
                (
                    v.to_string(),
                    VersionMeta {
                        tarball: None,
                        evidence: *e,
                    },
                )
            })
            .collect(),
        time: Some(
            versions
                .iter()
                .map(|(v, t, _)| (v.to_string(), t.to_string()))
                .collect::<HashMap<_, _>>(),
        ),
    }
}

const NOW: &str = "2026-01-10T00:00:00.000Z";

#[test]
fn downgrade_after_trusted_publishing_fails() {
    let m = meta(&[
        (
            "1.0.0",
            "2026-01-01T00:00:00.000Z",
            Some(TrustEvidence::TrustedPublisher),
        ),
        ("1.0.1", "2026-01-02T00:00:00.000Z", None),
    ]);
    let now = parse(NOW).unwrap();
    let err = check(&m, "p", "1.0.1", None, now).unwrap_err();
    assert_eq!(
        err,
        "High-risk trust downgrade for \"p@1.0.1\" (possible package takeover)"
    );
    assert_eq!(check(&m, "p", "1.0.0", None, now), Ok(()));
}

#[test]
fn order_is_publish_time_and_prereleases_do_not_count_for_releases() {
    let m = meta(&[
        (
            "2.0.0-rc.1",
            "2026-01-01T00:00:00.000Z",
            Some(TrustEvidence::Provenance),
        ),
        ("1.0.0", "2026-01-02T00:00:00.000Z", None),
        (
            "0.9.0",
            "2026-01-03T00:00:00.000Z",
            Some(TrustEvidence::Provenance),
        ),
    ]);
    let now = parse(NOW).unwrap();
    assert_eq!(check(&m, "p", "1.0.0", None, now), Ok(()));
    // A prerelease is compared with every earlier version.
    let m = meta(&[
        (
            "1.0.0",
            "2026-01-01T00:00:00.000Z",
            Some(TrustEvidence::Provenance),
        ),
        ("2.0.0-rc.1", "2026-01-02T00:00:00.000Z", None),
    ]);
    assert!(check(&m, "p", "2.0.0-rc.1", None, now).is_err());
}

#[test]
fn ignore_after_and_missing_time() {
    let m = meta(&[
        (
            "1.0.0",
            "2026-01-01T00:00:00.000Z",
            Some(TrustEvidence::StagedPublish),
        ),
        (
            "1.0.1",
            "2026-01-02T00:00:00.000Z",
            Some(TrustEvidence::Provenance),
        ),
    ]);
    let now = parse(NOW).unwrap();
    assert!(check(&m, "p", "1.0.1", None, now).is_err());
    // Published 8 days before `now`: older than a 7-day window.
    assert_eq!(check(&m, "p", "1.0.1", Some(7 * 24 * 60), now), Ok(()));
    let err = check(&m, "p", "9.9.9", None, now).unwrap_err();
    assert_eq!(
        err,
        "could not be checked against trustPolicy (missing time for version 9.9.9 of p in metadata)"
    );
}
