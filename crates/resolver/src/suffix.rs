//! The peers part of a snapshot key: `(peer@1.0.0)(other@2.0.0(x@1.0.0))`,
//! hashed when longer than `peersSuffixMaxLength` (docs/resolution.md §6).

use sha2::{Digest, Sha256};

/// The suffix for the snapshot keys of a package's resolved peers.
pub fn peers_suffix<'a>(peers: impl Iterator<Item = &'a String>, max_length: usize) -> String {
    let mut segments: Vec<&str> = peers.map(String::as_str).collect();
    if segments.is_empty() {
        return String::new();
    }
    segments.sort_unstable();
    segments.dedup();
    let body = segments.join(")(");
    if body.len() > max_length {
        let digest = hex::encode(Sha256::digest(body.as_bytes()));
        return format!("({})", &digest[..32]);
    }
    format!("({body})")
}

#[cfg(test)]
mod tests;
