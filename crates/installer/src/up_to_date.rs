//! The no-op repeat install, answered from the state files and a few `stat`
//! calls (pnpm's `optimisticRepeatInstall`): when the last install recorded
//! in `.pnpm-workspace-state-v1.json` used the same settings and projects,
//! and neither the lockfile nor any manifest nor a local tarball nor
//! `pnpm-workspace.yaml` has changed since it validated them, there is
//! nothing to do. A file whose `stat` differs from the one recorded in the
//! `validation` block (docs/layout.md §9.1) is hashed and compared by
//! content, so a `touch` or a checkout that rewrote it unchanged does not
//! count as a change.

use std::{
    path::{Path, PathBuf},
    time::UNIX_EPOCH,
};

use pacquet_config::Config;
use pacquet_state::{FileStat, value_digest};
use serde_json::Value;

use super::{LOCKFILE_NAME, validation, write_state};

/// Whether `node_modules` already is what an install would make.
pub fn is_up_to_date(config: &Config, modules_dir: &Path, virtual_store_dir: &Path) -> bool {
    check(config, modules_dir, virtual_store_dir).unwrap_or(false)
}

fn check(config: &Config, modules_dir: &Path, virtual_store_dir: &Path) -> Option<bool> {
    let state_path = write_state::state_file_path(&config.workspace_root);
    let state: Value = serde_json::from_slice(&std::fs::read(&state_path).ok()?).ok()?;
    let validated_at = state.get("lastValidatedTimestamp")?.as_u64()?;
    // A filtered install left projects out (docs/filtering.md §5).
    if state.get("filteredInstall") == Some(&Value::Bool(true)) {
        return Some(false);
    }

    let store_dir = config.store_dir.to_string_lossy();
    if state.get("settings")? != &write_state::settings(config, &store_dir).to_json() {
        return Some(false);
    }
    let recorded: Vec<&str> = state
        .get("projects")?
        .as_object()?
        .keys()
        .map(String::as_str)
        .collect();
    let mut projects = project_dirs(config)?;
    projects.sort();
    let mut recorded_sorted = recorded.clone();
    recorded_sorted.sort();
    if projects.len() != recorded_sorted.len()
        || projects
            .iter()
            .zip(&recorded_sorted)
            .any(|(p, r)| p.to_str() != Some(r))
    {
        return Some(false);
    }

    let root = &config.workspace_root;
    let unchanged_since = |path: &Path| modified_ms(path).is_some_and(|m| m < validated_at);
    let recorded = state.get("validation").and_then(Recorded::parse);
    let lockfile = root.join(LOCKFILE_NAME);
    let inputs_unchanged = match &recorded {
        Some(recorded) => {
            recorded.lists_lockfile(&lockfile)
                && recorded.files_unchanged()
                && projects
                    .iter()
                    .all(|dir| recorded.manifest_unchanged(&project_id(root, dir), dir))
                && recorded.no_outside_directories(&projects)
        }
        None => {
            unchanged_since(&lockfile)
                && projects
                    .iter()
                    .all(|dir| unchanged_since(&dir.join("package.json")))
        }
    };
    let mut inputs = Vec::new();
    let workspace_manifest = root.join("pnpm-workspace.yaml");
    if workspace_manifest.exists() {
        inputs.push(workspace_manifest);
    }
    // An edited patch file changes the install (docs/lockfile.md §9.5);
    // the `validation` block records them with the other files.
    if recorded.is_none() {
        inputs.extend(config.patched_dependencies.values().map(|p| root.join(p)));
    }
    let unchanged = inputs_unchanged && inputs.iter().all(|path| unchanged_since(path));
    // The layout the state describes must still be there.
    let present = modules_dir.join(".modules.yaml").is_file()
        && virtual_store_dir.join("lock.yaml").is_file();
    let up_to_date = unchanged && present;
    if up_to_date && let Some(recorded) = &recorded {
        recorded.refresh(&state, &state_path);
    }
    Some(up_to_date)
}

/// The `validation` block read back.
struct Recorded<'a> {
    recorded_at_ns: i64,
    files: &'a serde_json::Map<String, Value>,
    lockfile: String,
    manifests: &'a serde_json::Map<String, Value>,
    manifest_files: &'a serde_json::Map<String, Value>,
    local: Option<&'a Value>,
    /// Entries found unchanged by content though their `stat` was not:
    /// `(key of files or manifestFiles, is a manifest, new stat)`.
    restat: std::cell::RefCell<Vec<(String, bool, FileStat)>>,
}

impl<'a> Recorded<'a> {
    fn parse(block: &'a Value) -> Option<Self> {
        let lockfile = block.get("lockfile")?.as_str()?.to_owned();
        Some(Recorded {
            recorded_at_ns: block.get("recordedAtNs")?.as_i64()?,
            files: block.get("files")?.as_object()?,
            manifests: block.get("manifests")?.as_object()?,
            manifest_files: block.get("manifestFiles")?.as_object()?,
            local: block.get("localDependencies")?.get(&lockfile),
            lockfile,
            restat: Default::default(),
        })
    }

    /// The lockfile is among the recorded files, with the digest the block
    /// keys its local dependencies by.
    fn lists_lockfile(&self, path: &Path) -> bool {
        let entry = self.files.get(path.to_str().unwrap_or_default());
        entry.and_then(|e| e.get("digest")?.as_str()) == Some(self.lockfile.as_str())
    }

    /// Rewrites the state file with the `stat` of the files that were
    /// checked by content, as pnpm 12 does, so the next repeat install
    /// needs `stat` calls only again. Best effort.
    fn refresh(&self, state: &Value, state_path: &Path) {
        let restat = self.restat.borrow();
        if restat.is_empty() {
            return;
        }
        let mut state = state.clone();
        let Some(block) = state.get_mut("validation") else {
            return;
        };
        for (key, manifest, stat) in restat.iter() {
            let table = if *manifest { "manifestFiles" } else { "files" };
            if let Some(Value::Object(entry)) = block.get_mut(table).and_then(|t| t.get_mut(key)) {
                entry.insert("mtimeNs".into(), stat.mtime_ns.into());
                entry.insert("ctimeNs".into(), stat.ctime_ns.into());
                entry.insert("size".into(), stat.size.into());
            }
        }
        let state_dir = state_path.parent().unwrap_or(state_path);
        block["recordedAtNs"] = validation::filesystem_clock_ns(state_dir).into();
        let now = std::time::SystemTime::now().duration_since(UNIX_EPOCH);
        state["lastValidatedTimestamp"] = now.map_or(0, |d| d.as_millis() as u64).into();
        let text = pacquet_state::render_workspace_state(&state);
        let _ = pacquet_state::write_atomic(state_path, text.as_bytes());
    }

    /// The recorded `stat` still describes `path`, and it was recorded
    /// after the file's last change: a later edit within the same tick of
    /// the filesystem's clock would otherwise go unseen.
    fn stat_matches(&self, recorded: Option<&Value>, path: &Path) -> bool {
        let (Some(recorded), Some(now)) = (recorded.and_then(parse_stat), validation::stat(path))
        else {
            return false;
        };
        recorded == now && now.mtime_ns < self.recorded_at_ns
    }

    /// A file of `files`, by `stat` or else by content.
    fn file_unchanged(&self, key: &str) -> bool {
        let path = Path::new(key);
        let entry = self.files.get(key);
        if self.stat_matches(entry, path) {
            return true;
        }
        let Some(digest) = entry.and_then(|e| e.get("digest")?.as_str()) else {
            return false;
        };
        match validation::signature(path) {
            Some(sig) if sig.digest == digest => {
                self.restat
                    .borrow_mut()
                    .push((key.to_owned(), false, sig.stat));
                true
            }
            _ => false,
        }
    }

    /// A project's manifest, by `stat` or else by its parsed content.
    fn manifest_unchanged(&self, id: &str, dir: &Path) -> bool {
        let path = dir.join("package.json");
        if self.stat_matches(self.manifest_files.get(id), &path) {
            return true;
        }
        let Some(recorded) = self.manifests.get(id).and_then(Value::as_str) else {
            return false;
        };
        match validation::read_manifest(&path) {
            Some((stat, m)) if value_digest(&m) == recorded => {
                self.restat.borrow_mut().push((id.to_owned(), true, stat));
                true
            }
            _ => false,
        }
    }

    /// Every recorded file (local tarballs, patch files) unchanged.
    fn files_unchanged(&self) -> bool {
        self.files.keys().all(|key| self.file_unchanged(key))
    }

    /// A local directory dependency outside the workspace is imported again
    /// by every install, as pnpm 12 does (docs/layout.md §9.1); injected
    /// workspace projects are covered by their manifests.
    fn no_outside_directories(&self, projects: &[PathBuf]) -> bool {
        let Some(local) = self.local else {
            return false;
        };
        local
            .get("directories")
            .and_then(Value::as_array)
            .is_none_or(|dirs| {
                dirs.iter().all(|d| {
                    d.as_str()
                        .is_some_and(|d| projects.iter().any(|p| p == Path::new(d)))
                })
            })
    }
}

fn parse_stat(entry: &Value) -> Option<FileStat> {
    Some(FileStat {
        mtime_ns: entry.get("mtimeNs")?.as_i64()?,
        ctime_ns: entry.get("ctimeNs")?.as_i64()?,
        size: entry.get("size")?.as_u64()?,
    })
}

/// The importer id of a project dir: `.` or the `/`-separated relative path.
fn project_id(root: &Path, dir: &Path) -> String {
    match dir.strip_prefix(root) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
        Ok(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => dir.to_string_lossy().into_owned(),
    }
}

fn project_dirs(config: &Config) -> Option<Vec<PathBuf>> {
    if config.is_workspace {
        pacquet_config::find_workspace_projects(&config.workspace_root, &config.packages).ok()
    } else {
        Some(vec![config.workspace_root.clone()])
    }
}

fn modified_ms(path: &Path) -> Option<u64> {
    let modified = std::fs::metadata(path).ok()?.modified().ok()?;
    Some(modified.duration_since(UNIX_EPOCH).ok()?.as_millis() as u64)
}
