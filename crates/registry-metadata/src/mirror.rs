//! The metadata mirror's files (docs/registry-metadata.md §2), in the two
//! forms pnpm 12 reads. pnpm 12.21 writes the indexed one:
//!
//! ```text
//! pnpm-meta-v1 <headers length> <index length>\n
//! {"etag":…,"modified":…}                      headers
//! {"name":…,"distTags":…,"time":…,"versions":[[version, offset, length], …]}
//! <each version's JSON, back to back>          offsets relative to here
//! ```
//!
//! pacquet writes the line-delimited one, which needs no parsing of the
//! document: the headers' JSON on the first line, then the document as the
//! registry sent it.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

const MAGIC: &str = "pnpm-meta-v1";
/// Bounds on the lengths a file declares, so a damaged file cannot ask
/// for a huge allocation.
const MAX_HEADERS: usize = 64 << 10;
const MAX_INDEX: usize = 64 << 20;

/// The validators of the cached document.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Headers {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// The document's `modified` (ISO date), as pnpm records it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
}

#[derive(Deserialize)]
struct Index {
    name: String,
    #[serde(default, rename = "distTags")]
    dist_tags: Map<String, Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time: Option<Map<String, Value>>,
    versions: Vec<(String, u64, u32)>,
}

#[derive(Deserialize)]
struct Modified {
    #[serde(default)]
    modified: Option<Value>,
    #[serde(default)]
    time: Option<TimeModified>,
}

#[derive(Deserialize)]
struct TimeModified {
    #[serde(default)]
    modified: Option<Value>,
}

/// The mirror file for `document` (a registry's response body) in the
/// line-delimited form, with the document's `modified` (top-level, else
/// `time.modified`) and `etag` as its validators. Only `modified` is looked
/// for, so the document is scanned, not built: the 1,147 documents (96 MB)
/// of alotta's mirror take 131 ms, where cutting each version out for the
/// indexed form took 151 ms and abbreviating it 320 ms more
/// (`--example encode_mirror`).
pub fn encode(document: &[u8], etag: Option<&str>) -> Result<Vec<u8>, serde_json::Error> {
    let found: Modified = serde_json::from_slice(document)?;
    let modified = found
        .modified
        .or_else(|| found.time?.modified)
        .and_then(|v| v.as_str().map(str::to_owned));
    let headers = serde_json::to_vec(&Headers {
        etag: etag.map(str::to_owned),
        modified,
    })?;
    let mut out = Vec::with_capacity(headers.len() + 1 + document.len());
    out.extend_from_slice(&headers);
    out.push(b'\n');
    out.extend_from_slice(document);
    Ok(out)
}

/// A mirror file read back.
#[derive(Debug)]
pub struct Mirrored {
    pub headers: Headers,
    /// A packument JSON document with the name, dist-tags, time,
    /// `modified` and versions the file holds.
    pub document: Vec<u8>,
}

/// Reads a mirror file; `None` for a missing, damaged or foreign file (the
/// caller then asks the registry as if nothing were cached).
pub fn decode(file: &[u8]) -> Option<Mirrored> {
    let newline = file.iter().position(|&b| b == b'\n')?;
    let Some((headers_len, index_len)) = parse_magic(std::str::from_utf8(&file[..newline]).ok()?)
    else {
        return decode_lines(file, newline);
    };
    let headers_end = newline + 1 + headers_len;
    let index_end = headers_end.checked_add(index_len)?;
    let headers: Headers = serde_json::from_slice(file.get(newline + 1..headers_end)?).ok()?;
    let index: Index = serde_json::from_slice(file.get(headers_end..index_end)?).ok()?;
    let fragments = &file[index_end..];
    let mut document = Vec::with_capacity(fragments.len() + index_len + 64);
    document.extend_from_slice(b"{\"name\":");
    serde_json::to_writer(&mut document, &index.name).ok()?;
    document.extend_from_slice(b",\"dist-tags\":");
    serde_json::to_writer(&mut document, &index.dist_tags).ok()?;
    if let Some(time) = &index.time {
        document.extend_from_slice(b",\"time\":");
        serde_json::to_writer(&mut document, time).ok()?;
    }
    if let Some(modified) = &headers.modified {
        document.extend_from_slice(b",\"modified\":");
        serde_json::to_writer(&mut document, modified).ok()?;
    }
    document.extend_from_slice(b",\"versions\":{");
    for (i, (version, offset, len)) in index.versions.iter().enumerate() {
        let start = usize::try_from(*offset).ok()?;
        let fragment = fragments.get(start..start.checked_add(*len as usize)?)?;
        // A fragment must be one JSON value, or the document would not be.
        serde_json::from_slice::<&RawValue>(fragment).ok()?;
        if i > 0 {
            document.push(b',');
        }
        serde_json::to_writer(&mut document, version).ok()?;
        document.push(b':');
        document.extend_from_slice(fragment);
    }
    document.extend_from_slice(b"}}");
    Some(Mirrored { headers, document })
}

/// The line-delimited form: headers, newline, the document.
fn decode_lines(file: &[u8], newline: usize) -> Option<Mirrored> {
    let headers: Headers = serde_json::from_slice(&file[..newline]).ok()?;
    let document = &file[newline + 1..];
    // Must be one JSON value (a torn or foreign file is no document).
    serde_json::from_slice::<&RawValue>(document).ok()?;
    Some(Mirrored {
        headers,
        document: document.to_vec(),
    })
}

fn parse_magic(line: &str) -> Option<(usize, usize)> {
    let mut parts = line.split(' ');
    if parts.next()? != MAGIC {
        return None;
    }
    let headers: usize = parts.next()?.parse().ok()?;
    let index: usize = parts.next()?.parse().ok()?;
    (parts.next().is_none() && headers <= MAX_HEADERS && index <= MAX_INDEX)
        .then_some((headers, index))
}

/// The whole file at `path`, decoded.
pub fn read(path: &Path) -> Option<Mirrored> {
    decode(&fs::read(path).ok()?)
}

/// Only the validators, without reading the versions.
pub fn read_headers(path: &Path) -> Option<Headers> {
    let mut file = fs::File::open(path).ok()?;
    let mut head = vec![0; 1024];
    let mut filled = 0;
    loop {
        let n = file.read(&mut head[filled..]).ok()?;
        filled += n;
        if n == 0 || filled == head.len() {
            break;
        }
    }
    head.truncate(filled);
    let newline = match head.iter().position(|&b| b == b'\n') {
        Some(newline) => newline,
        // A line-delimited file with headers longer than the probe.
        None => {
            let mut rest = Vec::new();
            file.read_to_end(&mut rest).ok()?;
            head.extend_from_slice(&rest);
            head.iter().position(|&b| b == b'\n')?
        }
    };
    let Some((headers_len, _)) = parse_magic(std::str::from_utf8(&head[..newline]).ok()?) else {
        return serde_json::from_slice(&head[..newline]).ok();
    };
    let end = newline + 1 + headers_len;
    if end > head.len() {
        let mut rest = vec![0; end - head.len()];
        file.read_exact(&mut rest).ok()?;
        head.extend_from_slice(&rest);
    }
    serde_json::from_slice(&head[newline + 1..end]).ok()
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` through a temporary file beside it and a
/// rename, so a concurrent reader (pnpm or pacquet) sees the old file or
/// the new one, never part of one.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let temp = temp_path(path);
    let written = fs::File::create_new(&temp).and_then(|mut file| file.write_all(bytes));
    let renamed = written.and_then(|()| fs::rename(&temp, path));
    if renamed.is_err() {
        let _ = fs::remove_file(&temp);
    }
    renamed
}

fn temp_path(path: &Path) -> PathBuf {
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.{n}.tmp", std::process::id()));
    path.with_file_name(name)
}

#[cfg(test)]
mod tests;
