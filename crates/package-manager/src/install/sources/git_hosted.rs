//! Git-hosted archives (codeload-style tarballs): the downloaded files are
//! unpacked into a scratch directory, prepared like a git clone and stored
//! under `<url>\tbuilt`.

use pacquet_store_index::PackageFilesIndex;

use super::{prepare::prepare_and_store, sub_dir, temp::TempDir};
use crate::{
    ImportMethod, ImportState, import_package,
    install::{InstallError, build::Builds, files::package_files},
};

/// Prepares the package whose raw files are `raw` (already in the CAS).
pub fn prepare_git_hosted(
    cas: &pacquet_cas::Cas,
    builds: &Builds<'_>,
    package_id: &str,
    raw: &PackageFilesIndex,
    path: Option<&str>,
) -> Result<PackageFilesIndex, InstallError> {
    let tmp = TempDir::new("git-hosted").map_err(|source| InstallError::SourceIo {
        package_id: package_id.to_owned(),
        what: "create a directory to prepare the package in",
        source,
    })?;
    let unpacked = tmp.path().join("package");
    // Copies: the prepare step writes into the directory.
    let files = package_files(cas, &raw.files);
    import_package(&unpacked, &files, ImportMethod::Copy, &ImportState::new())?;
    let dir = sub_dir(&unpacked, path, package_id)?;
    prepare_and_store(cas, builds, package_id, &dir)
}
