//! Removing rows from `index.db` for `store prune` (docs/store.md §5.3: the only
//! statement that deletes).
//!
//! The decision and the deletion happen in one `BEGIN IMMEDIATE`
//! transaction, so a concurrent pnpm or pacquet install either committed its
//! rows before the scan (and they are judged like every other row) or waits
//! in the busy handler until the prune is done.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};

use crate::connection::{index_path, init_schema, open_read_write};

/// Why the index could not be pruned.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum PruneIndexError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Open(#[from] crate::StoreIndexError),

    #[error("cannot update the store index {path}")]
    #[diagnostic(
        code(ERR_PACQUET_STORE_INDEX),
        help(
            "Another process may hold the index for longer than 5 s, or index.db is damaged; retry, or delete index.db (the files in the store stay valid)."
        )
    )]
    Sqlite {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
}

/// The outcome of [`retain_rows`].
#[derive(Debug, Default)]
pub struct Retained {
    /// Keys deleted from `package_index`, sorted.
    pub removed: Vec<String>,
    /// Rows left in `package_index`.
    pub kept: usize,
    /// Rows deleted from pnpm 12's `package_index_alias` because their
    /// target was removed.
    pub removed_aliases: usize,
}

/// Deletes every `package_index` row that `keep(key, data)` rejects, plus
/// the `package_index_alias` rows pointing at them, then compacts the file
/// as pnpm 12 does. A store without `index.db` has nothing to prune.
pub fn retain_rows(
    store_dir: &Path,
    keep: &dyn Fn(&str, &[u8]) -> bool,
) -> Result<Retained, PruneIndexError> {
    let path = index_path(store_dir);
    if !path.is_file() {
        return Ok(Retained::default());
    }
    let sqlite = |source| PruneIndexError::Sqlite {
        path: path.clone(),
        source,
    };
    let mut conn = open_read_write(store_dir)?;
    init_schema(&conn).map_err(sqlite)?;
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(sqlite)?;
    let mut removed = Vec::new();
    let mut kept = 0;
    {
        let mut stmt = tx
            .prepare("SELECT key, data FROM package_index ORDER BY key")
            .map_err(sqlite)?;
        let rows = stmt
            .query_map([], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?))
            })
            .map_err(sqlite)?;
        for row in rows {
            let (key, data) = row.map_err(sqlite)?;
            if keep(&key, &data) {
                kept += 1;
            } else {
                removed.push(key);
            }
        }
    }
    let mut removed_aliases = 0;
    {
        let mut delete = tx
            .prepare("DELETE FROM package_index WHERE key = ?")
            .map_err(sqlite)?;
        for key in &removed {
            delete.execute(params![key]).map_err(sqlite)?;
        }
        if has_alias_table(&tx).map_err(sqlite)? {
            let mut delete_alias = tx
                .prepare("DELETE FROM package_index_alias WHERE target = ?")
                .map_err(sqlite)?;
            for key in &removed {
                removed_aliases += delete_alias.execute(params![key]).map_err(sqlite)?;
            }
        }
    }
    tx.commit().map_err(sqlite)?;
    if !removed.is_empty() {
        // Best effort: a busy database stays uncompacted, not unpruned.
        if let Err(err) = conn.execute_batch("VACUUM") {
            tracing::warn!("could not compact {}: {err}", path.display());
        }
    }
    Ok(Retained {
        removed,
        kept,
        removed_aliases,
    })
}

fn has_alias_table(conn: &Connection) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'package_index_alias'",
        [],
        |_| Ok(()),
    )
    .optional()
    .map(|found| found.is_some())
}

/// Every key in `package_index` (read-only; empty without `index.db`).
pub fn all_keys(store_dir: &Path) -> rusqlite::Result<Vec<String>> {
    let Some(conn) = crate::connection::open_read_only(store_dir)? else {
        return Ok(Vec::new());
    };
    let mut stmt = conn.prepare("SELECT key FROM package_index ORDER BY key")?;
    let keys = stmt.query_map([], |r| r.get::<_, String>(0))?;
    keys.collect()
}
