//! Progress of a running script, and pnpm's text for it.

use std::path::Path;

/// Longest `.../<tail>` prefix pnpm prints for a package directory.
const PREFIX_WIDTH: usize = 40;

/// Whose script an event is about (pnpm's `pnpm:lifecycle` log fields).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScriptSource<'a> {
    /// `depPath`: `name@version` for a dependency, the directory for a project.
    pub pkg_id: &'a str,
    /// `wd`: where the script runs.
    pub wd: &'a Path,
    pub optional: bool,
}

/// One step of a script's life, for reporters.
#[derive(Debug, Clone, PartialEq)]
pub enum ScriptEvent<'a> {
    /// `.../node_modules/pkg postinstall$ <command>`
    Started {
        prefix: &'a str,
        stage: &'a str,
        command: &'a str,
        source: ScriptSource<'a>,
    },
    /// `.../node_modules/pkg postinstall: <line>`
    Output {
        prefix: &'a str,
        stage: &'a str,
        line: &'a str,
        stderr: bool,
        source: ScriptSource<'a>,
    },
    /// `.../node_modules/pkg postinstall: Done` / `: Failed`
    Finished {
        prefix: &'a str,
        stage: &'a str,
        success: bool,
        /// `None` when a signal ended the script.
        exit_code: Option<i32>,
        source: ScriptSource<'a>,
    },
}

impl ScriptEvent<'_> {
    /// The line pnpm 12's append-only reporter prints for this event.
    pub fn to_line(&self) -> String {
        match self {
            ScriptEvent::Started {
                prefix,
                stage,
                command,
                ..
            } => format!("{prefix} {stage}$ {command}"),
            ScriptEvent::Output {
                prefix,
                stage,
                line,
                ..
            } => format!("{prefix} {stage}: {line}"),
            ScriptEvent::Finished {
                prefix,
                stage,
                success,
                ..
            } => format!(
                "{prefix} {stage}: {}",
                if *success { "Done" } else { "Failed" }
            ),
        }
    }
}

/// `.../<trailing path components>` of `package_dir`, keeping as many
/// components as fit in 40 characters (pnpm 12 prints
/// `.../ps-order@1.0.0/node_modules/ps-order` but
/// `.../node_modules/ps-env-dep`). A path relative to `init_cwd` that fits
/// entirely is printed as is, and `init_cwd` itself as `.` (pnpm 12's
/// prefix for the root project's own scripts).
pub fn log_prefix(package_dir: &Path, init_cwd: &Path) -> String {
    let rel = package_dir.strip_prefix(init_cwd).unwrap_or(package_dir);
    if rel.as_os_str().is_empty() {
        return ".".to_owned();
    }
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let whole = parts.join("/");
    if !whole.is_empty() && whole.len() <= PREFIX_WIDTH && rel.is_relative() {
        return whole;
    }
    let mut tail = String::new();
    for part in parts.iter().rev() {
        let candidate = if tail.is_empty() {
            part.clone()
        } else {
            format!("{part}/{tail}")
        };
        if tail.is_empty() || candidate.len() + 4 <= PREFIX_WIDTH {
            tail = candidate;
        } else {
            break;
        }
    }
    format!(".../{tail}")
}
