use serde_json::json;

use super::typed;
use crate::layer::Layer;

fn one(key: &str, value: serde_json::Value) -> Result<serde_json::Value, &'static str> {
    let layer: Layer = [(key.to_owned(), value)].into_iter().collect();
    typed(layer)
        .map(|l| l.get(key).cloned().unwrap_or(serde_json::Value::Null))
        .map_err(|(_, why)| why)
}

#[test]
fn scalars_convert_as_pnpm_12_reads_them() {
    assert_eq!(one("autoInstallPeers", json!("yes")), Ok(json!(true)));
    assert_eq!(one("autoInstallPeers", json!("false")), Ok(json!(false)));
    assert_eq!(one("minimumReleaseAge", json!(" 60")), Ok(json!(60)));
    assert_eq!(one("childConcurrency", json!("+4")), Ok(json!(4)));
    assert_eq!(one("childConcurrency", json!("0x10")), Ok(json!(16)));
    assert_eq!(one("childConcurrency", json!(-1)), Ok(json!(-1)));
    assert_eq!(one("storeDir", json!(5)), Ok(json!("5")));
    assert_eq!(one("minimumReleaseAge", json!(null)), Ok(json!(null)));
    assert_eq!(
        one("linkWorkspacePackages", json!("deep")),
        Ok(json!("deep"))
    );
}

#[test]
fn mismatched_types_are_refused() {
    assert_eq!(one("minimumReleaseAge", json!(false)), Err("invalid u64"));
    assert_eq!(one("minimumReleaseAge", json!(-5)), Err("invalid u64"));
    assert_eq!(one("minimumReleaseAge", json!("1e3")), Err("invalid u64"));
    assert_eq!(one("childConcurrency", json!(1.5)), Err("invalid i32"));
    assert_eq!(
        one("autoInstallPeers", json!("abc")),
        Err("invalid boolean")
    );
    assert_eq!(one("dedupePeers", json!(1)), Err("invalid boolean"));
    assert_eq!(
        one("hoistPattern", json!("*")),
        Err("expected sequence start")
    );
    assert_eq!(
        one("overrides", json!(["a"])),
        Err("expected mapping start")
    );
    assert_eq!(one("storeDir", json!(["a"])), Err("expected string scalar"));
}

#[test]
fn settings_pacquet_does_not_read_pass_through() {
    assert_eq!(one("catalogMode", json!(5)), Ok(json!(5)));
}
