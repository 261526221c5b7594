//! `file:` directories (`{directory, type: directory}`): pnpm 12 injects a
//! copy whose files are hard links to the source directory's packed files
//! (no CAS blobs, no index row), so the importer reads the source directly.
//! A directory with install scripts is copied and built like any package.

use std::os::unix::fs::PermissionsExt;

use pacquet_store_index::{FileInfo, PackageFilesIndex};

use super::{packlist::packlist, read_manifest};
use crate::{
    ImportMethod, ImportOutcome, PackageFile, Slot, import_package,
    install::{InstallError, build::ImportMode, files::LinkContext},
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
    let mut infos = Vec::with_capacity(rel_paths.len());
    for rel in &rel_paths {
        let file = src.join(rel);
        let meta = std::fs::metadata(&file).map_err(dir_error)?;
        let mode = meta.permissions().mode() & 0o777;
        files.push(PackageFile {
            rel_path: rel,
            src: file,
            executable: mode & 0o111 != 0,
            at: None,
        });
        // No digest: a directory has no store row to diff a build against.
        infos.push((
            rel.clone(),
            FileInfo {
                digest: String::new(),
                mode,
                size: meta.len(),
                checked_at: None,
            },
        ));
    }
    let row = PackageFilesIndex {
        algo: "sha512".to_owned(),
        requires_build: Some(pacquet_tarball::requires_build(
            manifest.as_ref(),
            rel_paths.iter().map(String::as_str),
        )),
        manifest: manifest
            .as_ref()
            .and_then(pacquet_tarball::bundled_manifest),
        files: infos,
        side_effects: None,
        tar_integrity: None,
        extra: Vec::new(),
    };
    let build = matches!(ctx.builds.mode(i, slot, &row), ImportMode::ForBuild);
    // Scripts write into the package: never share inodes with the source.
    let method = if build {
        ImportMethod::CloneOrCopy
    } else {
        ctx.method
    };
    let dest = ctx.root.join(&slot.package_dir);
    let outcome = import_package(&dest, &files, method, &ctx.state)?;
    if build && outcome == ImportOutcome::AlreadyComplete {
        ctx.builds.already_complete(i, slot);
    }
    if let Some(bundled) = row.manifest {
        let _ = ctx.manifests[i].set(bundled);
    }
    if outcome == ImportOutcome::Imported {
        ctx.imported
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        ctx.reporter.report(Event::Imported { package_id });
    }
    Ok(())
}
