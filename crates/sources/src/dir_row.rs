//! The index row of a prepared package directory: its packed files written
//! into the CAS, as pnpm 12 records git and git-hosted packages (plus
//! `requiresPrepare`, which pnpm keeps in such rows).

use std::path::Path;

use pacquet_cas::Cas;
use pacquet_store_index::{FileInfo, PackageFilesIndex};
use serde_json::Value;

use crate::packlist::packlist;

/// Stores the packed files of `dir` and returns their row.
pub fn row_from_dir(
    cas: &Cas,
    dir: &Path,
    manifest: Option<&Value>,
    requires_prepare: bool,
) -> Result<PackageFilesIndex, std::io::Error> {
    let mut files = Vec::new();
    for rel in packlist(dir, manifest)? {
        let path = dir.join(&rel);
        let content = std::fs::read(&path)?;
        let mode = pacquet_store_index::file_mode(&std::fs::metadata(&path)?);
        let stored = cas
            .write(&content, mode & 0o111 != 0)
            .map_err(std::io::Error::other)?;
        let info = FileInfo {
            digest: stored.digest,
            mode,
            size: content.len() as u64,
            checked_at: Some(stored.checked_at),
        };
        files.push((rel, info));
    }
    Ok(PackageFilesIndex {
        algo: "sha512".to_owned(),
        requires_build: Some(pacquet_tarball::requires_build(
            manifest,
            files.iter().map(|(p, _)| p.as_str()),
        )),
        manifest: manifest.and_then(pacquet_tarball::bundled_manifest),
        files,
        side_effects: None,
        tar_integrity: None,
        extra: vec![("requiresPrepare".to_owned(), Value::Bool(requires_prepare))],
    })
}
