//! Getting a document: from the mirror alone when offline, otherwise a
//! request revalidating the mirror's copy (docs/registry-metadata.md §3).

use std::path::{Path, PathBuf};

use pacquet_tarball::{Conditional, DownloadRequest, Fetcher, TarballError, Validators};

use crate::{MetadataError, mirror, path};

/// Which document of a package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// npm's abbreviated ("corgi") document, falling back to the full one.
    Abbreviated,
    Full,
}

impl Kind {
    fn accept(self) -> &'static str {
        match self {
            Kind::Abbreviated => {
                "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*"
            }
            Kind::Full => "application/json",
        }
    }

    /// The mirror's directory for this kind under `<cacheDir>/v12/`.
    pub fn dir(self) -> &'static str {
        match self {
            Kind::Abbreviated => path::ABBREVIATED_DIR,
            Kind::Full => path::FULL_DIR,
        }
    }
}

/// Gets documents through one [`Fetcher`] and one cache directory.
pub struct Client<'a> {
    pub fetcher: &'a Fetcher,
    /// `None`: nothing is read from or written to a mirror.
    pub cache_dir: Option<&'a Path>,
    /// Read the mirror only; never ask the registry.
    pub offline: bool,
    /// Where mirror files go to be written; `None`: written before the
    /// document is given.
    pub writer: Option<&'a crate::MirrorWriter>,
}

/// A document as [`Client::get_body`] gives it.
#[derive(Debug)]
pub enum Body {
    /// JSON, as the registry sent it or reassembled.
    Document(Vec<u8>),
    /// The metadata mirror's indexed file, not reassembled.
    Kept(Box<mirror::Kept>),
}

impl Body {
    /// The document as JSON; `None` for a kept file whose versions are not
    /// each one JSON value.
    pub fn into_document(self) -> Option<Vec<u8>> {
        match self {
            Body::Document(bytes) => Some(bytes),
            Body::Kept(kept) => kept.to_document(),
        }
    }
}

impl From<mirror::KeptFile> for Body {
    fn from(file: mirror::KeptFile) -> Body {
        match file {
            mirror::KeptFile::Indexed(kept) => Body::Kept(Box::new(kept)),
            mirror::KeptFile::Whole(mirrored) => Body::Document(mirrored.document),
        }
    }
}

impl Client<'_> {
    /// The `kind` document of `name` from `registry` (ending in `/`), as
    /// packument JSON.
    pub async fn get(
        &self,
        registry: &str,
        name: &str,
        kind: Kind,
        authorization: Option<&str>,
    ) -> Result<Vec<u8>, MetadataError> {
        let body = self
            .get_either(registry, name, kind, authorization, false)
            .await?;
        body.into_document().ok_or_else(|| MetadataError::Invalid {
            name: name.to_owned(),
            url: packument_url(registry, name),
            reason: "a version in the metadata mirror is not valid JSON".to_owned(),
        })
    }

    /// [`Client::get`], a document the mirror answers with left as the
    /// mirror keeps it.
    /// A document the registry sent comes back as the mirror file kept of
    /// it: read by its index, its versions are not scanned a second time.
    pub async fn get_body(
        &self,
        registry: &str,
        name: &str,
        kind: Kind,
        authorization: Option<&str>,
    ) -> Result<Body, MetadataError> {
        self.get_either(registry, name, kind, authorization, true)
            .await
    }

    /// `indexed`: a document the registry sent may come back as the
    /// mirror file kept of it ([`Client::get_body`]).
    async fn get_either(
        &self,
        registry: &str,
        name: &str,
        kind: Kind,
        authorization: Option<&str>,
        indexed: bool,
    ) -> Result<Body, MetadataError> {
        let url = packument_url(registry, name);
        let mirror = self
            .cache_dir
            .and_then(|dir| path::mirror_path(dir, kind.dir(), registry, name));
        if self.offline {
            return read_mirror(mirror.clone())
                .await
                .ok_or_else(|| MetadataError::NoOfflineMeta {
                    name: name.to_owned(),
                    mirror: mirror.unwrap_or_default(),
                });
        }
        // Read whole: a warm cache mostly gets `304`, and one read of the
        // file is cheaper than reading its validators, then all of it
        // (alotta, warm: one open per document instead of two).
        let cached = mirror.as_deref().and_then(mirror::read_file);
        let headers = cached.as_ref().map(mirror::KeptFile::headers);
        let modified_since = headers
            .as_ref()
            .and_then(|h| h.modified.as_deref())
            .and_then(pacquet_state::parse_iso_date)
            .map(|ms| pacquet_state::http_date((ms.max(0) / 1000) as u64));
        let req = DownloadRequest {
            url: &url,
            integrity: None,
            authorization,
            package_id: name,
            accept: Some(kind.accept()),
        };
        let validators = Validators {
            etag: headers.as_ref().and_then(|h| h.etag.as_deref()),
            modified_since: modified_since.as_deref(),
        };
        let got = self.send(&req, validators).await?;
        let (bytes, etag, content_type) = match got {
            Conditional::Body {
                bytes,
                etag,
                content_type,
                ..
            } => (bytes, etag, content_type),
            Conditional::NotModified => {
                if let Some(kept) = cached {
                    if let Some(path) = &mirror {
                        touch(path);
                    }
                    return Ok(kept.into());
                }
                // The mirror went away after its validators were read.
                match self.send(&req, Validators::default()).await? {
                    Conditional::Body {
                        bytes,
                        etag,
                        content_type,
                        ..
                    } => (bytes, etag, content_type),
                    Conditional::NotModified => unreachable!("sent without validators"),
                }
            }
        };
        let Some(mirror) = mirror else {
            return Ok(Body::Document(bytes));
        };
        // A registry that answers an abbreviated request with the full
        // document is abbreviated as pnpm does before it is kept.
        let abbreviate = kind == Kind::Abbreviated
            && !content_type.is_some_and(|t| t.starts_with("application/vnd.npm.install-v1+json"));
        // Encoded on the calling task, as kept documents are decoded there
        // (`read_mirror`): a hop to the blocking pool per document started
        // ~30 threads on 2 cores for alotta's cold resolution.
        let file = mirror::encode(&bytes, abbreviate, etag.as_deref()).map_err(|e| {
            MetadataError::Invalid {
                name: name.to_owned(),
                url,
                reason: e.to_string(),
            }
        })?;
        let file = std::sync::Arc::new(file);
        match self.writer {
            Some(writer) => writer.write(mirror, std::sync::Arc::clone(&file)),
            None => {
                if let Err(e) = mirror::write(&mirror, &file) {
                    tracing::debug!("could not keep {}: {e}", mirror.display());
                }
            }
        }
        // The file answers as the document would, already checked and
        // indexed by `encode` (alotta from a cold cache: 96 MB not scanned
        // a second time). An abbreviated one lacks only fields no
        // resolution reads: a warm resolution reads the same file.
        if indexed && let Some(kept) = mirror::decode_file(mirror::FileBytes::Shared(file)) {
            return Ok(kept.into());
        }
        Ok(Body::Document(bytes))
    }

    /// The kept `kind` document of `name`, without asking the registry:
    /// any kept copy when `since` is `None`, else only one whose file was
    /// written or revalidated at or after `since` (ms since the epoch).
    /// pnpm 12.21 answers a pick from such a copy first
    /// (docs/registry-metadata.md §4). The file's bytes are not decoded: a
    /// caller that keeps its own parse of files' indexes decodes only those
    /// it has none of ([`mirror::decode_file`]).
    pub fn kept_file(
        &self,
        registry: &str,
        name: &str,
        kind: Kind,
        since: Option<i64>,
    ) -> Option<mirror::FileBytes> {
        let mirror = path::mirror_path(self.cache_dir?, kind.dir(), registry, name)?;
        match since {
            Some(since) => mirror::FileBytes::open_since(&mirror, Some(since)).ok()?,
            None => mirror::FileBytes::open(&mirror).ok(),
        }
    }

    async fn send(
        &self,
        req: &DownloadRequest<'_>,
        validators: Validators<'_>,
    ) -> Result<Conditional, MetadataError> {
        self.fetcher
            .get_conditional(req, validators)
            .await
            .map_err(|e| match e {
                TarballError::HttpStatus { url, status } => {
                    MetadataError::HttpStatus { url, status }
                }
                TarballError::Fetch { url, reason } => MetadataError::Fetch { url, reason },
                TarballError::UntrustedCertificate { url, reason } => {
                    MetadataError::UntrustedCertificate { url, reason }
                }
                other => MetadataError::Fetch {
                    url: req.url.to_owned(),
                    reason: other.to_string(),
                },
            })
    }
}

/// The mirror's document, read and decoded on the calling task: documents
/// are small and a hop to the blocking pool per document cost more
/// (alotta's resolution from a warm cache: 630 → 496 ms with the parse
/// inlined too, 58 threads and 13.9k futex calls before).
async fn read_mirror(path: Option<PathBuf>) -> Option<Body> {
    let path = path?;
    mirror::read_file(&path).map(Body::from)
}

/// A `304` proves the copy current: its age restarts now (pnpm does the
/// same, so age-based shortcuts read the mirror as fresh).
fn touch(path: &Path) {
    let touched = std::fs::File::options()
        .append(true)
        .open(path)
        .and_then(|f| f.set_modified(std::time::SystemTime::now()));
    if let Err(e) = touched {
        tracing::debug!("could not touch {}: {e}", path.display());
    }
}

/// `<registry><name>` with a scope's `/` encoded, as npm clients ask.
pub fn packument_url(registry: &str, name: &str) -> String {
    let slash = if registry.ends_with('/') { "" } else { "/" };
    format!("{registry}{slash}{}", name.replace('/', "%2f"))
}
