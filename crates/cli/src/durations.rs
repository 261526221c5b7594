//! Durations as pnpm 12's reporter writes them (`pretty-ms`): in full for
//! how long something took (`1m 2.5s`), compact for how long ago
//! (`2h`).

/// `830ms`; `1.2s`; `1m 2.5s`; `1d 3h 4m 5s` (seconds to one decimal).
pub fn pretty_ms(ms: u64) -> String {
    if ms < 1000 {
        return format!("{ms}ms");
    }
    let mut parts = Vec::new();
    let (days, rest) = (ms / 86_400_000, ms % 86_400_000);
    let (hours, rest) = (rest / 3_600_000, rest % 3_600_000);
    let (mins, rest) = (rest / 60_000, rest % 60_000);
    for (value, unit) in [(days, "d"), (hours, "h"), (mins, "m")] {
        if value > 0 {
            parts.push(format!("{value}{unit}"));
        }
    }
    // Tenths of a second, rounded half up.
    let tenths = (rest + 50) / 100;
    if tenths > 0 {
        if tenths % 10 == 0 {
            parts.push(format!("{}s", tenths / 10));
        } else {
            parts.push(format!("{}.{}s", tenths / 10, tenths % 10));
        }
    }
    if parts.is_empty() {
        parts.push("0s".into());
    }
    parts.join(" ")
}

/// The largest whole unit only, truncated: `90_000` → `1m`.
pub fn pretty_ms_compact(ms: u64) -> String {
    for (unit_ms, unit) in [
        (86_400_000, "d"),
        (3_600_000, "h"),
        (60_000, "m"),
        (1_000, "s"),
    ] {
        if ms >= unit_ms {
            return format!("{}{unit}", ms / unit_ms);
        }
    }
    format!("{ms}ms")
}

#[cfg(test)]
mod tests;
