//! A pnpm-like virtual store built from the fixture packages, and the
//! `.bin` directories the install executor would ask `link_bins` for.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use pacquet_bins::{BinSource, LinkedBin, link_bins};
use serde_json::Value;

pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// File name → bytes of the entries of `dir` (empty when missing).
pub fn read_dir_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    entries
        .map(|e| e.unwrap())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// `./path` → mode, from `golden/<project>.modes`.
pub fn recorded_modes(project: &str) -> BTreeMap<String, u32> {
    let text =
        std::fs::read_to_string(fixtures_dir().join(format!("golden/{project}.modes"))).unwrap();
    text.lines()
        .map(|line| {
            let (mode, path) = line.split_once(' ').unwrap();
            (path.to_owned(), u32::from_str_radix(mode, 8).unwrap())
        })
        .collect()
}

struct Package {
    name: String,
    manifest: Value,
    deps: Vec<String>,
}

pub struct Project {
    pub root: PathBuf,
    packages: BTreeMap<String, Package>,
    direct: Vec<String>,
    public_hoisted: Vec<String>,
    extend_node_path: bool,
}

impl Project {
    /// Copies the packages `projects/<name>/package.json` needs (all at
    /// 1.0.0) into `<root>/node_modules/.pnpm/<name>@1.0.0/node_modules/<name>`,
    /// keeping the committed modes as pnpm's import does.
    pub fn install(name: &str, root: &Path, public_hoist: bool, extend_node_path: bool) -> Project {
        let manifest = read_json(
            &fixtures_dir()
                .join("projects")
                .join(name)
                .join("package.json"),
        );
        let direct = dep_names(&manifest);
        let mut packages = BTreeMap::new();
        let mut queue = direct.clone();
        while let Some(pkg) = queue.pop() {
            if packages.contains_key(&pkg) {
                continue;
            }
            let source = fixtures_dir().join("packages").join(&pkg).join("1.0.0");
            let manifest = read_json(&source.join("package.json"));
            let deps = dep_names(&manifest);
            queue.extend(deps.iter().cloned());
            let project = Project::package_dir_in(root, &pkg);
            copy_tree(&source, &project);
            packages.insert(
                pkg.clone(),
                Package {
                    name: pkg,
                    manifest,
                    deps,
                },
            );
        }
        let public_hoisted = if public_hoist {
            let direct_set: BTreeSet<&String> = direct.iter().collect();
            let mut hoisted: Vec<String> = packages
                .values()
                .flat_map(|p| p.deps.iter())
                .filter(|d| !direct_set.contains(d))
                .cloned()
                .collect();
            hoisted.sort();
            hoisted.dedup();
            hoisted
        } else {
            Vec::new()
        };
        Project {
            root: root.to_path_buf(),
            packages,
            direct,
            public_hoisted,
            extend_node_path,
        }
    }

    fn package_dir_in(root: &Path, name: &str) -> PathBuf {
        root.join("node_modules/.pnpm")
            .join(format!("{}@1.0.0", name.replace('/', "+")))
            .join("node_modules")
            .join(name)
    }

    fn package_dir(&self, name: &str) -> PathBuf {
        Project::package_dir_in(&self.root, name)
    }

    fn node_path(&self, name: &str) -> Vec<PathBuf> {
        if !self.extend_node_path {
            return Vec::new();
        }
        let dir = self.package_dir(name);
        let slot_modules = self
            .root
            .join("node_modules/.pnpm")
            .join(format!("{}@1.0.0", name.replace('/', "+")))
            .join("node_modules");
        vec![
            dir.join("node_modules"),
            slot_modules,
            self.root.join("node_modules/.pnpm/node_modules"),
        ]
    }

    /// Every `.bin` directory the executor would link: each package's own
    /// (its dependencies and itself), and the project's (direct and publicly
    /// hoisted dependencies).
    pub fn link_all_bins(&self) -> Vec<LinkedBin> {
        let dirs: Vec<PathBuf> = self.packages.keys().map(|n| self.package_dir(n)).collect();
        let node_paths: BTreeMap<&str, Vec<PathBuf>> = self
            .packages
            .keys()
            .map(|n| (n.as_str(), self.node_path(n)))
            .collect();
        let source = |name: &str, direct: bool| -> BinSource<'_> {
            let pkg = &self.packages[name];
            let index = self.packages.keys().position(|n| n == name).unwrap();
            BinSource {
                package_name: &pkg.name,
                package_dir: &dirs[index],
                manifest: &pkg.manifest,
                direct,
                node_path: node_paths[name].clone(),
                symlink: false,
                real_dir: None,
                project: None,
            }
        };
        let mut linked = Vec::new();
        for (name, pkg) in &self.packages {
            let mut sources: Vec<BinSource<'_>> =
                pkg.deps.iter().map(|d| source(d, false)).collect();
            sources.push(source(name, false));
            let bin_dir = self.package_dir(name).join("node_modules/.bin");
            linked.extend(link_bins(&bin_dir, &sources).unwrap());
        }
        let mut sources: Vec<BinSource<'_>> = self.direct.iter().map(|d| source(d, true)).collect();
        sources.extend(self.public_hoisted.iter().map(|d| source(d, false)));
        linked.extend(link_bins(&self.root.join("node_modules/.bin"), &sources).unwrap());
        linked
    }

    /// `.bin` directories that exist after linking.
    pub fn bin_dirs(&self) -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = self
            .packages
            .keys()
            .map(|n| self.package_dir(n).join("node_modules/.bin"))
            .chain([
                self.root.join("node_modules/.bin"),
                self.root.join("node_modules/.pnpm/node_modules/.bin"),
            ])
            .filter(|d| d.is_dir())
            .collect();
        dirs.sort();
        dirs
    }
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn dep_names(manifest: &Value) -> Vec<String> {
    manifest
        .get("dependencies")
        .and_then(Value::as_object)
        .map(|deps| deps.keys().cloned().collect())
        .unwrap_or_default()
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}
