//! `resolutionMode` (docs/resolution.md §19). `lowest-direct` gives the
//! projects' own dependencies their lowest satisfying versions;
//! `time-based` does too, and lets everything below them have only
//! versions published at most an hour after the newest of those, which
//! the lockfile records under `time:`.

use std::collections::BTreeMap;

use nodejs_semver::Version;

use crate::packument::Packument;

/// How versions are picked besides `highest`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Mode {
    /// Direct dependencies get their lowest satisfying version.
    pub lowest_direct: bool,
    /// Transitive dependencies only get versions published by then (ms
    /// since the epoch).
    pub published_by: Option<i64>,
}

/// The setting's values pacquet follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ResolutionMode {
    #[default]
    Highest,
    LowestDirect,
    TimeBased,
}

impl ResolutionMode {
    /// `highest`, `lowest-direct` or `time-based`.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "highest" => Some(Self::Highest),
            "lowest-direct" => Some(Self::LowestDirect),
            "time-based" => Some(Self::TimeBased),
            _ => None,
        }
    }
}

/// An hour after the newest publish time of `picks` (direct dependencies'
/// package ids, with `packuments` to date them): the ceiling of every
/// transitive pick under `time-based`; and the dates, by package id, for
/// the lockfile's `time:`. `None` when none of them is dated.
pub fn time_ceiling<'p>(
    picks: &[String],
    packument_of: impl Fn(&str) -> Option<&'p Packument>,
) -> (Option<i64>, BTreeMap<String, String>) {
    let mut dates = BTreeMap::new();
    let mut newest: Option<i64> = None;
    for id in picks {
        let Some((name, version)) = id.rsplit_once('@').filter(|(n, _)| !n.is_empty()) else {
            continue;
        };
        let Some(stamp) = packument_of(name).and_then(|p| p.published(version)) else {
            continue;
        };
        if let Some(ms) = pacquet_state::parse_iso_date(stamp) {
            newest = Some(newest.map_or(ms, |n| n.max(ms)));
            dates.insert(id.clone(), stamp.to_owned());
        }
    }
    (newest.map(|n| n + 3_600_000), dates)
}

/// Whether `version` of `packument` was published by `ceiling`. A version
/// without a date passes: registries that publish none cannot be dated.
pub fn published_by(packument: &Packument, version: &Version, ceiling: i64) -> bool {
    packument
        .published(&version.to_string())
        .and_then(pacquet_state::parse_iso_date)
        .is_none_or(|ms| ms <= ceiling)
}

#[cfg(test)]
mod tests;
