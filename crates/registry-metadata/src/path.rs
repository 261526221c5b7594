//! Where pnpm 12 keeps a package's metadata
//! (docs/registry-metadata.md §1):
//! `<cacheDir>/v12/metadata[-full]/<registry slug>/<name>.jsonl`.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// Abbreviated documents.
pub const ABBREVIATED_DIR: &str = "v12/metadata";
/// Full documents.
pub const FULL_DIR: &str = "v12/metadata-full";

/// The registry's directory name: the scheme, the host and a non-default
/// port joined by `+`, then the path's segments (`%2F` before the first,
/// `+` between). Every byte but ASCII letters, digits, `-`, `_` and `.`
/// is percent-encoded: `http://localhost:4873/a/b/` →
/// `http%3A+localhost+4873%2Fa+b`. `None` for a URL without a host.
pub fn registry_slug(registry: &str) -> Option<String> {
    let url = url::Url::parse(registry).ok()?;
    let host = url.host_str()?;
    let mut slug = encode(&format!("{}:", url.scheme()));
    slug.push('+');
    slug.push_str(&encode(host));
    if let Some(port) = url.port() {
        slug.push('+');
        slug.push_str(&port.to_string());
    }
    let segments: Vec<&str> = url
        .path()
        .split('/')
        .filter(|segment| !segment.is_empty())
        .collect();
    if !segments.is_empty() {
        slug.push_str("%2F");
        let encoded: Vec<String> = segments.iter().map(|s| encode(s)).collect();
        slug.push_str(&encoded.join("+"));
    }
    Some(slug)
}

/// `<name>.jsonl`, a scoped name in its scope's directory; a name with
/// upper-case letters gets `_<sha256 hex of the name>` so two names that
/// differ in case never share a file on a case-insensitive filesystem.
pub fn file_name(name: &str) -> String {
    if name.chars().any(|c| c.is_uppercase()) {
        let digest = hex::encode(Sha256::digest(name.as_bytes()));
        format!("{name}_{digest}.jsonl")
    } else {
        format!("{name}.jsonl")
    }
}

/// The mirror file of `name` from `registry` under `dir` (one of
/// [`ABBREVIATED_DIR`], [`FULL_DIR`]); `None` when the registry URL has no
/// host or the name would leave the directory.
pub fn mirror_path(cache_dir: &Path, dir: &str, registry: &str, name: &str) -> Option<PathBuf> {
    let escapes = name
        .split('/')
        .any(|part| part.is_empty() || part == "." || part == "..")
        || name.contains('\\')
        || name.matches('/').count() > 1;
    if escapes {
        return None;
    }
    let slug = registry_slug(registry)?;
    Some(cache_dir.join(dir).join(slug).join(file_name(name)))
}

fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests;
