//! The cold set: packages missing from the store. Downloads run on the tokio
//! runtime (at most `networkConcurrency` at a time); each tarball is handed
//! over a bounded channel to the rayon pool, which inflates it into the CAS,
//! links it into every slot that uses it and queues its index row.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::OnceLock,
    time::Duration,
};

use futures_util::{StreamExt, TryStreamExt, stream};
use pacquet_config::Config;
use pacquet_tarball::{DownloadRequest, ExtractLimits, Fetcher, FetcherOptions, extract_to_store};
use rayon::prelude::*;

use super::{InstallError, files::LinkContext, sources, store::Store};
use crate::{FetchSource, InstallPlan, reporter::Origin};

/// Network settings and the lazily built HTTP client.
pub struct FetchContext<'a> {
    config: &'a Config,
    /// Local tarball paths are relative to the lockfile directory.
    root: PathBuf,
    fetcher: OnceLock<Fetcher>,
}

impl<'a> FetchContext<'a> {
    pub fn new(config: &'a Config, root: &Path) -> Result<Self, InstallError> {
        Ok(FetchContext {
            config,
            root: root.to_owned(),
            fetcher: OnceLock::new(),
        })
    }

    fn fetcher(&self) -> Result<&Fetcher, InstallError> {
        if let Some(f) = self.fetcher.get() {
            return Ok(f);
        }
        let c = self.config;
        let opts = FetcherOptions {
            network_concurrency: c.network_concurrency.max(1),
            retries: c.fetch_retries,
            retry_factor: c.fetch_retry_factor.max(1.0) as u32,
            retry_min_timeout: Duration::from_millis(c.fetch_retry_mintimeout),
            retry_max_timeout: Duration::from_millis(c.fetch_retry_maxtimeout),
            fetch_timeout: Duration::from_millis(c.fetch_timeout),
            user_agent: format!("pacquet/{} npm/? node/?", env!("CARGO_PKG_VERSION")),
        };
        let fetcher = Fetcher::new(opts)?;
        Ok(self.fetcher.get_or_init(|| fetcher))
    }
}

/// Slots sharing one tarball (peer variants): fetched once, linked into each.
pub(super) struct Group {
    pub slots: Vec<usize>,
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

pub fn fetch_and_link(
    runtime: &tokio::runtime::Handle,
    ctx: &LinkContext<'_>,
    fetch: &FetchContext<'_>,
    store: &Store,
    plan: &InstallPlan,
    cold: &[usize],
) -> Result<(), InstallError> {
    // Directories and git repositories are fetched without the download
    // pipeline.
    let (cold, local): (Vec<usize>, Vec<usize>) = cold.iter().copied().partition(|&i| {
        !matches!(
            plan.slots[i].fetch,
            FetchSource::Directory { .. } | FetchSource::Git { .. }
        )
    });
    sources::link_local(ctx, store, plan, &local)?;
    fetch_to_store(runtime, Some(ctx), fetch, store, plan, &cold)
}

/// Downloads the `cold` slots into the CAS and queues their index rows;
/// with `link`, also imports each package into its slots. `pacquet fetch`
/// passes `None`: it fills the store and creates no `node_modules`.
/// Directory and git slots are not downloads: [`fetch_and_link`] takes
/// them elsewhere, and `pacquet fetch` leaves them to the install.
pub fn fetch_to_store(
    runtime: &tokio::runtime::Handle,
    link: Option<&LinkContext<'_>>,
    fetch: &FetchContext<'_>,
    store: &Store,
    plan: &InstallPlan,
    cold: &[usize],
) -> Result<(), InstallError> {
    let cold: Vec<usize> = cold
        .iter()
        .copied()
        .filter(|&i| {
            !matches!(
                plan.slots[i].fetch,
                FetchSource::Directory { .. } | FetchSource::Git { .. }
            )
        })
        .collect();
    if cold.is_empty() {
        return Ok(());
    }
    let groups = group_by_source(plan, &cold);
    let fetcher = fetch.fetcher()?;
    let sender = store.sender()?;
    // Bounded so tarballs waiting for a CPU never pile up in memory.
    let (tx, mut rx) = tokio::sync::mpsc::channel::<(usize, Vec<u8>)>(32);

    std::thread::scope(|s| {
        let consumer = s.spawn(|| {
            std::iter::from_fn(|| rx.blocking_recv())
                .par_bridge()
                .try_for_each(|(g, tarball)| {
                    let group = &groups[g];
                    let first = &plan.slots[group.slots[0]];
                    let package_id = first.dep_path.package_id();
                    let raw = extract_to_store(
                        &store.cas,
                        &tarball,
                        package_id,
                        &ExtractLimits::default(),
                    )?;
                    drop(tarball);
                    let row = match &first.fetch {
                        FetchSource::GitHostedTarball {
                            url,
                            integrity,
                            path,
                        } => {
                            // pnpm keeps the archive as downloaded too.
                            if let Some(integrity) = integrity {
                                sender.put(format!("{integrity}\t{url}"), raw.clone());
                            }
                            // `pacquet fetch` stores the archive; the install
                            // prepares it.
                            let Some(ctx) = link else {
                                return Ok(());
                            };
                            sources::prepare_git_hosted(
                                &store.cas,
                                ctx.builds,
                                package_id,
                                &raw,
                                path.as_deref(),
                            )?
                        }
                        _ => raw,
                    };
                    if let Some(ctx) = link {
                        for &i in &group.slots {
                            ctx.import(i, &plan.slots[i], &row, Origin::Network, None)?;
                        }
                    }
                    if let Some(key) = &first.store_key {
                        sender.put(key.clone(), row);
                    }
                    Ok::<(), InstallError>(())
                })
        });
        let downloads = runtime.block_on(async {
            let tx = tx;
            stream::iter(groups.iter().enumerate())
                .map(|(g, group)| {
                    let tx = tx.clone();
                    async move {
                        let slot = &plan.slots[group.slots[0]];
                        let bytes = download(fetch, fetcher, slot).await?;
                        // A closed channel means the consumer failed; its
                        // error is the one to report.
                        let _ = tx.send((g, bytes)).await;
                        Ok::<(), InstallError>(())
                    }
                })
                .buffer_unordered(fetch.config.network_concurrency.max(1))
                .try_collect::<Vec<()>>()
                .await
        });
        let consumed = consumer.join().map_err(|_| InstallError::Internal {
            what: "tarball extraction panicked".into(),
        })?;
        consumed?;
        downloads.map(|_| ())
    })
}

/// Slots sharing one store key (or source), first-seen order.
pub(super) fn group_by_source(plan: &InstallPlan, cold: &[usize]) -> Vec<Group> {
    let mut by_key: HashMap<&str, usize> = HashMap::new();
    let mut groups: Vec<Group> = Vec::new();
    for &i in cold {
        let slot = &plan.slots[i];
        let key = slot.store_key.as_deref().unwrap_or(source_url(&slot.fetch));
        match by_key.get(key) {
            Some(&g) => groups[g].slots.push(i),
            None => {
                by_key.insert(key, groups.len());
                groups.push(Group { slots: vec![i] });
            }
        }
    }
    groups
}

async fn download(
    fetch: &FetchContext<'_>,
    fetcher: &Fetcher,
    slot: &crate::Slot,
) -> Result<Vec<u8>, InstallError> {
    let package_id = slot.dep_path.package_id();
    match &slot.fetch {
        FetchSource::Registry { url, integrity } | FetchSource::Tarball { url, integrity } => {
            let authorization = fetch.config.authorization_for(url, Some(slot.name()));
            let req = DownloadRequest {
                url,
                integrity: Some(integrity),
                authorization: authorization.as_deref(),
                package_id,
            };
            Ok(fetcher.download(&req).await?)
        }
        FetchSource::GitHostedTarball { url, integrity, .. } => {
            let authorization = fetch.config.authorization_for(url, Some(slot.name()));
            let req = DownloadRequest {
                url,
                integrity: integrity.as_deref(),
                authorization: authorization.as_deref(),
                package_id,
            };
            Ok(fetcher.download(&req).await?)
        }
        FetchSource::LocalTarball { path, integrity } => {
            let path = fetch.root.join(path);
            let bytes =
                tokio::fs::read(&path)
                    .await
                    .map_err(|source| InstallError::LocalTarball {
                        path: path.clone(),
                        source,
                    })?;
            check_integrity(&bytes, integrity, &path.to_string_lossy())?;
            Ok(bytes)
        }
        other => Err(InstallError::UnsupportedResolution {
            package_id: package_id.to_owned(),
            reason: format!("cannot fetch {}", source_url(other)),
        }),
    }
}

/// A local `file:` tarball must match the lockfile's integrity too.
fn check_integrity(bytes: &[u8], integrity: &str, url: &str) -> Result<(), InstallError> {
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
