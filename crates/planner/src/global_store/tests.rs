//! Slot names against the ones pnpm 12.21 made (recorded under
//! `tests/fixtures/global-store/<name>`: the lockfile and every
//! `<scope>/<name>/<version>/<hash>` directory of pnpm's `links`).

use std::{collections::BTreeSet, path::Path};

use pacquet_lockfile::Lockfile;
use pretty_assertions::assert_eq;

use super::{GlobalVirtualStore, slot_names};

fn fixture(name: &str, file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/global-store")
        .join(name)
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn names(name: &str, engine: Option<&str>, builds: &dyn Fn(&str) -> bool) -> BTreeSet<String> {
    names_with(name, engine, builds, true)
}

fn names_with(
    name: &str,
    engine: Option<&str>,
    builds: &dyn Fn(&str) -> bool,
    scripts_run: bool,
) -> BTreeSet<String> {
    let text = fixture(name, "pnpm-lock.yaml");
    let lockfile = Lockfile::parse(&text, Path::new("pnpm-lock.yaml")).expect("lockfile parses");
    let gvs = GlobalVirtualStore {
        dir: "../store/v11/links".into(),
        configured: "/tmp/store/v11/links".into(),
        lockfile_dir: "/tmp/project".into(),
        engine: engine.map(str::to_owned),
    };
    slot_names(&lockfile, &gvs, &|k| builds(k.as_str()), scripts_run)
        .expect("safe names")
        .into_values()
        .collect()
}

fn recorded(name: &str) -> BTreeSet<String> {
    recorded_in(name, "slots.txt")
}

fn recorded_in(name: &str, file: &str) -> BTreeSet<String> {
    fixture(name, file).lines().map(str::to_owned).collect()
}

#[test]
fn names_match_pnpm_without_builds() {
    for name in ["gvs1", "gvs2a"] {
        let computed = names(name, Some("linux;x64;node22"), &|_| false);
        assert_eq!(computed, recorded(name), "{name}");
    }
}

/// Dependency cycles (a package listing itself, two- and three-package
/// cycles, one cycle depending on another, peer variants of one cycle):
/// each is hashed as a whole, the same from every entry.
#[test]
fn cycles_match_pnpm() {
    assert_eq!(
        names("cycles", Some("linux;x64;node20"), &|_| false),
        recorded("cycles")
    );
}

/// Packages `allowBuilds` lets build carry the engine and, when scripts
/// run, `built: true` (even one with no scripts, `pq-lc-record`); their
/// dependents carry the engine only.
#[test]
fn built_packages_match_pnpm() {
    let allowed = |k: &str| k.starts_with("pq-lc-");
    let engine = Some("linux;x64;node20");
    assert_eq!(
        names_with("builds", engine, &allowed, true),
        recorded("builds")
    );
    assert_eq!(
        names_with("builds", engine, &allowed, false),
        recorded_in("builds", "slots-ignore-scripts.txt")
    );
}

#[test]
fn engine_goes_into_the_hash_of_builders_and_their_dependents_only() {
    let plain = names("gvs1", Some("linux;x64;node22"), &|_| false);
    // `is-number` may build: it and `is-odd` (which depends on it) move,
    // the rimraf subtree does not.
    let building = names("gvs1", Some("linux;x64;node22"), &|k| {
        k == "is-number@6.0.0"
    });
    let moved: BTreeSet<_> = plain.difference(&building).cloned().collect();
    let moved: Vec<&str> = moved.iter().map(|s| s.split('/').nth(1).unwrap()).collect();
    assert_eq!(moved, ["is-number", "is-odd"]);
    // Without a known engine only the builder's own `built` flag remains.
    let plain = names("gvs1", None, &|_| false);
    let building = names("gvs1", None, &|k| k == "is-number@6.0.0");
    let moved: BTreeSet<_> = plain.difference(&building).cloned().collect();
    let moved: Vec<&str> = moved.iter().map(|s| s.split('/').nth(1).unwrap()).collect();
    assert_eq!(moved, ["is-number"]);
}

/// A `version` with a `..` segment would put the slot outside the store.
#[test]
fn a_traversing_version_is_refused() {
    let text = fixture("gvs2a", "pnpm-lock.yaml").replacen(
        "resolution: {integrity:",
        "version: ../../../outside\n    resolution: {integrity:",
        1,
    );
    let lockfile = Lockfile::parse(&text, Path::new("pnpm-lock.yaml")).expect("lockfile parses");
    let gvs = GlobalVirtualStore {
        dir: "../store/v11/links".into(),
        configured: "/tmp/store/v11/links".into(),
        lockfile_dir: "/tmp/project".into(),
        engine: None,
    };
    let err = slot_names(&lockfile, &gvs, &|_| false, true).unwrap_err();
    assert!(
        matches!(&err, crate::PlanError::TraversalVersion { version, .. } if version == "../../../outside"),
        "{err:?}"
    );
}
