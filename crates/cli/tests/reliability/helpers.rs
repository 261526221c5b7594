//! Helpers for the reliability tests: reference installs, store checks,
//! killable installs and directory snapshots.

use std::collections::BTreeSet;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};

use pacquet_cas::Cas;
use pacquet_testing::{DiffOptions, PnpmEnv, Registry, assert_trees_equal, prepare_project};

use crate::support::{pacquet_bin, pacquet_install_ok};

/// The script temp dir pq-scripts' build leaves behind; an install that
/// restores the build from the side-effects cache has none.
pub const SCRIPTS_TMP: &str =
    "node_modules/.pnpm/pq-scripts@1.0.0/node_modules/pq-scripts/node_modules";

/// A project installed by pacquet into a store of its own.
pub struct Installed {
    pub project: PathBuf,
    pub env: PnpmEnv,
}

/// Copies fixture `name` to `<root>/project` and installs it with pacquet
/// into `<root>/env/store`.
pub fn reference(registry: &Registry, name: &str, root: &Path) -> Installed {
    let (env, project) = fresh(registry, name, root);
    pacquet_install_ok(&env, &project, &[]);
    Installed { project, env }
}

/// Copies fixture `name` to `<root>/project` with an environment (and empty
/// store) under `<root>/env`; installs nothing.
pub fn fresh(registry: &Registry, name: &str, root: &Path) -> (PnpmEnv, PathBuf) {
    let project = root.join("project");
    prepare_project(name, &project, &registry.url());
    let env = PnpmEnv::new(&root.join("env"), &registry.url());
    (env, project)
}

/// `project` (installed with `store`) equals the reference install.
pub fn assert_same_as(reference: &Installed, project: &Path, store: &Path) {
    let opts =
        DiffOptions::for_installs(&reference.project, &reference.env.store_dir, project, store)
            .ignore_path(SCRIPTS_TMP);
    assert_trees_equal(&reference.project, project, &opts);
}

/// `<store>/v11`, where pacquet and pnpm keep `index.db` and `files/`.
pub fn v11(store: &Path) -> PathBuf {
    store.join("v11")
}

/// All keys of `package_index` (none when there is no index).
pub fn index_keys(store: &Path) -> Vec<String> {
    let db = v11(store).join(pacquet_store_index::INDEX_DB);
    if !db.exists() {
        return Vec::new();
    }
    let conn = rusqlite::Connection::open_with_flags(
        &db,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .unwrap_or_else(|e| panic!("open {}: {e}", db.display()));
    let mut stmt = conn.prepare("SELECT key FROM package_index").unwrap();
    stmt.query_map([], |row| row.get::<_, String>(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Every `package_index` row decodes, and every file it lists (side-effects
/// additions included) is in the CAS with the recorded size. Returns the
/// number of rows.
pub fn assert_store_consistent(store: &Path) -> usize {
    let keys = index_keys(store);
    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    let rows = pacquet_store_index::prefetch(&v11(store), &refs);
    let cas = Cas::new(&v11(store));
    let mut problems = Vec::new();
    for (key, row) in keys.iter().zip(rows) {
        let Some(row) = row else {
            problems.push(format!("{key:?}: row does not decode"));
            continue;
        };
        let added = row
            .side_effects
            .iter()
            .flatten()
            .flat_map(|(_, diff)| diff.added.iter().flatten());
        for (path, info) in row.files.iter().chain(added) {
            let blob = cas.file_path(&info.digest, info.is_executable());
            match std::fs::metadata(&blob) {
                Ok(meta) if meta.is_file() && meta.len() == info.size => {}
                Ok(meta) => problems.push(format!(
                    "{key:?} {path}: {} has {} bytes, row says {}",
                    blob.display(),
                    meta.len(),
                    info.size
                )),
                Err(e) => problems.push(format!("{key:?} {path}: {}: {e}", blob.display())),
            }
        }
    }
    assert!(
        problems.is_empty(),
        "store {} is inconsistent:\n{}",
        store.display(),
        problems.join("\n")
    );
    keys.len()
}

/// Starts `pacquet install --frozen-lockfile` in its own process group
/// (so a kill also reaches build scripts it started), stdout discarded,
/// stderr piped with the `PACQUET_PHASES` lines in it.
pub fn spawn_install(env: &PnpmEnv, project: &Path) -> Child {
    let mut cmd = Command::new(pacquet_bin());
    env.apply_env(&mut cmd);
    cmd.current_dir(project)
        .args(["install", "--frozen-lockfile"])
        .arg(format!("--store-dir={}", env.store_dir.display()))
        .env("PACQUET_PHASES", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0);
    cmd.spawn().expect("spawn pacquet")
}

/// SIGKILLs the process group of `child` (started by [`spawn_install`]) and
/// reaps it: the status says whether the signal or a normal exit ended it.
pub fn kill_group(child: &mut Child) -> ExitStatus {
    let pgid = child.id() as libc::pid_t;
    // SAFETY: plain syscall on a process group this test created.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
    child.wait().expect("reap pacquet")
}

/// Every path under `root` (relative, `/`-separated), skipping the
/// subtrees named in `skip` (relative to `root`).
pub fn listing(root: &Path, skip: &[&str]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    walk(root, root, skip, &mut out);
    out
}

fn walk(root: &Path, dir: &Path, skip: &[&str], out: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let rel = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if skip.contains(&rel.as_str()) {
            continue;
        }
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        out.insert(rel);
        if is_dir {
            walk(root, &path, skip, out);
        }
    }
}

/// Every regular file under `root`, recursively (symlinks not followed).
pub fn files_under(root: &Path) -> Vec<PathBuf> {
    listing(root, &[])
        .into_iter()
        .map(|rel| root.join(rel))
        .filter(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file()))
        .collect()
}
