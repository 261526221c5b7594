//! `prefetch` and `IndexWriter` against real SQLite files in temp dirs.

mod support;

use pacquet_store_index::{
    FileInfo, INDEX_DB, IndexWriter, PackageFilesIndex, SideEffectsDiff, decode, encode, prefetch,
    prefetch_raw, store_key,
};
use pretty_assertions::assert_eq;
use rusqlite::Connection;
use serde_json::json;
use std::path::Path;
use std::sync::{Arc, Barrier};
use support::{fixtures, pnpm12_rows};

fn row(i: usize) -> PackageFilesIndex {
    PackageFilesIndex {
        algo: "sha512".into(),
        requires_build: Some(i.is_multiple_of(3)),
        manifest: Some(json!({"version": "1.0.0", "name": format!("pkg-{i}")})),
        files: vec![(
            "package.json".into(),
            FileInfo {
                digest: format!("{i:0128x}"),
                mode: 0o644,
                size: i as u64,
                checked_at: Some(1_795_331_361_223.0 + i as f64),
            },
        )],
        tar_integrity: Some(format!("sha512-{i}")),
        ..Default::default()
    }
}

fn key(i: usize) -> String {
    store_key(&format!("sha512-{i:08}=="), &format!("pkg-{i}@1.0.0"))
}

fn write_rows(store: &Path, range: std::ops::Range<usize>) {
    let writer = IndexWriter::spawn(store).unwrap();
    for i in range.clone() {
        assert!(writer.put(key(i), row(i)));
    }
    let stats = writer.finish().unwrap();
    assert_eq!(stats.rows_written, range.len());
    assert_eq!(stats.failed_batches, 0);
}

fn sqlite_master(path: &Path) -> Vec<(String, String)> {
    let conn = Connection::open(path).unwrap();
    let mut stmt = conn
        .prepare("SELECT name, sql FROM sqlite_master ORDER BY name")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn written_rows_read_back_identically() {
    let dir = tempfile::tempdir().unwrap();
    write_rows(dir.path(), 0..10);
    let keys: Vec<String> = (0..12).map(key).collect();
    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    let rows = prefetch(dir.path(), &refs);
    for (i, found) in rows.iter().enumerate() {
        assert_eq!(found.as_ref(), (i < 10).then(|| row(i)).as_ref(), "row {i}");
    }
}

#[test]
fn schema_and_pragmas_match_pnpm12() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("nested/store/v11");
    write_rows(&store, 0..1);
    let pnpm = sqlite_master(&fixtures().join("interop/store/v11").join(INDEX_DB));
    assert_eq!(sqlite_master(&store.join(INDEX_DB)), pnpm);
    let conn = Connection::open(store.join(INDEX_DB)).unwrap();
    let pragma = |name: &str| -> String {
        conn.query_row(&format!("PRAGMA {name}"), [], |r| {
            r.get::<_, rusqlite::types::Value>(0)
        })
        .map(|v| format!("{v:?}"))
        .unwrap()
    };
    assert_eq!(pragma("journal_mode"), "Text(\"wal\")");
    assert_eq!(pragma("page_size"), "Integer(4096)");
    assert_eq!(pragma("user_version"), "Integer(0)");
    assert_eq!(pragma("application_id"), "Integer(0)");
}

#[test]
fn missing_index_is_all_misses_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(prefetch(dir.path(), &["a\tb", "c\td"]), vec![None, None]);
    assert_eq!(prefetch(&dir.path().join("absent"), &["a\tb"]), vec![None]);
    assert!(!dir.path().join(INDEX_DB).exists());
}

#[test]
fn many_keys_are_chunked_and_duplicates_aligned() {
    let dir = tempfile::tempdir().unwrap();
    write_rows(dir.path(), 0..2100);
    // Misses, duplicates and more than two chunks of 999.
    let keys: Vec<String> = (0..2200).rev().chain([5, 5, 2099]).map(key).collect();
    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    let rows = prefetch(dir.path(), &refs);
    assert_eq!(rows.len(), refs.len());
    let expected_ids = (0..2200).rev().chain([5, 5, 2099]);
    for (found, i) in rows.iter().zip(expected_ids) {
        assert_eq!(
            found.as_ref(),
            (i < 2100).then(|| row(i)).as_ref(),
            "row {i}"
        );
    }
}

#[test]
fn not_a_database_is_all_misses_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(INDEX_DB);
    let garbage = b"this is not a database, just some text that is long enough ".repeat(100);
    std::fs::write(&path, &garbage).unwrap();
    assert_eq!(prefetch(dir.path(), &[&key(1)]), vec![None]);

    let writer = IndexWriter::spawn(dir.path()).unwrap();
    writer.put(key(1), row(1));
    let stats = writer.finish().unwrap();
    assert_eq!((stats.rows_written, stats.rows_dropped), (0, 1));
    assert_eq!(std::fs::read(&path).unwrap(), garbage);
    assert!(!dir.path().join("index.db-wal").exists());
}

#[test]
fn corrupted_pages_are_misses_not_errors() {
    let dir = tempfile::tempdir().unwrap();
    write_rows(dir.path(), 0..3000);
    let path = dir.path().join(INDEX_DB);
    let mut bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() > 40 * 4096, "expected a multi-page db");
    // Overwrite some pages in the middle (not page 1, the header).
    for page in [10usize, 11, 25, 30] {
        bytes[page * 4096..(page + 1) * 4096].fill(0xa5);
    }
    std::fs::write(&path, &bytes).unwrap();

    let keys: Vec<String> = (0..3000).map(key).collect();
    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    let rows = prefetch(dir.path(), &refs);
    let hits = rows.iter().filter(|r| r.is_some()).count();
    assert!(hits < 3000, "some rows must be lost");
    assert!(hits > 0, "rows on intact pages are still found");
    for (i, found) in rows.iter().enumerate() {
        if let Some(found) = found {
            assert_eq!(found, &row(i));
        }
    }
}

#[test]
fn undecodable_rows_are_misses() {
    let dir = tempfile::tempdir().unwrap();
    write_rows(dir.path(), 0..2);
    let conn = Connection::open(dir.path().join(INDEX_DB)).unwrap();
    conn.execute(
        "UPDATE package_index SET data = x'd47240' WHERE key = ?",
        [key(0)],
    )
    .unwrap();
    drop(conn);
    let rows = prefetch(dir.path(), &[&key(0), &key(1)]);
    assert_eq!(rows, vec![None, Some(row(1))]);
    assert_eq!(
        prefetch_raw(dir.path(), &[&key(0)])[&key(0)],
        vec![0xd4, 0x72, 0x40]
    );
}

#[test]
fn pnpm_rows_survive_writer_and_reader() {
    let dir = tempfile::tempdir().unwrap();
    let rows = pnpm12_rows();
    let writer = IndexWriter::spawn(dir.path()).unwrap();
    let sender = writer.sender();
    for (key, data) in &rows {
        sender.put(key.clone(), decode(data).unwrap());
    }
    writer.finish().unwrap();
    let keys: Vec<&str> = rows.iter().map(|(k, _)| k.as_str()).collect();
    let raw = prefetch_raw(dir.path(), &keys);
    for (key, data) in &rows {
        assert_eq!(&raw[key], data, "{key}");
    }
}

#[test]
fn concurrent_writer_and_readers() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().to_path_buf();
    write_rows(&store, 0..1);
    let writer = IndexWriter::spawn(&store).unwrap();
    let keys: Vec<String> = (0..600).map(key).collect();
    std::thread::scope(|scope| {
        let producers: Vec<_> = (0..3)
            .map(|t| {
                let sender = writer.sender();
                scope.spawn(move || {
                    for i in (t * 200)..(t * 200 + 200) {
                        assert!(sender.put(key(i), row(i)));
                    }
                })
            })
            .collect();
        for _ in 0..2 {
            let store = &store;
            let keys = &keys;
            scope.spawn(move || {
                for _ in 0..20 {
                    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
                    for (i, found) in prefetch(store, &refs).iter().enumerate() {
                        if let Some(found) = found {
                            assert_eq!(found, &row(i));
                        }
                    }
                }
            });
        }
        for p in producers {
            p.join().unwrap();
        }
    });
    let stats = writer.finish().unwrap();
    assert_eq!(stats.rows_written, 600);
    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    assert!(prefetch(&store, &refs).iter().all(Option::is_some));
}

#[test]
fn two_writers_on_one_db_both_commit() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path();
    std::thread::scope(|scope| {
        for t in 0..2 {
            scope.spawn(move || {
                let writer = IndexWriter::spawn(store).unwrap();
                for i in (t * 1000)..(t * 1000 + 1000) {
                    writer.put(key(i), row(i));
                }
                let stats = writer.finish().unwrap();
                assert_eq!((stats.rows_written, stats.failed_batches), (1000, 0));
            });
        }
    });
    let keys: Vec<String> = (0..2000).map(key).collect();
    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    assert!(prefetch(store, &refs).iter().all(Option::is_some));
}

#[test]
fn writer_waits_for_a_foreign_write_lock() {
    let dir = tempfile::tempdir().unwrap();
    write_rows(dir.path(), 0..1);
    let locked = Arc::new(Barrier::new(2));
    let holder = {
        let path = dir.path().join(INDEX_DB);
        let locked = Arc::clone(&locked);
        std::thread::spawn(move || {
            let conn = Connection::open(path).unwrap();
            conn.execute_batch("BEGIN IMMEDIATE").unwrap();
            conn.execute(
                "INSERT OR REPLACE INTO package_index VALUES (?1, ?2)",
                rusqlite::params![key(1), encode(&row(1))],
            )
            .unwrap();
            locked.wait();
            std::thread::sleep(std::time::Duration::from_millis(300));
            conn.execute_batch("COMMIT").unwrap();
        })
    };
    locked.wait();
    let writer = IndexWriter::spawn(dir.path()).unwrap();
    writer.put(key(2), row(2));
    let stats = writer.finish().unwrap();
    holder.join().unwrap();
    assert_eq!((stats.rows_written, stats.failed_batches), (1, 0));
    let rows = prefetch(dir.path(), &[&key(0), &key(1), &key(2)]);
    assert_eq!(rows, vec![Some(row(0)), Some(row(1)), Some(row(2))]);
}

#[test]
fn side_effects_uploads_merge_into_rows() {
    let dir = tempfile::tempdir().unwrap();
    write_rows(dir.path(), 0..1);
    let diff = |n: u64| SideEffectsDiff {
        added: Some(vec![(
            "build/out.node".into(),
            FileInfo {
                digest: "ab".repeat(64),
                mode: 0o755,
                size: n,
                checked_at: None,
            },
        )]),
        deleted: Some(vec!["install.js".into()]),
        extra: vec![],
    };
    let writer = IndexWriter::spawn(dir.path()).unwrap();
    let sender = writer.sender();
    // Stored row, read back by the writer.
    sender.put_side_effects(key(0), "linux;x64;node20", diff(1));
    sender.put_side_effects(key(0), "linux;x64;node22", diff(2));
    sender.put_side_effects(key(0), "linux;x64;node20", diff(3));
    // Pending row in the same batch, and a row that does not exist.
    sender.put(key(1), row(1));
    sender.put_side_effects(key(1), "darwin;arm64;node20", diff(4));
    sender.put_side_effects(key(9), "linux;x64;node20", diff(5));
    let stats = writer.finish().unwrap();
    assert_eq!((stats.rows_written, stats.rows_dropped), (2, 1));

    let rows = prefetch(dir.path(), &[&key(0), &key(1), &key(9)]);
    let mut expected0 = row(0);
    expected0.side_effects = Some(vec![
        ("linux;x64;node20".into(), diff(3)),
        ("linux;x64;node22".into(), diff(2)),
    ]);
    let mut expected1 = row(1);
    expected1.side_effects = Some(vec![("darwin;arm64;node20".into(), diff(4))]);
    assert_eq!(rows, vec![Some(expected0), Some(expected1), None]);
}

#[test]
fn sends_after_finish_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let writer = IndexWriter::spawn(dir.path()).unwrap();
    let sender = writer.sender();
    writer.finish().unwrap();
    assert!(!sender.put(key(0), row(0)));
    assert_eq!(prefetch(dir.path(), &[&key(0)]), vec![None]);
}

/// Rows in `index.db` itself, read from a copy made without the WAL.
fn rows_in_main_file(store: &Path, scratch: &Path) -> Option<usize> {
    let copy = scratch.join(INDEX_DB);
    std::fs::copy(store.join(INDEX_DB), &copy).ok()?;
    let conn = Connection::open(&copy).ok()?;
    let count: i64 = conn
        .query_row("SELECT count(*) FROM package_index", [], |r| r.get(0))
        .ok()?;
    Some(count as usize)
}

#[test]
fn the_writer_checkpoints_while_the_install_is_still_running() {
    let store = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let writer = IndexWriter::spawn(store.path()).unwrap();
    for i in 0..200 {
        assert!(writer.put(key(i), row(i)));
    }
    // Past the checkpoint interval, the next batch is followed by one.
    std::thread::sleep(std::time::Duration::from_millis(700));
    assert!(writer.put(key(200), row(200)));
    let mut seen = None;
    for _ in 0..100 {
        seen = rows_in_main_file(store.path(), scratch.path());
        if seen == Some(201) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(seen, Some(201), "rows copied out of the WAL before close");
    assert_eq!(writer.finish().unwrap().rows_written, 201);
}
