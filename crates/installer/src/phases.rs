//! Wall-clock time per install phase on stderr when `PACQUET_PHASES` is set:
//! the first question of every performance investigation, answered without
//! a profiler.

use std::sync::Mutex;
use std::time::Instant;

/// Shared by the threads of one install (the verification's keeper marks
/// its own phase).
pub struct Phases {
    start: Instant,
    last: Mutex<Instant>,
    enabled: bool,
}

impl Phases {
    pub fn start() -> Self {
        let now = Instant::now();
        Phases {
            start: now,
            last: Mutex::new(now),
            enabled: std::env::var_os("PACQUET_PHASES").is_some(),
        }
    }

    /// Reports the time since the previous mark under `name`.
    pub fn mark(&self, name: &str) {
        if !self.enabled {
            return;
        }
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        eprintln!(
            "phase {name:<10} {:>8.1} ms  (at {:>8.1} ms)",
            (now - *last).as_secs_f64() * 1e3,
            (now - self.start).as_secs_f64() * 1e3,
        );
        *last = now;
    }
}
