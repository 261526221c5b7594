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
    Ok(read_lockfile_and_text(path)?.map(|(lockfile, _)| lockfile))
}

/// [`read_lockfile`], with the text it was parsed from.
pub fn read_lockfile_and_text(path: &Path) -> Result<Option<(Lockfile, String)>, LockfileError> {
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
    Lockfile::parse(&text, path).map(|lockfile| Some((lockfile, text)))
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

/// [`read_lockfile`], reading a `packages` entry that lacks `resolution`
/// as having an empty one ([`crate::Resolution::Other`]): the versions of
/// such a lockfile still count for `install --fix-lockfile`, which takes
/// every resolution from the registry again (pnpm 12.21 keeps them too;
/// docs/resolution.md §20). Any other error is [`read_lockfile`]'s.
pub fn read_lockfile_lenient(path: &Path) -> Result<Option<Lockfile>, LockfileError> {
    let strict = read_lockfile(path);
    let Err(error) = strict else {
        return strict;
    };
    let Ok(text) = std::fs::read_to_string(path) else {
        return Err(error);
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if starts_with_document_marker(text) {
        return Err(error);
    }
    let Ok(mut value) = serde_saphyr::from_str::<serde_json::Value>(text) else {
        return Err(error);
    };
    let mut filled = false;
    if let Some(packages) = value
        .get_mut("packages")
        .and_then(serde_json::Value::as_object_mut)
    {
        for entry in packages.values_mut() {
            if entry.is_null() {
                *entry = serde_json::Value::Object(serde_json::Map::new());
            }
            if let Some(fields) = entry.as_object_mut()
                && !fields.contains_key("resolution")
            {
                fields.insert("resolution".into(), serde_json::json!({}));
                filled = true;
            }
        }
    }
    if !filled {
        return Err(error);
    }
    serde_json::from_value(value).map(Some).map_err(|_| error)
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
