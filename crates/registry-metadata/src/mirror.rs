//! The mirror file pnpm 12 writes for a document
//! (docs/registry-metadata.md §2):
//!
//! ```text
//! pnpm-meta-v1 <headers length> <index length>\n
//! {"etag":…,"modified":…}                      headers
//! {"name":…,"distTags":…,"time":…,"versions":[[version, offset, length], …]}
//! <each version's JSON, back to back>          offsets relative to here
//! ```
//!
//! The line-delimited form pnpm 12 also reads (headers line, then the
//! document) is read too.

use std::borrow::Cow;
use std::fs;
use std::io::{self, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::KeyIn;

const MAGIC: &str = "pnpm-meta-v1";
/// Bounds on the lengths a file declares, so a damaged file cannot ask
/// for a huge allocation.
const MAX_HEADERS: usize = 64 << 10;
const MAX_INDEX: usize = 64 << 20;

/// The fields pnpm keeps of each version when it abbreviates a full
/// document a registry sent for an abbreviated request, in its order.
const ABBREVIATED_VERSION_KEYS: &[&str] = &[
    "name",
    "version",
    "bin",
    "directories",
    "devDependencies",
    "optionalDependencies",
    "dependencies",
    "peerDependencies",
    "dist",
    "engines",
    "peerDependenciesMeta",
    "cpu",
    "os",
    "libc",
    "deprecated",
    "bundleDependencies",
    "bundledDependencies",
    "hasInstallScript",
    "_npmUser",
];

/// The validators of the cached document.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Headers {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// The document's `modified` (ISO date), as pnpm records it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
}

/// The index of a file. `time` is copied as the document wrote it, never
/// parsed: some registries' abbreviated documents have a date per version
/// (52,740 in alotta's 1,142 documents), and a resolution looks up few.
#[derive(Serialize)]
struct Index<'a> {
    name: String,
    #[serde(rename = "distTags")]
    dist_tags: Map<String, Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    homepage: Option<Value>,
    versions: Vec<(String, u64, u32)>,
}

/// [`Index`] as read back: the version names are borrowed from the file
/// where it does not escape them (every npm version), so reading alotta's
/// 1,142 kept documents allocates no string per version (52,740 of them).
#[derive(Deserialize)]
struct IndexRead<'a> {
    name: String,
    #[serde(default, rename = "distTags")]
    dist_tags: Map<String, Value>,
    #[serde(default, borrow)]
    time: Option<&'a RawValue>,
    #[serde(borrow)]
    versions: Vec<(Name<'a>, u64, u32)>,
}

/// A string borrowed from the text when it has no escapes. serde's
/// `Cow<str>` borrows only as a field of its own, not inside a tuple.
struct Name<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Name<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Text<'a>(std::marker::PhantomData<&'a ()>);

        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Text<'a> {
            type Value = Name<'a>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }

            fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Name<'a>, E> {
                Ok(Name(Cow::Borrowed(text)))
            }

            fn visit_str<E>(self, text: &str) -> Result<Name<'a>, E> {
                Ok(Name(Cow::Owned(text.to_owned())))
            }
        }

        deserializer.deserialize_str(Text(std::marker::PhantomData))
    }
}

/// A registry document; `V`: how each version is read.
#[derive(Deserialize)]
#[serde(bound(deserialize = "V: Deserialize<'de>"))]
struct Document<'a, V> {
    #[serde(default)]
    name: Option<String>,
    #[serde(default, rename = "dist-tags")]
    dist_tags: Option<Map<String, Value>>,
    #[serde(default, borrow)]
    time: Option<&'a RawValue>,
    #[serde(default)]
    modified: Option<Value>,
    #[serde(default)]
    homepage: Option<Value>,
    #[serde(default = "IndexMap::new")]
    versions: IndexMap<String, V>,
}

/// The mirror file for `document` (a registry's response body).
/// `abbreviate` strips each version to the fields of an abbreviated
/// document, for a registry that answered an abbreviated request with
/// the full one.
pub fn encode(
    document: &[u8],
    abbreviate: bool,
    etag: Option<&str>,
) -> Result<Vec<u8>, serde_json::Error> {
    if abbreviate {
        // The kept fields are picked out in the one pass over the document
        // (alotta's 1,153 full documents, 96 MB: 75 ms; 169 ms reading each
        // version a second time, `--example encode_mirror`).
        let doc: Document<'_, Abbreviated<'_>> = serde_json::from_slice(document)?;
        assemble(doc, document.len(), etag, false, Abbreviated::write)
    } else {
        let doc: Document<'_, &RawValue> = serde_json::from_slice(document)?;
        assemble(doc, document.len(), etag, true, |raw, out| {
            out.extend_from_slice(raw.get().as_bytes());
            Ok(())
        })
    }
}

/// The file of `doc`, each version written by `write`; `homepage`: keep
/// the document's. `bound`: the document's length, which its versions'
/// fragments do not exceed (they are parts of it, or fewer of its fields).
fn assemble<V>(
    doc: Document<'_, V>,
    bound: usize,
    etag: Option<&str>,
    homepage: bool,
    write: impl Fn(&V, &mut Vec<u8>) -> Result<(), serde_json::Error>,
) -> Result<Vec<u8>, serde_json::Error> {
    let modified = doc
        .modified
        .as_ref()
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or_else(|| time_modified(doc.time?));
    let headers = serde_json::to_string(&Headers {
        etag: etag.map(str::to_owned),
        modified,
    })?;
    // Reserved whole: grown by doubling, alotta's cold resolution spent 3 %
    // of its CPU copying fragments and faulting in the pages they moved to
    // (`perf record -a -g`).
    let mut fragments = Vec::with_capacity(bound);
    let mut spans = Vec::with_capacity(doc.versions.len());
    for (version, fields) in &doc.versions {
        let offset = fragments.len() as u64;
        write(fields, &mut fragments)?;
        let Ok(len) = u32::try_from(fragments.len() as u64 - offset) else {
            fragments.truncate(offset as usize);
            continue;
        };
        spans.push((version.clone(), offset, len));
    }
    let index = serde_json::to_string(&Index {
        name: doc.name.unwrap_or_default(),
        dist_tags: doc.dist_tags.unwrap_or_default(),
        time: doc.time,
        homepage: if homepage { doc.homepage } else { None },
        versions: spans,
    })?;
    let mut out = format!("{MAGIC} {} {}\n", headers.len(), index.len()).into_bytes();
    out.reserve(headers.len() + index.len() + fragments.len());
    out.extend_from_slice(headers.as_bytes());
    out.extend_from_slice(index.as_bytes());
    out.extend_from_slice(&fragments);
    Ok(out)
}

/// `time.modified` of a document's raw `time`, when it is a string.
fn time_modified(time: &RawValue) -> Option<String> {
    #[derive(Deserialize)]
    struct Modified {
        #[serde(default)]
        modified: Option<Value>,
    }
    match serde_json::from_str::<Modified>(time.get())
        .ok()?
        .modified?
    {
        Value::String(modified) => Some(modified),
        _ => None,
    }
}

/// A version's fields an abbreviated document keeps, by their place in
/// [`ABBREVIATED_VERSION_KEYS`], as the registry wrote them; a repeated
/// key keeps its last value, as a map would. The values are copied, not
/// built and printed (320 ms instead of 961 ms over alotta's 1,147
/// documents, `--example encode_mirror`).
struct Abbreviated<'a>([Option<&'a RawValue>; ABBREVIATED_VERSION_KEYS.len()]);

impl Abbreviated<'_> {
    /// The version's JSON with only the kept fields, in the list's order.
    fn write(&self, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
        out.push(b'{');
        let mut first = true;
        for (key, value) in ABBREVIATED_VERSION_KEYS.iter().zip(&self.0) {
            let Some(value) = value else {
                continue;
            };
            if !first {
                out.push(b',');
            }
            first = false;
            serde_json::to_writer(&mut *out, key)?;
            out.push(b':');
            out.extend_from_slice(value.get().as_bytes());
        }
        out.push(b'}');
        Ok(())
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Abbreviated<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields<'a>(std::marker::PhantomData<&'a ()>);

        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Fields<'a> {
            type Value = Abbreviated<'a>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a version's manifest object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut fields = [None; ABBREVIATED_VERSION_KEYS.len()];
                while let Some(slot) = map.next_key_seed(KeyIn(ABBREVIATED_VERSION_KEYS))? {
                    match slot {
                        Some(i) => fields[i] = Some(map.next_value::<&'de RawValue>()?),
                        None => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(Abbreviated(fields))
            }
        }

        deserializer.deserialize_map(Fields(std::marker::PhantomData))
    }
}

/// A mirror file read back.
#[derive(Debug)]
pub struct Mirrored {
    pub headers: Headers,
    /// A packument JSON document with the name, dist-tags, time,
    /// `modified` and versions the file holds.
    pub document: Vec<u8>,
}

/// A `pnpm-meta-v1` file's parts, read without reassembling a document:
/// each version's manifest is found by the index's offsets, not by
/// scanning the fragments (a warm resolution of alotta reads 1,300
/// files, 96 MB).
#[derive(Debug)]
pub struct Kept {
    pub headers: Headers,
    pub name: String,
    pub dist_tags: Map<String, Value>,
    /// Where the document's `time` object is in `file`, unparsed (see
    /// `Index`).
    pub time: Option<Range<usize>>,
    /// Each version's name and the byte range of its manifest's JSON in
    /// `file`, unchecked until it is read.
    pub versions: Vec<(VersionName, Range<usize>)>,
    pub file: FileBytes,
}

/// A version's name in a kept file's index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionName {
    /// Where the name is in the file, as written (no escapes).
    At(Range<usize>),
    /// The name, unescaped.
    Owned(String),
}

/// A file's bytes: read, or mapped (a resolution reads a file's index
/// and a few versions, not the rest). Mapping is safe here
/// because pnpm and pacquet replace mirror files by rename, never in
/// place: a mapped file's content does not change under the reader.
#[derive(Debug)]
pub enum FileBytes {
    Read(Vec<u8>),
    Mapped(memmap2::Mmap),
    /// A file just encoded, shared with the writer that keeps it.
    Shared(std::sync::Arc<Vec<u8>>),
}

impl std::ops::Deref for FileBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Read(bytes) => bytes,
            FileBytes::Mapped(map) => map,
            FileBytes::Shared(bytes) => bytes,
        }
    }
}

impl FileBytes {
    /// The bytes of the file at `path`.
    pub fn open(path: &Path) -> io::Result<FileBytes> {
        Self::open_since(path, None).map(|bytes| bytes.expect("no age asked"))
    }

    /// [`FileBytes::open`], `None` when the file was last written before
    /// `since` (ms since the epoch). One `statx` per file: a warm
    /// resolution of alotta reads 1,142 files, and asking the age, then the
    /// size, then letting `read_to_end` ask both again was 3,454 `statx`
    /// and 1,062 `lseek` calls.
    pub fn open_since(path: &Path, since: Option<i64>) -> io::Result<Option<FileBytes>> {
        let file = fs::File::open(path)?;
        let meta = file.metadata()?;
        if let Some(since) = since {
            let modified = meta
                .modified()?
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |age| age.as_millis());
            if i128::try_from(modified).unwrap_or(i128::MAX) < i128::from(since) {
                return Ok(None);
            }
        }
        let len = meta.len();
        // Every file but an empty one (which cannot be mapped) is mapped.
        // Reading files below 64 KiB into the heap (13 MB of alotta's 39 MB
        // of kept documents) made the kernel zero fresh huge pages for
        // them, ~9 % of a warm resolution's `perf` samples; mapped, the
        // page cache's pages serve them. Warm alotta resolution, 20 and 30
        // alternating runs, medians: 52.5 → 52.0 and 52.1 → 49.3 ms wall,
        // CPU unchanged (74.6 → 72.9, 70.0 → 69.4 ms).
        if len > 0 {
            // A mapping refused (the process's map count is bounded, one
            // mapping per file kept open) falls back to reading. The
            // length is passed: without it the mapping asks the kernel for
            // the file's size again (1,142 more `statx` calls in a warm
            // alotta resolution).
            let map = usize::try_from(len).ok().and_then(|len| {
                // SAFETY: mirror files are replaced by rename, never
                // written in place (see the type's documentation).
                unsafe { memmap2::MmapOptions::new().len(len).map(&file) }.ok()
            });
            if let Some(map) = map {
                return Ok(Some(FileBytes::Mapped(map)));
            }
        }
        // Files are replaced by rename, never written in place: the
        // length read above is the file's.
        // Read into spare capacity, not zeroed first.
        let mut bytes = Vec::with_capacity(len as usize);
        (&file).take(len).read_to_end(&mut bytes)?;
        if bytes.len() as u64 != len {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        Ok(Some(FileBytes::Read(bytes)))
    }
}

impl Kept {
    /// The text of `name`, one of [`Kept::versions`]' names (empty when
    /// the file's bytes there are not UTF-8, which the index's parse
    /// rules out).
    pub fn version_name<'k>(&'k self, name: &'k VersionName) -> &'k str {
        match name {
            VersionName::At(at) => std::str::from_utf8(&self.file[at.clone()]).unwrap_or(""),
            VersionName::Owned(name) => name,
        }
    }

    /// The packument JSON document with the name, dist-tags, time,
    /// `modified` and versions the file holds; `None` when a version's
    /// manifest is not one JSON value.
    pub fn to_document(&self) -> Option<Vec<u8>> {
        let mut document = Vec::with_capacity(self.file.len() + 64);
        document.extend_from_slice(b"{\"name\":");
        serde_json::to_writer(&mut document, &self.name).ok()?;
        document.extend_from_slice(b",\"dist-tags\":");
        serde_json::to_writer(&mut document, &self.dist_tags).ok()?;
        if let Some(time) = &self.time {
            document.extend_from_slice(b",\"time\":");
            document.extend_from_slice(&self.file[time.clone()]);
        }
        if let Some(modified) = &self.headers.modified {
            document.extend_from_slice(b",\"modified\":");
            serde_json::to_writer(&mut document, modified).ok()?;
        }
        document.extend_from_slice(b",\"versions\":{");
        for (i, (version, range)) in self.versions.iter().enumerate() {
            let version = self.version_name(version);
            let fragment = &self.file[range.clone()];
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
        Some(document)
    }
}

/// A mirror file in either form pnpm 12 reads.
#[derive(Debug)]
pub enum KeptFile {
    Indexed(Kept),
    /// The line-delimited form: the document as the registry sent it.
    Whole(Mirrored),
}

impl KeptFile {
    pub fn headers(&self) -> &Headers {
        match self {
            KeptFile::Indexed(kept) => &kept.headers,
            KeptFile::Whole(mirrored) => &mirrored.headers,
        }
    }
}

/// Reads a mirror file; `None` for a missing, damaged or foreign file (the
/// caller then asks the registry as if nothing were cached).
pub fn decode(file: &[u8]) -> Option<Mirrored> {
    match decode_file(FileBytes::Read(file.to_vec()))? {
        KeptFile::Indexed(kept) => Some(Mirrored {
            document: kept.to_document()?,
            headers: kept.headers,
        }),
        KeptFile::Whole(mirrored) => Some(mirrored),
    }
}

/// Where an indexed file's version fragments start: its first line, the
/// headers and the index are the bytes before, and they alone say which
/// versions the file has and where each is. `None` for a file of the
/// line-delimited form, or damaged.
pub fn index_end(file: &[u8]) -> Option<usize> {
    // `pnpm-meta-v1 <n> <n>`: two lengths of at most 20 digits each.
    let first = &file[..file.len().min(MAGIC.len() + 43)];
    let newline = first.iter().position(|&b| b == b'\n')?;
    let (headers_len, index_len) = parse_magic(std::str::from_utf8(&file[..newline]).ok()?)?;
    let end = (newline + 1)
        .checked_add(headers_len)?
        .checked_add(index_len)?;
    (end <= file.len()).then_some(end)
}

/// [`decode`] without reassembling an indexed file's document.
pub fn decode_file(file: FileBytes) -> Option<KeptFile> {
    let newline = file.iter().position(|&b| b == b'\n')?;
    let Some((headers_len, index_len)) = parse_magic(std::str::from_utf8(&file[..newline]).ok()?)
    else {
        return decode_lines(&file, newline).map(KeptFile::Whole);
    };
    let headers_end = newline + 1 + headers_len;
    let index_end = headers_end.checked_add(index_len)?;
    let headers: Headers = serde_json::from_slice(file.get(newline + 1..headers_end)?).ok()?;
    let index: IndexRead<'_> = serde_json::from_slice(file.get(headers_end..index_end)?).ok()?;
    let base = file.as_ptr() as usize;
    let time = index.time.filter(|t| t.get() != "null").map(|t| {
        let start = t.get().as_ptr() as usize - base;
        start..start + t.get().len()
    });
    let (name, dist_tags) = (index.name, index.dist_tags);
    let fragments_len = file.len() - index_end;
    let mut versions = Vec::with_capacity(index.versions.len());
    for (version, offset, len) in index.versions {
        let start = usize::try_from(offset).ok()?;
        let end = start.checked_add(len as usize)?;
        if end > fragments_len {
            return None;
        }
        let version = match version.0 {
            Cow::Borrowed(text) => {
                let at = text.as_ptr() as usize - base;
                VersionName::At(at..at + text.len())
            }
            Cow::Owned(text) => VersionName::Owned(text),
        };
        versions.push((version, index_end + start..index_end + end));
    }
    Some(KeptFile::Indexed(Kept {
        headers,
        name,
        dist_tags,
        time,
        versions,
        file,
    }))
}

/// The line-delimited form pnpm 12 also reads: the headers' JSON, a
/// newline, the document as the registry sent it.
fn decode_lines(file: &[u8], newline: usize) -> Option<Mirrored> {
    let headers: Headers = serde_json::from_slice(&file[..newline]).ok()?;
    let document = &file[newline + 1..];
    // One JSON value, or a torn or foreign file.
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

/// The whole file at `path`, an indexed file's document not reassembled.
pub fn read_file(path: &Path) -> Option<KeptFile> {
    decode_file(FileBytes::open(path).ok()?)
}

/// [`read_file`], `None` when the file was last written before `since`
/// (ms since the epoch).
pub fn read_file_since(path: &Path, since: i64) -> Option<KeptFile> {
    decode_file(FileBytes::open_since(path, Some(since)).ok()??)
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
    let newline = head.iter().position(|&b| b == b'\n')?;
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
