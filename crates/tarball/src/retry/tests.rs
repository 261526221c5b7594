use std::time::Duration;

use super::{delay, human};
use crate::FetcherOptions;

#[test]
fn default_schedule_is_10s_then_60s() {
    let opts = FetcherOptions::default();
    assert_eq!(delay(&opts, 1), Duration::from_secs(10));
    assert_eq!(delay(&opts, 2), Duration::from_secs(60));
    assert_eq!(delay(&opts, 5), Duration::from_secs(60));
}

#[test]
fn small_factors_grow_exponentially() {
    let opts = FetcherOptions {
        retry_factor: 2,
        retry_min_timeout: Duration::from_millis(10),
        retry_max_timeout: Duration::from_millis(35),
        ..FetcherOptions::default()
    };
    assert_eq!(delay(&opts, 1), Duration::from_millis(10));
    assert_eq!(delay(&opts, 2), Duration::from_millis(20));
    assert_eq!(delay(&opts, 3), Duration::from_millis(35));
}

#[test]
fn human_durations() {
    assert_eq!(human(Duration::from_secs(10)), "10s");
    assert_eq!(human(Duration::from_secs(60)), "1m");
    assert_eq!(human(Duration::from_secs(90)), "1m 30s");
    assert_eq!(human(Duration::from_millis(20)), "20ms");
}
