use std::time::{SystemTime, UNIX_EPOCH};

/// Whole milliseconds since the Unix epoch, as pnpm's `checkedAt`
/// (`Date.now()`). pnpm 12 treats a row whose `checkedAt` has a fraction as
/// missing, so the value must be integral.
pub fn now_ms() -> f64 {
    system_time_ms(SystemTime::now()).floor()
}

/// A `SystemTime` as fractional ms since the epoch (negative before it).
pub(crate) fn system_time_ms(t: SystemTime) -> f64 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_secs_f64() * 1000.0,
        Err(e) => -(e.duration().as_secs_f64() * 1000.0),
    }
}
