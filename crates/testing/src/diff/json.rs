//! JSON comparison of state files after normalization.

use serde_json::{Map, Value};

use super::options::DiffOptions;

/// `None` when equal after normalization, else a description of up to 20
/// differing JSON pointers.
pub fn compare_state(a: &[u8], b: &[u8], opts: &DiffOptions) -> Option<String> {
    let (va, vb) = match (
        serde_json::from_slice::<Value>(a),
        serde_json::from_slice::<Value>(b),
    ) {
        (Ok(va), Ok(vb)) => (va, vb),
        _ => {
            return (a != b).then(|| "not both JSON, and the bytes differ".to_string());
        }
    };
    let subs = sorted_substitutions(opts);
    let na = normalize(va, opts, &subs);
    let nb = normalize(vb, opts, &subs);
    let mut found = Vec::new();
    compare(&na, &nb, String::new(), opts.json_key_order, &mut found);
    if found.is_empty() {
        return None;
    }
    let more = found.len().saturating_sub(20);
    let mut text: Vec<String> = found.into_iter().take(20).collect();
    if more > 0 {
        text.push(format!("… and {more} more"));
    }
    Some(text.join("\n"))
}

fn sorted_substitutions(opts: &DiffOptions) -> Vec<(String, String)> {
    let mut subs = opts.substitutions.clone();
    subs.sort_by_key(|s| std::cmp::Reverse(s.0.len()));
    subs
}

fn substitute(s: &str, subs: &[(String, String)]) -> String {
    let mut out = s.to_string();
    for (from, to) in subs {
        if !from.is_empty() {
            out = out.replace(from.as_str(), to);
        }
    }
    out
}

/// Drops volatile keys at any depth and applies substitutions to strings
/// and object keys.
pub fn normalize(v: Value, opts: &DiffOptions, subs: &[(String, String)]) -> Value {
    match v {
        Value::String(s) => Value::String(substitute(&s, subs)),
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|i| normalize(i, opts, subs))
                .collect(),
        ),
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in map {
                if opts.volatile_keys.iter().any(|vk| vk == &k) {
                    continue;
                }
                out.insert(substitute(&k, subs), normalize(v, opts, subs));
            }
            Value::Object(out)
        }
        other => other,
    }
}

fn compare(a: &Value, b: &Value, pointer: String, key_order: bool, found: &mut Vec<String>) {
    let at = if pointer.is_empty() {
        "/"
    } else {
        pointer.as_str()
    };
    match (a, b) {
        (Value::Object(ma), Value::Object(mb)) => {
            for (k, va) in ma {
                let child = format!("{pointer}/{}", k.replace('~', "~0").replace('/', "~1"));
                match mb.get(k) {
                    Some(vb) => compare(va, vb, child, key_order, found),
                    None => found.push(format!("{child}: only in a: {}", short(va))),
                }
            }
            for (k, vb) in mb {
                if !ma.contains_key(k) {
                    let child = format!("{pointer}/{}", k.replace('~', "~0").replace('/', "~1"));
                    found.push(format!("{child}: only in b: {}", short(vb)));
                }
            }
            if key_order {
                let common_a: Vec<&String> = ma.keys().filter(|k| mb.contains_key(*k)).collect();
                let common_b: Vec<&String> = mb.keys().filter(|k| ma.contains_key(*k)).collect();
                if common_a != common_b {
                    found.push(format!(
                        "{at}: key order differs: a {common_a:?}, b {common_b:?}"
                    ));
                }
            }
        }
        (Value::Array(xa), Value::Array(xb)) if xa.len() == xb.len() => {
            for (i, (va, vb)) in xa.iter().zip(xb).enumerate() {
                compare(va, vb, format!("{pointer}/{i}"), key_order, found);
            }
        }
        _ if a == b => {}
        _ => found.push(format!("{at}: a {} , b {}", short(a), short(b))),
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 200 {
        format!("{}…", &s[..s.floor_char_boundary(200)])
    } else {
        s
    }
}
