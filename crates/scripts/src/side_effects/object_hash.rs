//! `objectHash`: base64(sha256(S(v))) over a canonical serialization with
//! sorted object keys.

use base64::Engine as _;
use sha2::{Digest, Sha256};

/// A value to hash. Objects keep their keys in any order; they are sorted
/// (by UTF-16 code units, as JavaScript sorts strings) when serialized.
#[derive(Debug, Clone, PartialEq)]
pub enum HashInput {
    Str(String),
    Object(Vec<(String, HashInput)>),
    Bool(bool),
    Number(f64),
    Array(Vec<HashInput>),
    Null,
}

impl HashInput {
    /// Converts JSON (e.g. a lockfile resolution) into a hash input.
    pub fn from_json(v: &serde_json::Value) -> HashInput {
        use serde_json::Value;
        match v {
            Value::Null => HashInput::Null,
            Value::Bool(b) => HashInput::Bool(*b),
            Value::Number(n) => HashInput::Number(n.as_f64().unwrap_or(0.0)),
            Value::String(s) => HashInput::Str(s.clone()),
            Value::Array(a) => HashInput::Array(a.iter().map(HashInput::from_json).collect()),
            Value::Object(o) => HashInput::Object(
                o.iter()
                    .map(|(k, v)| (k.clone(), HashInput::from_json(v)))
                    .collect(),
            ),
        }
    }
}

/// `base64(sha256(S(v)))`.
pub fn object_hash(v: &HashInput) -> String {
    let mut out = String::new();
    serialize(v, &mut out, true);
    let digest = Sha256::digest(out.as_bytes());
    base64::engine::general_purpose::STANDARD.encode(digest)
}

/// `hex(sha256(S(v)))` with object keys in the order given, not sorted
/// (object-hash without `unorderedObjects`): pnpm's global virtual store
/// slot names (docs/layout.md §16.2).
pub fn object_hash_hex_in_order(v: &HashInput) -> String {
    let mut out = String::new();
    serialize(v, &mut out, false);
    hex::encode(Sha256::digest(out.as_bytes()))
}

fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

fn write_str(s: &str, out: &mut String) {
    out.push_str("string:");
    out.push_str(&utf16_len(s).to_string());
    out.push(':');
    out.push_str(s);
}

/// `S(string s)` = `string:<UTF-16 length>:<s>`; `S(object)` = `object:<n>:`
/// then `S(key):S(value),` per key in sorted order. Booleans, numbers,
/// arrays and null (which pnpm's keys never contain in practice) follow the
/// same scheme: `bool:<b>`, `number:<n>`, `array:<n>:` + `S(item)` each, `Null`.
pub(crate) fn serialize(v: &HashInput, out: &mut String, sorted: bool) {
    match v {
        HashInput::Str(s) => write_str(s, out),
        HashInput::Object(entries) => {
            let mut keys: Vec<&(String, HashInput)> = entries.iter().collect();
            if sorted {
                keys.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            }
            out.push_str("object:");
            out.push_str(&keys.len().to_string());
            out.push(':');
            for (key, value) in keys {
                write_str(key, out);
                out.push(':');
                serialize(value, out, sorted);
                out.push(',');
            }
        }
        HashInput::Bool(b) => {
            out.push_str("bool:");
            out.push_str(if *b { "true" } else { "false" });
        }
        HashInput::Number(n) => {
            out.push_str("number:");
            if n.fract() == 0.0 && n.abs() < 1e21 {
                out.push_str(&format!("{}", *n as i64));
            } else {
                out.push_str(&n.to_string());
            }
        }
        HashInput::Array(items) => {
            out.push_str("array:");
            out.push_str(&items.len().to_string());
            out.push(':');
            for item in items {
                serialize(item, out, sorted);
            }
        }
        HashInput::Null => out.push_str("Null"),
    }
}
