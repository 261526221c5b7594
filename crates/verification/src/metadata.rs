//! Registry metadata for the checks: at most one request per document kind
//! and package name per install, shared by every entry of that name
//! (docs/supply-chain.md §6). The abbreviated document (small) answers
//! the tarball binding and, through `modified`, most age checks; the full
//! one is fetched only for per-version `time` or trust evidence.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use pacquet_tarball::{DownloadRequest, Fetcher, TarballError};
use tokio::sync::OnceCell;

use crate::packument::Packument;

/// Where a package's metadata lives and how to authenticate there.
pub trait Registries: Send + Sync {
    /// The registry serving `name`, ending in `/`.
    fn registry_for(&self, name: &str) -> String;
    /// The `Authorization` header value for `url`, if any.
    fn authorization_for(&self, url: &str, name: &str) -> Option<String>;
}

/// npm's abbreviated ("corgi") document, falling back to the full one.
const ABBREVIATED: &str =
    "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*";
const FULL: &str = "application/json";

/// A document, or why it could not be had (the text of the error).
pub(crate) type Fetched = Result<Arc<Packument>, String>;

type Cells = Mutex<HashMap<String, Arc<OnceCell<Fetched>>>>;

pub(crate) struct Metadata<'a> {
    fetcher: Fetcher,
    registries: &'a dyn Registries,
    offline: bool,
    abbreviated: Cells,
    full: Cells,
}

#[derive(Clone, Copy)]
pub(crate) enum Kind {
    Abbreviated,
    Full,
}

impl<'a> Metadata<'a> {
    pub(crate) fn new(fetcher: Fetcher, registries: &'a dyn Registries, offline: bool) -> Self {
        Metadata {
            fetcher,
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
        let url = packument_url(&self.registry_for(name), name);
        if self.offline {
            return Err(format!(
                "ERR_PNPM_NO_OFFLINE_META: the metadata of {name} is needed to verify the \
                 lockfile, and pacquet keeps no metadata cache to read offline"
            ));
        }
        let authorization = self.registries.authorization_for(&url, name);
        let req = DownloadRequest {
            url: &url,
            integrity: None,
            authorization: authorization.as_deref(),
            package_id: name,
            accept: Some(match kind {
                Kind::Abbreviated => ABBREVIATED,
                Kind::Full => FULL,
            }),
        };
        let body = self.fetcher.download(&req).await.map_err(|e| match e {
            TarballError::HttpStatus { url, status } => {
                format!("GET {url}: the registry answered HTTP {status}")
            }
            TarballError::Fetch { url, reason } => format!("GET {url}: {reason}"),
            other => other.to_string(),
        })?;
        Packument::parse(&body)
            .map(Arc::new)
            .map_err(|e| format!("the metadata of {name} from {url} is not valid JSON: {e}"))
    }
}

/// `<registry><name>` with a scope's `/` encoded, as npm clients ask.
pub(crate) fn packument_url(registry: &str, name: &str) -> String {
    let slash = if registry.ends_with('/') { "" } else { "/" };
    format!("{registry}{slash}{}", name.replace('/', "%2f"))
}
