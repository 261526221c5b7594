//! Opening `index.db` the way pnpm does (docs/store.md §5.1).

use crate::error::StoreIndexError;
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// File name of the index inside the store directory.
pub const INDEX_DB: &str = "index.db";

/// Both tables exactly as pnpm 12 creates them, so `sqlite_master` matches.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS package_index (
              key TEXT PRIMARY KEY,
              data BLOB NOT NULL
            ) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS package_index_alias (
      key TEXT PRIMARY KEY,
      target TEXT NOT NULL
    ) WITHOUT ROWID;
";

pub fn index_path(store_dir: &Path) -> PathBuf {
    store_dir.join(INDEX_DB)
}

/// `SQLITE_OPEN_READ_ONLY` + 5 s busy timeout; `None` when there is no index.
pub fn open_read_only(store_dir: &Path) -> rusqlite::Result<Option<Connection>> {
    let path = index_path(store_dir);
    if !path.is_file() {
        return Ok(None);
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(&path, flags)?;
    conn.busy_timeout(Duration::from_secs(5))?;
    // Per-connection only (nothing is written): reading the blobs through
    // mmap instead of pread into a 2 MB page cache makes a prefetch faster.
    conn.pragma_update(None, "mmap_size", 536_870_912)?;
    Ok(Some(conn))
}

/// Opens (creating if needed) the read-write connection.
///
/// Only failing to create the directory or the file is an error; a file that
/// is not a database opens fine here and fails in [`init_schema`].
pub fn open_read_write(store_dir: &Path) -> Result<Connection, StoreIndexError> {
    std::fs::create_dir_all(store_dir).map_err(|source| StoreIndexError::CreateDir {
        path: store_dir.to_path_buf(),
        source,
    })?;
    let path = index_path(store_dir);
    Connection::open(&path).map_err(|source| StoreIndexError::Open { path, source })
}

/// The pragmas and tables of docs/store.md §5.1, `busy_timeout` first so the
/// busy handler covers the rest.
pub fn init_schema(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(Duration::from_millis(5000))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "mmap_size", 536_870_912)?;
    conn.pragma_update(None, "cache_size", -32_000)?;
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    conn.pragma_update(None, "wal_autocheckpoint", 10_000)?;
    conn.execute_batch(SCHEMA)
}

/// `SQLITE_BUSY` / `SQLITE_LOCKED`, including extended codes.
pub fn is_busy(err: &rusqlite::Error) -> bool {
    matches!(
        err.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}
