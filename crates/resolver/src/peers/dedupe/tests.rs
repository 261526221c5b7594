use std::collections::BTreeMap;

use super::*;

fn node(deps: &[(&str, &str)], peers: &[&str]) -> SnapshotNode {
    SnapshotNode {
        pkg: String::new(),
        dependencies: deps
            .iter()
            .map(|(a, k)| (a.to_string(), k.to_string()))
            .collect(),
        resolved_peers: peers.iter().map(|p| p.to_string()).collect(),
        ..SnapshotNode::default()
    }
}

#[test]
fn package_part_keeps_the_patch_and_drops_peers() {
    assert_eq!(package_part("a@1.0.0(b@1.0.0)"), "a@1.0.0");
    assert_eq!(package_part("@s/a@1.0.0(b@1.0.0)"), "@s/a@1.0.0");
    assert_eq!(
        package_part("a@1.0.0(patch_hash=x)(b@1.0.0)"),
        "a@1.0.0(patch_hash=x)"
    );
    assert_eq!(
        package_part("a@1.0.0(patch_hash=x)"),
        "a@1.0.0(patch_hash=x)"
    );
    assert_eq!(package_part("a@1.0.0"), "a@1.0.0");
}

/// A variant missing its peer folds into the largest compatible one; of
/// two equal ones the greater key wins; incompatible variants stay.
#[test]
fn smaller_variants_fold_into_the_largest_compatible_one() {
    let mut snapshots = BTreeMap::new();
    snapshots.insert("u@1.0.0".into(), node(&[("p", "p@1.0.0")], &[]));
    snapshots.insert(
        "u@1.0.0(h@1.0.0)".into(),
        node(&[("p", "p@1.0.0"), ("h", "h@1.0.0")], &["h"]),
    );
    snapshots.insert(
        "u@1.0.0(h@2.0.0)".into(),
        node(&[("p", "p@1.0.0"), ("h", "h@2.0.0")], &["h"]),
    );
    snapshots.insert("p@1.0.0".into(), node(&[], &[]));
    snapshots.insert("h@1.0.0".into(), node(&[], &[]));
    snapshots.insert("h@2.0.0".into(), node(&[], &[]));
    snapshots.insert("w@1.0.0".into(), node(&[("u", "u@1.0.0")], &[]));
    let mut resolution = PeerResolution {
        snapshots,
        importers: vec![
            BTreeMap::from([("u".to_string(), "u@1.0.0".to_string())]),
            BTreeMap::from([("u".to_string(), "u@1.0.0(h@1.0.0)".to_string())]),
            BTreeMap::from([("w".to_string(), "w@1.0.0".to_string())]),
        ],
        ..PeerResolution::default()
    };
    dedupe_peer_dependents(&mut resolution);
    assert_eq!(resolution.importers[0]["u"], "u@1.0.0(h@2.0.0)");
    assert_eq!(resolution.importers[1]["u"], "u@1.0.0(h@1.0.0)");
    // One group left a variant unfolded: the snapshots' own edges are not
    // rewritten in that round (pnpm 12.21), so `w` keeps its edge and the
    // folded snapshot stays.
    assert_eq!(resolution.snapshots["w@1.0.0"].dependencies["u"], "u@1.0.0");
    assert!(resolution.snapshots.contains_key("u@1.0.0"));
}

#[test]
fn unreferenced_folded_snapshots_are_dropped() {
    let mut snapshots = BTreeMap::new();
    snapshots.insert("u@1.0.0".into(), node(&[("p", "p@1.0.0")], &[]));
    snapshots.insert(
        "u@1.0.0(h@2.0.0)".into(),
        node(&[("p", "p@1.0.0"), ("h", "h@2.0.0")], &["h"]),
    );
    snapshots.insert("p@1.0.0".into(), node(&[], &[]));
    snapshots.insert("h@2.0.0".into(), node(&[], &[]));
    let mut resolution = PeerResolution {
        snapshots,
        importers: vec![
            BTreeMap::from([("u".to_string(), "u@1.0.0".to_string())]),
            BTreeMap::from([("u".to_string(), "u@1.0.0(h@2.0.0)".to_string())]),
        ],
        ..PeerResolution::default()
    };
    dedupe_peer_dependents(&mut resolution);
    assert_eq!(resolution.importers[0]["u"], "u@1.0.0(h@2.0.0)");
    assert!(!resolution.snapshots.contains_key("u@1.0.0"));
    assert!(resolution.snapshots.contains_key("p@1.0.0"));
}
