//! Tarball downloads: one keep-alive client, a concurrency limit, pnpm's
//! retry schedule and integrity verification.

use std::error::Error as _;

use reqwest::header::{
    ACCEPT, AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE, ETAG, HeaderValue, IF_MODIFIED_SINCE,
    IF_NONE_MATCH,
};
use ssri::Integrity;
use tokio::sync::Semaphore;

use crate::{FetcherOptions, TarballError, integrity, retry};

mod network;
mod roots;

/// Largest up-front buffer reservation from a `Content-Length` header, so a
/// lying server cannot make us allocate gigabytes before sending anything.
const MAX_PREALLOCATION: u64 = 64 << 20;

/// Requests per attempt when no response arrives (see [`Fetcher::download`]).
const SEND_TRIES: u32 = 3;

/// One tarball to download.
#[derive(Debug, Clone, Copy)]
pub struct DownloadRequest<'a> {
    pub url: &'a str,
    /// SRI string from the lockfile (`sha512-…`); `None` skips the check.
    pub integrity: Option<&'a str>,
    /// Full `authorization` header value; never logged or shown in errors.
    pub authorization: Option<&'a str>,
    /// `name@version`, for messages.
    pub package_id: &'a str,
    /// `Accept` header; `None` for tarballs. Packument requests set it
    /// (docs/supply-chain.md §6).
    pub accept: Option<&'a str>,
}

/// Conditions for a revalidating request (a cached document's validators).
#[derive(Debug, Clone, Copy, Default)]
pub struct Validators<'a> {
    /// Sent as `If-None-Match`.
    pub etag: Option<&'a str>,
    /// An HTTP date, sent as `If-Modified-Since`.
    pub modified_since: Option<&'a str>,
}

/// What a conditional request got back.
#[derive(Debug)]
pub enum Conditional {
    /// `304 Not Modified`: the cached copy is current.
    NotModified,
    Body {
        bytes: Vec<u8>,
        etag: Option<String>,
        content_type: Option<String>,
        /// The URL the body came from after redirects, when the response
        /// says `Cache-Control: immutable` (docs/resolution.md §13).
        immutable_url: Option<String>,
    },
}

/// Downloads tarballs; cheap to share behind an `Arc`.
#[derive(Debug)]
pub struct Fetcher {
    /// Built on the first request: an install or resolution needing no
    /// request (a warm one) never builds them. With the default TLS
    /// settings the system's root certificates (18.7 M instructions in
    /// callgrind) wait for the first handshake (`download/roots.rs`).
    clients: std::sync::OnceLock<Result<Clients, String>>,
    permits: Semaphore,
    opts: FetcherOptions,
}

#[derive(Debug)]
struct Clients {
    client: reqwest::Client,
    /// One client per registry with TLS settings of its own, by prefix.
    registry_clients: Vec<(String, reqwest::Client)>,
}

/// `networkConcurrency`, at least one: the permits a [`Fetcher`] hands out.
fn concurrency(opts: &FetcherOptions) -> usize {
    opts.network_concurrency.max(1)
}

impl Fetcher {
    /// A fetcher for `opts`; its HTTP clients are built by
    /// [`Fetcher::ready`] or the first request, and a setting they refuse
    /// fails that call (`ERR_PACQUET_HTTP_CLIENT`).
    pub fn new(opts: FetcherOptions) -> Fetcher {
        Fetcher {
            clients: std::sync::OnceLock::new(),
            permits: Semaphore::new(concurrency(&opts)),
            opts,
        }
    }

    /// How many downloads may run at once (`networkConcurrency`, at least
    /// one): the requests beyond it wait for a permit.
    pub fn concurrency(&self) -> usize {
        concurrency(&self.opts)
    }

    /// Builds the HTTP clients now, so that a setting they refuse fails
    /// before any request is queued.
    pub fn ready(&self) -> Result<(), TarballError> {
        self.clients().map(|_| ())
    }

    fn clients(&self) -> Result<&Clients, TarballError> {
        let opts = &self.opts;
        let built = self.clients.get_or_init(|| {
            let build = |network: &crate::NetworkOptions| {
                let builder = reqwest::Client::builder()
                    .user_agent(opts.user_agent.clone())
                    .connect_timeout(opts.fetch_timeout)
                    .read_timeout(opts.fetch_timeout);
                network::apply(builder, network)
                    .and_then(|b| b.build())
                    .map_err(|e| error_chain(&e))
            };
            let client = build(&opts.network)?;
            let registry_clients = opts
                .network
                .per_registry
                .iter()
                .map(|r| Ok((r.prefix.clone(), build(&opts.network.with_registry(r))?)))
                .collect::<Result<_, String>>()?;
            Ok(Clients {
                client,
                registry_clients,
            })
        });
        built.as_ref().map_err(|reason| TarballError::Client {
            reason: reason.clone(),
        })
    }

    /// The client for `url`: its registry's when that has TLS settings of
    /// its own.
    fn client_for(&self, url: &str) -> Result<&reqwest::Client, TarballError> {
        let clients = self.clients()?;
        Ok(match self.opts.network.for_url(url) {
            Some(registry) => clients
                .registry_clients
                .iter()
                .find(|(prefix, _)| *prefix == registry.prefix)
                .map_or(&clients.client, |(_, client)| client),
            None => &clients.client,
        })
    }

    /// GETs the tarball, retrying everything but 4xx answers with pnpm's
    /// backoff; each attempt re-downloads and re-verifies from scratch.
    /// Within an attempt, a request that gets no response is sent up to
    /// [`SEND_TRIES`] times without waiting, as pnpm 12 does.
    pub async fn download(&self, req: &DownloadRequest<'_>) -> Result<Vec<u8>, TarballError> {
        self.download_after(req, None).await
    }

    /// [`Fetcher::download`] of a tarball named by a URL in a manifest:
    /// the body and the URL a lockfile records for it, which is where
    /// redirects ended when the response says it is immutable, else the
    /// URL asked for (pnpm 12.21; docs/resolution.md §13).
    pub async fn download_for_resolution(
        &self,
        req: &DownloadRequest<'_>,
    ) -> Result<(Vec<u8>, String), TarballError> {
        let got = self
            .with_retries(req.url, None, || {
                self.attempt(req, None, Validators::default())
            })
            .await?;
        match got {
            Conditional::Body {
                bytes,
                immutable_url,
                ..
            } => Ok((bytes, immutable_url.unwrap_or_else(|| req.url.to_owned()))),
            Conditional::NotModified => Ok((Vec::new(), req.url.to_owned())),
        }
    }

    /// [`Fetcher::download`] whose first attempt was made elsewhere and
    /// failed with `first` (a body whose integrity was checked later, during
    /// extraction): only the retries that remain are made.
    pub async fn retry_download(
        &self,
        req: &DownloadRequest<'_>,
        first: TarballError,
    ) -> Result<Vec<u8>, TarballError> {
        self.download_after(req, Some(first)).await
    }

    async fn download_after(
        &self,
        req: &DownloadRequest<'_>,
        first: Option<TarballError>,
    ) -> Result<Vec<u8>, TarballError> {
        let wanted = req
            .integrity
            .map(|i| integrity::parse(i, req.package_id))
            .transpose()?;
        let got = self
            .with_retries(req.url, first, || {
                self.attempt(req, wanted.as_ref(), Validators::default())
            })
            .await?;
        Ok(match got {
            Conditional::Body { bytes, .. } => bytes,
            // Only sent with validators, and there are none.
            Conditional::NotModified => Vec::new(),
        })
    }

    /// GETs a document (a packument) with `validators`, under the same
    /// retry policy and concurrency limit as tarballs.
    pub async fn get_conditional(
        &self,
        req: &DownloadRequest<'_>,
        validators: Validators<'_>,
    ) -> Result<Conditional, TarballError> {
        self.with_retries(req.url, None, || self.attempt(req, None, validators))
            .await
    }

    /// Runs `attempt` under the retry policy; `first` is the outcome of a
    /// first attempt already made.
    async fn with_retries<F, Fut>(
        &self,
        url: &str,
        first: Option<TarballError>,
        attempt: F,
    ) -> Result<Conditional, TarballError>
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = Result<Conditional, TarballError>>,
    {
        let mut retry = 0;
        let mut made = first.map(Err);
        loop {
            let outcome = match made.take() {
                Some(outcome) => outcome,
                None => attempt().await,
            };
            match outcome {
                Err(e) if e.is_retryable() && retry < self.opts.retries => {
                    retry += 1;
                    let wait = retry::delay(&self.opts, retry);
                    tracing::warn!(
                        "GET {} error ({e}) — {retry}\nWill retry in {}. {} retries left.",
                        shown_url(url),
                        retry::human(wait),
                        self.opts.retries - retry
                    );
                    tokio::time::sleep(wait).await;
                }
                other => return other,
            }
        }
    }

    async fn attempt(
        &self,
        req: &DownloadRequest<'_>,
        wanted: Option<&Integrity>,
        validators: Validators<'_>,
    ) -> Result<Conditional, TarballError> {
        // The semaphore is never closed, so acquiring cannot fail.
        let _permit = self.permits.acquire().await.ok();
        let authorization = req
            .authorization
            .map(|auth| {
                let mut value = HeaderValue::from_str(auth).map_err(|_| TarballError::Fetch {
                    url: shown_url(req.url),
                    reason: "the authorization header value is not valid".to_string(),
                })?;
                value.set_sensitive(true);
                Ok(value)
            })
            .transpose()?;
        let fetch_error = |e: reqwest::Error| {
            let url = shown_url(req.url);
            let reason = error_chain(&e.without_url());
            if reason.contains("invalid peer certificate") {
                TarballError::UntrustedCertificate { url, reason }
            } else {
                TarballError::Fetch { url, reason }
            }
        };
        // A request that gets no response at all (timeout, connection closed
        // or refused) is sent again right away within the attempt, as pnpm
        // 12 does: a server that never answers costs `SEND_TRIES` requests
        // per attempt, one whose body breaks costs one.
        let mut tries = 0;
        let mut response = loop {
            tries += 1;
            let mut request = self.client_for(req.url)?.get(req.url);
            if let Some(value) = &authorization {
                request = request.header(AUTHORIZATION, value.clone());
            }
            if let Some(accept) = req.accept {
                request = request.header(ACCEPT, accept);
            }
            if let Some(etag) = validators.etag {
                request = request.header(IF_NONE_MATCH, etag);
            }
            if let Some(date) = validators.modified_since {
                request = request.header(IF_MODIFIED_SINCE, date);
            }
            match request.send().await {
                Ok(response) => break response,
                Err(_) if tries < SEND_TRIES => {}
                Err(e) => return Err(fetch_error(e)),
            }
        };
        let status = response.status();
        let conditional = validators.etag.is_some() || validators.modified_since.is_some();
        if conditional && status == reqwest::StatusCode::NOT_MODIFIED {
            return Ok(Conditional::NotModified);
        }
        if !status.is_success() {
            return Err(TarballError::HttpStatus {
                url: shown_url(req.url),
                status: status.as_u16(),
            });
        }
        let header = |name| {
            response
                .headers()
                .get(name)
                .and_then(|v: &HeaderValue| v.to_str().ok())
                .map(str::to_owned)
        };
        let etag = header(ETAG);
        let content_type = header(CONTENT_TYPE);
        let immutable_url = header(CACHE_CONTROL)
            .filter(|value| value.contains("immutable"))
            .map(|_| response.url().to_string());
        let capacity = response
            .content_length()
            .unwrap_or(0)
            .min(MAX_PREALLOCATION);
        let mut body = crate::buffers::body(capacity as usize);
        while let Some(chunk) = response.chunk().await.map_err(fetch_error)? {
            body.extend_from_slice(&chunk);
        }
        if let Some(wanted) = wanted {
            integrity::verify(wanted, &body, &shown_url(req.url))?;
        }
        Ok(Conditional::Body {
            bytes: body,
            etag,
            content_type,
            immutable_url,
        })
    }
}

/// The URL as messages and logs show it: a password in its user info (a
/// registry configured as `https://user:secret@host/`) becomes `***`.
fn shown_url(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_string(),
    }
}

/// `outer: cause: root cause`, skipping causes whose text the outer message
/// already ends with (reqwest and hyper repeat themselves).
fn error_chain(e: &reqwest::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.ends_with(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}
