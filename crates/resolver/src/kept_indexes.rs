//! Kept documents' indexes as resolution parsed them, one file per
//! registry and document kind under `<cacheDir>/pacquet/kept-indexes/`
//! (docs/registry-metadata.md §7). A resolution from a warm metadata cache
//! spent most of its reading in decoding each mirror file's index and
//! parsing its versions; an entry here answers for a file whose first
//! line, headers and index are byte for byte the ones it was made from,
//! and the file still gives the versions' manifests and publish times.
//!
//! The file: a magic line, each entry as its package name and its bytes
//! ([`crate::packument::archived`]), then the 128-bit XXH3 of the entries.
//! A file that fails its digest is ignored; a resolution that parsed
//! documents the file did not answer for replaces it, by rename, with its
//! entries added. Entries are encoded as the file is written, from the
//! packuments the resolution holds anyway, so no copy of them grows the
//! heap (alotta: 1.6 MB).

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
    added: Mutex<HashMap<Key, HashMap<String, Arc<Packument>>>>,
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

    /// Keeps `packument`, read from `name`'s kept file, for
    /// [`KeptIndexes::write`]. Packuments not read from a kept file get no
    /// entry.
    pub fn add(&self, registry: &str, kind: Kind, name: &str, packument: &Arc<Packument>) {
        if self.dir.is_none() || packument.kept_bytes().is_none() {
            return;
        }
        self.added
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry((kind.dir(), registry.to_owned()))
            .or_default()
            .insert(name.to_owned(), Arc::clone(packument));
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
            let kept = old
                .entries()
                .filter(|(name, _)| !entries.contains_key(*name))
                .map(|(name, entry)| (name, Entry::Kept(entry)));
            let new = entries
                .iter()
                .map(|(name, packument)| (name.as_str(), Entry::New(packument)));
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let written =
                pacquet_state::write_atomic_with(&path, |out| write_file(kept.chain(new), out));
            if let Err(e) = written {
                tracing::debug!("could not keep {}: {e}", path.display());
            }
            // A later write merges with the file just written.
            drop(old);
            self.read
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(&key);
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

/// An entry of the index file being written.
enum Entry<'e> {
    /// From the file it replaces.
    Kept(&'e [u8]),
    /// Of a packument parsed by this resolution.
    New(&'e Packument),
}

/// Writes the index file holding `entries`, encoding the new ones into
/// one buffer in turn.
fn write_file<'e>(
    entries: impl Iterator<Item = (&'e str, Entry<'e>)>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut digest = xxhash_rust::xxh3::Xxh3Default::new();
    let mut scratch = Vec::new();
    out.write_all(MAGIC)?;
    for (name, entry) in entries {
        let entry = match entry {
            Entry::Kept(bytes) => bytes,
            Entry::New(packument) => {
                scratch.clear();
                if archived::encode(packument, &mut scratch).is_none() {
                    continue;
                }
                &scratch[..]
            }
        };
        for piece in [
            &(name.len() as u32).to_le_bytes()[..],
            name.as_bytes(),
            &(entry.len() as u32).to_le_bytes(),
            entry,
        ] {
            digest.update(piece);
            out.write_all(piece)?;
        }
    }
    out.write_all(&digest.digest128().to_le_bytes())
}

/// Where each entry of an index file is; `None` for a file of another
/// format or damaged.
fn decode_file(bytes: &[u8]) -> Option<HashMap<String, Range<usize>>> {
    let rest = bytes.strip_prefix(MAGIC)?;
    let (body, digest) = rest.split_at_checked(rest.len().checked_sub(16)?)?;
    if digest != xxh3_128(body).to_le_bytes() {
        return None;
    }
    let base = MAGIC.len();
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
