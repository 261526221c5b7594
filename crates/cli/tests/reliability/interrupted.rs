//! An install SIGKILLed at any point leaves a store and a tree that the next
//! install completes: the result equals a clean install and every index row
//! points at complete CAS files. Each kill is checked to have landed before
//! the install finished (see `kill_point`).

use std::path::Path;
use std::time::Duration;

use pacquet_testing::{Fault, PnpmEnv, Registry, prepare_project};

use super::helpers::{Installed, assert_same_as, assert_store_consistent, fresh, reference};
use super::kill_point::{KillAt, interrupt};
use crate::support::pacquet_install_ok;

const NOW: Duration = Duration::ZERO;

/// Into an empty store: every phase boundary with work after it, mid-fetch
/// (other packages importing meanwhile), and between two build scripts.
fn cold_points() -> Vec<KillAt> {
    vec![
        KillAt::Phase("plan", NOW),
        KillAt::Phase("clear", NOW),
        KillAt::Stalled("pq-many-files", Fault::Stall),
        KillAt::Stalled("pq-deep-4", Fault::Stall),
        KillAt::Stalled("pq-scripts", Fault::StallMidBody),
        KillAt::Phase("link", NOW),
        KillAt::Phase("symlinks", NOW),
        KillAt::Phase("bins", NOW),
        // pq-scripts' preinstall has run, its postinstall (another node) not.
        KillAt::File("node_modules/.pnpm/pq-scripts@1.0.0/node_modules/pq-scripts/preinstall.txt"),
    ]
}

/// From a full store. The install is ~50-120 ms here, each of link,
/// symlinks and bins ≥10 ms; after `bins` only ~1 ms of state writing is
/// left, too little to hit reliably with a signal.
fn warm_points() -> Vec<KillAt> {
    vec![
        KillAt::Phase("plan", NOW),
        KillAt::Phase("clear", NOW),
        KillAt::Phase("clear", Duration::from_millis(5)),
        KillAt::Phase("link", NOW),
        KillAt::Phase("symlinks", NOW),
    ]
}

/// Kills an install at `at`, then installs to completion and checks the
/// result.
fn kill_then_finish(
    registry: &Registry,
    reference: &Installed,
    env: &PnpmEnv,
    project: &Path,
    at: &KillAt,
) {
    interrupt(at, registry, env, project);
    registry.clear_faults();
    pacquet_install_ok(env, project, &[]);
    assert_same_as(reference, project, &env.store_dir);
    assert_store_consistent(&env.store_dir);
}

#[test]
fn killed_cold_install_is_completed_by_the_next_install() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let reference = reference(&registry, "combined", &tmp.path().join("reference"));
    for (step, at) in cold_points().iter().enumerate() {
        let root = tmp.path().join(format!("cold-{step}"));
        let (env, project) = fresh(&registry, "combined", &root);
        kill_then_finish(&registry, &reference, &env, &project, at);
        std::fs::remove_dir_all(&root).unwrap();
    }
}

#[test]
fn killed_warm_install_is_completed_by_the_next_install() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let reference = reference(&registry, "combined", &tmp.path().join("reference"));
    // The store under test is filled once; each step installs a fresh copy.
    let (env, first) = fresh(&registry, "combined", &tmp.path().join("warm"));
    pacquet_install_ok(&env, &first, &[]);
    for (step, at) in warm_points().iter().enumerate() {
        let project = tmp.path().join(format!("warm-{step}"));
        prepare_project("combined", &project, &registry.url());
        kill_then_finish(&registry, &reference, &env, &project, at);
        std::fs::remove_dir_all(&project).unwrap();
    }
}
