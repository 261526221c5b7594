//! Importing every package: the warm set (rows in the store) on the rayon
//! pool while the cold set downloads on the runtime; store files that fail
//! the integrity re-check are fetched again afterwards.

use std::sync::OnceLock;

use pacquet_import::{ImportState, UsedMethod};
use pacquet_sources::Downloader;
use serde_json::Value;

use super::Run;
use crate::{
    InstallError,
    build::Builds,
    cold,
    files::LinkContext,
    link_gate::LinkGate,
    store::{Rows, Store},
    warm,
};

/// What importing left for the later phases and the summary.
pub(super) struct Linked {
    /// Bundled manifest per slot (bins and builds read them).
    pub manifests: Vec<OnceLock<Value>>,
    pub methods: Vec<UsedMethod>,
    /// Package directories filled (not found complete).
    pub imported: usize,
    /// Slots downloaded, first pass and re-fetched damaged ones.
    pub downloaded: usize,
    /// Per slot: the package provides agent skills.
    pub skills: Vec<std::sync::atomic::AtomicBool>,
    /// Per slot: its package directory was filled by this install.
    pub filled: Vec<bool>,
}

pub(super) fn link_packages(
    run: &Run<'_>,
    runtime: &tokio::runtime::Handle,
    store: &Store,
    rows: &Rows,
    gate: &LinkGate,
    builds: &Builds<'_>,
) -> Result<Linked, InstallError> {
    let config = run.config;
    let root = config.workspace_root.as_path();
    let plan = run.plan;
    let ctx = LinkContext {
        root,
        cas: &store.cas,
        method: config.package_import_method,
        state: ImportState::new(),
        verify: config.verify_store_integrity,
        reporter: run.reporter,
        manifests: (0..plan.slots.len()).map(|_| OnceLock::new()).collect(),
        builds,
        gate,
        imported: Default::default(),
        filled: (0..plan.slots.len()).map(|_| Default::default()).collect(),
        skills: (0..plan.slots.len()).map(|_| Default::default()).collect(),
    };
    let authorize = |url: &str, name: Option<&str>| config.authorization_for(url, name);
    let downloader = Downloader::new(run.fetcher.clone(), &authorize, root.to_owned());
    let (mut warm_slots, mut cold_slots) = rows.partition();
    // Global slots already made are not imported again.
    if let Some(global) = run.global {
        for (i, slot) in plan.slots.iter().enumerate() {
            if let (true, Some(summary)) = (global.skip[i], rows.summary_for_slot(i)) {
                ctx.settled(i, slot, summary);
            }
        }
        warm_slots.retain(|&i| !global.skip[i]);
        cold_slots.retain(|&i| !global.skip[i]);
    }
    // Until the packages are linked; build scripts run after.
    let _memory = (!cold_slots.is_empty()).then(crate::memory::settle_for_downloads);
    let (damaged, cold_result) = std::thread::scope(|s| {
        let warm = s.spawn(|| warm::link_warm(&ctx, plan, rows, &warm_slots));
        let cold = cold::fetch_and_link(runtime, &ctx, &downloader, store, plan, &cold_slots);
        (warm.join(), cold)
    });
    let damaged = damaged.map_err(|_| InstallError::Internal {
        what: "warm linking panicked".into(),
    })??;
    cold_result?;
    if !damaged.is_empty() {
        // Store files that failed the integrity re-check: fetch them again.
        if config.offline {
            super::prepare::offline_check(plan, &damaged)?;
        }
        cold::fetch_and_link(runtime, &ctx, &downloader, store, plan, &damaged)?;
    }
    if let Some(global) = run.global {
        global.fill_manifests(root, plan, &ctx.manifests);
    }
    Ok(Linked {
        methods: ctx.state.methods_used(),
        imported: ctx.imported.into_inner(),
        manifests: ctx.manifests,
        skills: ctx.skills,
        filled: ctx.filled.into_iter().map(|f| f.into_inner()).collect(),
        downloaded: cold_slots.len() + damaged.len(),
    })
}
