//! The variables this checkout's `.cargo/config.toml` sets in `[env]`.
//! `cargo run` passes them to the harness, which would pass them on to the
//! builds of other revisions; those must build with their own settings
//! (a variable of the same name set outside cargo is then removed too).

use std::path::Path;

/// The keys of the `[env]` table of `<repo>/.cargo/config.toml`; none when
/// there is no such file.
pub fn checkout_keys(repo: &Path) -> Vec<String> {
    std::fs::read_to_string(repo.join(".cargo/config.toml"))
        .map(|text| env_keys(&text))
        .unwrap_or_default()
}

/// The keys of the `[env]` table of a cargo config: `KEY = …` lines
/// between `[env]` and the next table header (the form the checkout uses;
/// dotted or inline-table spellings are not recognised).
pub fn env_keys(config: &str) -> Vec<String> {
    let mut in_env = false;
    let mut keys = Vec::new();
    for line in config.lines().map(str::trim) {
        if line.starts_with('[') {
            in_env = line == "[env]";
            continue;
        }
        if !in_env || line.starts_with('#') {
            continue;
        }
        if let Some((key, _)) = line.split_once('=') {
            let key = key.trim().trim_matches('"');
            if !key.is_empty() {
                keys.push(key.to_owned());
            }
        }
    }
    keys
}

#[cfg(test)]
mod tests;
