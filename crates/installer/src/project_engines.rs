//! The projects' own `engines` (docs/settings.md §6), checked as pnpm 12
//! checks them before it reads the lockfile: a `pnpm` range that pnpm
//! 12.21.0 (the version pacquet installs as) does not satisfy refuses the
//! install; a `node` range the running Node.js does not satisfy warns, or
//! refuses with `engineStrict`.

use pacquet_lockfile::ProjectEngines;

use crate::{InstallError, gates::Project};

/// The pnpm version pacquet stands in for.
pub const PNPM_VERSION: &str = "12.21.0";

/// Checks every project; returns the warnings to print. `node_version` is
/// asked only when some project names a `node` range.
pub fn check(
    projects: &[Project],
    node_version: impl Fn() -> Option<String>,
    engine_strict: bool,
) -> Result<Vec<String>, InstallError> {
    let node = std::cell::OnceCell::new();
    let mut warnings = Vec::new();
    for project in projects {
        let engines = &project.manifest.engines;
        if engines.node.is_none() && engines.pnpm.is_none() {
            continue;
        }
        let current_node = match engines.node {
            Some(_) => node.get_or_init(&node_version).clone(),
            None => None,
        };
        let pnpm_ok = engines
            .pnpm
            .as_deref()
            .is_none_or(|r| satisfies(r, PNPM_VERSION));
        let node_ok = match (&engines.node, &current_node) {
            (Some(range), Some(version)) => satisfies(range, version),
            _ => true,
        };
        if pnpm_ok && node_ok {
            continue;
        }
        let message = format!(
            "Unsupported engine for {}: wanted: {} (current: {})",
            project.dir.display(),
            wanted(engines),
            current(engines, current_node.as_deref()),
        );
        if !pnpm_ok || engine_strict {
            return Err(InstallError::UnsupportedProjectEngine { message });
        }
        warnings.push(message);
    }
    Ok(warnings)
}

fn satisfies(range: &str, version: &str) -> bool {
    let Ok(version) = nodejs_semver::Version::parse(version) else {
        return true;
    };
    nodejs_semver::Range::parse(range).is_ok_and(|range| range.satisfies(&version))
}

fn quote(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

/// `{"node":…,"pnpm":…}` with the ranges given.
fn wanted(engines: &ProjectEngines) -> String {
    let fields: Vec<String> = [("node", &engines.node), ("pnpm", &engines.pnpm)]
        .into_iter()
        .filter_map(|(key, range)| Some(format!("{}:{}", quote(key), quote(range.as_deref()?))))
        .collect();
    format!("{{{}}}", fields.join(","))
}

/// pnpm 12 names the Node.js version only when a `node` range was given
/// (`""` otherwise) and its own version only when a `pnpm` range was.
fn current(engines: &ProjectEngines, node: Option<&str>) -> String {
    let node = if engines.node.is_some() {
        node.unwrap_or("")
    } else {
        ""
    };
    let mut out = format!("{{\"node\":{}", quote(node));
    if engines.pnpm.is_some() {
        out.push_str(&format!(",\"pnpm\":{}", quote(PNPM_VERSION)));
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests;
