//! Shared helpers: run the built `pacquet` binary with the same isolated
//! environment pnpm gets, so both tools see the same HOME, XDG dirs and CI.

#![allow(dead_code)]

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
    process::{Command, Output},
};

use pacquet_testing::PnpmEnv;

pub fn pacquet_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_pacquet"))
}

/// `pacquet <args>` in `dir` with `env`'s isolation and store.
pub fn pacquet(env: &PnpmEnv, dir: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(pacquet_bin());
    env.apply_env(&mut cmd);
    cmd.current_dir(dir)
        .args(args)
        .arg(format!("--store-dir={}", env.store_dir.display()));
    cmd.output().expect("spawn pacquet")
}

/// `pacquet install --frozen-lockfile`, which must succeed.
pub fn pacquet_install_ok(env: &PnpmEnv, dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["install", "--frozen-lockfile"];
    args.extend_from_slice(extra);
    let out = pacquet(env, dir, &args);
    assert!(
        out.status.success(),
        "pacquet {} failed in {} ({}):\n--- stdout\n{}\n--- stderr\n{}",
        args.join(" "),
        dir.display(),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Keys of the store's `package_index`, sorted.
pub fn index_keys(store: &Path) -> BTreeSet<String> {
    let conn = rusqlite::Connection::open(store.join("index.db")).unwrap();
    let mut stmt = conn.prepare("SELECT key FROM package_index").unwrap();
    stmt.query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// `xx/rest` of every blob in the store.
pub fn blobs(store: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for shard in std::fs::read_dir(store.join("files")).unwrap() {
        let shard = shard.unwrap();
        for file in std::fs::read_dir(shard.path()).unwrap() {
            out.insert(format!(
                "{}/{}",
                shard.file_name().to_string_lossy(),
                file.unwrap().file_name().to_string_lossy()
            ));
        }
    }
    out
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Moves `path`'s mtime a minute ahead. The store's reuse check (docs/store.md
/// §8) only re-hashes blobs modified more than 100 ms after their
/// `checkedAt`, and ext4 stamps mtimes from a coarse clock, so damage done
/// right after an install would otherwise go unnoticed by pnpm and pacquet
/// alike.
#[allow(dead_code)]
pub fn mark_modified(path: &Path) {
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(later)
        .unwrap();
}

/// Appends `lines` to the project's `pnpm-workspace.yaml`.
pub fn add_settings(project: &Path, lines: &str) {
    let path = project.join("pnpm-workspace.yaml");
    let mut text = std::fs::read_to_string(&path).unwrap_or_default();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(lines);
    std::fs::write(&path, text).unwrap();
}
