//! `${NAME}` placeholders in user-level config files.

use std::collections::HashMap;

/// Replaces `${NAME}` and `${NAME:-default}`; `\${NAME}` stays literal
/// (without the backslash). An unset variable expands to the empty string.
pub fn env_replace(text: &str, env: &HashMap<String, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let Some(len) = rest[start + 2..].find('}') else {
            break;
        };
        let before = &rest[..start];
        let inner = &rest[start + 2..start + 2 + len];
        let after = &rest[start + 3 + len..];
        if let Some(stripped) = before.strip_suffix('\\') {
            out.push_str(stripped);
            out.push_str("${");
            out.push_str(inner);
            out.push('}');
        } else {
            out.push_str(before);
            let (name, default) = match inner.split_once(":-") {
                Some((name, default)) => (name, Some(default)),
                None => (inner, None),
            };
            match (env.get(name), default) {
                (Some(value), _) if !value.is_empty() || default.is_none() => out.push_str(value),
                (_, Some(default)) => out.push_str(default),
                (None, None) => {}
                (Some(_), None) => {}
            }
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Whether `text` contains a placeholder that [`env_replace`] would expand.
pub fn has_placeholder(text: &str) -> bool {
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let escaped = rest[..start].ends_with('\\');
        if !escaped && rest[start + 2..].contains('}') {
            return true;
        }
        rest = &rest[start + 2..];
    }
    false
}

#[cfg(test)]
mod tests;
