//! A damaged store heals itself: unreadable index pages and a file that is
//! not a database make packages misses that are fetched again; truncated
//! CAS files are detected and fetched again.

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use pacquet_testing::Registry;

use super::helpers::{assert_same_as, assert_store_consistent, fresh, reference, v11};
use crate::support::{pacquet, pacquet_install_ok, stderr};

fn assert_fails_with(out: &std::process::Output, code: &str) {
    assert_eq!(out.status.code(), Some(1), "stderr: {}", stderr(out));
    assert!(
        stderr(out).contains(&format!("Error: {code}")),
        "expected {code} in:\n{}",
        stderr(out)
    );
}

/// Overwrites the middle third of the pages of `db` (never page 1, which
/// holds the header) with garbage.
fn damage_middle_pages(db: &Path) {
    assert!(
        !db.with_extension("db-wal").exists()
            || std::fs::metadata(db.with_extension("db-wal"))
                .unwrap()
                .len()
                == 0,
        "the index still has a WAL; the damage would not be seen"
    );
    let bytes = std::fs::read(db).unwrap();
    let page_size = match u16::from_be_bytes([bytes[16], bytes[17]]) {
        1 => 65536,
        n => usize::from(n),
    };
    let pages = bytes.len() / page_size;
    assert!(pages >= 3, "index.db has only {pages} pages");
    let first = (pages / 3).max(1);
    let last = (2 * pages / 3).max(first + 1);
    let mut file = std::fs::OpenOptions::new().write(true).open(db).unwrap();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    for page in first..last {
        let garbage: Vec<u8> = (0..page_size)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        file.seek(SeekFrom::Start((page * page_size) as u64))
            .unwrap();
        file.write_all(&garbage).unwrap();
    }
    file.sync_all().unwrap();
}

#[test]
fn corrupted_index_pages_are_refetched() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let reference = reference(&registry, "combined", &tmp.path().join("reference"));
    let (env, project) = fresh(&registry, "combined", &tmp.path().join("test"));
    pacquet_install_ok(&env, &project, &[]);
    damage_middle_pages(&v11(&env.store_dir).join("index.db"));

    std::fs::remove_dir_all(project.join("node_modules")).unwrap();
    registry.reset_requests();
    pacquet_install_ok(&env, &project, &[]);
    assert!(
        registry.total_requests() > 0,
        "nothing was refetched: the damage missed every row"
    );
    assert_same_as(&reference, &project, &env.store_dir);

    // And once more over the tree it just made.
    pacquet_install_ok(&env, &project, &[]);
    assert_same_as(&reference, &project, &env.store_dir);
}

#[test]
fn index_that_is_not_a_database_is_refetched() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let reference = reference(&registry, "basic", &tmp.path().join("reference"));
    let (env, project) = fresh(&registry, "basic", &tmp.path().join("test"));
    pacquet_install_ok(&env, &project, &[]);
    let db = v11(&env.store_dir).join("index.db");
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    std::fs::write(&db, b"this is not an SQLite database\n".repeat(256)).unwrap();
    std::fs::remove_dir_all(project.join("node_modules")).unwrap();

    let offline = pacquet(
        &env,
        &project,
        &["install", "--frozen-lockfile", "--offline"],
    );
    assert_fails_with(&offline, "ERR_PNPM_NO_OFFLINE_TARBALL");

    registry.reset_requests();
    pacquet_install_ok(&env, &project, &[]);
    assert!(registry.tarball_requests("pq-plain", "1.1.0") >= 1);
    assert_same_as(&reference, &project, &env.store_dir);
}

#[test]
fn truncated_store_file_is_refetched() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = fresh(&registry, "basic", &tmp.path().join("test"));
    pacquet_install_ok(&env, &project, &[]);
    let file = project.join("node_modules/.pnpm/pq-many-files@1.0.0/node_modules/pq-many-files");
    let victim = std::fs::read_dir(&file)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.file_name().unwrap() != "package.json")
        .max_by_key(|p| std::fs::metadata(p).unwrap().len())
        .expect("a file besides package.json");
    let original = std::fs::read(&victim).unwrap();
    assert!(original.len() >= 2, "{} is too small", victim.display());
    // The node_modules file is a hard link to the CAS blob: truncate both.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&victim)
        .unwrap()
        .set_len(original.len() as u64 / 2)
        .unwrap();
    crate::support::mark_modified(&victim);
    std::fs::remove_dir_all(project.join("node_modules")).unwrap();

    let offline = pacquet(
        &env,
        &project,
        &["install", "--frozen-lockfile", "--offline"],
    );
    assert_fails_with(&offline, "ERR_PNPM_NO_OFFLINE_TARBALL");

    registry.reset_requests();
    pacquet_install_ok(&env, &project, &[]);
    assert_eq!(registry.tarball_requests("pq-many-files", "1.0.0"), 1);
    assert_eq!(std::fs::read(&victim).unwrap(), original);
    assert_store_consistent(&env.store_dir);
}
