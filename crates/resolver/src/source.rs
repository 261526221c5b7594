//! Where packuments come from: the registry through pnpm 12's metadata
//! mirror, or (in tests) a map in memory.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::path::Path;
use std::sync::{Arc, Mutex};

use pacquet_registry_metadata::mirror::FileBytes;
use pacquet_registry_metadata::{Body, Client, Kind, MirrorWriter};
use pacquet_tarball::Fetcher;
use tokio::sync::OnceCell;

use crate::ResolveError;
use crate::kept_indexes::KeptIndexes;
use crate::packument::Packument;
use crate::read_ahead::ReadAhead;
use crate::request_ahead::RequestAhead;

/// Gives the packument of a package name.
pub trait Metadata: Sync {
    fn packument(
        &self,
        name: &str,
    ) -> impl Future<Output = Result<Arc<Packument>, ResolveError>> + Send;

    /// The registry `name` is fetched from, for messages.
    fn registry(&self, name: &str) -> String;

    /// Reads ahead what [`Metadata::packument`] will be asked for `names`
    /// where that needs no request; what it cannot answer alone is left to
    /// [`Metadata::packument`].
    fn prefetch(&self, _names: &[&str]) {}

    /// `name` will be asked for soon: its kept document may be read ahead,
    /// or its request started ahead ([`RegistryMetadata::request_ahead`]).
    fn hint(&self, _name: &str) {}

    /// The registry's current document of `name`, when the one
    /// [`Metadata::packument`] gave came from the metadata mirror without a
    /// request (docs/registry-metadata.md §4); `None` when it was already
    /// the registry's answer. A pick the kept copy cannot satisfy asks
    /// here before it fails, as pnpm 12.21 revalidates then.
    fn revalidate(
        &self,
        _name: &str,
    ) -> impl Future<Output = Option<Result<Arc<Packument>, ResolveError>>> + Send {
        std::future::ready(None)
    }
}

/// Where a package's metadata lives and how to authenticate there.
pub trait Registries: Send + Sync {
    /// The registry serving `name`, ending in `/`.
    fn registry_for(&self, name: &str) -> String;
    /// The `Authorization` header value for `url`, if any.
    fn authorization_for(&self, url: &str, name: &str) -> Option<String>;
}

type Cell = Arc<OnceCell<Result<Arc<Packument>, ResolveError>>>;

/// A test on package names.
type NamePredicate<'a> = Box<dyn Fn(&str) -> bool + Send + Sync + 'a>;

/// Packuments from the registries, one request per name per install.
pub struct RegistryMetadata<'a> {
    pub fetcher: &'a Fetcher,
    pub cache_dir: Option<&'a Path>,
    pub registries: &'a dyn Registries,
    pub offline: bool,
    /// `minimumReleaseAge`'s cutoff (ms since the epoch): a package whose
    /// abbreviated document changed after it gets its full document, for
    /// the publish times, as pnpm 12 does (docs/resolution.md §1).
    pub cutoff_ms: Option<i64>,
    /// Every package gets its full document (`resolutionMode: time-based`).
    full: bool,
    /// A kept document is used without a request when its file changed at
    /// or after this time (ms since the epoch; `i64::MIN`: any kept copy).
    kept_since: Option<i64>,
    /// Names whose kept document is always revalidated.
    always_ask: Option<NamePredicate<'a>>,
    /// Names whose document came from the mirror without a request.
    unverified: Mutex<HashSet<String>>,
    cells: Mutex<HashMap<String, Cell>>,
    read_ahead: ReadAhead,
    requests: RequestAhead,
    /// Writes the mirror files of the documents requested; dropping the
    /// metadata waits for it.
    writer: MirrorWriter,
    /// The kept documents' indexes, parsed by earlier resolutions.
    indexes: KeptIndexes,
    /// Whether each registry's mirror directory of each kind existed when
    /// first looked at ([`RegistryMetadata::mirror_exists`]).
    mirrors: Mutex<Vec<(String, Kind, bool)>>,
}

impl<'a> RegistryMetadata<'a> {
    pub fn new(
        fetcher: &'a Fetcher,
        cache_dir: Option<&'a Path>,
        registries: &'a dyn Registries,
        offline: bool,
        cutoff_ms: Option<i64>,
    ) -> Self {
        RegistryMetadata {
            fetcher,
            cache_dir,
            registries,
            offline,
            cutoff_ms,
            full: false,
            kept_since: None,
            always_ask: None,
            unverified: Mutex::default(),
            cells: Mutex::default(),
            read_ahead: ReadAhead::default(),
            requests: RequestAhead::default(),
            writer: MirrorWriter::default(),
            indexes: KeptIndexes::new(cache_dir),
            mirrors: Mutex::default(),
        }
    }

    /// Answers from the metadata mirror before asking the registry, as
    /// pnpm 12.21 does (docs/registry-metadata.md §4): any kept copy under
    /// `preferOffline`, else one revalidated or written at or after
    /// `minimumReleaseAge`'s cutoff; names `always_ask` accepts (those
    /// `minimumReleaseAgeExclude` exempts whole) are always revalidated.
    pub fn with_kept_documents(
        mut self,
        prefer_offline: bool,
        always_ask: impl Fn(&str) -> bool + Send + Sync + 'a,
    ) -> Self {
        self.kept_since = if prefer_offline {
            Some(i64::MIN)
        } else {
            self.cutoff_ms
        };
        self.always_ask = (!prefer_offline).then(|| Box::new(always_ask) as Box<_>);
        self
    }

    /// Full documents for every package, when `full`.
    pub fn with_full_documents(mut self, full: bool) -> Self {
        self.full = full;
        self
    }

    async fn fetch(&self, name: &str, ask: bool) -> Result<Arc<Packument>, ResolveError> {
        if self.full {
            return self.fetch_kind(name, Kind::Full, ask).await;
        }
        let abbreviated = self.fetch_kind(name, Kind::Abbreviated, ask).await?;
        if self.answers_alone(&abbreviated) {
            return Ok(abbreviated);
        }
        self.fetch_kind(name, Kind::Full, ask).await
    }

    /// A reader thread: reads the kept documents of the names
    /// [`Metadata::hint`] and [`Metadata::prefetch`] queue while the walk
    /// goes on, until [`RegistryMetadata::stop_reading_ahead`]. Without
    /// one, [`Metadata::prefetch`] reads them on the walker's thread.
    pub fn read_ahead(&self) {
        self.read_ahead.work(|name| self.read_kept(name));
    }

    /// Requests the documents of the names [`Metadata::hint`] queues and
    /// the kept documents cannot answer, all at once, as they are queued,
    /// until [`RegistryMetadata::stop_reading_ahead`]: the walk finds them
    /// arrived or on their way when it reaches them. Offline, it reads and
    /// parses the mirror's copies instead.
    pub async fn request_ahead(&self) {
        self.requests
            .work(|name| async move {
                // A failure is kept in the cell for the walk to report.
                let _ = self.packument(&name).await;
            })
            .await;
    }

    /// Ends the [`RegistryMetadata::read_ahead`] threads and
    /// [`RegistryMetadata::request_ahead`].
    pub fn stop_reading_ahead(&self) {
        self.read_ahead.close();
        self.requests.close();
    }

    /// Waits until every requested document is written to the mirror, and
    /// keeps the indexes of the documents parsed
    /// ([`RegistryMetadata::write_indexes`], unless called before); what
    /// is left is plain data (for [`pacquet_teardown::discard`]).
    pub fn finish_writing(&self) {
        self.writer.finish();
        self.write_indexes();
    }

    /// Keeps the indexes of the kept documents parsed so far, for the next
    /// resolution (docs/registry-metadata.md §7).
    pub fn write_indexes(&self) {
        self.indexes.write();
    }

    /// Fills the cell of `name` from its kept documents, where they answer
    /// without a request; otherwise requests it ahead.
    fn read_kept(&self, name: &str) {
        let filled = {
            let cells = self.cells.lock().unwrap_or_else(|e| e.into_inner());
            cells.get(name).is_some_and(|cell| cell.initialized())
        };
        if filled {
            return;
        }
        if let Some(packument) = self.fetch_kept(name) {
            let mut cells = self.cells.lock().unwrap_or_else(|e| e.into_inner());
            // A cell filled meanwhile (by a request) keeps its answer.
            if cells
                .entry(name.to_owned())
                .or_default()
                .set(Ok(packument))
                .is_ok()
            {
                drop(cells);
                self.mark_unverified(name);
            }
        } else {
            self.requests.push(name);
        }
    }

    /// Whether an abbreviated document is enough: no `minimumReleaseAge`,
    /// nothing in it changed after the cutoff, or it has the publish times
    /// (docs/resolution.md §1).
    fn answers_alone(&self, abbreviated: &Packument) -> bool {
        let settled = |cutoff| {
            abbreviated
                .modified_ms
                .is_some_and(|modified| modified <= cutoff)
        };
        self.cutoff_ms.is_none_or(settled) || abbreviated.has_time()
    }

    fn client(&self) -> Client<'_> {
        Client {
            fetcher: self.fetcher,
            cache_dir: self.cache_dir,
            offline: self.offline,
            writer: Some(&self.writer),
        }
    }

    /// What [`RegistryMetadata::fetch`] gives without a request: the kept
    /// documents it would use, or `None` when it would ask the registry.
    fn fetch_kept(&self, name: &str) -> Option<Arc<Packument>> {
        if self.full {
            return self.kept_packument(name, Kind::Full);
        }
        let abbreviated = self.kept_packument(name, Kind::Abbreviated)?;
        if self.answers_alone(&abbreviated) {
            return Some(abbreviated);
        }
        self.kept_packument(name, Kind::Full)
    }

    fn kept_packument(&self, name: &str, kind: Kind) -> Option<Arc<Packument>> {
        let registry = self.registries.registry_for(name);
        let file = self.kept_file(&registry, name, kind, false)?;
        self.parse_kept(&registry, kind, name, file)?.ok()
    }

    /// The kept document that answers without a request, if any
    /// (docs/registry-metadata.md §4); `ask`: never one.
    fn kept_file(&self, registry: &str, name: &str, kind: Kind, ask: bool) -> Option<FileBytes> {
        let since = self.kept_since?;
        if ask || self.offline || self.always_ask.as_ref().is_some_and(|f| f(name)) {
            return None;
        }
        if !self.mirror_exists(registry, kind) {
            return None;
        }
        self.client()
            .kept_file(registry, name, kind, (since != i64::MIN).then_some(since))
    }

    /// Whether this resolution may find kept documents from `registry`:
    /// its metadata mirror exists (see [`RegistryMetadata::mirror_exists`]).
    pub fn keeps_documents_of(&self, registry: &str) -> bool {
        let kind = if self.full {
            Kind::Full
        } else {
            Kind::Abbreviated
        };
        self.mirror_exists(registry, kind)
    }

    /// Whether `registry`'s mirror of `kind` documents existed when first
    /// looked at in this resolution. When it did not (an empty cache), no
    /// kept document of it is looked for: the files that appear meanwhile
    /// are this resolution's own, of names already answered.
    fn mirror_exists(&self, registry: &str, kind: Kind) -> bool {
        let Some(cache_dir) = self.cache_dir else {
            return false;
        };
        let mut mirrors = self.mirrors.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, exists)) = mirrors.iter().find(|(r, k, _)| r == registry && *k == kind) {
            return *exists;
        }
        let exists = pacquet_registry_metadata::path::registry_slug(registry)
            .is_some_and(|slug| cache_dir.join(kind.dir()).join(slug).is_dir());
        mirrors.push((registry.to_owned(), kind, exists));
        exists
    }

    /// The packument of a kept file: from the kept indexes when they have
    /// the file's, else decoded and parsed; `None` for a damaged or
    /// foreign file, which counts as absent.
    fn parse_kept(
        &self,
        registry: &str,
        kind: Kind,
        name: &str,
        file: FileBytes,
    ) -> Option<Result<Arc<Packument>, ResolveError>> {
        let file = match self.indexes.packument(registry, kind, name, file) {
            Ok(packument) => return Some(Ok(Arc::new(packument))),
            Err(file) => file,
        };
        let body = pacquet_registry_metadata::mirror::decode_file(file)?;
        Some(self.parse_body(registry, kind, name, body.into()))
    }

    /// `name`'s document came from the mirror without a request.
    fn mark_unverified(&self, name: &str) {
        self.unverified
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name.to_owned());
    }

    /// A kept file's packument goes to the kept indexes.
    fn parse_body(
        &self,
        registry: &str,
        kind: Kind,
        name: &str,
        body: Body,
    ) -> Result<Arc<Packument>, ResolveError> {
        // Parsed where it was read (the walk's task or a reader thread),
        // not handed to the blocking pool: see `read_mirror` in
        // pacquet-registry-metadata.
        let packument = match body {
            Body::Document(bytes) => Packument::parse(bytes).map_err(|e| e.to_string()),
            Body::Kept(kept) => {
                let packument = Arc::new(Packument::from_kept(*kept));
                self.indexes.add(registry, kind, name, &packument);
                return Ok(packument);
            }
        };
        let packument = packument.map_err(|reason| ResolveError::InvalidMetadata {
            name: name.to_owned(),
            url: pacquet_registry_metadata::packument_url(registry, name),
            reason,
        })?;
        Ok(Arc::new(packument))
    }

    /// `ask`: revalidate even a kept copy that could answer alone.
    async fn fetch_kind(
        &self,
        name: &str,
        kind: Kind,
        ask: bool,
    ) -> Result<Arc<Packument>, ResolveError> {
        let registry = self.registries.registry_for(name);
        if let Some(file) = self.kept_file(&registry, name, kind, ask)
            && let Some(kept) = self.parse_kept(&registry, kind, name, file)
        {
            self.mark_unverified(name);
            return kept;
        }
        let url = pacquet_registry_metadata::packument_url(&registry, name);
        let authorization = self.registries.authorization_for(&url, name);
        let body = self
            .client()
            .get_body(&registry, name, kind, authorization.as_deref())
            .await
            .map_err(|e| ResolveError::from_metadata(name, e))?;
        self.parse_body(&registry, kind, name, body)
    }
}

impl Metadata for RegistryMetadata<'_> {
    async fn packument(&self, name: &str) -> Result<Arc<Packument>, ResolveError> {
        let cell = {
            let mut cells = self.cells.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(cells.entry(name.to_owned()).or_default())
        };
        cell.get_or_init(|| self.fetch(name, false)).await.clone()
    }

    fn registry(&self, name: &str) -> String {
        self.registries.registry_for(name)
    }

    /// Kept documents are read on the walker's thread and on the reader
    /// threads ([`RegistryMetadata::read_ahead`]): on the walker's thread
    /// alone they were ~45 % of alotta's resolution from a warm cache.
    fn prefetch(&self, names: &[&str]) {
        if self.kept_since.is_none() {
            return;
        }
        for name in names {
            self.read_ahead.push(name);
        }
        self.read_ahead.drain(|name| self.read_kept(name));
    }

    /// A name whose registry has no mirror goes straight to the requests:
    /// through a reader thread, each of alotta's 1,142 names waited for
    /// that thread's turn on a CPU before its request started.
    fn hint(&self, name: &str) {
        if self.kept_since.is_some() && self.keeps_documents_of(&self.registries.registry_for(name))
        {
            self.read_ahead.push(name);
        } else {
            self.requests.push(name);
        }
    }

    async fn revalidate(&self, name: &str) -> Option<Result<Arc<Packument>, ResolveError>> {
        let was_kept = self
            .unverified
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(name);
        if !was_kept {
            return None;
        }
        let fresh = self.fetch(name, true).await;
        let cell = Arc::new(OnceCell::new_with(Some(fresh.clone())));
        self.cells
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name.to_owned(), cell);
        Some(fresh)
    }
}

/// Packuments given up front (tests, and documents already at hand).
#[derive(Default)]
pub struct InMemory {
    pub packuments: HashMap<String, Arc<Packument>>,
}

impl Metadata for InMemory {
    async fn packument(&self, name: &str) -> Result<Arc<Packument>, ResolveError> {
        self.packuments
            .get(name)
            .cloned()
            .ok_or_else(|| ResolveError::NotFound {
                name: name.to_owned(),
                url: format!("memory:{name}"),
            })
    }

    fn registry(&self, _name: &str) -> String {
        "memory:".to_owned()
    }
}

#[cfg(test)]
mod tests;
