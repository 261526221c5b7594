//! `file:` directories (`{directory, type: directory}`): pnpm 12 injects a
//! copy whose files are hard links to the source directory's packed files
//! (no CAS blobs, no index row), so the importer reads the source directly.

use std::path::PathBuf;

use pacquet_store_index::{FileInfo, PackageFilesIndex};

use crate::{SourceError, packlist::packlist, read_manifest};

/// A directory's packed files: a row without digests (nothing is stored)
/// and, for each of its files in order, the file to import from.
pub struct DirectoryPackage {
    pub row: PackageFilesIndex,
    pub sources: Vec<PathBuf>,
}

/// Lists what pnpm would pack from the directory `src` for `package_id`.
pub fn read_directory(package_id: &str, src: PathBuf) -> Result<DirectoryPackage, SourceError> {
    let dir_error = |source: std::io::Error| SourceError::LocalDirectory {
        package_id: package_id.to_owned(),
        path: src.clone(),
        source,
    };
    let manifest = read_manifest(&src).map_err(dir_error)?;
    let rel_paths = packlist(&src, manifest.as_ref()).map_err(dir_error)?;
    let mut sources = Vec::with_capacity(rel_paths.len());
    let mut infos = Vec::with_capacity(rel_paths.len());
    for rel in rel_paths {
        let file = src.join(&rel);
        let meta = std::fs::metadata(&file).map_err(dir_error)?;
        // No digest: a directory has no store row to diff a build against.
        let info = FileInfo {
            digest: String::new(),
            mode: pacquet_store_index::file_mode(&meta),
            size: meta.len(),
            checked_at: None,
        };
        sources.push(file);
        infos.push((rel, info));
    }
    let row = PackageFilesIndex {
        algo: "sha512".to_owned(),
        requires_build: Some(pacquet_tarball::requires_build(
            manifest.as_ref(),
            infos.iter().map(|(p, _)| p.as_str()),
        )),
        manifest: manifest
            .as_ref()
            .and_then(pacquet_tarball::bundled_manifest),
        files: infos,
        side_effects: None,
        tar_integrity: None,
        extra: Vec::new(),
    };
    Ok(DirectoryPackage { row, sources })
}
