use super::*;

fn suffix(peers: &[&str], max: usize) -> String {
    let owned: Vec<String> = peers.iter().map(|p| p.to_string()).collect();
    peers_suffix(owned.iter(), max)
}

#[test]
fn segments_are_sorted_bytewise_and_nest() {
    assert_eq!(
        suffix(
            &["sc@1.0.0", "PqZ@1.0.0", "@a/b@1.0.0", "q@1.0.0(r@1.0.5)"],
            1000
        ),
        "(@a/b@1.0.0)(PqZ@1.0.0)(q@1.0.0(r@1.0.5))(sc@1.0.0)"
    );
    assert_eq!(suffix(&[], 1000), "");
}

#[test]
fn a_body_over_the_limit_is_hashed() {
    // pnpm 12.21 wrote this key for the `peers-hashed` fixture
    // (peersSuffixMaxLength: 100, a 244-byte body).
    let peers: Vec<String> = (1..=6)
        .map(|i| format!("@pq/long-peer-with-a-long-name-0{i}@1.0.0"))
        .collect();
    let refs: Vec<&str> = peers.iter().map(String::as_str).collect();
    assert_eq!(suffix(&refs, 100), "(1098320b837e5f843642497ce7e10b99)");
    assert!(suffix(&refs, 1000).starts_with("(@pq/long-peer"));
    // Exactly at the limit is not hashed.
    let body = "a@1.0.0";
    assert_eq!(suffix(&[body], body.len()), "(a@1.0.0)");
}
