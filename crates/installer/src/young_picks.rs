//! Versions a resolution picked although `minimumReleaseAge` refused them
//! (no mature version satisfied the spec): pnpm 12.21 refuses them under
//! `minimumReleaseAgeStrict` (on by default when `minimumReleaseAge` is
//! set), and otherwise adds them to `minimumReleaseAgeExclude` in
//! `pnpm-workspace.yaml` (docs/resolution.md §1).

use pacquet_config::Config;
use pacquet_config::list_edit::{merge_version_specs, set_top_level_list};

use crate::InstallError;
use crate::reporter::{Event, Reporter};

const KEY: &str = "minimumReleaseAgeExclude";

/// Refuses `immature` (`(name, version, publish time)`, sorted) or writes
/// it into the workspace's exclusions; nothing to do when it is empty.
pub(crate) fn settle(
    immature: &[(String, String, Option<String>)],
    config: &Config,
    reporter: &dyn Reporter,
) -> Result<(), InstallError> {
    if immature.is_empty() {
        return Ok(());
    }
    if config.minimum_release_age_strict == Some(true) {
        let now = pacquet_verification::timestamp::now_ms();
        let age_ms = i64::try_from(config.minimum_release_age)
            .unwrap_or(i64::MAX / 60_000)
            .saturating_mul(60_000);
        let cutoff = pacquet_verification::timestamp::format(now.saturating_sub(age_ms));
        let lines: Vec<String> = immature
            .iter()
            .map(|(name, version, time)| {
                let at = time.as_deref().unwrap_or("an unknown time");
                format!(
                    "  {name}@{version} was published at {at}, within the minimumReleaseAge cutoff ({cutoff})"
                )
            })
            .collect();
        let noun = if lines.len() == 1 {
            "version does"
        } else {
            "versions do"
        };
        return Err(InstallError::NoMatureMatchingVersion {
            message: format!(
                "{} {noun} not meet the minimumReleaseAge constraint:\n{}",
                lines.len(),
                lines.join("\n")
            ),
        });
    }
    let picked: Vec<String> = immature
        .iter()
        .map(|(name, version, _)| format!("{name}@{version}"))
        .collect();
    let added = merge_version_specs(picked.iter().map(String::as_str));
    let merged = merge_version_specs(
        config
            .minimum_release_age_exclude
            .iter()
            .chain(&picked)
            .map(String::as_str),
    );
    let path = config.workspace_root.join("pnpm-workspace.yaml");
    let text = std::fs::read_to_string(&path).ok();
    let written = set_top_level_list(text.as_deref(), KEY, &merged);
    pacquet_state::write_atomic(&path, written.as_bytes()).map_err(InstallError::write(&path))?;
    let message = format!(
        "Added {} {} to {KEY} in pnpm-workspace.yaml (set minimumReleaseAgeStrict to true to gate these updates with a prompt):\n  {}",
        added.len(),
        if added.len() == 1 { "entry" } else { "entries" },
        added.join("\n  ")
    );
    reporter.report(Event::Info { message: &message });
    Ok(())
}
