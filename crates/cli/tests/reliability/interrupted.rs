//! An install SIGKILLed at any point leaves a store and a tree that the next
//! install completes: the result equals a clean install and every index row
//! points at complete CAS files.

use std::path::Path;
use std::time::{Duration, Instant};

use pacquet_testing::{PnpmEnv, Registry, prepare_project};

use super::helpers::{
    Installed, assert_same_as, assert_store_consistent, fresh, kill_group, reference,
    slow_tarballs, spawn_install,
};
use crate::support::pacquet_install_ok;

const STEPS: u32 = 10;
const FIRST_KILL: Duration = Duration::from_millis(5);

/// `STEPS` delays growing geometrically from [`FIRST_KILL`] to `full`.
fn kill_delays(full: Duration) -> Vec<Duration> {
    let ratio = (full.as_secs_f64() / FIRST_KILL.as_secs_f64()).max(1.0);
    (0..STEPS)
        .map(|i| FIRST_KILL.mul_f64(ratio.powf(f64::from(i) / f64::from(STEPS - 1))))
        .collect()
}

/// Starts an install, kills it after `delay`, then installs to completion
/// and checks the result.
fn kill_then_finish(
    registry: &Registry,
    reference: &Installed,
    env: &PnpmEnv,
    project: &Path,
    delay: Duration,
) {
    slow_tarballs(registry);
    let mut child = spawn_install(env, project);
    std::thread::sleep(delay);
    kill_group(&mut child);
    registry.clear_faults();
    pacquet_install_ok(env, project, &[]);
    assert_same_as(reference, project, &env.store_dir);
    assert_store_consistent(&env.store_dir);
}

/// How long a complete cold install with the slowed tarballs takes here.
fn measure_cold_install(registry: &Registry, root: &Path) -> Duration {
    let (env, project) = fresh(registry, "combined", root);
    slow_tarballs(registry);
    let started = Instant::now();
    pacquet_install_ok(&env, &project, &[]);
    let elapsed = started.elapsed();
    std::fs::remove_dir_all(root).unwrap();
    elapsed
}

#[test]
fn killed_cold_install_is_completed_by_the_next_install() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let reference = reference(&registry, "combined", &tmp.path().join("reference"));
    let full = measure_cold_install(&registry, &tmp.path().join("measure"));
    for (step, delay) in kill_delays(full).into_iter().enumerate() {
        let root = tmp.path().join(format!("cold-{step}"));
        let (env, project) = fresh(&registry, "combined", &root);
        kill_then_finish(&registry, &reference, &env, &project, delay);
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
    let started = Instant::now();
    pacquet_install_ok(&env, &first, &[]);
    let full = started.elapsed();
    for (step, delay) in kill_delays(full).into_iter().enumerate() {
        let project = tmp.path().join(format!("warm-{step}"));
        prepare_project("combined", &project, &registry.url());
        kill_then_finish(&registry, &reference, &env, &project, delay);
        std::fs::remove_dir_all(&project).unwrap();
    }
}
