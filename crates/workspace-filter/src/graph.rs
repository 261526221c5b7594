//! The dependencies between workspace projects, from their manifests, as
//! pnpm 12 draws them for `--filter` (docs/filtering.md §2).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use pacquet_lockfile::ProjectManifest;

use crate::selector::lexical_join;

/// One project of the workspace.
#[derive(Debug, Clone)]
pub struct WorkspaceProject {
    /// Absolute directory.
    pub dir: PathBuf,
    pub manifest: ProjectManifest,
}

/// For each project (by index into the list), the projects it depends on.
#[derive(Debug, Clone)]
pub struct ProjectGraph {
    pub dirs: Vec<PathBuf>,
    pub names: Vec<Option<String>>,
    pub edges: Vec<Vec<usize>>,
}

impl ProjectGraph {
    /// `prod_only`: `devDependencies` draw no edges (`--filter-prod`).
    /// `link_workspace_packages`: a plain version range may then name a
    /// project; otherwise only `workspace:` and local paths do.
    pub fn new(
        projects: &[WorkspaceProject],
        prod_only: bool,
        link_workspace_packages: bool,
    ) -> Self {
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, p) in projects.iter().enumerate() {
            if let Some(name) = &p.manifest.name {
                by_name.entry(name).or_default().push(i);
            }
        }
        let by_dir: HashMap<&Path, usize> = projects
            .iter()
            .enumerate()
            .map(|(i, p)| (p.dir.as_path(), i))
            .collect();
        let lookup = Lookup {
            projects,
            by_name,
            by_dir,
            link_workspace_packages,
        };
        let edges = projects
            .iter()
            .map(|p| {
                merged_dependencies(&p.manifest, prod_only)
                    .iter()
                    .filter_map(|(name, spec)| lookup.edge(&p.dir, name, spec))
                    .collect()
            })
            .collect();
        ProjectGraph {
            dirs: projects.iter().map(|p| p.dir.clone()).collect(),
            names: projects.iter().map(|p| p.manifest.name.clone()).collect(),
            edges,
        }
    }

    /// The reversed edges: for each project, the projects depending on it.
    pub(crate) fn dependents(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.dirs.len()];
        for (from, targets) in self.edges.iter().enumerate() {
            for &to in targets {
                out[to].push(from);
            }
        }
        out
    }
}

/// Peer, dev (unless `prod_only`), optional, then production
/// dependencies; a later group's specifier wins, the first position stays.
fn merged_dependencies(manifest: &ProjectManifest, prod_only: bool) -> IndexMap<&str, &str> {
    let mut merged = IndexMap::new();
    let mut groups = vec![&manifest.peer_dependencies];
    if !prod_only {
        groups.push(&manifest.dev_dependencies);
    }
    groups.push(&manifest.optional_dependencies);
    groups.push(&manifest.dependencies);
    for group in groups {
        for (name, spec) in group {
            merged.insert(name.as_str(), spec.as_str());
        }
    }
    merged
}

struct Lookup<'a> {
    projects: &'a [WorkspaceProject],
    by_name: HashMap<&'a str, Vec<usize>>,
    by_dir: HashMap<&'a Path, usize>,
    link_workspace_packages: bool,
}

impl Lookup<'_> {
    /// The project `name@spec` of the project in `from` resolves to, if any.
    fn edge(&self, from: &Path, name: &str, spec: &str) -> Option<usize> {
        if let Some(workspace) = spec.strip_prefix("workspace:") {
            if is_relative_path(workspace) {
                return self.by_path(from, workspace);
            }
            // `workspace:alias@range` names another package.
            let (name, range) = match workspace.rsplit_once('@') {
                Some((alias, range)) if !alias.is_empty() => (alias, range),
                _ => (name, workspace),
            };
            return self.by_version(name, range, true);
        }
        if let Some(path) = spec
            .strip_prefix("file:")
            .or_else(|| spec.strip_prefix("link:"))
        {
            return self.by_path(from, path);
        }
        if is_path_like(spec) {
            return self.by_path(from, spec);
        }
        if !self.link_workspace_packages || !is_version_or_range(spec) {
            return None;
        }
        self.by_version(name, spec, false)
    }

    fn by_path(&self, from: &Path, path: &str) -> Option<usize> {
        let target = lexical_join(from, path);
        self.by_dir.get(target.as_path()).copied()
    }

    /// A project named `name` whose version the range accepts; with
    /// `workspace:` and no versions at all, the first project of the name.
    fn by_version(&self, name: &str, range: &str, workspace: bool) -> Option<usize> {
        let candidates = self.by_name.get(name)?;
        let version_of = |i: usize| self.projects[i].manifest.version.as_deref();
        let versions: Vec<&str> = candidates.iter().filter_map(|&i| version_of(i)).collect();
        if workspace && versions.is_empty() {
            return candidates.first().copied();
        }
        let wanted = if versions.contains(&range) {
            Some(range.to_owned())
        } else {
            max_satisfying(range, &versions)
        }?;
        candidates
            .iter()
            .copied()
            .find(|&i| version_of(i) == Some(wanted.as_str()))
    }
}

/// pnpm's workspace range: `*`, `^` and `~` (and an empty range) take the
/// highest version, prereleases included; anything else the highest
/// version the range accepts.
fn max_satisfying(range: &str, versions: &[&str]) -> Option<String> {
    use nodejs_semver::{Range, Version};
    let any = matches!(range, "" | "*" | "^" | "~");
    let range = if any {
        None
    } else {
        Some(Range::parse(range).ok()?)
    };
    versions
        .iter()
        .filter_map(|raw| Some((Version::parse(raw).ok()?, *raw)))
        .filter(|(v, _)| range.as_ref().is_none_or(|r| r.satisfies(v)))
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, raw)| raw.to_owned())
}

fn is_relative_path(spec: &str) -> bool {
    matches!(spec, "." | "..") || spec.starts_with("./") || spec.starts_with("../")
}

fn is_path_like(spec: &str) -> bool {
    is_relative_path(spec)
        || spec.starts_with(".\\")
        || spec.starts_with("..\\")
        || spec.starts_with('/')
        || spec.starts_with("~/")
}

fn is_version_or_range(spec: &str) -> bool {
    nodejs_semver::Version::parse(spec).is_ok() || nodejs_semver::Range::parse(spec).is_ok()
}
