use sha2::{Digest, Sha512};

/// Lowercase hex SHA-512 of `content`: a blob's name in the store.
pub fn sha512_hex(content: &[u8]) -> String {
    hex::encode(Sha512::digest(content))
}
