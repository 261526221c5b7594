//! Batched, read-only lookups (docs/store.md §11, "Read").

use crate::connection::open_read_only;
use crate::decode::decode;
use crate::types::PackageFilesIndex;
use rayon::prelude::*;
use rusqlite::Connection;
use std::collections::HashMap;
use std::path::Path;

/// Placeholders per statement; `SQLITE_MAX_VARIABLE_NUMBER` was 999 before 3.32.
pub const CHUNK: usize = 999;

/// Looks up `keys` and decodes the rows in parallel; the result is aligned
/// with `keys` (duplicates allowed).
///
/// Never fails: a missing or unreadable `index.db`, a corrupted page or an
/// undecodable row all make the affected keys misses (`None`), as in pnpm 12.
pub fn prefetch(store_dir: &Path, keys: &[&str]) -> Vec<Option<PackageFilesIndex>> {
    let raw = prefetch_raw(store_dir, keys);
    keys.par_iter()
        .map(|key| {
            let blob = raw.get(*key)?;
            match decode(blob) {
                Ok(row) => Some(row),
                Err(err) => {
                    tracing::debug!(key = %key, error = %err, "undecodable store index row");
                    None
                }
            }
        })
        .collect()
}

/// The raw `data` blobs of the `keys` present in the index.
///
/// The connection lives only for the queries; decoding is left to the caller.
pub fn prefetch_raw(store_dir: &Path, keys: &[&str]) -> HashMap<String, Vec<u8>> {
    let mut unique: Vec<&str> = keys.to_vec();
    unique.sort_unstable();
    unique.dedup();
    let mut out = HashMap::with_capacity(unique.len());
    if unique.is_empty() {
        return out;
    }
    let conn = match open_read_only(store_dir) {
        Ok(Some(conn)) => conn,
        Ok(None) => return out,
        Err(err) => {
            tracing::debug!(error = %err, "store index unreadable; every package is a miss");
            return out;
        }
    };
    for chunk in unique.chunks(CHUNK) {
        if let Err(err) = query_chunk(&conn, chunk, &mut out) {
            tracing::debug!(error = %err, "batched store index query failed; retrying per key");
            // A corrupt page fails the whole scan; per-key lookups salvage
            // the rows on intact pages. "Not a database" fails them all.
            let missing: Vec<&str> = chunk
                .iter()
                .copied()
                .filter(|key| !out.contains_key(*key))
                .collect();
            for key in missing {
                if let Err(err) = query_one(&conn, key, &mut out) {
                    tracing::debug!(key = %key, error = %err, "store index row unreadable");
                }
            }
        }
    }
    out
}

fn query_one(
    conn: &Connection,
    key: &str,
    out: &mut HashMap<String, Vec<u8>>,
) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare_cached("SELECT data FROM package_index WHERE key = ?")?;
    let mut rows = stmt.query([key])?;
    if let Some(row) = rows.next()? {
        out.insert(key.to_owned(), row.get(0)?);
    }
    Ok(())
}

fn query_chunk(
    conn: &Connection,
    chunk: &[&str],
    out: &mut HashMap<String, Vec<u8>>,
) -> rusqlite::Result<()> {
    let mut sql = String::with_capacity(64 + chunk.len() * 2);
    sql.push_str("SELECT key, data FROM package_index WHERE key IN (");
    for i in 0..chunk.len() {
        sql.push_str(if i == 0 { "?" } else { ",?" });
    }
    sql.push(')');
    // Cached: every full chunk shares one SQL text.
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut rows = stmt.query(rusqlite::params_from_iter(chunk.iter()))?;
    while let Some(row) = rows.next()? {
        out.insert(row.get(0)?, row.get(1)?);
    }
    Ok(())
}
