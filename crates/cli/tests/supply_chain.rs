//! The supply-chain verification of a frozen lockfile against pnpm 12
//! (docs/supply-chain.md): the loopback registry gives versions controlled
//! publish times and trust evidence, and both tools must accept and refuse
//! the same lockfiles with the same codes and listed entries.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use pacquet_testing::{PnpmEnv, Registry};
use serde_json::json;
use support::{pacquet, stderr, stdout};

/// `pq-plain@1.1.0` was published an hour ago; `pq-dup@1.0.0` was
/// published by a trusted publisher with provenance, `pq-dup@2.0.0` later
/// without either.
fn registry() -> Registry {
    let registry = Registry::start_fixtures();
    let now = pacquet_verification::timestamp::now_ms();
    let recent = pacquet_verification::timestamp::format(now - 3_600_000);
    registry.patch_packument(
        "pq-plain",
        json!({"time": {"1.1.0": recent, "modified": recent}}),
    );
    registry.patch_packument(
        "pq-dup",
        json!({
            "time": {"2.0.0": "2021-01-01T00:00:00.000Z", "modified": "2021-06-01T00:00:00.000Z"},
            "versions": {"1.0.0": {
                "_npmUser": {"name": "pq", "trustedPublisher": {"id": "github"}},
                "dist": {"attestations": {"provenance": {"predicateType": "https://slsa.dev/provenance/v1"}}},
            }},
        }),
    );
    registry
}

/// The same project for pnpm and for pacquet, each with its own
/// environment; the lockfile resolved by pnpm without an age limit.
struct Pair {
    _tmp: tempfile::TempDir,
    by_pnpm: PathBuf,
    by_pacquet: PathBuf,
    pnpm_env: PnpmEnv,
    env: PnpmEnv,
}

impl Pair {
    fn new(registry: &Registry, dependencies: serde_json::Value) -> Pair {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        let by_pnpm = root.join("pnpm/project");
        let by_pacquet = root.join("pacquet/project");
        let pnpm_env = PnpmEnv::new(&root.join("pnpm/env"), &registry.url());
        let env = PnpmEnv::new(&root.join("pacquet/env"), &registry.url());
        for dir in [&by_pnpm, &by_pacquet] {
            std::fs::create_dir_all(dir).unwrap();
            let manifest =
                json!({"name": "project", "version": "1.0.0", "dependencies": dependencies});
            std::fs::write(dir.join("package.json"), manifest.to_string()).unwrap();
            std::fs::write(dir.join(".npmrc"), format!("registry={}\n", registry.url())).unwrap();
        }
        std::fs::write(
            by_pnpm.join("pnpm-workspace.yaml"),
            "minimumReleaseAge: 0\n",
        )
        .unwrap();
        pnpm_env.lockfile_only(&by_pnpm);
        std::fs::copy(
            by_pnpm.join("pnpm-lock.yaml"),
            by_pacquet.join("pnpm-lock.yaml"),
        )
        .unwrap();
        Pair {
            _tmp: tmp,
            by_pnpm,
            by_pacquet,
            pnpm_env,
            env,
        }
    }

    fn settings(&self, yaml: &str) {
        for dir in [&self.by_pnpm, &self.by_pacquet] {
            std::fs::write(dir.join("pnpm-workspace.yaml"), yaml).unwrap();
        }
    }

    fn install_both(&self) -> (Output, Output) {
        let by_pnpm = self.pnpm_env.run(
            &self.by_pnpm,
            &["install", "--frozen-lockfile", "--reporter=append-only"],
        );
        let by_pacquet = pacquet(
            &self.env,
            &self.by_pacquet,
            &["install", "--frozen-lockfile"],
        );
        (by_pnpm, by_pacquet)
    }
}

fn text(out: &Output) -> String {
    format!("{}{}", stdout(out), stderr(out))
}

/// The output with line wrapping undone, for phrases.
fn flat(out: &Output) -> String {
    text(out).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Exit code 1, `code` among the output's codes, and `phrase` in its text.
fn assert_refused_with(out: &Output, code: &str, phrase: &str) {
    assert_eq!(out.status.code(), Some(1), "{}", text(out));
    assert!(codes(out).iter().any(|c| c == code), "{}", text(out));
    assert!(flat(out).contains(phrase), "{}", text(out));
}

/// `ERR_PNPM_…` codes in the output, sorted.
fn codes(out: &Output) -> Vec<String> {
    let text = text(out);
    let mut codes: Vec<String> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("ERR_PNPM_"))
        .map(str::to_owned)
        .collect();
    codes.sort();
    codes.dedup();
    codes
}

/// `name@version` of each listed entry, in listing order.
fn listed(out: &Output) -> Vec<String> {
    let text = text(out);
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let entry = l.split(' ').next()?;
            (entry.starts_with("pq-") && entry.contains('@')).then(|| entry.to_string())
        })
        .collect()
}

/// Both refused the lockfile the same way; pacquet wrote nothing.
fn assert_both_refuse(pair: &Pair, code: &str, entries: &[&str]) -> (Output, Output) {
    let (by_pnpm, by_pacquet) = pair.install_both();
    assert_eq!(by_pnpm.status.code(), Some(1), "pnpm: {}", text(&by_pnpm));
    assert_eq!(
        by_pacquet.status.code(),
        Some(1),
        "pacquet: {}",
        text(&by_pacquet)
    );
    assert!(
        codes(&by_pnpm).contains(&code.to_string()),
        "pnpm: {}",
        text(&by_pnpm)
    );
    assert_eq!(codes(&by_pacquet), [code], "pacquet: {}", text(&by_pacquet));
    assert_eq!(listed(&by_pnpm), entries, "pnpm: {}", text(&by_pnpm));
    assert_eq!(
        listed(&by_pacquet),
        entries,
        "pacquet: {}",
        text(&by_pacquet)
    );
    assert!(
        !pair.by_pacquet.join("node_modules").exists(),
        "nothing may be written when the lockfile is refused"
    );
    (by_pnpm, by_pacquet)
}

fn assert_both_install(pair: &Pair) {
    let (by_pnpm, by_pacquet) = pair.install_both();
    assert!(by_pnpm.status.success(), "pnpm: {}", text(&by_pnpm));
    assert!(
        by_pacquet.status.success(),
        "pacquet: {}",
        text(&by_pacquet)
    );
    assert!(
        pair.by_pacquet
            .join("node_modules/pq-plain/package.json")
            .exists()
    );
}

fn deps() -> serde_json::Value {
    json!({"pq-plain": "1.1.0", "pq-dup": "2.0.0"})
}

#[test]
fn a_version_younger_than_minimum_release_age_is_refused() {
    let registry = registry();
    let pair = Pair::new(&registry, deps());
    pair.settings("");
    let (_, by_pacquet) = assert_both_refuse(
        &pair,
        "ERR_PNPM_MINIMUM_RELEASE_AGE_VIOLATION",
        &["pq-plain@1.1.0"],
    );
    assert!(flat(&by_pacquet).contains("within the minimumReleaseAge cutoff"));
}

#[test]
fn exclusions_and_a_shorter_age_let_it_through() {
    let registry = registry();
    let pair = Pair::new(&registry, deps());
    pair.settings("minimumReleaseAgeExclude:\n  - pq-plain@1.1.0\n");
    assert_both_install(&pair);
    let pair = Pair::new(&registry, deps());
    pair.settings("minimumReleaseAgeExclude:\n  - 'pq-*'\n");
    assert_both_install(&pair);
    let pair = Pair::new(&registry, deps());
    pair.settings("minimumReleaseAge: 30\n");
    assert_both_install(&pair);
    // An exclusion of another version does not count.
    let pair = Pair::new(&registry, deps());
    pair.settings("minimumReleaseAgeExclude:\n  - pq-plain@1.0.0\n");
    assert_both_refuse(
        &pair,
        "ERR_PNPM_MINIMUM_RELEASE_AGE_VIOLATION",
        &["pq-plain@1.1.0"],
    );
}

#[test]
fn a_trust_downgrade_is_refused_unless_excluded() {
    let registry = registry();
    let pair = Pair::new(&registry, deps());
    pair.settings("minimumReleaseAge: 0\ntrustPolicy: no-downgrade\n");
    assert_both_refuse(&pair, "ERR_PNPM_TRUST_DOWNGRADE", &["pq-dup@2.0.0"]);
    pair.settings(
        "minimumReleaseAge: 0\ntrustPolicy: no-downgrade\ntrustPolicyExclude:\n  - pq-dup\n",
    );
    assert_both_install(&pair);
}

#[test]
fn different_violations_are_listed_together() {
    let registry = registry();
    let pair = Pair::new(&registry, deps());
    pair.settings("trustPolicy: no-downgrade\n");
    let (_, by_pacquet) = assert_both_refuse(
        &pair,
        "ERR_PNPM_LOCKFILE_RESOLUTION_VERIFICATION",
        &["pq-dup@2.0.0", "pq-plain@1.1.0"],
    );
    let out = flat(&by_pacquet);
    assert!(
        out.contains("[TRUST_DOWNGRADE]") && out.contains("[MINIMUM_RELEASE_AGE_VIOLATION]"),
        "{out}"
    );
}

#[test]
fn trust_lockfile_skips_the_verification() {
    let registry = registry();
    let pair = Pair::new(&registry, deps());
    pair.settings("trustLockfile: true\ntrustPolicy: no-downgrade\n");
    registry.reset_requests();
    assert_both_install(&pair);
    assert_eq!(
        registry.request_count("pq-plain"),
        0,
        "{:?}",
        registry.requests()
    );
}

#[test]
fn a_pinned_tarball_url_must_be_the_registrys() {
    let registry = registry();
    let pair = Pair::new(&registry, json!({"pq-plain": "1.0.0"}));
    let archive = registry.archive_url("pq-plain", "1.0.0");
    for dir in [&pair.by_pnpm, &pair.by_pacquet] {
        let path = dir.join("pnpm-lock.yaml");
        let lockfile = std::fs::read_to_string(&path).unwrap();
        let tampered = lockfile.replacen(
            "resolution: {integrity:",
            &format!("resolution: {{tarball: {archive}, integrity:"),
            1,
        );
        assert_ne!(lockfile, tampered);
        std::fs::write(&path, tampered).unwrap();
    }
    pair.settings("minimumReleaseAge: 0\n");
    let (_, by_pacquet) =
        assert_both_refuse(&pair, "ERR_PNPM_TARBALL_URL_MISMATCH", &["pq-plain@1.0.0"]);
    assert!(flat(&by_pacquet).contains("does not match the registry's published metadata"));
}

#[test]
fn a_verified_lockfile_is_not_verified_again_until_it_or_the_policy_changes() {
    let registry = registry();
    let pair = Pair::new(&registry, json!({"pq-dup": "1.0.0"}));
    pair.settings("");
    let dir = &pair.by_pacquet;
    let install = || {
        let out = pacquet(&pair.env, dir, &["install", "--frozen-lockfile"]);
        assert!(out.status.success(), "{}", text(&out));
        out
    };
    // The packument's `modified` is recent, so the age check needs `time`.
    registry.patch_packument("pq-dup", json!({"time": {"modified": pacquet_verification::timestamp::format(pacquet_verification::timestamp::now_ms())}}));
    registry.reset_requests();
    install();
    let first = registry.request_count("pq-dup");
    assert!(first >= 1, "{:?}", registry.requests());
    // A fresh install of the same lockfile: the recorded verification holds,
    // and says when it was made, as pnpm 12 words it.
    std::fs::rename(dir.join("node_modules"), dir.join("../old-modules")).unwrap();
    let fresh = install();
    // A no-op repeat install also consults the record only.
    let repeat = install();
    for out in [&fresh, &repeat] {
        let line = flat(out);
        let verdict = line
            .split("✓ Lockfile passes supply-chain policies (verified ")
            .nth(1)
            .unwrap_or_else(|| panic!("{line}"));
        let age = verdict.split(" ago)").next().unwrap();
        assert!(
            age.ends_with("ms")
                || age.ends_with('s') && age[..age.len() - 1].parse::<u64>().is_ok(),
            "{line}"
        );
    }
    assert_eq!(
        registry.request_count("pq-dup"),
        first,
        "{:?}",
        registry.requests()
    );
    // A stricter policy is verified again.
    pair.settings("trustPolicy: no-downgrade\n");
    install();
    let second = registry.request_count("pq-dup");
    assert!(second > first, "{:?}", registry.requests());
    // So is a changed lockfile.
    std::thread::sleep(Duration::from_millis(20));
    let path = dir.join("pnpm-lock.yaml");
    let lockfile = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{lockfile}\n")).unwrap();
    install();
    assert!(
        registry.request_count("pq-dup") > second,
        "{:?}",
        registry.requests()
    );
}

#[test]
fn a_registry_that_cannot_be_asked_stops_the_install() {
    let registry = registry();
    let pair = Pair::new(&registry, json!({"pq-plain": "1.1.0"}));
    pair.settings("fetchRetries: 0\n");
    for _ in 0..8 {
        registry.fail_next("pq-plain", pacquet_testing::Fault::Status(500));
    }
    let out = pacquet(
        &pair.env,
        &pair.by_pacquet,
        &["install", "--frozen-lockfile"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(codes(&out), ["ERR_PNPM_META_FETCH_FAIL"], "{}", text(&out));
    assert!(!pair.by_pacquet.join("node_modules").exists());
}

/// pnpm's record of a verification is pacquet's too: the cache file is
/// shared, and a pnpm record at the same path and policy is trusted.
#[test]
fn a_verification_recorded_by_pnpm_is_reused() {
    let registry = registry();
    let pair = Pair::new(&registry, json!({"pq-dup": "1.0.0"}));
    pair.settings("");
    pair.pnpm_env.install_frozen(&pair.by_pnpm);
    let record = pair.pnpm_env.cache_dir().join("lockfile-verified.jsonl");
    assert!(record.exists());
    registry.reset_requests();
    // pacquet in pnpm's environment, on pnpm's project.
    let out = pacquet(
        &pair.pnpm_env,
        &pair.by_pnpm,
        &["install", "--frozen-lockfile"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let packuments: Vec<String> = registry
        .requests()
        .into_iter()
        .filter(|r| !r.ends_with(".tgz"))
        .collect();
    assert!(packuments.is_empty(), "{packuments:?}");
    let _ = Path::new(&record);
}

/// The mirror file of `name` in pnpm 12's layout under `cache_dir`.
fn mirror_file(cache_dir: &Path, registry: &Registry, dir: &str, name: &str) -> PathBuf {
    let slug = format!("http%3A+127.0.0.1+{}", registry.addr().port());
    cache_dir.join(dir).join(slug).join(format!("{name}.jsonl"))
}

/// Removes the recorded verifications and the project's tree, so the next
/// install verifies again from scratch.
fn forget_verification(cache_dir: &Path, project: &Path) {
    let _ = std::fs::remove_file(cache_dir.join("lockfile-verified.jsonl"));
    let _ = std::fs::remove_dir_all(project.join("node_modules"));
}

fn verified_offline(out: &Output) -> bool {
    flat(out).contains("Lockfile passes supply-chain policies")
}

/// `pq-plain@1.0.0` needs its full document (the package's `modified` is
/// recent), `pq-dup@2.0.0` only the abbreviated one. What pacquet fetched,
/// pnpm 12 verifies from offline, and the reverse.
#[test]
fn metadata_kept_by_either_tool_verifies_the_other_offline() {
    let registry = registry();
    let pair = Pair::new(&registry, json!({"pq-plain": "1.0.0", "pq-dup": "2.0.0"}));
    pair.settings("");
    let offline = ["install", "--frozen-lockfile", "--offline"];

    // pacquet online, then pnpm offline over pacquet's cache and store.
    let out = pacquet(
        &pair.env,
        &pair.by_pacquet,
        &["install", "--frozen-lockfile"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let cache = pair.env.cache_dir();
    for (dir, name) in [
        ("v12/metadata", "pq-dup"),
        ("v12/metadata-full", "pq-plain"),
    ] {
        let file = mirror_file(&cache, &registry, dir, name);
        assert!(file.is_file(), "{} missing", file.display());
    }
    forget_verification(&cache, &pair.by_pacquet);
    registry.reset_requests();
    let by_pnpm = pair.env.run(&pair.by_pacquet, &offline);
    assert!(by_pnpm.status.success(), "{}", text(&by_pnpm));
    assert!(verified_offline(&by_pnpm), "{}", text(&by_pnpm));

    // pnpm online, then pacquet offline over pnpm's cache and store.
    pair.pnpm_env.install_frozen(&pair.by_pnpm);
    let cache = pair.pnpm_env.cache_dir();
    forget_verification(&cache, &pair.by_pnpm);
    registry.reset_requests();
    let by_pacquet = pacquet(&pair.pnpm_env, &pair.by_pnpm, &offline);
    assert!(by_pacquet.status.success(), "{}", text(&by_pacquet));
    assert!(verified_offline(&by_pacquet), "{}", text(&by_pacquet));
    assert_eq!(registry.total_requests(), 0, "{:?}", registry.requests());
}

#[test]
fn offline_without_kept_metadata_is_refused_as_pnpm_refuses_it() {
    let registry = registry();
    let pair = Pair::new(&registry, json!({"pq-plain": "1.0.0"}));
    pair.settings("");
    // Each store gets the package, so only the metadata is missing.
    pair.pnpm_env.install_frozen(&pair.by_pnpm);
    let out = pacquet(
        &pair.env,
        &pair.by_pacquet,
        &["install", "--frozen-lockfile"],
    );
    assert!(out.status.success(), "{}", text(&out));
    for (cache, project) in [
        (pair.pnpm_env.cache_dir(), &pair.by_pnpm),
        (pair.env.cache_dir(), &pair.by_pacquet),
    ] {
        forget_verification(&cache, project);
        std::fs::remove_dir_all(cache.join("v12")).unwrap();
    }
    let by_pnpm = pair.pnpm_env.run(
        &pair.by_pnpm,
        &[
            "install",
            "--frozen-lockfile",
            "--offline",
            "--reporter=append-only",
        ],
    );
    let by_pacquet = pacquet(
        &pair.env,
        &pair.by_pacquet,
        &["install", "--frozen-lockfile", "--offline"],
    );
    for out in [&by_pnpm, &by_pacquet] {
        assert_refused_with(
            out,
            "ERR_PNPM_META_FETCH_FAIL",
            "ERR_PNPM_NO_OFFLINE_META: Failed to resolve pq-plain in package mirror",
        );
    }
    assert!(!pair.by_pacquet.join("node_modules").exists());
}

/// A second verification asks again, but with the kept document's ETag: the
/// registry answers `304 Not Modified` and the kept copy is used.
#[test]
fn kept_metadata_is_revalidated_not_downloaded_again() {
    let registry = registry();
    let pair = Pair::new(&registry, json!({"pq-plain": "1.0.0", "pq-dup": "2.0.0"}));
    pair.settings("");
    let install = || {
        let out = pacquet(
            &pair.env,
            &pair.by_pacquet,
            &["install", "--frozen-lockfile"],
        );
        assert!(out.status.success(), "{}", text(&out));
    };
    install();
    assert_eq!(registry.not_modified_count(), 0);
    let kept = mirror_file(
        &pair.env.cache_dir(),
        &registry,
        "v12/metadata-full",
        "pq-plain",
    );
    let before = std::fs::read(&kept).unwrap();
    forget_verification(&pair.env.cache_dir(), &pair.by_pacquet);
    registry.reset_requests();
    install();
    let packuments = registry
        .requests()
        .iter()
        .filter(|r| !r.ends_with(".tgz"))
        .count();
    assert!(packuments >= 2, "{:?}", registry.requests());
    assert_eq!(
        registry.not_modified_count(),
        packuments,
        "{:?}",
        registry.requests()
    );
    assert_eq!(std::fs::read(&kept).unwrap(), before);
}

/// The verification runs alongside the downloads (the tarball is fetched
/// while the packument is still on its way), but nothing is written into
/// the project before its verdict: a refused lockfile leaves no tree.
#[test]
fn downloads_overlap_the_verification_but_nothing_is_linked_before_it_passes() {
    let registry = registry();
    let pair = Pair::new(&registry, json!({"pq-plain": "1.1.0"}));
    pair.settings("");
    registry.reset_requests();
    registry.fail_next(
        "pq-plain",
        pacquet_testing::Fault::Delay(Duration::from_millis(1500)),
    );
    let out = pacquet(
        &pair.env,
        &pair.by_pacquet,
        &["install", "--frozen-lockfile"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(
        codes(&out),
        ["ERR_PNPM_MINIMUM_RELEASE_AGE_VIOLATION"],
        "{}",
        text(&out)
    );
    assert_eq!(
        registry.tarball_requests("pq-plain", "1.1.0"),
        1,
        "{:?}",
        registry.requests()
    );
    // Both requests were in flight together; which reached the registry
    // first is up to the scheduler.
    let requests = registry.requests();
    assert!(requests.iter().any(|r| r == "pq-plain"), "{requests:?}");
    assert!(!pair.by_pacquet.join("node_modules").exists());
}

/// `blockExoticSubdeps` is a rule of resolution: pnpm 12.21 installs a
/// frozen lockfile whose subdependency is a plain tarball URL with the
/// setting on, and so does pacquet.
#[test]
fn a_frozen_install_does_not_refuse_exotic_subdependencies() {
    let registry = registry();
    let pair = Pair::new(&registry, json!({"pq-dup-parent-a": "1.0.0"}));
    pair.settings("blockExoticSubdeps: true\n");
    let url = registry.archive_url("pq-dup", "1.0.0");
    for dir in [&pair.by_pnpm, &pair.by_pacquet] {
        let path = dir.join("pnpm-lock.yaml");
        let text = std::fs::read_to_string(&path).unwrap();
        let (before, integrity) = text
            .split_once("  pq-dup@1.0.0:\n    resolution: {integrity: ")
            .expect("pq-dup's entry");
        let integrity = integrity.split('}').next().unwrap();
        let exotic = text
            .replace(
                &format!("  pq-dup@1.0.0:\n    resolution: {{integrity: {integrity}}}"),
                &format!(
                    "  pq-dup@{url}:\n    resolution: {{integrity: {integrity}, tarball: {url}}}\n    version: 1.0.0"
                ),
            )
            .replace("      pq-dup: 1.0.0", &format!("      pq-dup: {url}"))
            .replace("  pq-dup@1.0.0: {}", &format!("  pq-dup@{url}: {{}}"));
        assert!(
            !exotic.contains("pq-dup@1.0.0") && before.contains("importers"),
            "{exotic}"
        );
        std::fs::write(&path, exotic).unwrap();
    }
    let (by_pnpm, by_pacquet) = pair.install_both();
    assert!(by_pnpm.status.success(), "pnpm: {}", text(&by_pnpm));
    assert!(
        by_pacquet.status.success(),
        "pacquet: {}",
        text(&by_pacquet)
    );
    let linked = pair
        .by_pacquet
        .join("node_modules/.pnpm/node_modules/pq-dup/package.json");
    assert!(linked.exists(), "{}", linked.display());
}

/// `pq-dup@2.0.0` (the downgrade) was published in 2021: past
/// `trustPolicyIgnoreAfter` minutes, the trust check leaves it alone.
#[test]
fn trust_policy_ignore_after_lets_old_versions_through() {
    let registry = registry();
    let pair = Pair::new(&registry, deps());
    pair.settings(
        "minimumReleaseAge: 0\ntrustPolicy: no-downgrade\ntrustPolicyIgnoreAfter: 1440\n",
    );
    assert_both_install(&pair);
    // A limit longer than the version's age does not.
    pair.settings(
        "minimumReleaseAge: 0\ntrustPolicy: no-downgrade\ntrustPolicyIgnoreAfter: 100000000\n",
    );
    for dir in [&pair.by_pnpm, &pair.by_pacquet] {
        std::fs::remove_dir_all(dir.join("node_modules")).unwrap();
    }
    assert_both_refuse(&pair, "ERR_PNPM_TRUST_DOWNGRADE", &["pq-dup@2.0.0"]);
}

/// Without a publish time for the pinned version (and a recent `modified`,
/// so the document as a whole proves nothing), the version passes by default
/// and is refused with `minimumReleaseAgeIgnoreMissingTime: false`.
#[test]
fn a_version_without_a_publish_time_passes_unless_missing_times_are_refused() {
    let registry = registry();
    let recent = pacquet_verification::timestamp::format(pacquet_verification::timestamp::now_ms());
    registry.patch_packument(
        "pq-plain",
        json!({"time": {"1.0.0": null, "modified": recent}}),
    );
    let pair = Pair::new(&registry, json!({"pq-plain": "1.0.0"}));
    pair.settings("");
    assert_both_install(&pair);
    pair.settings("minimumReleaseAgeIgnoreMissingTime: false\n");
    for dir in [&pair.by_pnpm, &pair.by_pacquet] {
        let _ = std::fs::remove_dir_all(dir.join("node_modules"));
    }
    let (_, by_pacquet) = assert_both_refuse(
        &pair,
        "ERR_PNPM_MINIMUM_RELEASE_AGE_VIOLATION",
        &["pq-plain@1.0.0"],
    );
    assert!(
        flat(&by_pacquet).contains("could not be checked against minimumReleaseAge"),
        "{}",
        text(&by_pacquet)
    );
}

/// pnpm 12.21 refuses an unknown `trustPolicy` while loading its settings,
/// whatever else is configured (`trustLockfile` too).
#[test]
fn an_unknown_trust_policy_is_refused_while_loading_the_settings() {
    let registry = registry();
    let pair = Pair::new(&registry, json!({"pq-dup": "1.0.0"}));
    pair.settings("trustPolicy: bogus\ntrustLockfile: true\n");
    let (by_pnpm, by_pacquet) = pair.install_both();
    for out in [&by_pnpm, &by_pacquet] {
        assert_eq!(codes(out), ["ERR_PNPM_INVALID_SETTING"], "{}", text(out));
        assert_refused_with(
            out,
            "ERR_PNPM_INVALID_SETTING",
            "unknown variant `bogus`, expected one of off, no-downgrade",
        );
    }
    assert!(!pair.by_pacquet.join("node_modules").exists());
}

/// `pnpm fetch` verifies the lockfile too: a version younger than the
/// policy fails the fetch with the same code.
#[test]
fn fetch_refuses_a_lockfile_the_policy_rejects() {
    let registry = registry();
    let pair = Pair::new(&registry, json!({"pq-plain": "1.1.0"}));
    pair.settings("");
    let by_pnpm = pair
        .pnpm_env
        .run(&pair.by_pnpm, &["fetch", "--reporter=append-only"]);
    let by_pacquet = pacquet(&pair.env, &pair.by_pacquet, &["fetch"]);
    for out in [&by_pnpm, &by_pacquet] {
        assert_eq!(out.status.code(), Some(1), "{}", text(out));
        assert_eq!(
            codes(out),
            ["ERR_PNPM_MINIMUM_RELEASE_AGE_VIOLATION"],
            "{}",
            text(out)
        );
        assert_eq!(listed(out), ["pq-plain@1.1.0"], "{}", text(out));
    }
    // Under a policy that accepts it, the fetch fills the store.
    pair.settings("minimumReleaseAge: 60\n");
    let out = pacquet(&pair.env, &pair.by_pacquet, &["fetch"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        flat(&out).contains("Lockfile passes supply-chain policies"),
        "{}",
        text(&out)
    );
}

/// Without a kept full document, the publish time comes from the
/// registry's attestations of the version before the full document: here
/// the attestation says an hour ago while `time` says 2020, and both tools
/// refuse the version with the attestation's time.
#[test]
fn the_attestations_publish_time_comes_before_the_full_document() {
    let registry = registry();
    let now = pacquet_verification::timestamp::now_ms();
    let recent = pacquet_verification::timestamp::format(now);
    registry.patch_packument(
        "pq-plain",
        json!({"time": {"1.1.0": "2020-01-01T00:00:00.000Z", "modified": recent}}),
    );
    let logged = now / 1000 - 3600;
    registry.serve_json(
        "-/npm/v1/attestations/pq-plain@1.1.0",
        &json!({"attestations": [{
            "predicateType": "https://slsa.dev/provenance/v1",
            "bundle": {"verificationMaterial": {"tlogEntries": [{"integratedTime": logged.to_string()}]}},
        }]}),
    );
    let pair = Pair::new(&registry, json!({"pq-plain": "1.1.0"}));
    pair.settings("");
    let (by_pnpm, by_pacquet) = assert_both_refuse(
        &pair,
        "ERR_PNPM_MINIMUM_RELEASE_AGE_VIOLATION",
        &["pq-plain@1.1.0"],
    );
    let at = pacquet_verification::timestamp::format(logged * 1000);
    for out in [&by_pnpm, &by_pacquet] {
        assert!(
            flat(out).contains(&format!("was published at {at}")),
            "{}",
            text(out)
        );
    }
}

/// An install that resolves checks the lockfile it was given, not the one
/// it resolved (pnpm 12.21): without a lockfile nothing is checked, so a
/// version only a young release satisfies is installed (picked as if there
/// were no age limit, `minimumReleaseAgeStrict` being off), no verification
/// is reported, and the lockfile written passes the next install; with a
/// lockfile that holds such a version, adding a dependency is refused for
/// the entry already locked, before the new lockfile is written.
#[test]
fn a_resolution_checks_the_lockfile_it_was_given() {
    let registry = registry();
    let pair = Pair::new(&registry, deps());
    pair.settings("");
    let run_both = |pair: &Pair| {
        let by_pnpm = pair.pnpm_env.run(
            &pair.by_pnpm,
            &["install", "--no-frozen-lockfile", "--reporter=append-only"],
        );
        let by_pacquet = pacquet(
            &pair.env,
            &pair.by_pacquet,
            &["install", "--no-frozen-lockfile"],
        );
        (by_pnpm, by_pacquet)
    };
    // A new dependency: the locked `pq-plain@1.1.0` is refused.
    for dir in [&pair.by_pnpm, &pair.by_pacquet] {
        let manifest = json!({"name": "project", "version": "1.0.0",
            "dependencies": {"pq-plain": "1.1.0", "pq-dup": "2.0.0", "pq-deep-1": "1.0.0"}});
        std::fs::write(dir.join("package.json"), manifest.to_string()).unwrap();
    }
    let locked = |dir: &Path| std::fs::read_to_string(dir.join("pnpm-lock.yaml")).unwrap();
    let before = locked(&pair.by_pacquet);
    let (by_pnpm, by_pacquet) = run_both(&pair);
    for out in [&by_pnpm, &by_pacquet] {
        assert_refused_with(
            out,
            "ERR_PNPM_MINIMUM_RELEASE_AGE_VIOLATION",
            "pq-plain@1.1.0",
        );
    }
    // Refused before the new lockfile is written.
    assert_eq!(locked(&pair.by_pnpm), before);
    assert_eq!(locked(&pair.by_pacquet), before);
    // No lockfile: nothing to check.
    for dir in [&pair.by_pnpm, &pair.by_pacquet] {
        std::fs::remove_file(dir.join("pnpm-lock.yaml")).unwrap();
    }
    let (by_pnpm, by_pacquet) = run_both(&pair);
    for out in [&by_pnpm, &by_pacquet] {
        assert!(out.status.success(), "{}", text(out));
        assert!(!text(out).contains("supply-chain"), "{}", text(out));
    }
    assert_eq!(locked(&pair.by_pnpm), locked(&pair.by_pacquet));
    assert!(locked(&pair.by_pacquet).contains("pq-plain@1.1.0:"));
    // What a resolution wrote passes the next install's check, its young
    // `pq-plain@1.1.0` included (pnpm 12.21 checks it again and lets it
    // through; pacquet finds the record it made when it resolved).
    for dir in [&pair.by_pnpm, &pair.by_pacquet] {
        let manifest = json!({"name": "project", "version": "1.0.0",
            "dependencies": {"pq-plain": "1.1.0", "pq-dup": "2.0.0", "pq-deep-1": "1.0.0",
                "pq-deprecated": "1.0.0"}});
        std::fs::write(dir.join("package.json"), manifest.to_string()).unwrap();
    }
    let (by_pnpm, by_pacquet) = run_both(&pair);
    for out in [&by_pnpm, &by_pacquet] {
        assert!(out.status.success(), "{}", text(out));
        assert!(
            flat(out).contains("Lockfile passes supply-chain policies ("),
            "{}",
            text(out)
        );
    }
}
