//! Git-hosted archives (codeload-style tarballs): the downloaded files are
//! unpacked into a scratch directory, prepared like a git clone and stored
//! under `<url>\tbuilt`.

use std::path::Path;

use pacquet_store_index::PackageFilesIndex;

use crate::{SourceError, prepare::prepare_and_store, sub_dir, temp::TempDir};

/// Prepares the package whose raw files are `raw` (already in the CAS).
pub fn prepare_git_hosted(
    cas: &pacquet_cas::Cas,
    may_prepare: Option<bool>,
    package_id: &str,
    raw: &PackageFilesIndex,
    path: Option<&str>,
) -> Result<PackageFilesIndex, SourceError> {
    let tmp = TempDir::new("git-hosted").map_err(|source| SourceError::SourceIo {
        package_id: package_id.to_owned(),
        what: "create a directory to prepare the package in",
        source,
    })?;
    let unpacked = tmp.path().join("package");
    copy_out(cas, raw, &unpacked).map_err(|source| SourceError::SourceIo {
        package_id: package_id.to_owned(),
        what: "unpack the archive to prepare it",
        source,
    })?;
    let dir = sub_dir(&unpacked, path, package_id)?;
    prepare_and_store(cas, may_prepare, package_id, &dir)
}

/// Copies (never links: the prepare step writes into the directory) the
/// row's blobs to `dest`. A scratch directory for one package: the plain
/// loop is enough.
fn copy_out(cas: &pacquet_cas::Cas, raw: &PackageFilesIndex, dest: &Path) -> std::io::Result<()> {
    for (rel, info) in &raw.files {
        let to = dest.join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        // The blob's mode carries the executable bit.
        std::fs::copy(cas.file_path(&info.digest, info.is_executable()), &to)?;
    }
    Ok(())
}
