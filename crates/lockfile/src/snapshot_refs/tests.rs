use std::path::Path;

use crate::{DepPath, DepRef, DependencyGroup, Lockfile, LockfileError};

const TEXT: &str = "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      a:\n        specifier: ^1\n        version: 1.0.0(b@2.0.0)\n      l:\n        specifier: link:../l\n        version: link:../l\n    devDependencies:\n      m:\n        specifier: npm:ms@2.1.3\n        version: ms@2.1.3\n\nsnapshots:\n\n  a@1.0.0(b@2.0.0):\n    dependencies:\n      b: 2.0.0\n    optionalDependencies:\n      c: 3.0.0\n\n  b@2.0.0: {}\n\n  c@3.0.0: {}\n\n  ms@2.1.3: {}\n";

fn parse(text: &str) -> Lockfile {
    Lockfile::parse(text, Path::new("/p/pnpm-lock.yaml")).expect("parses")
}

#[test]
fn snapshot_edges_list_dependencies_then_optionals() {
    let lf = parse(TEXT);
    let snap = &lf.snapshots["a@1.0.0(b@2.0.0)"];
    let edges: Vec<_> = snap.dependency_refs().collect();
    assert_eq!(
        edges,
        vec![
            ("b", DepRef::Snapshot(DepPath::parse("b@2.0.0"))),
            ("c", DepRef::Snapshot(DepPath::parse("c@3.0.0"))),
        ]
    );
}

#[test]
fn importer_edges_carry_their_group() {
    let lf = parse(TEXT);
    let edges: Vec<_> = lf.importers["."].dependency_refs().collect();
    assert_eq!(
        edges,
        vec![
            (
                DependencyGroup::Prod,
                "a",
                DepRef::Snapshot(DepPath::parse("a@1.0.0(b@2.0.0)"))
            ),
            (DependencyGroup::Prod, "l", DepRef::Link("../l")),
            (
                DependencyGroup::Dev,
                "m",
                DepRef::Snapshot(DepPath::parse("ms@2.1.3"))
            ),
        ]
    );
}

#[test]
fn missing_snapshots_are_reported() {
    assert!(parse(TEXT).check_edges().is_ok());
    let broken = TEXT.replace("  c@3.0.0: {}\n\n", "");
    let err = parse(&broken).check_edges().expect_err("c is missing");
    assert!(matches!(&err, LockfileError::MissingDependency { dep_path } if dep_path == "c@3.0.0"));
    assert_eq!(
        err.to_string(),
        "Broken lockfile: no entry for 'c@3.0.0' in pnpm-lock.yaml"
    );
}
