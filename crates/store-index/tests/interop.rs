//! pnpm 12 must accept a store whose every `package_index` row pacquet wrote.
//!
//! Needs pnpm: `$PACQUET_PNPM`, else `.tools/pnpm/node_modules/.bin/pnpm`
//! under the workspace root (the project's test script installs it there).

mod support;

use pacquet_store_index::{INDEX_DB, IndexWriter, decode, prefetch_raw};
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{copy_tree, fixtures};

fn pnpm() -> PathBuf {
    if let Some(path) = std::env::var_os("PACQUET_PNPM") {
        return PathBuf::from(path);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join(".tools/pnpm/node_modules/.bin/pnpm");
    assert!(
        path.exists(),
        "pnpm 12 not found: set PACQUET_PNPM or install it at {} (the interop test needs it)",
        path.display()
    );
    path
}

fn read_all_rows(db: &Path) -> Vec<(String, Vec<u8>)> {
    let conn = Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare("SELECT key, data FROM package_index ORDER BY key")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn pnpm12_installs_offline_from_rows_pacquet_wrote() {
    let pnpm = pnpm();
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&fixtures().join("interop"), tmp.path());
    let store = tmp.path().join("store/v11");
    let db = store.join(INDEX_DB);

    // Replace every row: delete them all, then write them back through
    // pacquet's decoder, encoder and writer thread.
    let original = read_all_rows(&db);
    assert_eq!(original.len(), 3);
    Connection::open(&db)
        .unwrap()
        .execute("DELETE FROM package_index", [])
        .unwrap();
    assert!(read_all_rows(&db).is_empty());
    let writer = IndexWriter::spawn(&store).unwrap();
    for (key, data) in &original {
        writer.put(key.clone(), decode(data).unwrap());
    }
    assert_eq!(writer.finish().unwrap().rows_written, original.len());
    let rewritten = read_all_rows(&db);
    assert_eq!(
        rewritten, original,
        "pacquet's encoding differs from pnpm's bytes"
    );

    let project = tmp.path().join("project");
    let home = tmp.path().join("home");
    let output = Command::new(&pnpm)
        .args(["install", "--frozen-lockfile", "--offline", "--store-dir"])
        .arg(&store)
        .current_dir(&project)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env_remove("PNPM_HOME")
        .env("CI", "true")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", pnpm.display()));
    let log = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "pnpm install failed:\n{log}");

    let manifest = std::fs::read_to_string(project.join("node_modules/is-number/package.json"));
    assert!(
        manifest.unwrap().contains("\"version\": \"7.0.0\""),
        "{log}"
    );
    assert!(
        project.join("node_modules/.bin/loose-envify").exists(),
        "{log}"
    );
    assert!(
        project
            .join("node_modules/.pnpm/js-tokens@4.0.0/node_modules/js-tokens")
            .is_dir()
    );
    // pnpm reused our rows rather than replacing them.
    let keys: Vec<&str> = original.iter().map(|(k, _)| k.as_str()).collect();
    let after = prefetch_raw(&store, &keys);
    for (key, data) in &original {
        assert_eq!(after.get(key), Some(data), "{key}");
    }
}
