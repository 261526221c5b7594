//! `store add <tarball…>`: unpack tarball files into the store, as
//! `pnpm store add ./x.tgz` does. pnpm 12.21 records each under
//! `<sha512 of the .tgz>\tfile:<path relative to the cwd>` and links nothing;
//! a directory argument adds the `.tgz` files in it.

use std::path::{Path, PathBuf};

use pacquet_tarball::{ExtractLimits, extract_to_store};

use pacquet_cas::{LockMode, lock_store};
use pacquet_planner::layout::relative_path;

use crate::StoreOpsError;

/// One argument's outcome: the package id it was stored under, or why not.
#[derive(Debug)]
pub struct AddedTarball {
    pub path: PathBuf,
    pub result: Result<String, Box<dyn miette::Diagnostic + Send + Sync>>,
}

/// Adds every tarball in `args` (files, or directories of `.tgz` files,
/// relative to `cwd`) to the store. One failure does not stop the others.
pub fn add_tarballs(
    store_dir: &Path,
    cwd: &Path,
    args: &[PathBuf],
) -> Result<Vec<AddedTarball>, StoreOpsError> {
    let _lock = lock_store(store_dir, LockMode::Shared)?;
    let cas = pacquet_cas::Cas::new(store_dir);
    let writer = pacquet_store_index::IndexWriter::spawn(store_dir)?;
    let mut outcomes = Vec::new();
    for path in expand(cwd, args) {
        let result = add_one(&cas, &writer, cwd, &path);
        outcomes.push(AddedTarball { path, result });
    }
    writer.finish()?;
    Ok(outcomes)
}

fn expand(cwd: &Path, args: &[PathBuf]) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    for arg in args {
        let path = cwd.join(arg);
        let listed = std::fs::read_dir(&path).ok().map(|entries| {
            let mut tgz: Vec<PathBuf> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "tgz"))
                .collect();
            tgz.sort();
            tgz
        });
        match listed {
            Some(tgz) => paths.extend(tgz),
            None => paths.push(path),
        }
    }
    paths
}

fn add_one(
    cas: &pacquet_cas::Cas,
    writer: &pacquet_store_index::IndexWriter,
    cwd: &Path,
    path: &Path,
) -> Result<String, Box<dyn miette::Diagnostic + Send + Sync>> {
    let package_id = format!("file:{}", relative_path(cwd, path));
    let bytes = std::fs::read(path).map_err(|source| {
        Box::new(pacquet_sources::SourceError::LocalTarball {
            path: path.to_owned(),
            source,
        }) as Box<dyn miette::Diagnostic + Send + Sync>
    })?;
    let integrity = pacquet_tarball::sha512_integrity(&bytes);
    let row = extract_to_store(cas, &bytes, &package_id, &ExtractLimits::default())
        .map_err(|e| Box::new(e) as Box<dyn miette::Diagnostic + Send + Sync>)?;
    writer.put(pacquet_store_index::store_key(&integrity, &package_id), row);
    Ok(package_id)
}
