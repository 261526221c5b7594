//! Registry metadata for the checks: at most one request per document kind
//! and package name per install, shared by every entry of that name
//! (docs/supply-chain.md §6). The abbreviated document (small) answers
//! the tarball binding and, through `modified`, most age checks; the full
//! one is fetched only for per-version `time` or trust evidence. Both are
//! kept in, and revalidated against, pnpm 12's metadata mirror.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use std::path::Path;

use pacquet_registry_metadata::Client;
pub(crate) use pacquet_registry_metadata::Kind;
use pacquet_tarball::Fetcher;
use tokio::sync::OnceCell;

use crate::packument::Packument;

/// Where a package's metadata lives and how to authenticate there.
pub trait Registries: Send + Sync {
    /// The registry serving `name`, ending in `/`.
    fn registry_for(&self, name: &str) -> String;
    /// The `Authorization` header value for `url`, if any.
    fn authorization_for(&self, url: &str, name: &str) -> Option<String>;
}

/// A document, or why it could not be had (the text of the error).
pub(crate) type Fetched = Result<Arc<Packument>, String>;

type Cells = Mutex<HashMap<String, Arc<OnceCell<Fetched>>>>;

pub(crate) struct Metadata<'a> {
    fetcher: Fetcher,
    cache_dir: &'a Path,
    registries: &'a dyn Registries,
    offline: bool,
    abbreviated: Cells,
    full: Cells,
}

impl<'a> Metadata<'a> {
    pub(crate) fn new(
        fetcher: Fetcher,
        cache_dir: &'a Path,
        registries: &'a dyn Registries,
        offline: bool,
    ) -> Self {
        Metadata {
            fetcher,
            cache_dir,
            registries,
            offline,
            abbreviated: Mutex::default(),
            full: Mutex::default(),
        }
    }

    pub(crate) fn registry_for(&self, name: &str) -> String {
        self.registries.registry_for(name)
    }

    /// The document of `kind` for `name`. A full document already fetched
    /// serves an abbreviated request too.
    pub(crate) async fn get(&self, name: &str, kind: Kind) -> Fetched {
        if let Kind::Abbreviated = kind
            && let Some(Ok(full)) = self.peek_full(name)
        {
            return Ok(full);
        }
        let cells = match kind {
            Kind::Abbreviated => &self.abbreviated,
            Kind::Full => &self.full,
        };
        let cell = self.cell(cells, name);
        cell.get_or_init(|| self.fetch(name, kind)).await.clone()
    }

    fn peek_full(&self, name: &str) -> Option<Fetched> {
        let map = self.full.lock().unwrap_or_else(|e| e.into_inner());
        map.get(name)?.get().cloned()
    }

    fn cell(&self, cells: &Cells, name: &str) -> Arc<OnceCell<Fetched>> {
        let mut map = cells.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(map.entry(name.to_string()).or_default())
    }

    async fn fetch(&self, name: &str, kind: Kind) -> Fetched {
        let registry = self.registry_for(name);
        let url = pacquet_registry_metadata::packument_url(&registry, name);
        let authorization = self.registries.authorization_for(&url, name);
        let client = Client {
            fetcher: &self.fetcher,
            cache_dir: Some(self.cache_dir),
            offline: self.offline,
        };
        let body = client
            .get(&registry, name, kind, authorization.as_deref())
            .await
            .map_err(|e| match miette::Diagnostic::code(&e) {
                Some(code) if code.to_string() != "ERR_PNPM_META_FETCH_FAIL" => {
                    format!("{code}: {e}")
                }
                _ => e.to_string(),
            })?;
        Packument::parse(&body)
            .map(Arc::new)
            .map_err(|e| format!("the metadata of {name} from {url} is not valid JSON: {e}"))
    }
}
