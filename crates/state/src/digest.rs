//! The digests pnpm 12 records in the `validation` block (docs/layout.md
//! §9.1): the first 32 hex digits of a SHA-256, over a file's bytes or over
//! a JSON value in a canonical binary encoding (sorted keys, length-prefixed
//! strings), so formatting and key order do not change a manifest's digest.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// Digest of a file's bytes.
pub fn bytes_digest(bytes: &[u8]) -> String {
    short_hex(Sha256::digest(bytes).as_slice())
}

/// Digest of a JSON value in pnpm 12's canonical encoding.
pub fn value_digest(value: &Value) -> String {
    let mut hasher = Sha256::new();
    encode(value, &mut hasher);
    short_hex(hasher.finalize().as_slice())
}

fn short_hex(digest: &[u8]) -> String {
    hex::encode(&digest[..16])
}

fn encode(value: &Value, out: &mut Sha256) {
    let len = |out: &mut Sha256, n: usize| out.update((n as u64).to_le_bytes());
    match value {
        Value::Null => out.update(b"n"),
        Value::Bool(true) => out.update(b"t"),
        Value::Bool(false) => out.update(b"f"),
        Value::Number(n) => {
            let text = n.to_string();
            out.update(b"#");
            len(out, text.len());
            out.update(text.as_bytes());
        }
        Value::String(s) => {
            out.update(b"s");
            len(out, s.len());
            out.update(s.as_bytes());
        }
        Value::Array(items) => {
            out.update(b"[");
            len(out, items.len());
            for item in items {
                encode(item, out);
            }
        }
        Value::Object(map) => {
            out.update(b"{");
            len(out, map.len());
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            for (key, item) in entries {
                len(out, key.len());
                out.update(key.as_bytes());
                encode(item, out);
            }
        }
    }
}
