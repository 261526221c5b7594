//! The single batched writer (docs/store.md §11, "Write").
//!
//! Producers only enqueue; one thread owns the only read-write connection,
//! so this process never races itself for SQLite's single write lock.

use crate::connection::{init_schema, is_busy, open_read_write};
use crate::decode::decode;
use crate::encode::encode;
use crate::error::StoreIndexError;
use crate::types::{PackageFilesIndex, SideEffectsDiff};
use rusqlite::Connection;
use std::collections::HashMap;
use std::path::Path;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a batch stays open for more rows after its first one. A cold
/// install produces rows one by one as tarballs land; gathering for 20 ms
/// turns alotta's 1,352 rows into ~230 transactions instead of one each.
/// Longer batches did not pay: 150 ms (and up to 2,048 rows) cut the
/// `pwrite64`s to the WAL and the database from 13,848 to 11,475 (counted
/// under `strace -f`), and the cold install was no faster (medians of 10
/// interleaved rounds, AMD EPYC: 1.530 against 1.504 s; CPU 0.82 + 1.81
/// against 0.81 + 1.77 s).
const GATHER: Duration = Duration::from_millis(20);
/// Interval between background WAL checkpoints (see [`checkpoint`]).
const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);
/// Retries of a batch that still hits `SQLITE_BUSY` after the busy timeout
/// (pnpm 11: 100 × 50 ms).
const BUSY_RETRIES: usize = 100;
const BUSY_SLEEP: Duration = Duration::from_millis(50);

enum Message {
    Put(String, PackageFilesIndex),
    SideEffects {
        key: String,
        cache_key: String,
        diff: SideEffectsDiff,
    },
    Close,
}

/// What the writer thread did, returned by [`IndexWriter::finish`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriterStats {
    /// Rows committed to `package_index`.
    pub rows_written: usize,
    /// Rows not written: failed batches, a disabled index, or side-effects
    /// uploads for rows that do not exist.
    pub rows_dropped: usize,
    /// Committed transactions.
    pub batches: usize,
    /// Batches that failed and were dropped.
    pub failed_batches: usize,
}

/// Cloneable, `Send + Sync` handle that enqueues rows for the writer thread.
#[derive(Clone)]
pub struct IndexSender {
    tx: Sender<Message>,
}

impl IndexSender {
    /// Queues `row` to be stored under `key` (replacing any existing row).
    /// Returns `false` if the writer has already finished.
    pub fn put(&self, key: impl Into<String>, row: PackageFilesIndex) -> bool {
        self.tx.send(Message::Put(key.into(), row)).is_ok()
    }

    /// Queues a side-effects upload: `sideEffects[cache_key] = diff` on the
    /// row `key`, applied to a pending row or to the row read back from the
    /// index. Uploads for rows that do not exist are dropped.
    pub fn put_side_effects(
        &self,
        key: impl Into<String>,
        cache_key: impl Into<String>,
        diff: SideEffectsDiff,
    ) -> bool {
        let message = Message::SideEffects {
            key: key.into(),
            cache_key: cache_key.into(),
            diff,
        };
        self.tx.send(message).is_ok()
    }
}

/// Owner of the writer thread. Call [`IndexWriter::finish`] at the end of
/// the install to flush; dropping it also flushes, but discards the result.
pub struct IndexWriter {
    sender: IndexSender,
    thread: Option<JoinHandle<WriterStats>>,
}

impl IndexWriter {
    /// Opens `<store_dir>/index.db` (creating the directory, the file and
    /// the schema) and starts the writer thread.
    ///
    /// An existing file that is not a usable database is left untouched and
    /// the writer discards everything, as pnpm 12 does.
    pub fn spawn(store_dir: &Path) -> Result<IndexWriter, StoreIndexError> {
        let conn = open_read_write(store_dir)?;
        let conn = match init_schema_retrying(&conn) {
            Ok(()) => Some(conn),
            Err(err) => {
                tracing::warn!(
                    path = %store_dir.display(),
                    error = %err,
                    "store index is unusable; package index rows will not be saved"
                );
                None
            }
        };
        let (tx, rx) = channel();
        let thread = std::thread::Builder::new()
            .name("pacquet-store-index-writer".into())
            .spawn(move || run(conn, rx))
            .map_err(StoreIndexError::Spawn)?;
        Ok(IndexWriter {
            sender: IndexSender { tx },
            thread: Some(thread),
        })
    }

    /// A handle producers can clone and move to other threads.
    pub fn sender(&self) -> IndexSender {
        self.sender.clone()
    }

    /// Shorthand for `self.sender().put(key, row)`.
    pub fn put(&self, key: impl Into<String>, row: PackageFilesIndex) -> bool {
        self.sender.put(key, row)
    }

    /// Closes the queue (later sends are refused), waits for the final flush.
    pub fn finish(mut self) -> Result<WriterStats, StoreIndexError> {
        self.close()
    }

    fn close(&mut self) -> Result<WriterStats, StoreIndexError> {
        let Some(thread) = self.thread.take() else {
            return Ok(WriterStats::default());
        };
        // Fails only if the thread is gone already, which join reports.
        let _ = self.sender.tx.send(Message::Close);
        // The writer may be gathering a batch; it ends that batch now.
        thread.thread().unpark();
        thread.join().map_err(|_| StoreIndexError::WriterPanicked)
    }
}

impl Drop for IndexWriter {
    fn drop(&mut self) {
        if let Err(err) = self.close() {
            tracing::warn!(error = %err, "store index writer failed");
        }
    }
}

/// [`init_schema`], retried while another connection holds the lock:
/// switching a new database to WAL fails with `SQLITE_BUSY` without going
/// through the busy handler, so two installs creating one store at once
/// lost one side's rows (the two-writer test failed 4 runs in 10).
fn init_schema_retrying(conn: &Connection) -> rusqlite::Result<()> {
    let mut attempt = 0;
    loop {
        match init_schema(conn) {
            Err(err) if is_busy(&err) && attempt < BUSY_RETRIES => {
                attempt += 1;
                std::thread::sleep(BUSY_SLEEP);
            }
            result => return result,
        }
    }
}

/// A coalesced change to one key within a batch.
enum Pending {
    Row(PackageFilesIndex),
    /// Side-effects uploads for a row that must be read back first.
    SideEffects(Vec<(String, SideEffectsDiff)>),
}

fn run(conn: Option<Connection>, rx: Receiver<Message>) -> WriterStats {
    let mut stats = WriterStats::default();
    let mut closed = false;
    let mut last_checkpoint = Instant::now();
    while !closed {
        let Ok(first) = rx.recv() else { break };
        let mut batch = Vec::new();
        closed = push(&mut batch, first);
        if !closed {
            closed = gather(&rx, &mut batch);
        }
        if batch.is_empty() {
            continue;
        }
        match &conn {
            Some(conn) => {
                flush(conn, batch, &mut stats);
                if !closed && last_checkpoint.elapsed() >= CHECKPOINT_EVERY {
                    checkpoint(conn);
                    last_checkpoint = Instant::now();
                }
            }
            None => stats.rows_dropped += batch.len(),
        }
    }
    stats
}

/// Adds what arrives within [`GATHER`] to `batch`; `true` once the close
/// marker came (or every sender is gone). The writer sleeps meanwhile
/// instead of waiting on the queue: woken by each row, it had ~1,300 more
/// context switches on a cold alotta install (`perf record -e
/// syscalls:sys_enter_futex`). [`IndexWriter::close`] wakes it early.
fn gather(rx: &Receiver<Message>, batch: &mut Vec<Message>) -> bool {
    let deadline = Instant::now() + GATHER;
    loop {
        loop {
            match rx.try_recv() {
                Ok(message) => {
                    if push(batch, message) {
                        return true;
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return true,
            }
        }
        let now = Instant::now();
        if now >= deadline {
            return false;
        }
        // May return early (an unpark, or spuriously): the queue is read
        // again either way.
        std::thread::park_timeout(deadline - now);
    }
}

/// Copies the WAL into `index.db` while the install is still busy, so the
/// checkpoint SQLite runs when the connection closes has little left to do.
/// On a cold install of alotta that close-time checkpoint (fsync of a 24 MB
/// WAL, copy, fsync of the database) took 150 ms at the very end.
fn checkpoint(conn: &Connection) {
    // PASSIVE never waits for other connections; what it cannot copy now
    // the next checkpoint does.
    if let Err(err) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
        tracing::debug!(error = %err, "passive store index checkpoint failed");
    }
}

/// Adds a message to the batch; `true` when it was the close marker.
fn push(batch: &mut Vec<Message>, message: Message) -> bool {
    if matches!(message, Message::Close) {
        return true;
    }
    batch.push(message);
    false
}

fn flush(conn: &Connection, batch: Vec<Message>, stats: &mut WriterStats) {
    let pending = coalesce(batch);
    let mut encoded: Vec<(String, Vec<u8>)> = Vec::with_capacity(pending.len());
    for (key, change) in pending {
        let row = match change {
            Pending::Row(row) => row,
            Pending::SideEffects(uploads) => match read_back(conn, &key) {
                Some(mut row) => {
                    for (cache_key, diff) in uploads {
                        apply_side_effects(&mut row, cache_key, diff);
                    }
                    row
                }
                None => {
                    tracing::debug!(key = %key, "side effects for a row not in the index; dropped");
                    stats.rows_dropped += 1;
                    continue;
                }
            },
        };
        encoded.push((key, encode(&row)));
    }
    if encoded.is_empty() {
        return;
    }
    match write_batch(conn, &encoded) {
        Ok(()) => {
            stats.rows_written += encoded.len();
            stats.batches += 1;
        }
        Err(err) => {
            // The index is a cache: the next install re-fetches these.
            tracing::warn!(error = %err, rows = encoded.len(), "store index batch dropped");
            stats.rows_dropped += encoded.len();
            stats.failed_batches += 1;
        }
    }
}

/// Merges messages per key in arrival order (first-seen key order is kept).
fn coalesce(batch: Vec<Message>) -> Vec<(String, Pending)> {
    let mut out: Vec<(String, Pending)> = Vec::with_capacity(batch.len());
    let mut index: HashMap<String, usize> = HashMap::with_capacity(batch.len());
    for message in batch {
        let (key, change) = match message {
            Message::Put(key, row) => (key, Pending::Row(row)),
            Message::SideEffects {
                key,
                cache_key,
                diff,
            } => (key, Pending::SideEffects(vec![(cache_key, diff)])),
            Message::Close => continue,
        };
        let Some(&i) = index.get(&key) else {
            index.insert(key.clone(), out.len());
            out.push((key, change));
            continue;
        };
        let slot = &mut out[i].1;
        match (slot, change) {
            (slot, Pending::Row(row)) => *slot = Pending::Row(row),
            (Pending::Row(row), Pending::SideEffects(uploads)) => {
                for (cache_key, diff) in uploads {
                    apply_side_effects(row, cache_key, diff);
                }
            }
            (Pending::SideEffects(queued), Pending::SideEffects(uploads)) => queued.extend(uploads),
        }
    }
    out
}

fn apply_side_effects(row: &mut PackageFilesIndex, cache_key: String, diff: SideEffectsDiff) {
    let side_effects = row.side_effects.get_or_insert_with(Vec::new);
    match side_effects.iter_mut().find(|(k, _)| *k == cache_key) {
        Some((_, existing)) => *existing = diff,
        None => side_effects.push((cache_key, diff)),
    }
}

fn read_back(conn: &Connection, key: &str) -> Option<PackageFilesIndex> {
    let blob: rusqlite::Result<Vec<u8>> = conn.query_row(
        "SELECT data FROM package_index WHERE key = ?",
        [key],
        |row| row.get(0),
    );
    decode(&blob.ok()?).ok()
}

/// `BEGIN IMMEDIATE; INSERT OR REPLACE …; COMMIT`, retried while busy.
fn write_batch(conn: &Connection, rows: &[(String, Vec<u8>)]) -> rusqlite::Result<()> {
    let mut attempt = 0;
    loop {
        match try_write_batch(conn, rows) {
            Err(err) if is_busy(&err) && attempt < BUSY_RETRIES => {
                attempt += 1;
                tracing::debug!(attempt, "store index busy; retrying batch");
                std::thread::sleep(BUSY_SLEEP);
            }
            result => return result,
        }
    }
}

fn try_write_batch(conn: &Connection, rows: &[(String, Vec<u8>)]) -> rusqlite::Result<()> {
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let result = insert_all(conn, rows).and_then(|()| conn.execute_batch("COMMIT"));
    if result.is_err() && !conn.is_autocommit() {
        // Best effort: the connection must not stay inside a transaction.
        let _ = conn.execute_batch("ROLLBACK");
    }
    result
}

fn insert_all(conn: &Connection, rows: &[(String, Vec<u8>)]) -> rusqlite::Result<()> {
    let mut stmt =
        conn.prepare_cached("INSERT OR REPLACE INTO package_index (key, data) VALUES (?1, ?2)")?;
    for (key, data) in rows {
        stmt.execute(rusqlite::params![key, data])?;
    }
    Ok(())
}
