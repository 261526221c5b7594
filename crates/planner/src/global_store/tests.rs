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
    let text = fixture(name, "pnpm-lock.yaml");
    let lockfile = Lockfile::parse(&text, Path::new("pnpm-lock.yaml")).expect("lockfile parses");
    let gvs = GlobalVirtualStore {
        dir: "../store/v11/links".into(),
        configured: "/tmp/store/v11/links".into(),
        lockfile_dir: "/tmp/project".into(),
        engine: engine.map(str::to_owned),
    };
    slot_names(&lockfile, &gvs, &|k| builds(k.as_str()))
        .expect("safe names")
        .into_values()
        .collect()
}

fn recorded(name: &str) -> BTreeSet<String> {
    fixture(name, "slots.txt")
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn names_match_pnpm_without_builds() {
    for name in ["gvs1", "gvs2a"] {
        let computed = names(name, Some("linux;x64;node22"), &|_| false);
        assert_eq!(computed, recorded(name), "{name}");
    }
}

/// Dependency cycles: the digests pnpm's sources give for them (the walk
/// in lockfile key order, a node met again below itself hashed with no
/// dependencies; pnpm 12.21's binary differs, docs/layout.md §16.2).
#[test]
fn cycles_hash_as_pnpm_states() {
    assert_eq!(
        names("cycles", Some("darwin;arm64;node20"), &|_| false),
        recorded("cycles")
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
    // Without a known engine, building changes nothing.
    assert_eq!(names("gvs1", None, &|k| k == "is-number@6.0.0"), plain);
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
    let err = slot_names(&lockfile, &gvs, &|_| false).unwrap_err();
    assert!(
        matches!(&err, crate::PlanError::TraversalVersion { version, .. } if version == "../../../outside"),
        "{err:?}"
    );
}
