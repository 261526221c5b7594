//! A large batch written by more than one thread.
//!
//! Packages that unpack to more than 8 MiB share one inflate buffer, so they
//! are extracted one at a time, and a cold install often ends with one
//! thread still extracting them while the others have nothing left: a cold
//! alotta install ran on one core for its last 150–270 ms (highcharts and
//! the like; `perf record`, samples per thread per 50 ms), a quarter of it
//! creating and writing blobs. Their files are split into contiguous parts
//! of about equal weight, the first written by the calling thread, the
//! others by helper threads.
//!
//! Scoped threads, not rayon tasks: a rayon worker waiting for its tasks
//! runs other queued work meanwhile, and an extraction taken up that way
//! would ask for the inflate buffer this thread holds.

use std::ops::Range;
use std::sync::OnceLock;

#[cfg(test)]
mod tests;

/// Work below which a part is not worth a thread (starting and joining one
/// costs ~30 µs), weighed in bytes plus [`FILE_WEIGHT`] per file: about 64
/// blobs or 4 MiB, 1–1.5 ms of kernel time.
pub(super) const MIN_WRITE_PART: u64 = 4 << 20;

/// What creating one blob costs, in bytes written: ~20 µs of kernel time
/// against ~250 µs per MiB copied into the page cache.
pub(super) const FILE_WEIGHT: u64 = 64 << 10;

/// Splits `0..weights.len()` into contiguous ranges of about equal total
/// weight: as many as there are cores, but none (except when there is only
/// one) lighter than `min_part`.
pub(super) fn ranges(weights: &[u64], min_part: u64) -> Vec<Range<usize>> {
    ranges_for(weights, min_part, cores())
}

fn ranges_for(weights: &[u64], min_part: u64, cores: usize) -> Vec<Range<usize>> {
    let total: u64 = weights.iter().sum();
    let parts = usize::try_from(total / min_part.max(1))
        .unwrap_or(usize::MAX)
        .clamp(1, cores.max(1))
        .min(weights.len().max(1));
    let mut ranges = Vec::with_capacity(parts);
    let mut start = 0;
    let mut done = 0u64;
    for (i, weight) in weights.iter().enumerate() {
        done += weight;
        // Cut once this part has reached its share of the total.
        let cut = (ranges.len() as u64 + 1) * total / parts as u64;
        if ranges.len() + 1 < parts && done >= cut {
            ranges.push(start..i + 1);
            start = i + 1;
        }
    }
    // The last cut may have fallen on the last item.
    if start < weights.len() || ranges.is_empty() {
        ranges.push(start..weights.len());
    }
    ranges
}

/// `work` on each of `ranges`, the first on this thread and the others on
/// scoped helper threads; the results in range order. A helper that cannot
/// be started leaves its range to this thread.
pub(super) fn run<T: Send>(
    ranges: &[Range<usize>],
    work: impl Fn(Range<usize>) -> T + Sync,
) -> Vec<T> {
    let Some((first, rest)) = ranges.split_first() else {
        return Vec::new();
    };
    if rest.is_empty() {
        return vec![work(first.clone())];
    }
    std::thread::scope(|s| {
        let work = &work;
        let helpers: Vec<_> = rest
            .iter()
            .map(|range| {
                let spawned = std::thread::Builder::new()
                    .spawn_scoped(s, move || work(range.clone()))
                    .ok();
                (range, spawned)
            })
            .collect();
        let mut results = Vec::with_capacity(ranges.len());
        results.push(work(first.clone()));
        for (range, helper) in helpers {
            results.push(match helper {
                Some(handle) => match handle.join() {
                    Ok(result) => result,
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                None => work(range.clone()),
            });
        }
        results
    })
}

fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}
