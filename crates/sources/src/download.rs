//! Tarballs over HTTP (registry and remote URLs, git-hosted archives) and
//! `file:` tarballs from disk, each checked against the lockfile's
//! integrity. The HTTP client is built on first use: an install with
//! nothing to download never pays for TLS setup.

use std::path::PathBuf;

use pacquet_planner::{FetchSource, Slot};
use pacquet_tarball::{DownloadRequest, Fetcher, FetcherOptions, TarballCheck};

use crate::SourceError;

/// The `Authorization` header for a URL and package name, if any.
pub type Authorize<'a> = dyn Fn(&str, Option<&str>) -> Option<String> + Sync + 'a;

/// Network settings and the HTTP client (built on first use, see
/// [`Fetcher::ready`]).
pub struct Downloader<'a> {
    authorize: &'a Authorize<'a>,
    /// `file:` tarball paths are relative to the lockfile directory.
    root: PathBuf,
    fetcher: Fetcher,
}

impl<'a> Downloader<'a> {
    pub fn new(options: FetcherOptions, authorize: &'a Authorize<'a>, root: PathBuf) -> Self {
        Downloader {
            fetcher: Fetcher::new(options),
            authorize,
            root,
        }
    }

    /// How many downloads may run at once (`networkConcurrency`).
    pub fn concurrency(&self) -> usize {
        self.fetcher.concurrency()
    }

    /// Builds the HTTP client now, so that a bad setting fails before any
    /// download is queued.
    pub fn ready(&self) -> Result<(), SourceError> {
        Ok(self.fetcher.ready()?)
    }

    /// The bytes of `slot`'s tarball, integrity checked.
    pub async fn download(&self, slot: &Slot) -> Result<Vec<u8>, SourceError> {
        let (url, integrity) = match self.remote(slot)? {
            Remote::Http { url, integrity } => (url, integrity),
            Remote::Local { path, integrity } => return self.read_local(path, integrity).await,
        };
        let authorization = (self.authorize)(url, Some(slot.name()));
        let req = request(slot, url, integrity, authorization.as_deref());
        Ok(self.fetcher.download(&req).await?)
    }

    /// The bytes of `slot`'s tarball and, when its integrity is one
    /// `sha512-…` hash, that check still to make: extraction makes it in
    /// the same multi-lane pass as the files' hashes
    /// ([`pacquet_tarball::extract_checked_to_store`]). Any other tarball is
    /// checked here.
    pub async fn download_unchecked(
        &self,
        slot: &Slot,
    ) -> Result<(Vec<u8>, Option<TarballCheck>), SourceError> {
        if let Remote::Http {
            url,
            integrity: Some(integrity),
        } = self.remote(slot)?
            && let Some(check) = TarballCheck::sha512(integrity, url)
        {
            let authorization = (self.authorize)(url, Some(slot.name()));
            let req = request(slot, url, None, authorization.as_deref());
            let bytes = self.fetcher.download(&req).await?;
            return Ok((bytes, Some(check)));
        }
        Ok((self.download(slot).await?, None))
    }

    /// After a body from [`Downloader::download_unchecked`] failed its
    /// check with `error`: the retries that remain, each checked here.
    pub async fn download_again(
        &self,
        slot: &Slot,
        error: pacquet_tarball::TarballError,
    ) -> Result<Vec<u8>, SourceError> {
        let Remote::Http { url, integrity } = self.remote(slot)? else {
            return Err(error.into());
        };
        let authorization = (self.authorize)(url, Some(slot.name()));
        let req = request(slot, url, integrity, authorization.as_deref());
        Ok(self.fetcher.retry_download(&req, error).await?)
    }

    fn remote<'s>(&self, slot: &'s Slot) -> Result<Remote<'s>, SourceError> {
        Ok(match &slot.fetch {
            FetchSource::Registry { url, integrity } | FetchSource::Tarball { url, integrity } => {
                Remote::Http {
                    url,
                    integrity: Some(integrity),
                }
            }
            FetchSource::GitHostedTarball { url, integrity, .. } => Remote::Http {
                url,
                integrity: integrity.as_deref(),
            },
            FetchSource::LocalTarball { path, integrity } => Remote::Local { path, integrity },
            other => {
                return Err(SourceError::UnsupportedResolution {
                    package_id: slot.dep_path.package_id().to_owned(),
                    reason: format!("cannot fetch {}", source_url(other)),
                });
            }
        })
    }

    async fn read_local(&self, path: &str, integrity: &str) -> Result<Vec<u8>, SourceError> {
        let path = self.root.join(path);
        let bytes = tokio::fs::read(&path)
            .await
            .map_err(|source| SourceError::LocalTarball {
                path: path.clone(),
                source,
            })?;
        check_integrity(&bytes, integrity, &path.to_string_lossy())?;
        Ok(bytes)
    }
}

/// Where a tarball comes from.
enum Remote<'s> {
    Http {
        url: &'s str,
        integrity: Option<&'s str>,
    },
    Local {
        path: &'s str,
        integrity: &'s str,
    },
}

fn request<'r>(
    slot: &'r Slot,
    url: &'r str,
    integrity: Option<&'r str>,
    authorization: Option<&'r str>,
) -> DownloadRequest<'r> {
    DownloadRequest {
        url,
        integrity,
        authorization,
        package_id: slot.dep_path.package_id(),
        accept: None,
    }
}

/// The URL (or path) a slot's files come from, for messages.
pub fn source_url(fetch: &FetchSource) -> &str {
    match fetch {
        FetchSource::Registry { url, .. }
        | FetchSource::Tarball { url, .. }
        | FetchSource::GitHostedTarball { url, .. } => url,
        FetchSource::LocalTarball { path, .. } | FetchSource::Directory { path } => path,
        FetchSource::Git { repo, .. } => repo,
        FetchSource::Unsupported { reason } => reason,
    }
}

/// A local `file:` tarball must match the lockfile's integrity too.
pub fn check_integrity(bytes: &[u8], integrity: &str, url: &str) -> Result<(), SourceError> {
    let wanted: ssri::Integrity =
        integrity
            .parse()
            .map_err(|_| pacquet_tarball::TarballError::Integrity {
                url: url.to_owned(),
                wanted: integrity.to_owned(),
                actual: "an unparsable integrity in the lockfile".to_owned(),
            })?;
    if wanted.check(bytes).is_ok() {
        return Ok(());
    }
    let algorithm = wanted.pick_algorithm();
    let actual = ssri::IntegrityOpts::new()
        .algorithm(algorithm)
        .chain(bytes)
        .result();
    Err(pacquet_tarball::TarballError::Integrity {
        url: url.to_owned(),
        wanted: integrity.to_owned(),
        actual: actual.to_string(),
    }
    .into())
}
