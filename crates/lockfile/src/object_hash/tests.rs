use serde_json::json;

use super::object_checksum;

/// The checksum pnpm 12.21 wrote into the `injected` fixture's lockfile
/// for its `packageExtensions`.
#[test]
fn matches_what_pnpm_recorded() {
    let extensions = json!({"pq-plain": {"dependencies": {"pq-bin-string": "1.0.0"}}});
    assert_eq!(
        object_checksum(&extensions).as_deref(),
        Some("sha256-zGyy88o24I3G9W8Gng/91oyWy+MtCTHpVWZBF7A3oSM=")
    );
}

#[test]
fn keys_are_sorted_and_empty_is_none() {
    assert_eq!(
        object_checksum(&json!({"b": 1, "a": 2})),
        object_checksum(&json!({"a": 2, "b": 1}))
    );
    assert_ne!(
        object_checksum(&json!({"a": "1"})),
        object_checksum(&json!({"a": 1}))
    );
    assert_eq!(object_checksum(&json!({})), None);
    assert_eq!(object_checksum(&json!(null)), None);
}
