//! The npm registry's attestations of a version
//! (`GET <registry>/-/npm/v1/attestations/<name>@<version>`): each
//! Sigstore bundle's transparency-log entries carry the time they were
//! logged, a small and independent witness of when the version was
//! published (docs/supply-chain.md §3).

use serde_json::Value;

/// The earliest `integratedTime` (Unix seconds, a number or a decimal
/// string) of any attestation's log entries, as an ISO date with
/// milliseconds; `None` when the document has none.
pub(crate) fn published_at(body: &[u8]) -> Option<String> {
    let doc: Value = serde_json::from_slice(body).ok()?;
    let earliest = doc
        .get("attestations")?
        .as_array()?
        .iter()
        .filter_map(|a| {
            a.pointer("/bundle/verificationMaterial/tlogEntries")?
                .as_array()?
                .iter()
                .filter_map(|entry| seconds(entry.get("integratedTime")?))
                .min()
        })
        .min()?;
    Some(crate::timestamp::format(earliest.checked_mul(1000)?))
}

fn seconds(value: &Value) -> Option<i64> {
    let seconds = match value {
        Value::String(text) => text.parse().ok()?,
        other => other.as_i64()?,
    };
    (seconds > 0).then_some(seconds)
}

#[cfg(test)]
mod tests;
