//! Unpacking a `.tgz` into the CAS and building its index row.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::io::{self, Read};

use pacquet_cas::Cas;
use pacquet_store_index::{FileInfo, PackageFilesIndex};
use tar::EntryType;

use crate::buffers;
use crate::inflate::{inflate_whole, whole_size};
use crate::integrity::TarballCheck;
use crate::limited_reader::TarStream;
use crate::{TarballError, bundled_manifest, entry_path, requires_build};
use batch::{Content, FileBatch};

/// Upper bound for a buffer reserved from an entry's declared size.
const MAX_PREALLOCATION: u64 = 16 << 20;

/// Largest GNU long name/link or PAX extended header read. Real ones hold a
/// path (at most a few KB) and a handful of records.
const MAX_EXTENSION_HEADER: u64 = 1 << 20;

mod batch;
mod group;
mod split;

pub use group::{GroupMember, extract_group_to_store};

/// Caps that stop hostile tarballs while they are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtractLimits {
    /// Size of the uncompressed tar stream.
    pub max_unpacked_bytes: u64,
    /// Tar headers (files, directories, others).
    pub max_entries: u64,
}

impl Default for ExtractLimits {
    /// Far above any real package (the largest npm packages unpack to a few
    /// hundred MB), low enough to stop a bomb before the disk fills.
    fn default() -> Self {
        ExtractLimits {
            max_unpacked_bytes: 4 << 30,
            max_entries: 1_000_000,
        }
    }
}

/// Gunzips and untars `tgz`, writes every regular file into `cas` and
/// returns the row pnpm 12 would write: files sorted bytewise (a repeated
/// path keeps its last entry, as pnpm), modes masked to `0o777`,
/// `requiresBuild` and the bundled manifest.
///
/// Directory entries and pax global headers are skipped; contiguous files
/// (`7`) are skipped as pnpm 12 does. Links, devices, FIFOs, sparse files,
/// paths that are absolute, empty or contain `..`, a file that is also
/// another file's directory, and long-name/PAX headers over 1 MiB are
/// refused.
pub fn extract_to_store(
    cas: &Cas,
    tgz: &[u8],
    package_id: &str,
    limits: &ExtractLimits,
) -> Result<PackageFilesIndex, TarballError> {
    extract(cas, tgz, package_id, limits, None)
}

/// [`extract_to_store`] for a tarball whose integrity was not checked on
/// download: its SHA-512 is computed in the same multi-lane pass as its
/// files' (a single-buffer pass over the `.tgz` cost as much CPU as all the
/// files' lanes), and a mismatch is [`TarballError::Integrity`] before
/// anything is written.
pub fn extract_checked_to_store(
    cas: &Cas,
    tgz: &[u8],
    package_id: &str,
    limits: &ExtractLimits,
    check: &TarballCheck,
) -> Result<PackageFilesIndex, TarballError> {
    extract(cas, tgz, package_id, limits, Some(check))
}

/// Whether extracting `tgz` takes the one buffer for archives over the
/// threads' own ([`buffers::KEEP_BUFFER`]): such extractions run one at a
/// time, a second one waiting for the buffer (a caller that has other
/// work can hand such tarballs to one thread instead).
pub fn needs_large_buffer(tgz: &[u8], limits: &ExtractLimits) -> bool {
    whole_size(tgz, limits.max_unpacked_bytes).is_some_and(|len| len > buffers::KEEP_BUFFER)
}

fn extract(
    cas: &Cas,
    tgz: &[u8],
    package_id: &str,
    limits: &ExtractLimits,
    check: Option<&TarballCheck>,
) -> Result<PackageFilesIndex, TarballError> {
    let exceeded = Cell::new(false);
    let errors = ExtractErrors {
        package_id,
        max_unpacked_bytes: limits.max_unpacked_bytes,
        exceeded: &exceeded,
    };
    let store = |buffer: &mut Vec<u8>| {
        inflate_and_store(tgz, buffer, cas, limits, check, &errors, &exceeded)
    };
    let stored = if needs_large_buffer(tgz, limits) {
        buffers::with_large(store)
    } else {
        buffers::with_thread_buffer(store)
    };
    let (files, package_json) = stored?;
    row(files, package_json, &errors)
}

/// The row of a package whose files are stored: refused when a file is
/// also another's directory.
fn row(
    files: Files,
    package_json: Option<Vec<u8>>,
    errors: &ExtractErrors<'_>,
) -> Result<PackageFilesIndex, TarballError> {
    if let Some(path) = file_used_as_directory(&files) {
        return Err(errors.refuse(path.as_bytes(), "is both a file and a directory"));
    }

    let package_json = package_json.and_then(|bytes| parse_package_json(&bytes, errors.package_id));
    Ok(PackageFilesIndex {
        algo: "sha512".to_string(),
        requires_build: Some(requires_build(
            package_json.as_ref(),
            files.keys().map(String::as_str),
        )),
        manifest: package_json.as_ref().and_then(bundled_manifest),
        files: files.into_iter().collect(),
        side_effects: None,
        // pnpm 12 reads rows without it and computes it only for
        // `integrityTarget: tar` lockfiles (docs/store.md §7.1); hashing the
        // whole tar was ~45 % of a cold install's hashed bytes.
        tar_integrity: None,
        extra: Vec::new(),
    })
}

/// Inflates `tgz` (whole into `buffer`, or streaming) and stores its files.
fn inflate_and_store(
    tgz: &[u8],
    buffer: &mut Vec<u8>,
    cas: &Cas,
    limits: &ExtractLimits,
    check: Option<&TarballCheck>,
    errors: &ExtractErrors<'_>,
    exceeded: &Cell<bool>,
) -> Result<(Files, Option<Vec<u8>>), TarballError> {
    let Some(tar) = inflate_whole(tgz, limits.max_unpacked_bytes, buffer) else {
        // Rare (huge or unusual archives): checked whole, first.
        if let Some(check) = check {
            check.verify(tgz)?;
        }
        return store_streamed(tgz, cas, limits, errors, exceeded);
    };
    // The tarball's own hash rides along in the first (and, with borrowed
    // contents, only) batch.
    let stored = store_whole(tar, cas, limits, check.map(|c| (tgz, c)), errors);
    // Whatever else went wrong, a tarball that is not the one the lockfile
    // names says so first (and is downloaded again).
    match (stored, check) {
        (Err(e), Some(check)) => check.verify(tgz).and(Err(e)),
        (stored, _) => stored,
    }
}

/// Stores the files of the inflated `tar`. Seeking past each entry's data:
/// contents are slices of `tar`, never copied.
fn store_whole(
    tar: &[u8],
    cas: &Cas,
    limits: &ExtractLimits,
    check: Option<(&[u8], &TarballCheck)>,
    errors: &ExtractErrors<'_>,
) -> Result<(Files, Option<Vec<u8>>), TarballError> {
    let mut batch = read_whole(tar, limits, errors)?;
    let mut files = Files::new();
    let mut package_json = None;
    batch.store(cas, &mut files, &mut package_json, check, errors)?;
    Ok((files, package_json))
}

/// Every regular file of the inflated `tar`, read but not yet stored.
/// Seeking past each entry's data: contents are slices of `tar`, never
/// copied, so the batch is never full before the end.
fn read_whole<'t>(
    tar: &'t [u8],
    limits: &ExtractLimits,
    errors: &ExtractErrors<'_>,
) -> Result<FileBatch<'t>, TarballError> {
    let mut archive = tar::Archive::new(io::Cursor::new(tar));
    let entries = archive.entries_with_seek().map_err(|e| errors.read(e))?;
    let slice = |entry: &mut tar::Entry<'_, _>, path: &str| {
        let start = entry.raw_file_position();
        let content = start
            .checked_add(entry.size())
            .and_then(|end| tar.get(usize::try_from(start).ok()?..usize::try_from(end).ok()?))
            .ok_or_else(|| errors.corrupt(format!("entry {path:?} is truncated")))?;
        Ok(Content::Borrowed(content))
    };
    read_entries(entries, slice, limits, errors, |_| Ok(()))
}

/// Stores the files of `tgz` while it is inflated, one entry in memory at
/// a time (plus a batch waiting to be hashed).
fn store_streamed(
    tgz: &[u8],
    cas: &Cas,
    limits: &ExtractLimits,
    errors: &ExtractErrors<'_>,
    exceeded: &Cell<bool>,
) -> Result<(Files, Option<Vec<u8>>), TarballError> {
    let stream = TarStream::new(
        flate2::read::GzDecoder::new(tgz),
        limits.max_unpacked_bytes,
        exceeded,
    );
    let mut archive = tar::Archive::new(stream);
    let entries = archive.entries().map_err(|e| errors.read(e))?;
    let read = |entry: &mut tar::Entry<'_, _>, path: &str| {
        read_file(entry, path, limits, errors).map(Content::Owned)
    };
    let stored = store_entries(entries, read, cas, limits, None, errors)?;
    drain(archive.into_inner(), errors)?;
    Ok(stored)
}

/// The index entries by path inside the package, sorted bytewise.
type Files = BTreeMap<String, FileInfo>;

/// Stores every regular file of the archive, taking each one's content
/// from `content`. Returns the files by path and the bytes of the package's
/// `package.json`, if it has one.
fn store_entries<'t, R: Read>(
    entries: tar::Entries<'_, R>,
    content: impl FnMut(&mut tar::Entry<'_, R>, &str) -> Result<Content<'t>, TarballError>,
    cas: &Cas,
    limits: &ExtractLimits,
    mut check: Option<(&[u8], &TarballCheck)>,
    errors: &ExtractErrors<'_>,
) -> Result<(Files, Option<Vec<u8>>), TarballError> {
    let mut files = Files::new();
    let mut package_json: Option<Vec<u8>> = None;
    let flush = |batch: &mut FileBatch<'t>| {
        batch.store(cas, &mut files, &mut package_json, check.take(), errors)
    };
    let mut rest = read_entries(entries, content, limits, errors, flush)?;
    rest.store(cas, &mut files, &mut package_json, check, errors)?;
    Ok((files, package_json))
}

/// Reads every regular file of the archive, taking each one's content
/// from `content`, and hands the batch to `flush` whenever it is full.
/// Returns the batch read since the last flush.
fn read_entries<'t, R: Read>(
    entries: tar::Entries<'_, R>,
    mut content: impl FnMut(&mut tar::Entry<'_, R>, &str) -> Result<Content<'t>, TarballError>,
    limits: &ExtractLimits,
    errors: &ExtractErrors<'_>,
    mut flush: impl FnMut(&mut FileBatch<'t>) -> Result<(), TarballError>,
) -> Result<FileBatch<'t>, TarballError> {
    let mut batch = FileBatch::default();
    let mut entry_count = 0u64;
    // Raw iteration: the tar crate would buffer a GNU long name or a PAX
    // header of any declared size (gigabytes from a few KB of gzip) and
    // expand GNU sparse maps into unbounded block lists. Extension headers
    // are read here instead, with a size cap, and apply to the next entry.
    let mut pending = PendingExtensions::default();
    for entry in entries.raw(true) {
        let mut entry = entry.map_err(|e| errors.read(e))?;
        entry_count += 1;
        if entry_count > limits.max_entries {
            return Err(errors.too_large("the number of entries", limits.max_entries));
        }
        let kind = entry.header().entry_type();
        if is_extension_header(entry.header(), kind) {
            pending.buffer(&mut entry, kind, errors)?;
            continue;
        }
        let extensions = std::mem::take(&mut pending);
        let raw_path = extensions.path(entry.header().path_bytes().as_ref());
        if let Some(pax_size) = extensions.pax_size()
            && pax_size != entry.size()
        {
            return Err(errors.refuse(&raw_path, "has a PAX size that differs from its header"));
        }
        if !is_stored(kind, &raw_path, errors)? {
            continue;
        }
        let path = entry_path::strip_first_component(&raw_path)
            .map_err(|r| errors.refuse(&raw_path, r))?
            .ok_or_else(|| errors.refuse(&raw_path, "has an empty path"))?;
        let mode = entry.header().mode().map_err(|e| errors.read(e))? & 0o777;
        // An entry that alone exceeds the cap is refused from its header,
        // before anything is inflated or buffered: reading it could only
        // hit the cap (or prove the archive truncated) after up to
        // `max_unpacked_bytes` of memory had been taken.
        if entry.size() > limits.max_unpacked_bytes {
            return Err(errors.unpacked_too_large());
        }
        let data = content(&mut entry, &path)?;
        batch.push(path, mode, data);
        if batch.is_full() {
            flush(&mut batch)?;
        }
    }
    if pending.any() {
        return Err(errors.corrupt("an extended header describes no entry".to_string()));
    }
    Ok(batch)
}

/// A GNU long name/link or PAX header, which describes the next entry.
/// Their type flags mean that only in a GNU or ustar header, as the tar
/// crate decides.
fn is_extension_header(header: &tar::Header, kind: EntryType) -> bool {
    let recognized = header.as_gnu().is_some() || header.as_ustar().is_some();
    recognized
        && (kind.is_gnu_longname() || kind.is_gnu_longlink() || kind.is_pax_local_extensions())
}

/// Whether an entry of type `kind` goes into the store: regular files do;
/// directories (once their path is checked), pax global headers and
/// contiguous files are skipped; every other type is refused.
fn is_stored(
    kind: EntryType,
    raw_path: &[u8],
    errors: &ExtractErrors<'_>,
) -> Result<bool, TarballError> {
    match kind {
        EntryType::Regular => Ok(true),
        EntryType::Directory => {
            entry_path::strip_first_component(raw_path).map_err(|r| errors.refuse(raw_path, r))?;
            Ok(false)
        }
        EntryType::XGlobalHeader | EntryType::Continuous => Ok(false),
        EntryType::Symlink => Err(errors.refuse(raw_path, "is a symbolic link")),
        EntryType::Link => Err(errors.refuse(raw_path, "is a hard link")),
        EntryType::Char | EntryType::Block => Err(errors.refuse(raw_path, "is a device file")),
        EntryType::Fifo => Err(errors.refuse(raw_path, "is a FIFO")),
        _ => Err(errors.refuse(raw_path, "has an unsupported entry type")),
    }
}

/// Reads a regular file whole (its size is within the cap).
fn read_file<R: Read>(
    entry: &mut tar::Entry<'_, R>,
    path: &str,
    limits: &ExtractLimits,
    errors: &ExtractErrors<'_>,
) -> Result<Vec<u8>, TarballError> {
    let size = entry.size();
    let mut content =
        Vec::with_capacity(size.min(MAX_PREALLOCATION).min(limits.max_unpacked_bytes) as usize);
    entry
        .read_to_end(&mut content)
        .map_err(|e| errors.read(e))?;
    if content.len() as u64 != size {
        return Err(errors.corrupt(format!("entry {path:?} is truncated")));
    }
    Ok(content)
}

/// Reads the stream to its end, so the gzip trailer (CRC and size) is
/// checked after the tar's end-of-archive marker.
fn drain<R: Read>(
    mut stream: TarStream<'_, R>,
    errors: &ExtractErrors<'_>,
) -> Result<(), TarballError> {
    io::copy(&mut stream, &mut io::sink()).map_err(|e| errors.read(e))?;
    if stream.len() == 0 {
        return Err(errors.corrupt("the tarball is empty".to_string()));
    }
    Ok(())
}

/// Builds the errors of one extraction, which all name the package.
struct ExtractErrors<'a> {
    package_id: &'a str,
    max_unpacked_bytes: u64,
    /// Set by the stream when it hits the size cap.
    exceeded: &'a Cell<bool>,
}

impl ExtractErrors<'_> {
    /// A failed read: the size cap if the stream hit it (the `tar` crate
    /// may rewrap the stream's error, so the flag decides), else corruption.
    fn read(&self, e: io::Error) -> TarballError {
        if self.exceeded.get() {
            self.unpacked_too_large()
        } else {
            self.corrupt(e.to_string())
        }
    }

    fn unpacked_too_large(&self) -> TarballError {
        self.too_large("the unpacked size", self.max_unpacked_bytes)
    }

    fn too_large(&self, what: &'static str, limit: u64) -> TarballError {
        TarballError::TooLarge {
            package_id: self.package_id.to_string(),
            what,
            limit,
        }
    }

    fn corrupt(&self, reason: String) -> TarballError {
        TarballError::Corrupt {
            package_id: self.package_id.to_string(),
            reason,
        }
    }

    fn refuse(&self, entry: &[u8], reason: &'static str) -> TarballError {
        TarballError::UnsafeEntry {
            package_id: self.package_id.to_string(),
            entry: String::from_utf8_lossy(entry).into_owned(),
            reason,
        }
    }

    fn store(&self, source: pacquet_cas::CasError) -> TarballError {
        TarballError::Store {
            package_id: self.package_id.to_string(),
            source,
        }
    }
}

/// GNU long names/links and PAX headers waiting for the entry they describe.
#[derive(Default)]
struct PendingExtensions {
    long_name: Option<Vec<u8>>,
    long_link: Option<Vec<u8>>,
    pax: Option<Vec<u8>>,
}

impl PendingExtensions {
    fn any(&self) -> bool {
        self.long_name.is_some() || self.long_link.is_some() || self.pax.is_some()
    }

    /// Reads an extension header of type `kind` into its slot. The size cap
    /// comes first, since the buffer is reserved from the declared size.
    fn buffer<R: Read>(
        &mut self,
        entry: &mut tar::Entry<'_, R>,
        kind: EntryType,
        errors: &ExtractErrors<'_>,
    ) -> Result<(), TarballError> {
        let size = entry.size();
        if size > MAX_EXTENSION_HEADER {
            return Err(
                errors.too_large("a long name or PAX extended header", MAX_EXTENSION_HEADER)
            );
        }
        let mut data = Vec::with_capacity(size as usize);
        entry.read_to_end(&mut data).map_err(|e| errors.read(e))?;
        let slot = if kind.is_gnu_longname() {
            &mut self.long_name
        } else if kind.is_gnu_longlink() {
            &mut self.long_link
        } else {
            &mut self.pax
        };
        if slot.replace(data).is_some() {
            return Err(errors.corrupt("two extended headers describe the same entry".to_string()));
        }
        Ok(())
    }

    /// The entry's path as the tar crate resolves it: a GNU long name (minus
    /// its trailing NUL) wins over the first PAX `path`, which wins over the
    /// header.
    fn path(&self, header_path: &[u8]) -> Vec<u8> {
        if let Some(name) = &self.long_name {
            return name.strip_suffix(&[0]).unwrap_or(name).to_vec();
        }
        self.pax_value(b"path").unwrap_or(header_path).to_vec()
    }

    /// The PAX `size` record, when present; unparsable counts as `u64::MAX`
    /// so it never matches a header.
    fn pax_size(&self) -> Option<u64> {
        let value = self.pax_value(b"size")?;
        Some(
            std::str::from_utf8(value)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(u64::MAX),
        )
    }

    fn pax_value(&self, key: &[u8]) -> Option<&[u8]> {
        let pax = self.pax.as_deref()?;
        tar::PaxExtensions::new(pax)
            .filter_map(Result::ok)
            .find(|e| e.key_bytes() == key)
            .map(|e| e.value_bytes())
    }
}

/// A file whose path is also the parent directory of another file (`a` and
/// `a/b`): no directory tree can hold both, so linking would fail halfway.
fn file_used_as_directory(files: &Files) -> Option<&str> {
    let mut dirs = std::collections::HashSet::new();
    for path in files.keys() {
        let mut rest = path.as_str();
        while let Some((parent, _)) = rest.rsplit_once('/') {
            if !dirs.insert(parent) {
                break;
            }
            rest = parent;
        }
    }
    files
        .keys()
        .map(String::as_str)
        .find(|path| dirs.contains(path))
}

/// An unparsable `package.json` leaves the row without a manifest; the
/// installer then reports the package's content as unexpected.
fn parse_package_json(bytes: &[u8], package_id: &str) -> Option<serde_json::Value> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match serde_json::from_slice(bytes) {
        Ok(value) => Some(value),
        Err(e) => {
            tracing::warn!("{package_id}: package.json is not valid JSON: {e}");
            None
        }
    }
}
