//! Waiting for the disk to settle before timing. Deleting a large tree
//! (the trash of an earlier run) keeps ext4's workers busy for minutes, and
//! a run started meanwhile measured every tool about twice as slow (cold
//! alotta: pnpm 6.2 s against 2.9 s once quiet). Linux reports that as I/O
//! pressure (`/proc/pressure/io`).

use std::time::{Duration, Instant};

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
