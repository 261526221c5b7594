//! The `NODE_OPTIONS` entry that lets ES modules find packages through
//! `NODE_PATH` as CommonJS modules do. With the global virtual store a
//! package's own directory is outside the project, so what it imports
//! without declaring is found only through the project's hoisting
//! directories on `NODE_PATH`; pnpm 12.21 adds such a hook to every script
//! it runs then (docs/layout.md §16.8). The hook is this crate's own
//! (`node_path_hook/hook.mjs`).

const HOOK: &str = include_str!("node_path_hook/hook.mjs");

/// `--import=data:text/javascript,<hook>`, the hook URI-encoded.
pub fn import_option() -> String {
    format!(
        "--import=data:text/javascript,{}",
        encode_uri_component(HOOK)
    )
}

/// JavaScript's `encodeURIComponent`: every byte of the UTF-8 text but
/// letters, digits and `-_.!~*'()` as `%XX`.
fn encode_uri_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests;
