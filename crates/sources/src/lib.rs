//! Where a package's files come from: tarballs (registry, remote URL,
//! `file:`), `file:` directories, git repositories and git-hosted archives.
//! Each source ends in an index row of files (in the CAS, or for a
//! directory, in place) that the installer imports like any package; git
//! sources are prepared first, as the build policy in the plan allows.

mod dir_row;
mod directory;
mod download;
mod error;
mod git;
mod git_hosted;
mod packlist;
mod prepare;
mod temp;

use std::path::{Component, Path, PathBuf};

pub use directory::{DirectoryPackage, read_directory};
pub use download::{Authorize, Downloader, check_integrity, source_url};
pub use error::SourceError;
pub use git::{fetch_git, git_manifest, ls_remote};
pub use git_hosted::prepare_git_hosted;
pub use packlist::packlist;

/// `root/<path>` for a resolution's `path` (a package inside a monorepo),
/// refusing paths that leave `root`.
fn sub_dir(root: &Path, path: Option<&str>, package_id: &str) -> Result<PathBuf, SourceError> {
    let Some(path) = path.filter(|p| !p.is_empty()) else {
        return Ok(root.to_owned());
    };
    let rel = Path::new(path.trim_start_matches('/'));
    if rel
        .components()
        .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(SourceError::UnsupportedResolution {
            package_id: package_id.to_owned(),
            reason: format!("the package path {path:?} leaves the repository"),
        });
    }
    Ok(root.join(rel))
}

/// `<dir>/package.json`, `None` when the directory has none.
fn read_manifest(dir: &Path) -> std::io::Result<Option<serde_json::Value>> {
    // Reading the directory first turns a missing source into an error
    // rather than a package without a manifest.
    std::fs::read_dir(dir)?;
    match std::fs::read(dir.join("package.json")) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}
