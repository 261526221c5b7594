//! Git-hosted archives (codeload-style tarballs): the downloaded files are
//! unpacked into a scratch directory, prepared like a git clone and stored
//! under `<url>\tbuilt`.

use pacquet_import::{ImportMethod, ImportState, blob_files, import_package};
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
    // Copies: the prepare step writes into the directory.
    let files = blob_files(cas, &raw.files);
    import_package(&unpacked, &files, ImportMethod::Copy, &ImportState::new())?;
    let dir = sub_dir(&unpacked, path, package_id)?;
    prepare_and_store(cas, may_prepare, package_id, &dir)
}
