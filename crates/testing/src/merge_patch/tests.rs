use serde_json::json;

use super::{apply, merge_patches};

#[test]
fn merges_objects_and_deletes_nulls() {
    let mut doc = json!({"a": {"b": 1, "c": 2}, "d": 3});
    apply(&mut doc, &json!({"a": {"b": null, "e": 4}, "d": [1]}));
    assert_eq!(doc, json!({"a": {"c": 2, "e": 4}, "d": [1]}));
}

#[test]
fn accumulated_patches_keep_deletions() {
    let mut acc = json!({});
    merge_patches(&mut acc, json!({"time": {"1.0.0": "x"}}));
    merge_patches(&mut acc, json!({"time": {"2.0.0": null}}));
    let mut doc = json!({"time": {"1.0.0": "old", "2.0.0": "old"}});
    apply(&mut doc, &acc);
    assert_eq!(doc, json!({"time": {"1.0.0": "x"}}));
}
