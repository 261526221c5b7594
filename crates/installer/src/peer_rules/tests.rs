use pacquet_config::PeerDependencyRules;
use pacquet_resolver::{PeerIssues, peers::UnmetPeer};

use super::any_left;

fn unmet(peer: &str, found: &str, consumer: &str) -> PeerIssues {
    PeerIssues {
        missing: Vec::new(),
        unmet: vec![UnmetPeer {
            peer: peer.into(),
            found: found.into(),
            consumer: consumer.into(),
        }],
    }
}

fn rules(
    ignore_missing: &[&str],
    allow_any: &[&str],
    allowed: &[(&str, &str)],
) -> PeerDependencyRules {
    PeerDependencyRules {
        ignore_missing: ignore_missing.iter().map(|s| s.to_string()).collect(),
        allow_any: allow_any.iter().map(|s| s.to_string()).collect(),
        allowed_versions: allowed
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    }
}

#[test]
fn no_rules_leave_every_issue() {
    assert!(any_left(
        &unmet("react", "17.0.2", "ui@1.0.0"),
        &rules(&[], &[], &[])
    ));
    let missing = PeerIssues {
        missing: vec!["react".into()],
        unmet: Vec::new(),
    };
    assert!(any_left(&missing, &rules(&[], &[], &[])));
    assert!(!any_left(&PeerIssues::default(), &rules(&[], &[], &[])));
}

#[test]
fn ignore_missing_matches_names_with_patterns() {
    let missing = PeerIssues {
        missing: vec!["@types/react".into()],
        unmet: Vec::new(),
    };
    assert!(!any_left(&missing, &rules(&["@types/*"], &[], &[])));
    assert!(any_left(&missing, &rules(&["react"], &[], &[])));
    // Not for a peer bound out of range.
    assert!(any_left(
        &unmet("react", "17.0.2", "ui@1.0.0"),
        &rules(&["*"], &[], &[])
    ));
}

#[test]
fn allow_any_and_allowed_versions_let_unmet_peers_through() {
    let issue = unmet("react", "17.0.2", "ui@1.2.0");
    assert!(!any_left(&issue, &rules(&[], &["react"], &[])));
    assert!(!any_left(&issue, &rules(&[], &[], &[("react", "17")])));
    assert!(!any_left(
        &issue,
        &rules(&[], &[], &[("react", "16 || 17")])
    ));
    assert!(any_left(&issue, &rules(&[], &[], &[("react", "18")])));
    assert!(!any_left(&issue, &rules(&[], &[], &[("ui>react", "17")])));
    assert!(!any_left(&issue, &rules(&[], &[], &[("ui@1>react", "17")])));
    assert!(any_left(&issue, &rules(&[], &[], &[("ui@2>react", "17")])));
    assert!(any_left(&issue, &rules(&[], &[], &[("other>react", "17")])));
    let scoped = unmet("@x/peer", "2.0.0-rc.1", "@x/ui@1.0.0");
    assert!(!any_left(
        &scoped,
        &rules(&[], &[], &[("@x/ui>@x/peer", "^2.0.0")])
    ));
}
