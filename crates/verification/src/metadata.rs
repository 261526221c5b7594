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

/// Kept documents by name: `None` when the mirror has none.
type KeptCells = Mutex<HashMap<String, Arc<OnceCell<Option<Arc<Packument>>>>>>;

pub(crate) struct Metadata<'a> {
    fetcher: Fetcher,
    cache_dir: &'a Path,
    registries: &'a dyn Registries,
    offline: bool,
    abbreviated: Cells,
    full: Cells,
    /// The full documents kept in the mirror, read without a request.
    kept_full: KeptCells,
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
            kept_full: Mutex::default(),
        }
    }

    /// The full document of `name` as the mirror keeps it, without asking
    /// the registry (it may be older than the registry's).
    pub(crate) async fn kept_full(&self, name: &str) -> Option<Arc<Packument>> {
        let cell = {
            let mut map = self.kept_full.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(map.entry(name.to_string()).or_default())
        };
        cell.get_or_init(|| async {
            let path = pacquet_registry_metadata::path::mirror_path(
                self.cache_dir,
                pacquet_registry_metadata::path::FULL_DIR,
                &self.registry_for(name),
                name,
            )?;
            tokio::task::spawn_blocking(move || {
                let kept = pacquet_registry_metadata::mirror::read(&path)?;
                Packument::parse(&kept.document).ok().map(Arc::new)
            })
            .await
            .ok()
            .flatten()
        })
        .await
        .clone()
    }

    /// The earliest transparency-log time of `name@version`'s attestations
    /// (docs/supply-chain.md §3); `None` offline, or when the registry has
    /// none or cannot say.
    pub(crate) async fn attestation_time(&self, name: &str, version: &str) -> Option<String> {
        if self.offline {
            return None;
        }
        let registry = self.registry_for(name);
        let url = format!(
            "{}/-/npm/v1/attestations/{name}@{version}",
            registry.trim_end_matches('/')
        );
        let authorization = self.registries.authorization_for(&url, name);
        let body = self
            .fetcher
            .get_conditional(
                &pacquet_tarball::DownloadRequest {
                    url: &url,
                    integrity: None,
                    authorization: authorization.as_deref(),
                    package_id: name,
                    accept: None,
                },
                Default::default(),
            )
            .await
            .ok()?;
        let pacquet_tarball::Conditional::Body { bytes, .. } = body else {
            return None;
        };
        crate::attestation::published_at(&bytes)
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

    /// The full document of `name` if this install has fetched it.
    pub(crate) fn peek_full(&self, name: &str) -> Option<Fetched> {
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
            writer: None,
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
