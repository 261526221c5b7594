use super::*;

#[test]
fn the_earliest_log_time_of_any_attestation_is_the_publish_time() {
    let body = serde_json::json!({"attestations": [
        {"predicateType": "a", "bundle": {"verificationMaterial": {"tlogEntries": [
            {"integratedTime": "1700000100"}, {"integratedTime": 1700000050}
        ]}}},
        {"predicateType": "b", "bundle": {"verificationMaterial": {"tlogEntries": [
            {"integratedTime": "1700000200"}
        ]}}},
    ]});
    assert_eq!(
        published_at(body.to_string().as_bytes()).as_deref(),
        Some("2023-11-14T22:14:10.000Z")
    );
}

#[test]
fn documents_without_log_times_say_nothing() {
    for body in [
        r#"{}"#,
        r#"{"attestations": []}"#,
        r#"{"attestations": [{"bundle": {}}]}"#,
        r#"{"attestations": [{"bundle": {"verificationMaterial": {"tlogEntries": [{"integratedTime": "0"}, {"integratedTime": "x"}]}}}]}"#,
        "not json",
    ] {
        assert_eq!(published_at(body.as_bytes()), None, "{body}");
    }
}
