//! The value types `pnpm-workspace.yaml` and `config.yaml` must respect.
//! pnpm 12 deserializes those files into typed fields and refuses the
//! whole file (`ERR_PNPM_INVALID_SETTING`) when a setting it knows has a
//! value of the wrong type; scalars convert leniently (checked with pnpm
//! 12.21, docs/settings.md §1.1): `'true'`, `yes`, `on`, `y` are booleans,
//! `'60'`, `+4`, `0x10` integers, `5` a string.

use serde_json::{Number, Value};

use crate::keys::{Kind, kind_of};
use crate::layer::Layer;

/// Checks and converts every setting of `layer` that pacquet reads to its
/// type; a `null` value counts as unset. Returns the setting and what is
/// wrong with it on the first mismatch.
pub fn typed(layer: Layer) -> Result<Layer, (String, &'static str)> {
    let mut out = Layer::new();
    for (key, value) in layer {
        if value.is_null() {
            continue;
        }
        let value = match kind_of(&key) {
            Some(kind) => convert(&key, kind, value).map_err(|why| (key.clone(), why))?,
            None => value,
        };
        out.insert(key, value);
    }
    Ok(out)
}

fn convert(key: &str, kind: Kind, value: Value) -> Result<Value, &'static str> {
    // `linkWorkspacePackages` is a boolean or `deep`.
    if key == "linkWorkspacePackages" && value == "deep" {
        return Ok(value);
    }
    // pnpm 12.21 takes `integrityTarget: tar` and nothing else (not even
    // `tgz`, the default).
    if key == "lockfile"
        && let Some(target) = value.get("integrityTarget")
        && !target.is_null()
        && target != "tar"
    {
        return Err("integrityTarget must be tar");
    }
    match kind {
        Kind::Bool => boolean(&value).map(Value::Bool),
        Kind::BoolOrObject if value.is_object() => Ok(value),
        Kind::BoolOrObject => boolean(&value).map(Value::Bool),
        Kind::Number => integer(&value, key == "childConcurrency").map(Value::Number),
        Kind::String => match value {
            Value::String(_) => Ok(value),
            Value::Number(n) => Ok(Value::String(n.to_string())),
            // Kept: some string settings also take a boolean
            // (`noProxy: true`, `verifyDepsBeforeRun: false`).
            Value::Bool(_) => Ok(value),
            _ => Err("expected string scalar"),
        },
        Kind::List if value.is_array() => Ok(value),
        Kind::List => Err("expected sequence start"),
        Kind::Object if value.is_object() => Ok(value),
        Kind::Object => Err("expected mapping start"),
    }
}

/// YAML 1.1 booleans, as pnpm 12's YAML reader takes them.
fn boolean(value: &Value) -> Result<bool, &'static str> {
    match value {
        Value::Bool(b) => Ok(*b),
        Value::String(s) => match s.as_str() {
            "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" | "y" | "Y" => {
                Ok(true)
            }
            "false" | "False" | "FALSE" | "no" | "No" | "NO" | "off" | "Off" | "OFF" | "n"
            | "N" => Ok(false),
            _ => Err("invalid boolean"),
        },
        Value::Number(_) => Err("invalid boolean"),
        _ => Err("expected string scalar"),
    }
}

/// An integer: unsigned except `childConcurrency`, whose negative values
/// mean "cores minus n".
fn integer(value: &Value, signed: bool) -> Result<Number, &'static str> {
    let why = if signed { "invalid i32" } else { "invalid u64" };
    let parsed = match value {
        Value::Number(n) => n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)),
        Value::String(s) => parse_int(s.trim()),
        Value::Array(_) | Value::Object(_) => return Err("expected string scalar"),
        _ => None,
    };
    match parsed {
        Some(n) if signed && i32::try_from(n).is_ok() => Ok(Number::from(n as i64)),
        Some(n) if !signed && u64::try_from(n).is_ok() => Ok(Number::from(n as u64)),
        _ => Err(why),
    }
}

/// Decimal with an optional sign, or `0x`/`0o`/`0b` prefixed.
fn parse_int(s: &str) -> Option<i128> {
    let (negative, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = match digits.get(..2) {
        Some("0x" | "0X") => (16, &digits[2..]),
        Some("0o" | "0O") => (8, &digits[2..]),
        Some("0b" | "0B") => (2, &digits[2..]),
        _ => (10, digits),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let n = i128::from_str_radix(digits, radix).ok()?;
    Some(if negative { -n } else { n })
}

#[cfg(test)]
mod tests;
