//! The deploy files: the workspace lockfile narrowed to one project, with
//! the other workspace projects as `file:` directory packages, and the
//! project's `package.json` with its dependencies pinned to what the
//! lockfile resolved (docs/deploy.md §3). Plain data in and out.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

use pacquet_lockfile::{
    DepPath, DepRef, Importer, Lockfile, PackageInfo, Resolution, ResolvedDependency, Snapshot,
};
use pacquet_planner::{IncludedGroups, layout::relative_path};
use serde_json::{Map, Value};

use crate::{
    DeployError,
    local_ref::{LocalRef, file_url_key, resolve_local},
};

/// A project of the workspace, as the deploy files name it.
#[derive(Debug, Clone)]
pub struct WorkspaceProjectInfo {
    /// Absolute directory.
    pub dir: PathBuf,
    pub name: Option<String>,
    /// Whether its manifest declares commands (`bin`, `directories.bin`).
    pub has_bin: bool,
}

/// What the deploy files are made from.
pub struct DeployInput<'a> {
    pub lockfile: &'a Lockfile,
    /// The workspace root, where `pnpm-lock.yaml` is.
    pub lockfile_dir: &'a Path,
    /// Importer id of the deployed project.
    pub project_id: &'a str,
    /// The deployed project's `package.json`, as read.
    pub manifest: &'a Value,
    pub deploy_dir: &'a Path,
    pub projects: &'a [WorkspaceProjectInfo],
    pub included: IncludedGroups,
}

/// The files written into the deploy directory.
#[derive(Debug, Clone)]
pub struct DeployFiles {
    pub lockfile: Lockfile,
    pub manifest: Value,
    /// Keys of the workspace projects the deployed project installs: pnpm
    /// 12 lets them build (`allowBuilds`).
    pub injected: Vec<String>,
}

struct Converter<'a> {
    input: &'a DeployInput<'a>,
    deployed: PathBuf,
}

impl Converter<'_> {
    fn project_name(&self, dir: &Path) -> Option<String> {
        self.input
            .projects
            .iter()
            .find(|p| p.dir == dir)
            .and_then(|p| p.name.clone())
    }

    fn key_of(&self, local: &LocalRef, alias: Option<&str>) -> String {
        file_url_key(local, |dir| self.project_name(dir), alias)
    }

    /// A dependency reference seen from `link_base`: local ones become
    /// `file:` URL keys, the deployed project itself `link:.`.
    fn reference(&self, alias: &str, reference: &str, link_base: &Path) -> String {
        match resolve_local(reference, self.input.lockfile_dir, link_base) {
            None => reference.to_owned(),
            Some(local) if local.path == self.deployed => "link:.".to_owned(),
            Some(local) => self.key_of(&local, Some(alias)),
        }
    }

    fn references(
        &self,
        deps: Option<&BTreeMap<String, String>>,
        link_base: &Path,
    ) -> Option<BTreeMap<String, String>> {
        deps.map(|deps| {
            deps.iter()
                .map(|(alias, r)| (alias.clone(), self.reference(alias, r, link_base)))
                .collect()
        })
    }

    /// A `packages`/`snapshots` key: local ones renamed.
    fn package_key(&self, key: &str) -> DepPath {
        let root = self.input.lockfile_dir;
        match resolve_local(key, root, root) {
            Some(local) => DepPath::parse(&self.key_of(&local, None)),
            None => DepPath::parse(key),
        }
    }

    /// Local tarballs and directories are found from the deploy directory.
    fn resolution(&self, resolution: &Resolution) -> Resolution {
        let from_deploy =
            |path: &str| relative_path(self.input.deploy_dir, &self.input.lockfile_dir.join(path));
        match resolution {
            Resolution::Tarball {
                tarball,
                integrity,
                git_hosted,
                path,
            } if tarball.starts_with("file:") => {
                let relative = from_deploy(&tarball["file:".len()..]);
                Resolution::Tarball {
                    tarball: format!("file:{relative}"),
                    integrity: integrity.clone(),
                    git_hosted: *git_hosted,
                    path: path.as_ref().map(|_| relative.clone()),
                }
            }
            Resolution::Directory { directory } => Resolution::Directory {
                directory: from_deploy(directory),
            },
            other => other.clone(),
        }
    }
}

/// Builds the deploy files as pnpm 12.21 does.
pub fn create_deploy_files(input: &DeployInput<'_>) -> Result<DeployFiles, DeployError> {
    let lockfile = input.lockfile;
    let source =
        lockfile
            .importers
            .get(input.project_id)
            .ok_or_else(|| DeployError::MissingImporter {
                project_id: input.project_id.to_owned(),
            })?;
    let deployed = input.lockfile_dir.join(input.project_id);
    let deployed = crate::local_ref::normalize(&deployed);
    let conv = Converter { input, deployed };

    let mut packages: BTreeMap<DepPath, PackageInfo> = BTreeMap::new();
    for (key, info) in &lockfile.packages {
        let mut info = info.clone();
        info.resolution = conv.resolution(&info.resolution);
        packages.insert(conv.package_key(key.as_str()), info);
    }
    let mut snapshots: BTreeMap<DepPath, Snapshot> = BTreeMap::new();
    for (key, snapshot) in &lockfile.snapshots {
        let mut snapshot = snapshot.clone();
        let root = input.lockfile_dir;
        snapshot.dependencies = conv.references(snapshot.dependencies.as_ref(), root);
        snapshot.optional_dependencies =
            conv.references(snapshot.optional_dependencies.as_ref(), root);
        snapshots.insert(conv.package_key(key.as_str()), snapshot);
    }
    // Every other workspace project is a directory package.
    let mut project_keys: BTreeSet<DepPath> = BTreeSet::new();
    for (id, importer) in &lockfile.importers {
        if id == input.project_id {
            continue;
        }
        let dir = crate::local_ref::normalize(&input.lockfile_dir.join(id));
        let key = DepPath::parse(&conv.key_of(
            &LocalRef {
                path: dir.clone(),
                suffix: String::new(),
                name: None,
            },
            None,
        ));
        let has_bin = input
            .projects
            .iter()
            .find(|p| p.dir == dir)
            .is_some_and(|p| p.has_bin);
        // An injected project already has its entry; pnpm 12 keeps it.
        packages
            .entry(key.clone())
            .or_insert_with(|| directory_package(relative_path(input.deploy_dir, &dir), has_bin));
        project_keys.insert(key.clone());
        let versions = |deps: &Option<BTreeMap<String, ResolvedDependency>>| {
            deps.as_ref().map(|deps| {
                deps.iter()
                    .map(|(alias, d)| (alias.clone(), d.version.clone()))
                    .collect::<BTreeMap<_, _>>()
            })
        };
        snapshots.entry(key).or_insert_with(|| Snapshot {
            dependencies: conv.references(versions(&importer.dependencies).as_ref(), &dir),
            optional_dependencies: conv
                .references(versions(&importer.optional_dependencies).as_ref(), &dir),
            ..Snapshot::default()
        });
    }

    // The deployed project: each included group pinned to its resolution.
    let pin = |group: &Option<BTreeMap<String, ResolvedDependency>>, included: bool| {
        let mut out = BTreeMap::new();
        if included {
            for (alias, dep) in group.iter().flatten() {
                let version = conv.reference(alias, &dep.version, &conv.deployed);
                // The specifier is the version without its peer suffix.
                let specifier = version.split('(').next().unwrap_or(&version).to_owned();
                out.insert(alias.clone(), ResolvedDependency { specifier, version });
            }
        }
        out
    };
    let groups = input.included;
    let dependencies = pin(&source.dependencies, groups.dependencies);
    let dev_dependencies = pin(&source.dev_dependencies, groups.dev_dependencies);
    let optional_dependencies = pin(&source.optional_dependencies, groups.optional_dependencies);
    let non_empty = |m: &BTreeMap<String, ResolvedDependency>| (!m.is_empty()).then(|| m.clone());
    let importer = Importer {
        dependencies: non_empty(&dependencies),
        dev_dependencies: non_empty(&dev_dependencies),
        optional_dependencies: non_empty(&optional_dependencies),
        ..source.clone()
    };

    let (packages, snapshots) =
        reachable(&importer, packages, snapshots, groups.optional_dependencies);
    let injected = packages
        .keys()
        .filter(|key| project_keys.contains(*key))
        .map(|key| key.as_str().to_owned())
        .collect();

    let mut deploy = lockfile.clone();
    deploy.catalogs = None;
    deploy.patched_dependencies = None;
    deploy.overrides = None;
    deploy.package_extensions_checksum = None;
    deploy.pnpmfile_checksum = None;
    if let Some(settings) = deploy.settings.as_mut() {
        settings.inject_workspace_packages = None;
    }
    deploy.importers = BTreeMap::from([(".".to_owned(), importer)]);
    deploy.packages = packages;
    deploy.snapshots = snapshots;

    let mut manifest = input.manifest.clone();
    if let Some(object) = manifest.as_object_mut() {
        for (field, deps) in [
            ("dependencies", &dependencies),
            ("devDependencies", &dev_dependencies),
            ("optionalDependencies", &optional_dependencies),
        ] {
            let map: Map<String, Value> = deps
                .iter()
                .map(|(alias, d)| (alias.clone(), Value::String(d.specifier.clone())))
                .collect();
            object.insert(field.to_owned(), Value::Object(map));
        }
    }
    Ok(DeployFiles {
        lockfile: deploy,
        manifest,
        injected,
    })
}

fn directory_package(directory: String, has_bin: bool) -> PackageInfo {
    PackageInfo {
        has_bin: Some(has_bin),
        ..PackageInfo::new(Resolution::Directory { directory })
    }
}

/// Only what the deployed importer reaches: its dependencies, then theirs
/// (optional ones only when installed, and otherwise dropped from the
/// snapshots).
fn reachable(
    importer: &Importer,
    packages: BTreeMap<DepPath, PackageInfo>,
    mut snapshots: BTreeMap<DepPath, Snapshot>,
    include_optional: bool,
) -> (BTreeMap<DepPath, PackageInfo>, BTreeMap<DepPath, Snapshot>) {
    let mut queue: VecDeque<DepPath> = VecDeque::new();
    let push = |queue: &mut VecDeque<DepPath>, alias: &str, reference: &str| {
        if let DepRef::Snapshot(key) = DepRef::resolve(alias, reference) {
            queue.push_back(key);
        }
    };
    for group in [
        &importer.dependencies,
        &importer.dev_dependencies,
        &importer.optional_dependencies,
    ] {
        for (alias, dep) in group.iter().flatten() {
            push(&mut queue, alias, &dep.version);
        }
    }
    let mut seen: BTreeSet<DepPath> = BTreeSet::new();
    while let Some(key) = queue.pop_front() {
        let Some(snapshot) = snapshots.get(&key) else {
            continue;
        };
        if !seen.insert(key.clone()) {
            continue;
        }
        for (alias, reference) in snapshot.dependencies.iter().flatten() {
            push(&mut queue, alias, reference);
        }
        if include_optional {
            for (alias, reference) in snapshot.optional_dependencies.iter().flatten() {
                push(&mut queue, alias, reference);
            }
        }
    }
    snapshots.retain(|key, _| seen.contains(key));
    if !include_optional {
        for snapshot in snapshots.values_mut() {
            snapshot.optional_dependencies = None;
        }
    }
    let ids: BTreeSet<&str> = snapshots.keys().map(|k| k.package_id()).collect();
    let packages = packages
        .into_iter()
        .filter(|(key, _)| ids.contains(key.as_str()))
        .collect();
    (packages, snapshots)
}

#[cfg(test)]
mod tests;
