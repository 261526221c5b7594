//! One source of settings: camelCase key → JSON value. Higher layers win
//! key by key.

use indexmap::IndexMap;
use serde_json::Value;

use crate::ConfigError;
use crate::keys::{Kind, kind_of, to_camel};

/// Settings from one source.
pub type Layer = IndexMap<String, Value>;

/// Collects `pnpm_config_*` / `PNPM_CONFIG_*` settings. Upper-case names
/// beat lower-case ones; values are typed like pnpm 12 does it: booleans
/// must be `true`/`false`, lists and objects must be JSON, invalid values
/// are ignored.
pub fn env_layer<'a>(env: impl Iterator<Item = (&'a String, &'a String)>) -> Layer {
    let mut lower = Layer::new();
    let mut upper = Layer::new();
    for (name, raw) in env {
        let (target, key) = if let Some(key) = name.strip_prefix("PNPM_CONFIG_") {
            (&mut upper, key)
        } else if let Some(key) = name.strip_prefix("pnpm_config_") {
            (&mut lower, key)
        } else {
            continue;
        };
        if key.starts_with("//") {
            continue;
        }
        let camel = to_camel(key);
        let Some(kind) = kind_of(&camel) else {
            continue;
        };
        match coerce_env(kind, raw) {
            Some(value) => {
                target.insert(camel, value);
            }
            None => tracing::warn!("Ignoring invalid value of {name}: {raw:?}"),
        }
    }
    for (key, value) in upper {
        lower.insert(key, value);
    }
    lower
}

fn coerce_env(kind: Kind, raw: &str) -> Option<Value> {
    match kind {
        Kind::Bool => match raw {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        Kind::Number => parse_number(raw),
        Kind::String => Some(Value::String(raw.to_owned())),
        Kind::List => serde_json::from_str::<Value>(raw)
            .ok()
            .filter(Value::is_array),
        Kind::Object => serde_json::from_str::<Value>(raw)
            .ok()
            .filter(Value::is_object),
        Kind::BoolOrObject => match raw {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => serde_json::from_str::<Value>(raw)
                .ok()
                .filter(Value::is_object),
        },
    }
}

fn parse_number(raw: &str) -> Option<Value> {
    let number: serde_json::Number = raw.trim().parse().ok()?;
    Some(Value::Number(number))
}

/// Collects `--config.<kebab-key>=<value>` flags. Booleans accept
/// `true`/`false`/`1`/`0` (anything else is an error), numbers that do not
/// parse are ignored, list settings collect one element per flag.
pub fn cli_layer(pairs: &[(String, String)]) -> Result<Layer, ConfigError> {
    let mut layer = Layer::new();
    for (key, raw) in pairs {
        let camel = to_camel(key);
        let Some(kind) = kind_of(&camel) else {
            tracing::warn!("Ignoring unknown setting --config.{key}");
            continue;
        };
        let value = match kind {
            Kind::Bool | Kind::BoolOrObject => match raw.as_str() {
                "true" | "1" | "" => Value::Bool(true),
                "false" | "0" => Value::Bool(false),
                _ if kind == Kind::BoolOrObject => match serde_json::from_str::<Value>(raw) {
                    Ok(value) if value.is_object() => value,
                    _ => return Err(invalid_bool(key, raw)),
                },
                _ => return Err(invalid_bool(key, raw)),
            },
            Kind::Number => match parse_number(raw) {
                Some(value) => value,
                None => continue,
            },
            Kind::String => Value::String(raw.clone()),
            Kind::List => {
                let entry = layer
                    .entry(camel)
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(items) = entry {
                    items.push(Value::String(raw.clone()));
                }
                continue;
            }
            Kind::Object => match serde_json::from_str::<Value>(raw) {
                Ok(value) if value.is_object() => value,
                _ => continue,
            },
        };
        layer.insert(camel, value);
    }
    Ok(layer)
}

fn invalid_bool(key: &str, raw: &str) -> ConfigError {
    ConfigError::InvalidCliBool {
        key: key.to_owned(),
        value: raw.to_owned(),
    }
}

/// Layers from highest to lowest priority.
#[derive(Debug, Default)]
pub struct Layers {
    pub layers: Vec<Layer>,
}

impl Layers {
    /// The value of the highest layer that has `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.layers.iter().find_map(|layer| layer.get(key))
    }

    pub fn bool(&self, key: &str, default: bool) -> bool {
        self.typed(key, Value::as_bool).unwrap_or(default)
    }

    pub fn opt_bool(&self, key: &str) -> Option<bool> {
        self.typed(key, Value::as_bool)
    }

    pub fn u64(&self, key: &str, default: u64) -> u64 {
        self.typed(key, Value::as_u64).unwrap_or(default)
    }

    pub fn f64(&self, key: &str, default: f64) -> f64 {
        self.typed(key, Value::as_f64).unwrap_or(default)
    }

    pub fn opt_u64(&self, key: &str) -> Option<u64> {
        self.typed(key, Value::as_u64)
    }

    pub fn string(&self, key: &str) -> Option<String> {
        self.typed(key, |v| v.as_str().map(str::to_owned))
    }

    pub fn list(&self, key: &str) -> Option<Vec<String>> {
        self.typed(key, string_list)
    }

    pub fn typed<T>(&self, key: &str, convert: impl Fn(&Value) -> Option<T>) -> Option<T> {
        let value = self.get(key)?;
        if value.is_null() {
            return None;
        }
        let converted = convert(value);
        if converted.is_none() {
            tracing::warn!("Ignoring setting {key}: unexpected value {value}");
        }
        converted
    }
}

/// A JSON array of strings (a single string counts as a one-element list).
pub fn string_list(value: &Value) -> Option<Vec<String>> {
    match value {
        Value::Array(items) => items
            .iter()
            .map(|item| item.as_str().map(str::to_owned))
            .collect(),
        Value::String(item) => Some(vec![item.clone()]),
        _ => None,
    }
}
