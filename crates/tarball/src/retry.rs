use std::time::Duration;

use crate::FetcherOptions;

/// Wait before retry `n` (1-based): `min(min_timeout * factor^(n-1), max)`.
pub(crate) fn delay(opts: &FetcherOptions, retry: u32) -> Duration {
    let factor = f64::from(opts.retry_factor).powi(retry.saturating_sub(1) as i32);
    let wanted = opts.retry_min_timeout.as_secs_f64() * factor;
    let max = opts.retry_max_timeout.as_secs_f64();
    Duration::from_secs_f64(wanted.min(max).max(0.0))
}

/// pnpm 12's wording: `10s`, `1m`, `1m 30s`.
pub(crate) fn human(d: Duration) -> String {
    let secs = d.as_secs();
    match (secs / 60, secs % 60) {
        (0, 0) => format!("{}ms", d.as_millis()),
        (0, s) => format!("{s}s"),
        (m, 0) => format!("{m}m"),
        (m, s) => format!("{m}m {s}s"),
    }
}

#[cfg(test)]
mod tests;
