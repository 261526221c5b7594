//! Wall-clock time per install phase on stderr when `PACQUET_PHASES` is set:
//! the first question of every performance investigation, answered without
//! a profiler.

use std::time::Instant;

pub struct Phases {
    start: Instant,
    last: Instant,
    enabled: bool,
}

impl Phases {
    pub fn start() -> Self {
        let now = Instant::now();
        Phases {
            start: now,
            last: now,
            enabled: std::env::var_os("PACQUET_PHASES").is_some(),
        }
    }

    /// Reports the time since the previous mark under `name`.
    pub fn mark(&mut self, name: &str) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        eprintln!(
            "phase {name:<10} {:>8.1} ms  (at {:>8.1} ms)",
            (now - self.last).as_secs_f64() * 1e3,
            (now - self.start).as_secs_f64() * 1e3,
        );
        self.last = now;
    }
}
