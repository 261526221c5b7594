//! The cold set: packages missing from the store. Downloads run on the tokio
//! runtime (at most `networkConcurrency` at a time); each tarball is handed
//! over a bounded channel to the rayon pool, whose threads take what has
//! landed a few at a time, inflate it into the CAS (the files of several
//! tarballs hashed together), link each into every slot that uses it and
//! queue its index row.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use futures_util::{StreamExt, TryStreamExt, stream};
use pacquet_planner::{FetchSource, Plan};
use pacquet_sources::{Downloader, source_url};
use pacquet_store_index::{IndexSender, PackageFilesIndex};
use pacquet_tarball::{
    ExtractLimits, GroupMember, TarballCheck, TarballError, extract_group_to_store,
    extract_to_store, needs_large_buffer,
};
use rayon::prelude::*;
use tokio::sync::mpsc::Receiver;

use crate::{
    InstallError, files::LinkContext, local, one_at_a_time::OneAtATime, reporter::Origin,
    store::Store,
};

/// A downloaded tarball: its group, its bytes, the check its extraction
/// makes.
type Landed = (usize, Vec<u8>, Option<TarballCheck>);

/// Tarballs extracted together when that many have landed: their files
/// share the hash lanes (`pacquet_tarball::extract_group_to_store`).
const GROUP: usize = 8;

/// Slots sharing one tarball (peer variants): fetched once, linked into each.
pub(crate) struct Group {
    pub slots: Vec<usize>,
}

pub fn fetch_and_link(
    runtime: &tokio::runtime::Handle,
    ctx: &LinkContext<'_>,
    fetch: &Downloader<'_>,
    store: &Store,
    plan: &Plan,
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
    // Downloads first: they may run while the link gate is closed, local
    // imports wait for it.
    fetch_to_store(runtime, Some(ctx), fetch, store, plan, &cold)?;
    local::link_local(ctx, store, plan, &local)
}

/// Downloads the `cold` slots (tarballs: registry, URL, `file:`,
/// git-hosted) into the CAS and queues their index rows; with `link`, also
/// imports each package into its slots. `pacquet fetch` passes `None`: it
/// fills the store and creates no `node_modules`.
pub fn fetch_to_store(
    runtime: &tokio::runtime::Handle,
    link: Option<&LinkContext<'_>>,
    fetch: &Downloader<'_>,
    store: &Store,
    plan: &Plan,
    cold: &[usize],
) -> Result<(), InstallError> {
    if cold.is_empty() {
        return Ok(());
    }
    let groups = group_by_source(plan, cold);
    fetch.ready()?;
    let sender = store.sender()?;
    let landing = Landing {
        link,
        store,
        plan,
        sender: &sender,
        deferred: Mutex::default(),
        large: OneAtATime::new(),
        limits: ExtractLimits::default(),
        failed: AtomicBool::new(false),
        runtime,
        fetch,
    };
    // Bounded so tarballs waiting for a CPU never pile up in memory.
    let (tx, rx) = tokio::sync::mpsc::channel::<Landed>(32);
    std::thread::scope(|s| {
        // The shard dirs are made while the first downloads are in flight;
        // a failure is the first write's to report.
        s.spawn(|| {
            let _ = store.cas.prepare_for_writes();
        });
        let consumer = s.spawn(|| {
            let rx = Mutex::new(rx);
            (0..rayon::current_num_threads().max(1))
                .into_par_iter()
                .try_for_each(|_| landing.extract_landed(&rx, &groups))
        });
        let downloads = runtime.block_on(async {
            let tx = tx;
            stream::iter(groups.iter().enumerate())
                .map(|(g, group)| {
                    let tx = tx.clone();
                    async move {
                        let slot = &plan.slots[group.slots[0]];
                        // The integrity is checked during extraction, off
                        // the runtime, with the files' hashes.
                        let (bytes, check) = fetch.download_unchecked(slot).await?;
                        // A closed channel means the consumer failed; its
                        // error is the one to report.
                        let _ = tx.send((g, bytes, check)).await;
                        Ok::<(), InstallError>(())
                    }
                })
                .buffer_unordered(fetch.concurrency())
                .try_collect::<Vec<()>>()
                .await
        });
        let consumed = consumer.join().map_err(|_| InstallError::Internal {
            what: "tarball extraction panicked".into(),
        })?;
        consumed?;
        downloads.map(|_| ())
    })?;
    landing.import_deferred(&groups)
}

/// Where a downloaded tarball goes: the CAS, the index, and (in an
/// install) every slot of its group.
struct Landing<'a> {
    link: Option<&'a LinkContext<'a>>,
    store: &'a Store,
    plan: &'a Plan,
    sender: &'a IndexSender,
    /// Groups extracted while the link gate was closed, with their rows:
    /// imported once it opens, so extraction never waits for it.
    deferred: Mutex<Vec<(usize, PackageFilesIndex)>>,
    /// Tarballs that inflate into the one large buffer: queued for the
    /// thread extracting one rather than waited for.
    large: OneAtATime<Landed>,
    /// What an archive may unpack to; also what decides which tarballs
    /// need the large buffer.
    limits: ExtractLimits,
    /// Set when an extraction failed: the other threads stop taking
    /// tarballs.
    failed: AtomicBool,
    /// For downloading a tarball again when its deferred check fails.
    runtime: &'a tokio::runtime::Handle,
    fetch: &'a Downloader<'a>,
}

impl Landing<'_> {
    /// One extraction thread: takes the tarballs that have landed, up to
    /// [`GROUP`] at a time, and extracts them together until the
    /// downloads end or an extraction fails.
    fn extract_landed(
        &self,
        landed: &Mutex<Receiver<Landed>>,
        groups: &[Group],
    ) -> Result<(), InstallError> {
        let threads = rayon::current_num_threads().max(1);
        while !self.failed.load(Ordering::Relaxed) {
            let (taken, large): (Vec<Landed>, Vec<Landed>) = {
                let mut landed = landed.lock().unwrap_or_else(PoisonError::into_inner);
                let Some(first) = landed.blocking_recv() else {
                    return Ok(());
                };
                // What is waiting is shared with the other threads, so
                // none idles while this one extracts a group.
                let share = 1 + landed.len() / threads;
                let mut taken = vec![first];
                while taken.len() < share.min(GROUP)
                    && let Ok(next) = landed.try_recv()
                {
                    taken.push(next);
                }
                taken
                    .into_iter()
                    .partition(|(_, tarball, _)| !needs_large_buffer(tarball, &self.limits))
            };
            let done = large
                .into_iter()
                .try_for_each(|one| self.large.submit(one, |one| self.land(groups, vec![one])))
                .and_then(|()| self.land(groups, taken));
            if done.is_err() {
                self.failed.store(true, Ordering::Relaxed);
                return done;
            }
        }
        Ok(())
    }

    /// Extracts `taken` together (`extract_group_to_store`), then imports
    /// each into its group's slots and queues its row.
    fn land(&self, groups: &[Group], taken: Vec<Landed>) -> Result<(), InstallError> {
        if taken.is_empty() {
            return Ok(());
        }
        let first_slot = |g: usize| &self.plan.slots[groups[g].slots[0]];
        let members: Vec<GroupMember<'_>> = taken
            .iter()
            .map(|(g, tarball, check)| GroupMember {
                tgz: tarball,
                package_id: first_slot(*g).dep_path.package_id(),
                check: check.as_ref(),
            })
            .collect();
        let rows = extract_group_to_store(&self.store.cas, &members, &self.limits);
        drop(members);
        for ((g, tarball, _), row) in taken.into_iter().zip(rows) {
            let first = first_slot(g);
            let raw = match row {
                // Nothing was written; the download's remaining retries
                // check the body as it arrives. Rare, so this worker waits.
                Err(error @ TarballError::Integrity { .. }) => {
                    let again = self
                        .runtime
                        .block_on(self.fetch.download_again(first, error))?;
                    let package_id = first.dep_path.package_id();
                    extract_to_store(&self.store.cas, &again, package_id, &self.limits)?
                }
                other => other?,
            };
            pacquet_tarball::recycle_body(tarball);
            self.finish(g, &groups[g], raw)?;
        }
        Ok(())
    }

    /// Imports a package extracted from `group`'s tarball into its slots
    /// (or defers that until the link gate opens) and queues its row.
    fn finish(&self, g: usize, group: &Group, raw: PackageFilesIndex) -> Result<(), InstallError> {
        let first = &self.plan.slots[group.slots[0]];
        let package_id = first.dep_path.package_id();
        let cas = &self.store.cas;
        let row = match &first.fetch {
            FetchSource::GitHostedTarball {
                url,
                integrity,
                path,
            } => {
                // pnpm keeps the archive as downloaded too.
                if let Some(integrity) = integrity {
                    self.sender.put(format!("{integrity}\t{url}"), raw.clone());
                }
                let may_prepare = first.prepare.may_run();
                pacquet_sources::prepare_git_hosted(
                    cas,
                    may_prepare,
                    package_id,
                    &raw,
                    path.as_deref(),
                )?
            }
            _ => raw,
        };
        if let Some(ctx) = self.link {
            if !ctx.gate.is_open() {
                if let Some(key) = &first.store_key {
                    self.store.put(self.sender, key.clone(), row.clone());
                }
                let mut deferred = self.deferred.lock().unwrap_or_else(|e| e.into_inner());
                deferred.push((g, row));
                return Ok(());
            }
            self.import_group(ctx, group, &row)?;
        }
        if let Some(key) = &first.store_key {
            self.store.put(self.sender, key.clone(), row);
        }
        Ok(())
    }

    fn import_group(
        &self,
        ctx: &LinkContext<'_>,
        group: &Group,
        row: &PackageFilesIndex,
    ) -> Result<(), InstallError> {
        for &i in &group.slots {
            ctx.import(i, &self.plan.slots[i], row, Origin::Network, None)?;
        }
        Ok(())
    }

    /// Imports what landed before the gate opened, once it has.
    fn import_deferred(&self, groups: &[Group]) -> Result<(), InstallError> {
        let deferred =
            std::mem::take(&mut *self.deferred.lock().unwrap_or_else(|e| e.into_inner()));
        let Some(ctx) = self.link else {
            return Ok(());
        };
        if deferred.is_empty() {
            return Ok(());
        }
        ctx.gate.wait()?;
        deferred
            .par_iter()
            .try_for_each(|(g, row)| self.import_group(ctx, &groups[*g], row))
    }
}

/// Slots sharing one store key (or source), first-seen order.
pub(crate) fn group_by_source(plan: &Plan, cold: &[usize]) -> Vec<Group> {
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
