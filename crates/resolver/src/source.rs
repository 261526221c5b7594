//! Where packuments come from: the registry through pnpm 12's metadata
//! mirror, or (in tests) a map in memory.

use std::collections::HashMap;
use std::future::Future;
use std::path::Path;
use std::sync::{Arc, Mutex};

use pacquet_registry_metadata::{Client, Kind};
use pacquet_tarball::Fetcher;
use tokio::sync::OnceCell;

use crate::ResolveError;
use crate::packument::Packument;

/// Gives the packument of a package name.
pub trait Metadata: Sync {
    fn packument(
        &self,
        name: &str,
    ) -> impl Future<Output = Result<Arc<Packument>, ResolveError>> + Send;

    /// The registry `name` is fetched from, for messages.
    fn registry(&self, name: &str) -> String;
}

/// Where a package's metadata lives and how to authenticate there.
pub trait Registries: Send + Sync {
    /// The registry serving `name`, ending in `/`.
    fn registry_for(&self, name: &str) -> String;
    /// The `Authorization` header value for `url`, if any.
    fn authorization_for(&self, url: &str, name: &str) -> Option<String>;
}

type Cell = Arc<OnceCell<Result<Arc<Packument>, ResolveError>>>;

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
    cells: Mutex<HashMap<String, Cell>>,
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
            cells: Mutex::default(),
        }
    }

    /// Full documents for every package, when `full`.
    pub fn with_full_documents(mut self, full: bool) -> Self {
        self.full = full;
        self
    }

    async fn fetch(&self, name: &str) -> Result<Arc<Packument>, ResolveError> {
        if self.full {
            return self.fetch_kind(name, Kind::Full).await;
        }
        let abbreviated = self.fetch_kind(name, Kind::Abbreviated).await?;
        let Some(cutoff) = self.cutoff_ms else {
            return Ok(abbreviated);
        };
        let settled = abbreviated
            .modified
            .as_deref()
            .and_then(pacquet_state::parse_iso_date)
            .is_some_and(|modified| modified <= cutoff);
        if settled || abbreviated.time.is_some() {
            return Ok(abbreviated);
        }
        self.fetch_kind(name, Kind::Full).await
    }

    async fn fetch_kind(&self, name: &str, kind: Kind) -> Result<Arc<Packument>, ResolveError> {
        let registry = self.registries.registry_for(name);
        let url = pacquet_registry_metadata::packument_url(&registry, name);
        let authorization = self.registries.authorization_for(&url, name);
        let client = Client {
            fetcher: self.fetcher,
            cache_dir: self.cache_dir,
            offline: self.offline,
        };
        let body = client
            .get(&registry, name, kind, authorization.as_deref())
            .await
            .map_err(|e| ResolveError::from_metadata(name, e))?;
        // Parsed on the task: see `read_mirror` in pacquet-registry-metadata.
        let packument = Packument::parse(body).map_err(|e| ResolveError::InvalidMetadata {
            name: name.to_owned(),
            url,
            reason: e.to_string(),
        })?;
        Ok(Arc::new(packument))
    }
}

impl Metadata for RegistryMetadata<'_> {
    async fn packument(&self, name: &str) -> Result<Arc<Packument>, ResolveError> {
        let cell = {
            let mut cells = self.cells.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(cells.entry(name.to_owned()).or_default())
        };
        cell.get_or_init(|| self.fetch(name)).await.clone()
    }

    fn registry(&self, name: &str) -> String {
        self.registries.registry_for(name)
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
