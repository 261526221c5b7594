//! `retain_rows` and `all_keys`: the index side of `store prune`.

use pacquet_store_index::{
    FileInfo, IndexWriter, PackageFilesIndex, all_keys, decode, retain_rows, store_key,
};
use rusqlite::Connection;

fn row(name: &str) -> PackageFilesIndex {
    PackageFilesIndex {
        algo: "sha512".into(),
        files: vec![(
            "package.json".into(),
            FileInfo {
                digest: format!("{:0>128}", name.len()),
                mode: 0o644,
                size: 2,
                checked_at: None,
            },
        )],
        manifest: Some(serde_json::json!({ "version": "1.0.0", "name": name })),
        ..PackageFilesIndex::default()
    }
}

fn key(name: &str) -> String {
    store_key(&format!("sha512-{name}"), &format!("{name}@1.0.0"))
}

#[test]
fn rejected_rows_and_their_aliases_are_deleted() {
    let tmp = tempfile::tempdir().unwrap();
    let writer = IndexWriter::spawn(tmp.path()).unwrap();
    for name in ["keep", "drop", "also-drop"] {
        writer.put(key(name), row(name));
    }
    writer.finish().unwrap();
    // pnpm 12's alias table (pacquet creates it too), pointing at one
    // kept and one dropped row.
    let conn = Connection::open(tmp.path().join("index.db")).unwrap();
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS package_index_alias (key TEXT PRIMARY KEY, target TEXT NOT NULL) WITHOUT ROWID",
    )
    .unwrap();
    for (alias, target) in [("tar-keep", key("keep")), ("tar-drop", key("drop"))] {
        conn.execute(
            "INSERT INTO package_index_alias (key, target) VALUES (?1, ?2)",
            [alias, target.as_str()],
        )
        .unwrap();
    }
    drop(conn);

    let retained = retain_rows(tmp.path(), &|k, data| {
        // The raw row is handed over as stored.
        let name = decode(data).unwrap().manifest.unwrap()["name"].clone();
        assert_eq!(k, key(name.as_str().unwrap()));
        name == "keep"
    })
    .unwrap();

    assert_eq!(retained.removed, [key("also-drop"), key("drop")]);
    assert_eq!(retained.kept, 1);
    assert_eq!(retained.removed_aliases, 1);
    assert_eq!(all_keys(tmp.path()).unwrap(), [key("keep")]);
    let conn = Connection::open(tmp.path().join("index.db")).unwrap();
    let aliases: Vec<String> = conn
        .prepare("SELECT key FROM package_index_alias")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(aliases, ["tar-keep"]);
}

#[test]
fn a_store_without_an_index_has_nothing_to_prune() {
    let tmp = tempfile::tempdir().unwrap();
    let retained = retain_rows(tmp.path(), &|_, _| false).unwrap();
    assert!(retained.removed.is_empty());
    assert!(!tmp.path().join("index.db").exists(), "no index is created");
    assert!(all_keys(tmp.path()).unwrap().is_empty());
}
