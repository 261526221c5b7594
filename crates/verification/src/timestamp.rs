//! Registry timestamps (`time` entries, `modified`) as milliseconds since
//! the Unix epoch; the date texts are `pacquet_state`'s.

use std::time::{SystemTime, UNIX_EPOCH};

pub use pacquet_state::{iso_date as format, parse_iso_date as parse};

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
