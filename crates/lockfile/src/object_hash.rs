//! The hash pnpm records for settings objects in the lockfile
//! (`packageExtensionsChecksum`): `sha256-` and the base64 SHA-256 of the
//! value framed as the `object-hash` package frames it (docs/lockfile.md
//! §10): `object:<n>:` then, keys sorted, `string:<len>:<key>:<value>,`;
//! strings as `string:<UTF-16 length>:<text>`, arrays as `array:<n>:`
//! then their items, `bool:true`, `number:<n>`, `Null`.

use base64::Engine as _;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// `None` for `null` or an empty object, as pnpm leaves the field out.
pub fn object_checksum(value: &Value) -> Option<String> {
    match value {
        Value::Null => return None,
        Value::Object(map) if map.is_empty() => return None,
        _ => {}
    }
    let mut framed = Vec::new();
    frame(value, &mut framed);
    let digest = Sha256::digest(&framed);
    Some(format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    ))
}

fn frame(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Null => out.extend_from_slice(b"Null"),
        Value::Bool(b) => out.extend_from_slice(if *b { b"bool:true" } else { b"bool:false" }),
        Value::Number(n) => out.extend_from_slice(format!("number:{n}").as_bytes()),
        Value::String(s) => frame_str(s, out),
        Value::Array(items) => {
            out.extend_from_slice(format!("array:{}:", items.len()).as_bytes());
            for item in items {
                frame(item, out);
            }
        }
        Value::Object(map) => {
            out.extend_from_slice(format!("object:{}:", map.len()).as_bytes());
            let mut keys: Vec<&String> = map.keys().collect();
            // JavaScript sorts by UTF-16 code units.
            keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            for key in keys {
                frame_str(key, out);
                out.push(b':');
                frame(&map[key], out);
                out.push(b',');
            }
        }
    }
}

fn frame_str(s: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(format!("string:{}:", s.encode_utf16().count()).as_bytes());
    out.extend_from_slice(s.as_bytes());
}

#[cfg(test)]
mod tests;
