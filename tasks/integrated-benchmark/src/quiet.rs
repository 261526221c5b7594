//! Waiting for the disk to settle before timing. Deleting a large tree
//! (the trash of an earlier run) keeps ext4's workers busy for minutes, and
//! a run started meanwhile measured every tool about twice as slow (cold
//! alotta: pnpm 6.2 s against 2.9 s once quiet). Linux reports that as I/O
//! pressure (`/proc/pressure/io`).
//!
//! The disk being quiet is not enough on ext4 without a journal (this
//! machine's): for 60 s after an inode is freed, and 360 s while its inode
//! table block is not written back, the allocator skips it and looks at the
//! next free one, on every allocation (`recently_deleted` in
//! `fs/ext4/ialloc.c`). A cold alotta install right after a trash of
//! earlier trees was deleted spent 28 % of its samples in that scan
//! (`find_inode_bit`, `perf`), 4 % once the window had passed, and took
//! 2–3 times as long for every tool. So timing also waits for that window
//! after the harness's own last deletion.

use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

/// `some avg10` below this (percent of the last 10 s in which a task
/// waited for I/O) counts as quiet.
const QUIET_AVG10: f64 = 2.0;

/// Longest wait before timing anyway.
const MAX_WAIT: Duration = Duration::from_secs(300);

/// Waits until the disk is quiet. Returns a note when it gave up (the
/// results were measured on a busy disk); `None` when it was quiet or the
/// kernel does not report pressure.
pub fn wait_for_quiet_disk() -> Option<String> {
    let started = Instant::now();
    let mut last = None;
    loop {
        let avg10 = std::fs::read_to_string("/proc/pressure/io")
            .ok()
            .and_then(|text| some_avg10(&text))?;
        if avg10 < QUIET_AVG10 {
            if let Some(busy) = last {
                eprintln!(
                    "disk quiet after {:.0} s (I/O pressure was {busy:.1} %)",
                    started.elapsed().as_secs_f64()
                );
            }
            return None;
        }
        if started.elapsed() >= MAX_WAIT {
            return Some(format!(
                "timed while the disk was busy: I/O pressure {avg10:.1} % (some avg10) after waiting {} s",
                MAX_WAIT.as_secs()
            ));
        }
        if last.is_none() {
            eprintln!("waiting for the disk to settle (I/O pressure {avg10:.1} %)");
        }
        last = Some(avg10);
        std::thread::sleep(Duration::from_secs(5));
    }
}

/// How long ext4 may pass over an inode freed by the last deletion
/// (`RECENTCY_MIN` + `RECENTCY_DIRTY`).
const FREED_INODE_WINDOW: Duration = Duration::from_secs(360);

/// Marks `marker` as the time of the deletion just finished.
pub fn mark_deletion(marker: &Path) {
    if let Err(e) = std::fs::write(marker, b"") {
        eprintln!("marking {}: {e}", marker.display());
    }
}

/// Waits until the inodes freed by the deletion `marker` records may be
/// reused without a scan. Returns a note of the wait, if there was one.
pub fn wait_for_freed_inodes(marker: &Path) -> Option<String> {
    let deleted_at = std::fs::metadata(marker).and_then(|m| m.modified()).ok()?;
    let wait = window_left(deleted_at, SystemTime::now());
    if wait.is_zero() {
        return None;
    }
    eprintln!(
        "waiting {:.0} s: ext4 passes over inodes freed by the last trash deletion until then",
        wait.as_secs_f64()
    );
    std::thread::sleep(wait);
    Some(format!(
        "timing waited {:.0} s for the inodes an earlier run's deletion freed to be reusable",
        wait.as_secs_f64()
    ))
}

/// What is left of the window after a deletion at `deleted_at`; a clock
/// that went backwards counts as a fresh deletion.
fn window_left(deleted_at: SystemTime, now: SystemTime) -> Duration {
    match now.duration_since(deleted_at) {
        Ok(since) => FREED_INODE_WINDOW.saturating_sub(since),
        Err(_) => FREED_INODE_WINDOW,
    }
}

/// `avg10` of the `some` line of a pressure file.
fn some_avg10(text: &str) -> Option<f64> {
    let line = text.lines().find(|l| l.starts_with("some "))?;
    line.split_whitespace()
        .find_map(|field| field.strip_prefix("avg10="))?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests;
