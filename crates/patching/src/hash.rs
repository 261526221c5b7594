//! The patch hash the lockfile records (docs/lockfile.md §9.2).

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::PatchError;

/// SHA-256, lowercase hex, of the patch file read as UTF-8 text (invalid
/// bytes replaced) with every CRLF turned into LF.
pub fn patch_hash(patch_file: &Path) -> Result<String, PatchError> {
    let text = crate::apply::read_patch(patch_file)?;
    let digest = Sha256::digest(text.replace("\r\n", "\n").as_bytes());
    Ok(format!("{digest:x}"))
}

#[cfg(test)]
mod tests {
    use super::patch_hash;

    #[test]
    fn crlf_hashes_like_lf() {
        let dir = tempfile::tempdir().unwrap();
        let (lf, crlf) = (dir.path().join("lf.patch"), dir.path().join("crlf.patch"));
        std::fs::write(&lf, "a\nb\n").unwrap();
        std::fs::write(&crlf, "a\r\nb\r\n").unwrap();
        // `printf 'a\nb\n' | sha256sum`
        let expected = "911169ddaaf146aff539f58c26c489af3b892dff0fe283c1c264c65ae5aa59a2";
        assert_eq!(patch_hash(&lf).unwrap(), expected);
        assert_eq!(patch_hash(&crlf).unwrap(), expected);
    }

    #[test]
    fn a_missing_file_is_not_found() {
        let err = patch_hash(std::path::Path::new("/nonexistent/x.patch")).unwrap_err();
        assert!(matches!(err, crate::PatchError::NotFound { .. }));
    }
}
