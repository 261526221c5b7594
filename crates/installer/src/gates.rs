//! Reading the wanted lockfile and the `--frozen-lockfile` gates
//! (docs/lockfile.md §8): it exists, parses, matches the settings and satisfies
//! every project's `package.json`.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;

use pacquet_config::Config;
use pacquet_lockfile::{
    ExpectedSettings, ImporterCheckOptions, Lockfile, LockfileError, PatchSelectors,
    ProjectManifest, apply_overrides, check_importers, check_patch_hashes, check_settings,
    read_lockfile_and_text, resolve_override_catalogs, resolve_override_references,
};
use pacquet_planner::PatchFile;

use super::InstallError;
use pacquet_planner::layout::{normalize, relative};

pub const LOCKFILE_NAME: &str = "pnpm-lock.yaml";

/// A workspace project: its importer id (`.`, `packages/a`), directory and manifest.
#[derive(Debug, Clone)]
pub struct Project {
    pub id: String,
    pub dir: PathBuf,
    pub manifest: ProjectManifest,
}

/// The lockfile, checked against the projects and settings.
pub struct CheckedLockfile {
    pub lockfile: Lockfile,
    /// The text `lockfile` was read from (`None`: there was no file).
    pub text: Option<String>,
    pub path: PathBuf,
    pub projects: Vec<Project>,
    /// The configured `patchedDependencies`, files hashed.
    pub patches: PatchSelectors<PatchFile>,
    /// Projects whose `engines.node` excludes the running Node.js.
    pub engine_warnings: Vec<String>,
}

/// Reads and checks the lockfile. Without `--frozen-lockfile` an up-to-date
/// lockfile installs exactly as with it; anything that would need resolving
/// fails, because pacquet does not resolve.
/// `hooks`: the pnpmfile, whose `readPackage` the projects' manifests go
/// through first, as pnpm 12.21 checks them (docs/pnpmfile.md §3).
pub(crate) fn read_checked_lockfile(
    config: &Config,
    frozen: bool,
    root_only: bool,
    hooks: Option<&crate::pnpmfile::Hooks<'_>>,
) -> Result<CheckedLockfile, InstallError> {
    let root = &config.workspace_root;
    let mut projects = if root_only {
        vec![read_project(root, root.clone())?]
    } else {
        read_projects(config)?
    };
    if let Some(hooks) = hooks {
        hooks.apply_to_projects(&mut projects)?;
    }
    // pnpm 12 checks the projects' engines before the lockfile.
    let node_version = || crate::settings::running_node_version(config);
    let engine_warnings =
        crate::project_engines::check(&projects, node_version, config.engine_strict)?;
    let path = root.join(LOCKFILE_NAME);
    let gate = |err: LockfileError| {
        if frozen {
            InstallError::Lockfile(err)
        } else {
            InstallError::NeedsResolution(Box::new(err))
        }
    };
    let (lockfile, text) = match read_lockfile_and_text(&path).map_err(InstallError::Lockfile)? {
        Some((lockfile, text)) => (lockfile, Some(text)),
        None if projects.iter().all(|p| !p.manifest.has_dependencies()) => {
            let lockfile = Lockfile {
                lockfile_version: "9.0".into(),
                ..Lockfile::default()
            };
            (lockfile, None)
        }
        None if frozen => return Err(InstallError::Lockfile(LockfileError::NoLockfile)),
        None => {
            return Err(InstallError::NoLockfile {
                dir: root.to_path_buf(),
            });
        }
    };
    let overrides = resolved_overrides(config, &projects)?;
    // docs/lockfile.md §9.5: the lockfile agrees with itself, the patch
    // files exist, and their hashes are the recorded ones.
    check_patch_hashes(&lockfile).map_err(gate)?;
    let patch_files = hash_patch_files(config)?;
    let patches = PatchSelectors::new(patch_files.clone()).map_err(InstallError::Lockfile)?;
    let mut expected = expected_settings(config, &overrides, &lockfile);
    expected.patched_dependencies = patch_files
        .into_iter()
        .map(|(key, file)| (key, file.hash))
        .collect();
    check_settings(&lockfile, &expected).map_err(gate)?;
    // pnpm resolves each project from its manifest with the overrides
    // applied, so the importers hold the overridden specifiers.
    let overridden: Vec<ProjectManifest> = projects
        .iter()
        .map(|p| apply_overrides(&p.manifest, &rebase_local_overrides(&overrides, &p.id)))
        .collect();
    let pairs: Vec<(&str, &ProjectManifest)> = projects
        .iter()
        .zip(&overridden)
        .map(|(p, manifest)| (p.id.as_str(), manifest))
        .collect();
    let opts = ImporterCheckOptions {
        auto_install_peers: config.auto_install_peers,
        exclude_links_from_lockfile: config.exclude_links_from_lockfile,
        ignored_optional_dependencies: config.ignored_optional_dependencies.clone(),
    };
    check_importers(&lockfile, &pairs, &opts).map_err(gate)?;
    Ok(CheckedLockfile {
        lockfile,
        text,
        path,
        projects,
        patches,
        engine_warnings,
    })
}

/// Each configured patch file (relative to the workspace root), hashed.
pub(crate) fn hash_patch_files(config: &Config) -> Result<Vec<(String, PatchFile)>, InstallError> {
    config
        .patched_dependencies
        .iter()
        .map(|(key, path)| {
            let path = config.workspace_root.join(path);
            let hash = pacquet_patching::patch_hash(&path)?;
            Ok((key.clone(), PatchFile { path, hash }))
        })
        .collect()
}

/// The workspace's projects (just the root outside a workspace), root
/// first, with their manifests.
pub fn read_projects(config: &Config) -> Result<Vec<Project>, InstallError> {
    let root = &config.workspace_root;
    let dirs = if config.is_workspace {
        pacquet_config::find_workspace_projects(root, &config.packages)
            .map_err(InstallError::Config)?
    } else {
        vec![root.clone()]
    };
    dirs.into_iter()
        .map(|dir| read_project(root, dir))
        .collect()
}

pub(crate) fn read_project(root: &std::path::Path, dir: PathBuf) -> Result<Project, InstallError> {
    let manifest =
        ProjectManifest::from_path(&dir.join("package.json")).map_err(InstallError::Lockfile)?;
    Ok(Project {
        id: importer_id(root, &dir),
        dir,
        manifest,
    })
}

/// `overrides` as seen from the project `importer_id`: `link:`/`file:`
/// paths are relative to the workspace root in the settings and relative
/// to the project in its importer (`link:./vendor/x` is
/// `link:../../vendor/x` for `packages/p`).
/// `overrides` with their `catalog:` and `$name` values resolved, as pnpm
/// records them in the lockfile (`$name` against the root's manifest).
pub(crate) fn resolved_overrides(
    config: &Config,
    projects: &[Project],
) -> Result<IndexMap<String, String>, InstallError> {
    let root_manifest = projects
        .iter()
        .find(|p| p.id == ".")
        .map(|p| p.manifest.clone())
        .unwrap_or_default();
    let overrides = resolve_override_catalogs(&config.overrides, &config.catalogs);
    resolve_override_references(&overrides, &root_manifest).map_err(InstallError::Lockfile)
}

pub(crate) fn rebase_local_overrides(
    overrides: &IndexMap<String, String>,
    importer_id: &str,
) -> IndexMap<String, String> {
    if importer_id == "." {
        return overrides.clone();
    }
    let rebase = |value: &str| {
        for protocol in ["link:", "file:"] {
            if let Some(path) = value.strip_prefix(protocol)
                && !path.starts_with('/')
            {
                return format!("{protocol}{}", relative(importer_id, &normalize(path)));
            }
        }
        value.to_owned()
    };
    overrides
        .iter()
        .map(|(key, value)| (key.clone(), rebase(value)))
        .collect()
}

/// `.` for the root, else the `/`-separated path relative to it.
pub fn importer_id(root: &Path, dir: &Path) -> String {
    match dir.strip_prefix(root) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) => dir.to_string_lossy().into_owned(),
    }
}

/// The pnpmfile: `pnpmfile` if set, else `.pnpmfile.mjs` or
/// `.pnpmfile.cjs` at the workspace root, when it exists; `None` under
/// `ignorePnpmfile`.
pub(crate) fn pnpmfile_path(config: &Config) -> Option<PathBuf> {
    if config.ignore_pnpmfile {
        return None;
    }
    let root = &config.workspace_root;
    let candidates: Vec<PathBuf> = match &config.pnpmfile {
        Some(path) => vec![root.join(path)],
        None => vec![root.join(".pnpmfile.mjs"), root.join(".pnpmfile.cjs")],
    };
    candidates.into_iter().find(|p| p.is_file())
}

/// `sha256-<base64>` of the pnpmfile: `pnpmfile` if set, else
/// `.pnpmfile.mjs` or `.pnpmfile.cjs` at the workspace root; `None` without
/// one (checked with pnpm 12.21: either default name is picked up, and the
/// checksum is of the file's bytes). Its hooks are not run: a frozen
/// install does not resolve, which is what `readPackage` and
/// `afterAllResolved` change. `ignorePnpmfile`: no pnpmfile.
pub(crate) fn pnpmfile_checksum(config: &Config) -> Option<String> {
    use base64::Engine;
    use sha2::{Digest, Sha256};
    let bytes = std::fs::read(pnpmfile_path(config)?).ok()?;
    let digest = Sha256::digest(&bytes);
    Some(format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    ))
}

fn expected_settings(
    config: &Config,
    overrides: &IndexMap<String, String>,
    lockfile: &Lockfile,
) -> ExpectedSettings {
    ExpectedSettings {
        overrides: overrides
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        auto_install_peers: config.auto_install_peers,
        exclude_links_from_lockfile: config.exclude_links_from_lockfile,
        dedupe_peers: config.dedupe_peers,
        peers_suffix_max_length: config.peers_suffix_max_length,
        inject_workspace_packages: config.inject_workspace_packages,
        ignored_optional_dependencies: config.ignored_optional_dependencies.clone(),
        // Trusted as recorded: pnpm hashes the extensions as its resolver
        // normalized them.
        package_extensions_checksum: lockfile.package_extensions_checksum.clone(),
        pnpmfile_checksum: pnpmfile_checksum(config),
        integrity_target: config.lockfile_integrity_target.clone(),
        // Filled from the patch files by the caller.
        patched_dependencies: Default::default(),
        catalogs: config
            .catalogs
            .iter()
            .map(|(name, entries)| {
                (
                    name.clone(),
                    entries
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                )
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_override_paths_are_rebased_per_project() {
        let overrides: IndexMap<String, String> = [
            ("left-pad", "link:./vendor/left-pad"),
            ("tgz", "file:vendor/x.tgz"),
            ("abs", "link:/opt/x"),
            ("ms", "2.1.2"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        let p = rebase_local_overrides(&overrides, "packages/p");
        assert_eq!(p["left-pad"], "link:../../vendor/left-pad");
        assert_eq!(p["tgz"], "file:../../vendor/x.tgz");
        assert_eq!(p["abs"], "link:/opt/x");
        assert_eq!(p["ms"], "2.1.2");
        assert_eq!(rebase_local_overrides(&overrides, "."), overrides);
    }
}
