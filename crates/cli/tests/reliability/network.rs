//! Network faults on tarball downloads: bodies cut short, servers that
//! accept and never answer, servers that stop mid-body. pacquet gives up on a
//! silent connection after `fetchTimeout`, retries as pnpm does
//! (`fetchRetries` more attempts), and then fails with pnpm 12's code; a
//! fault that clears before the retries run out costs nothing but the retry.

use std::path::Path;
use std::process::Output;

use pacquet_testing::{Fault, PnpmEnv, Registry, tarball_path};

use super::helpers::{assert_store_consistent, fresh, index_keys};
use crate::support::{pacquet, pacquet_install_ok, stderr};

/// `fetchTimeout` for these tests: long enough for a loopback answer on a
/// loaded machine, short enough that three stalled attempts take seconds.
const FETCH_TIMEOUT_MS: u64 = 1000;

/// Short timeouts and retry waits instead of pnpm's 60 s / 10 s defaults.
fn fast_network(project: &Path) {
    crate::support::add_settings(
        project,
        &format!(
            "\nfetchTimeout: {FETCH_TIMEOUT_MS}\nfetchRetryMintimeout: 10\nfetchRetryMaxtimeout: 20\n"
        ),
    );
}

fn setup(registry: &Registry, root: &Path) -> (PnpmEnv, std::path::PathBuf) {
    let (env, project) = fresh(registry, "basic", root);
    fast_network(&project);
    (env, project)
}

const PLAIN: (&str, &str) = ("pq-plain", "1.1.0");

fn plain_path() -> String {
    tarball_path(PLAIN.0, PLAIN.1)
}

/// The install failed with exit code 1 and pnpm 12's fetch error naming the
/// tarball URL; nothing of the package was linked or indexed.
fn assert_fetch_failure(registry: &Registry, env: &PnpmEnv, project: &Path, out: &Output) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("Error: ERR_PNPM_TARBALL_FETCH_TARBALL"),
        "{err}"
    );
    let url = registry.tarball_url(PLAIN.0, PLAIN.1);
    assert!(err.contains(&format!("Failed to fetch {url}")), "{err}");
    assert!(
        !project
            .join("node_modules/.pnpm/pq-plain@1.1.0/node_modules/pq-plain/package.json")
            .exists()
    );
    assert!(
        index_keys(&env.store_dir)
            .iter()
            .all(|k| !k.contains("pq-plain@1.1.0")),
        "a failed download left an index row"
    );
    assert_store_consistent(&env.store_dir);
}

/// Requests pnpm 12 makes before giving up on `fault` with the default
/// `fetchRetries: 2`: three attempts, and within each attempt a request that
/// gets no response at all is sent three times (observed with pnpm 12.21,
/// see [`pnpm_gives_up_after_as_many_requests`]).
fn requests_until_failure(fault: &Fault) -> usize {
    match fault {
        Fault::Stall | Fault::Reset => 9,
        _ => 3,
    }
}

/// Every request hits `fault`: the install fails after as many requests
/// as pnpm makes, and a later install repairs it.
fn fails_after_retries(fault: Fault, cause: &str) {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path());
    let requests = requests_until_failure(&fault);
    for _ in 0..requests {
        registry.fail_next(&plain_path(), fault.clone());
    }
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_fetch_failure(&registry, &env, &project, &out);
    assert!(stderr(&out).contains(cause), "{}", stderr(&out));
    assert_eq!(registry.tarball_requests(PLAIN.0, PLAIN.1), requests);
    // Each retry was announced, as pnpm 12 does.
    assert_eq!(
        stderr(&out).matches("Will retry in").count(),
        2,
        "{}",
        stderr(&out)
    );

    registry.reset_requests();
    pacquet_install_ok(&env, &project, &[]);
    assert!(project.join("node_modules/pq-plain/package.json").exists());
    assert_eq!(registry.tarball_requests(PLAIN.0, PLAIN.1), 1);
    assert_store_consistent(&env.store_dir);
}

/// The fault hits the first `times` requests only: the install succeeds.
fn recovers_after(fault: Fault, times: usize) {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = setup(&registry, tmp.path());
    for _ in 0..times {
        registry.fail_next(&plain_path(), fault.clone());
    }
    pacquet_install_ok(&env, &project, &[]);
    assert!(project.join("node_modules/pq-plain/package.json").exists());
    assert_eq!(registry.tarball_requests(PLAIN.0, PLAIN.1), times + 1);
    assert_store_consistent(&env.store_dir);
}

#[test]
fn truncated_body_is_retried() {
    recovers_after(Fault::Truncate, 2);
}

#[test]
fn truncated_body_on_every_attempt_is_fetch_tarball() {
    fails_after_retries(Fault::Truncate, "Failed to fetch");
}

#[test]
fn stalled_connection_times_out_and_is_retried() {
    recovers_after(Fault::Stall, 2);
}

#[test]
fn stalled_connection_on_every_attempt_is_fetch_tarball() {
    fails_after_retries(Fault::Stall, "operation timed out");
}

#[test]
fn stall_mid_body_times_out_and_is_retried() {
    recovers_after(Fault::StallMidBody, 2);
}

#[test]
fn stall_mid_body_on_every_attempt_is_fetch_tarball() {
    fails_after_retries(Fault::StallMidBody, "operation timed out");
}

#[test]
fn connection_closed_without_answer_is_retried() {
    recovers_after(Fault::Reset, 8);
}

#[test]
fn connection_closed_on_every_attempt_is_fetch_tarball() {
    fails_after_retries(Fault::Reset, "connection closed before message completed");
}

/// pnpm 12 gives up on each fault after the same number of requests as
/// pacquet, with the same code.
#[test]
fn pnpm_gives_up_after_as_many_requests() {
    for fault in [
        Fault::Truncate,
        Fault::Stall,
        Fault::StallMidBody,
        Fault::Reset,
    ] {
        let registry = Registry::start_fixtures();
        let tmp = tempfile::tempdir().unwrap();
        let (env, project) = setup(&registry, tmp.path());
        // More faults than any tool uses, so the count shows where it stops.
        for _ in 0..12 {
            registry.fail_next(&plain_path(), fault.clone());
        }
        let out = env.run(&project, &["install", "--frozen-lockfile"]);
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
        assert_eq!(out.status.code(), Some(1), "{fault:?}: {text}");
        assert!(
            text.contains("ERR_PNPM_TARBALL_FETCH_TARBALL"),
            "{fault:?}: {text}"
        );
        assert_eq!(
            registry.tarball_requests(PLAIN.0, PLAIN.1),
            requests_until_failure(&fault),
            "{fault:?}: {text}"
        );
    }
}
