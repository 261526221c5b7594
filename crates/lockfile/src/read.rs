//! Reading `pnpm-lock.yaml` with pnpm 12's error texts.

use std::{
    io::ErrorKind,
    path::{Path, PathBuf},
};

use serde::{Deserialize, Deserializer, de::Error as _};
use serde_saphyr::{DefaultMessageFormatter, MessageFormatter};

use crate::{Lockfile, LockfileError};

/// The only lockfile major version this crate reads.
const SUPPORTED_MAJOR: u64 = 9;

/// Reads and parses the lockfile at `path`. `Ok(None)` when the file does not
/// exist or holds only whitespace (pnpm 12 treats both as "no lockfile").
pub fn read_lockfile(path: &Path) -> Result<Option<Lockfile>, LockfileError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(LockfileError::Read {
                path: path.to_owned(),
                source,
            });
        }
    };
    if text.trim().is_empty() {
        return Ok(None);
    }
    Lockfile::parse(&text, path).map(Some)
}

impl Lockfile {
    /// Parses lockfile text. `path` is only used in error messages; relative
    /// paths are made absolute there, as pnpm prints absolute paths.
    pub fn parse(text: &str, path: &Path) -> Result<Lockfile, LockfileError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if let Some(lockfile) = crate::fast::parse(text) {
            return Ok(lockfile);
        }
        parse_with_saphyr(text, path)
    }
}

/// The general YAML parser: handles any valid YAML and produces pnpm's errors.
pub(crate) fn parse_with_saphyr(text: &str, path: &Path) -> Result<Lockfile, LockfileError> {
    if starts_with_document_marker(text) {
        return parse_multi(text, path);
    }
    serde_saphyr::from_str::<Lockfile>(text).map_err(|e| broken(path, &e))
}

/// A leading `---` (after comments/blank lines) marks pnpm 11+'s
/// two-document form; the env document comes first.
fn starts_with_document_marker(text: &str) -> bool {
    text.lines()
        .map(str::trim_end)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l == "---" || l.starts_with("--- "))
}

fn parse_multi(text: &str, path: &Path) -> Result<Lockfile, LockfileError> {
    let mut docs = serde_saphyr::from_multiple::<Lockfile>(text).map_err(|e| broken(path, &e))?;
    match docs.len() {
        0 => Err(LockfileError::Broken {
            path: absolute(path),
            message: "missing field `lockfileVersion`".to_owned(),
            line: 1,
            column: 1,
        }),
        1 => Ok(docs.remove(0)),
        _ => {
            let env = docs.remove(0);
            let mut main = docs.remove(0);
            main.env = Some(Box::new(env));
            Ok(main)
        }
    }
}

fn broken(path: &Path, err: &serde_saphyr::Error) -> LockfileError {
    let inner = err.without_snippet();
    let message = DefaultMessageFormatter.format_message(inner).into_owned();
    let (line, column) = inner
        .location()
        .map(|l| (l.line(), l.column()))
        .unwrap_or((1, 1));
    LockfileError::Broken {
        path: absolute(path),
        message,
        line,
        column,
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
}

/// `deserialize_with` for `lockfileVersion`: accepts any scalar and checks it
/// the way pnpm 12 does, so the error carries the value's position.
pub(crate) fn lockfile_version<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let raw = String::deserialize(d)?;
    check_version(&raw).map_err(D::Error::custom)?;
    Ok(raw)
}

/// pnpm 12.21 accepts `<major>.<minor>` with major 9, whatever the minor.
pub(crate) fn check_version(raw: &str) -> Result<(), String> {
    let (major, minor) = raw
        .split_once('.')
        .ok_or_else(|| "Dot is missing".to_owned())?;
    let major: u64 = major
        .parse()
        .map_err(|e| format!("Major is not a valid number: {e}"))?;
    let _minor: u64 = minor
        .parse()
        .map_err(|e| format!("Minor is not a valid number: {e}"))?;
    if major != SUPPORTED_MAJOR {
        return Err(format!(
            "The lockfileVersion of {raw} is incompatible with this version of pnpm, which supports lockfileVersion {SUPPORTED_MAJOR}.x"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
