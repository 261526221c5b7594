//! `file:` directories (`{directory, type: directory}`): pnpm 12 injects a
//! copy whose files are hard links to the source directory's packed files
//! (no CAS blobs, no index row), so the importer reads the source directly.

use std::os::unix::fs::PermissionsExt;

use super::{packlist::packlist, read_manifest};
use crate::{
    PackageFile, Slot, import_package,
    install::{InstallError, files::LinkContext},
    reporter::{Event, Origin},
};

/// Imports the directory `path` (relative to the lockfile directory) into
/// slot `i`'s package directory.
pub fn import_directory(
    ctx: &LinkContext<'_>,
    i: usize,
    slot: &Slot,
    path: &str,
) -> Result<(), InstallError> {
    let package_id = slot.dep_path.as_str();
    let src = ctx.root.join(path);
    let dir_error = |source: std::io::Error| InstallError::LocalDirectory {
        package_id: package_id.to_owned(),
        path: src.clone(),
        source,
    };
    let manifest = read_manifest(&src).map_err(dir_error)?;
    ctx.reporter.report(Event::Fetched {
        package_id,
        origin: Origin::Store,
    });
    let rel_paths = packlist(&src, manifest.as_ref()).map_err(dir_error)?;
    let mut files = Vec::with_capacity(rel_paths.len());
    for rel in &rel_paths {
        let file = src.join(rel);
        let mode = std::fs::metadata(&file)
            .map_err(dir_error)?
            .permissions()
            .mode();
        files.push(PackageFile {
            rel_path: rel,
            src: file,
            executable: mode & 0o111 != 0,
        });
    }
    let dest = ctx.root.join(&slot.package_dir);
    import_package(&dest, &files, ctx.method, &ctx.state)?;
    if let Some(bundled) = manifest
        .as_ref()
        .and_then(pacquet_tarball::bundled_manifest)
    {
        let _ = ctx.manifests[i].set(bundled);
    }
    ctx.reporter.report(Event::Imported { package_id });
    Ok(())
}
