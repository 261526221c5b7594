//! Kept documents' indexes as resolution parsed them, one file per
//! registry and document kind under `<cacheDir>/pacquet/kept-indexes/`
//! (docs/registry-metadata.md §7). A resolution from a warm metadata cache
//! spent most of its reading in decoding each mirror file's index and
//! parsing its versions; an entry here answers for a file whose first
//! line, headers and index are byte for byte the ones it was made from,
//! and the file still gives the versions' manifests and publish times.
//!
//! The file: a magic line, the 128-bit XXH3 of the rest, then each entry
//! as its package name and its bytes ([`crate::packument::archived`]). A
//! file that fails its digest is ignored; a resolution that parsed
//! documents the file did not answer for replaces it, by rename, with its
//! entries added.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use pacquet_registry_metadata::Kind;
use pacquet_registry_metadata::mirror::FileBytes;
use xxhash_rust::xxh3::xxh3_128;

use crate::packument::Packument;
use crate::packument::archived::{self, Reader};

const MAGIC: &[u8] = b"pacquet-kept-indexes 1\n";

/// One index file per registry and kind.
type Key = (&'static str, String);

/// The index files of one cache directory, read as they are first asked,
/// and the entries a resolution adds.
pub(crate) struct KeptIndexes {
    dir: Option<PathBuf>,
    read: Mutex<HashMap<Key, Arc<IndexFile>>>,
    added: Mutex<HashMap<Key, HashMap<String, Vec<u8>>>>,
}

impl KeptIndexes {
    /// The index files under `cache_dir`; none without one.
    pub fn new(cache_dir: Option<&Path>) -> KeptIndexes {
        KeptIndexes {
            dir: cache_dir.map(|dir| dir.join("pacquet").join("kept-indexes")),
            read: Mutex::default(),
            added: Mutex::default(),
        }
    }

    fn path(&self, (kind, registry): &Key) -> Option<PathBuf> {
        let slug = pacquet_registry_metadata::path::registry_slug(registry)?;
        Some(self.dir.as_ref()?.join(kind).join(slug))
    }

    fn file(&self, key: &Key) -> Arc<IndexFile> {
        let mut read = self.read.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(file) = read.get(key) {
            return Arc::clone(file);
        }
        let file = Arc::new(
            self.path(key)
                .and_then(|path| IndexFile::read(&path))
                .unwrap_or_default(),
        );
        read.insert(key.clone(), Arc::clone(&file));
        file
    }

    /// The packument of `name`'s kept `file` (`kind`, from `registry`)
    /// where an index file has its entry; `file` back otherwise.
    pub fn packument(
        &self,
        registry: &str,
        kind: Kind,
        name: &str,
        file: FileBytes,
    ) -> Result<Packument, FileBytes> {
        if self.dir.is_none() {
            return Err(file);
        }
        let index = self.file(&(kind.dir(), registry.to_owned()));
        match index.entry(name) {
            Some(entry) => archived::decode(entry, file),
            None => Err(file),
        }
    }

    /// Keeps the entry of `packument`, read from `name`'s kept file, for
    /// [`KeptIndexes::write`]. Packuments not read from a kept file are
    /// left out.
    pub fn add(&self, registry: &str, kind: Kind, name: &str, packument: &Packument) {
        if self.dir.is_none() {
            return;
        }
        let Some(digest) = packument.kept_bytes().and_then(archived::head_digest) else {
            return;
        };
        let mut entry = Vec::new();
        if archived::encode(digest, packument, &mut entry).is_none() {
            return;
        }
        self.added
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry((kind.dir(), registry.to_owned()))
            .or_default()
            .insert(name.to_owned(), entry);
    }

    /// Replaces each index file that got entries with one holding its
    /// entries and theirs. An index that cannot be written only costs the
    /// next resolution the parse, so failures are ignored.
    pub fn write(&self) {
        let added = std::mem::take(&mut *self.added.lock().unwrap_or_else(PoisonError::into_inner));
        for (key, entries) in added {
            let Some(path) = self.path(&key) else {
                continue;
            };
            let old = self.file(&key);
            let bytes = encode_file(
                old.entries()
                    .filter(|(name, _)| !entries.contains_key(*name))
                    .chain(
                        entries
                            .iter()
                            .map(|(name, entry)| (name.as_str(), &entry[..])),
                    ),
            );
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            if let Err(e) = pacquet_state::write_atomic(&path, &bytes) {
                tracing::debug!("could not keep {}: {e}", path.display());
            }
        }
    }
}

/// An index file, mapped.
#[derive(Default)]
struct IndexFile {
    bytes: Option<memmap2::Mmap>,
    /// Where each name's entry is in `bytes`.
    entries: HashMap<String, Range<usize>>,
}

impl IndexFile {
    fn read(path: &Path) -> Option<IndexFile> {
        let file = std::fs::File::open(path).ok()?;
        // SAFETY: index files are replaced by rename, never written in
        // place, so the mapped bytes do not change under the reader.
        let bytes = unsafe { memmap2::Mmap::map(&file) }.ok()?;
        let entries = decode_file(&bytes)?;
        Some(IndexFile {
            bytes: Some(bytes),
            entries,
        })
    }

    fn entry(&self, name: &str) -> Option<&[u8]> {
        let at = self.entries.get(name)?;
        self.bytes.as_ref()?.get(at.clone())
    }

    fn entries(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.entries
            .iter()
            .filter_map(|(name, at)| Some((name.as_str(), self.bytes.as_ref()?.get(at.clone())?)))
    }
}

/// The bytes of an index file holding `entries`.
fn encode_file<'e>(entries: impl Iterator<Item = (&'e str, &'e [u8])>) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, entry) in entries {
        body.extend_from_slice(&(name.len() as u32).to_le_bytes());
        body.extend_from_slice(name.as_bytes());
        body.extend_from_slice(&(entry.len() as u32).to_le_bytes());
        body.extend_from_slice(entry);
    }
    let mut out = Vec::with_capacity(MAGIC.len() + 16 + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&xxh3_128(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Where each entry of an index file is; `None` for a file of another
/// format or damaged.
fn decode_file(bytes: &[u8]) -> Option<HashMap<String, Range<usize>>> {
    let rest = bytes.strip_prefix(MAGIC)?;
    let (digest, body) = rest.split_at_checked(16)?;
    if digest != xxh3_128(body).to_le_bytes() {
        return None;
    }
    let base = bytes.len() - body.len();
    let mut reader = Reader(body);
    let mut entries = HashMap::new();
    while !reader.0.is_empty() {
        let name = reader.str()?.to_owned();
        let len = reader.u32()? as usize;
        let start = base + (body.len() - reader.0.len());
        reader.take(len)?;
        entries.insert(name, start..start + len);
    }
    Some(entries)
}

#[cfg(test)]
mod tests;
