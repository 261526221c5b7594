//! A copy of the [`RowSummary`]s one install used, so the next install of
//! the same project can skip the index rows of packages already in place
//! (docs/store.md §11.1).
//!
//! A row's summary is a function of the package's contents (the key starts
//! with its integrity), so a copy never goes stale; it is only a shortcut
//! for packages whose directory is complete. Any damage (truncation, a
//! foreign file, another store) makes the whole file a miss.
//!
//! Layout: the magic line, then length-prefixed fields (`u32` little
//! endian): the store directory, then per row its key, one flag byte, the
//! digest algorithm and the manifest as JSON (`u32::MAX`: none).

use std::{
    io::{self, Write},
    path::Path,
};

use foldhash::HashMap;

use crate::types::RowSummary;

const MAGIC: &[u8] = b"pacquet-row-summaries 1\n";
const NO_MANIFEST: u32 = u32::MAX;

const REQUIRES_BUILD_KNOWN: u8 = 1;
const REQUIRES_BUILD: u8 = 2;
const HAS_PACKAGE_JSON: u8 = 4;
const PROVIDES_SKILLS: u8 = 8;

/// A summary as the file holds it: the manifest is parsed by
/// [`CachedSummary::summary`], on the caller's threads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedSummary {
    flags: u8,
    algo: String,
    manifest: Option<Vec<u8>>,
}

impl CachedSummary {
    /// `summary` as the file holds it.
    pub fn new(summary: &RowSummary) -> Self {
        let mut flags = 0;
        if let Some(requires) = summary.requires_build {
            flags |= REQUIRES_BUILD_KNOWN | if requires { REQUIRES_BUILD } else { 0 };
        }
        if summary.has_package_json {
            flags |= HAS_PACKAGE_JSON;
        }
        if summary.provides_skills {
            flags |= PROVIDES_SKILLS;
        }
        CachedSummary {
            flags,
            algo: summary.algo.clone(),
            manifest: summary.manifest.as_ref().map(|m| {
                // A `Value` always serializes: its map keys are strings.
                serde_json::to_vec(m).expect("a JSON value serializes")
            }),
        }
    }

    /// The summary; `None` if its manifest is not JSON.
    pub fn summary(&self) -> Option<RowSummary> {
        self.summary_with(true)
    }

    /// The summary, its manifest parsed only if `manifest` is set (else
    /// left out: parsing every manifest was half the cost of reading a
    /// copy).
    pub fn summary_with(&self, manifest: bool) -> Option<RowSummary> {
        let manifest = match &self.manifest {
            Some(json) if manifest => Some(serde_json::from_slice(json).ok()?),
            _ => None,
        };
        Some(RowSummary {
            algo: self.algo.clone(),
            requires_build: (self.flags & REQUIRES_BUILD_KNOWN != 0)
                .then_some(self.flags & REQUIRES_BUILD != 0),
            manifest,
            has_package_json: self.flags & HAS_PACKAGE_JSON != 0,
            provides_skills: self.flags & PROVIDES_SKILLS != 0,
        })
    }
}

/// The rows of the file at `path` written for `store_dir`; empty when it is
/// missing, damaged or written for another store.
pub fn read_summaries(path: &Path, store_dir: &Path) -> HashMap<String, CachedSummary> {
    std::fs::read(path)
        .ok()
        .and_then(|bytes| parse(&bytes, store_dir.as_os_str().as_encoded_bytes()))
        .unwrap_or_default()
}

/// Writes `rows` for `store_dir` to `path` (a temporary file renamed into
/// place, so a reader sees the old file or the new one).
pub fn write_summaries<'a>(
    path: &Path,
    store_dir: &Path,
    rows: impl IntoIterator<Item = (&'a str, &'a CachedSummary)>,
) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let temp = path.with_extension(format!("{}.tmp", std::process::id()));
    let written = write_to(&temp, store_dir, rows).and_then(|()| std::fs::rename(&temp, path));
    written.inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}

/// Streamed through a small buffer: the file is ~0.6 MB for alotta, and
/// building it in one growing vector faulted in fresh pages for ~3 % of a
/// lockfile-change install's CPU (`perf`, `clear_page_erms`).
fn write_to<'a>(
    temp: &Path,
    store_dir: &Path,
    rows: impl IntoIterator<Item = (&'a str, &'a CachedSummary)>,
) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, std::fs::File::create(temp)?);
    out.write_all(MAGIC)?;
    put(&mut out, store_dir.as_os_str().as_encoded_bytes())?;
    for (key, summary) in rows {
        put(&mut out, key.as_bytes())?;
        out.write_all(&[summary.flags])?;
        put(&mut out, summary.algo.as_bytes())?;
        match &summary.manifest {
            Some(manifest) => put(&mut out, manifest)?,
            None => out.write_all(&NO_MANIFEST.to_le_bytes())?,
        }
    }
    out.into_inner().map_err(io::IntoInnerError::into_error)?;
    Ok(())
}

fn put(out: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
    let len = u32::try_from(bytes.len())
        .ok()
        .filter(|&len| len != NO_MANIFEST)
        .ok_or_else(|| io::Error::other("a summary field longer than 4 GiB"))?;
    out.write_all(&len.to_le_bytes())?;
    out.write_all(bytes)
}

fn parse(bytes: &[u8], store_dir: &[u8]) -> Option<HashMap<String, CachedSummary>> {
    let mut input = Input {
        rest: bytes.strip_prefix(MAGIC)?,
    };
    if input.field()? != store_dir {
        return None;
    }
    let mut rows = HashMap::default();
    while !input.rest.is_empty() {
        let key = std::str::from_utf8(input.field()?).ok()?.to_owned();
        let flags = *input.take(1)?.first()?;
        let algo = std::str::from_utf8(input.field()?).ok()?.to_owned();
        let manifest = input.optional_field()?.map(<[u8]>::to_vec);
        rows.insert(
            key,
            CachedSummary {
                flags,
                algo,
                manifest,
            },
        );
    }
    Some(rows)
}

struct Input<'a> {
    rest: &'a [u8],
}

impl<'a> Input<'a> {
    fn take(&mut self, len: usize) -> Option<&'a [u8]> {
        if self.rest.len() < len {
            return None;
        }
        let (head, rest) = self.rest.split_at(len);
        self.rest = rest;
        Some(head)
    }

    fn len(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn field(&mut self) -> Option<&'a [u8]> {
        let len = self.len()?;
        (len != NO_MANIFEST).then_some(())?;
        self.take(usize::try_from(len).ok()?)
    }

    /// `Some(None)` for an absent field, `None` for damage.
    fn optional_field(&mut self) -> Option<Option<&'a [u8]>> {
        match self.len()? {
            NO_MANIFEST => Some(None),
            len => self.take(usize::try_from(len).ok()?).map(Some),
        }
    }
}

#[cfg(test)]
mod tests;
