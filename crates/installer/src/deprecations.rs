//! The warnings about deprecated packages a resolution picked
//! (docs/resolution.md §8).

use pacquet_config::Config;

use crate::reporter::{Event, Reporter};

/// pnpm 12.21's warnings for the deprecated packages a resolution picked:
/// one line per project dependency, one line listing the others; versions
/// `allowedDeprecatedVersions` allows are left out (docs/resolution.md
/// §8).
pub(crate) fn report(
    deprecated: &[pacquet_resolver::Deprecated],
    config: &Config,
    reporter: &dyn Reporter,
) {
    let allowed = |d: &&pacquet_resolver::Deprecated| {
        config
            .allowed_deprecated_versions
            .get(&d.name)
            .is_some_and(|range| {
                match (
                    nodejs_semver::Range::parse(range),
                    nodejs_semver::Version::parse(&d.version),
                ) {
                    (Ok(range), Ok(version)) => version.satisfies(&range),
                    _ => false,
                }
            })
    };
    let warned: Vec<&pacquet_resolver::Deprecated> =
        deprecated.iter().filter(|d| !allowed(d)).collect();
    for d in warned.iter().filter(|d| d.direct) {
        let mut message = format!("deprecated {}@{}", d.name, d.version);
        match &d.clean {
            Some((clean, true)) => message.push_str(&format!(
                ". {clean} is not deprecated, outside the range you declared."
            )),
            Some((clean, false)) => message.push_str(&format!(". {clean} is not deprecated.")),
            None => {}
        }
        // In a workspace, the line names its project, relative to where
        // the command runs, in a 40-column gutter.
        match d.importer.as_deref().filter(|_| config.is_workspace) {
            Some(importer) => {
                let dir = config.workspace_root.join(importer);
                let prefix = gutter(&pacquet_planner::layout::relative_path(&config.cwd, &dir));
                let line = format!("[WARN] {message}");
                reporter.report(Event::Info {
                    message: &format!("{prefix:<40} | {line}"),
                });
            }
            None => reporter.report(Event::Warning { message: &message }),
        }
    }
    let below: Vec<String> = warned
        .iter()
        .filter(|d| !d.direct)
        .map(|d| format!("{}@{}", d.name, d.version))
        .collect();
    if !below.is_empty() {
        let message = format!(
            "{} deprecated subdependencies found: {}",
            below.len(),
            below.join(", ")
        );
        reporter.report(Event::Warning { message: &message });
    }
}

/// A project's directory as pnpm's reporter names it in the gutter: `.`
/// for the current one; past 40 characters, `...` and the end, cut at a
/// `/` (pnpm's `formatPrefix`).
fn gutter(relative: &str) -> String {
    const WIDTH: usize = 40;
    if relative.is_empty() {
        return ".".to_owned();
    }
    let chars: Vec<char> = relative.chars().collect();
    if chars.len() <= WIDTH {
        return relative.to_owned();
    }
    let tail: String = chars[chars.len() - (WIDTH - 3)..].iter().collect();
    match tail.find('/') {
        Some(at) if at > 0 => format!("...{}", &tail[at..]),
        _ => format!("...{tail}"),
    }
}

#[cfg(test)]
mod tests;
