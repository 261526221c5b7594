//! Expected values are what pnpm 12.21 wrote into the importers of a
//! workspace with these overrides (`pnpm install --lockfile-only`).

use super::*;
use pretty_assertions::assert_eq;

fn map(pairs: &[(&str, &str)]) -> IndexMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn overrides() -> IndexMap<String, String> {
    map(&[
        ("semver", "^7.6.0"),
        ("ms@<3", "2.1.2"),
        ("debug@^2", "4.3.4"),
        ("p>is-odd", "3.0.0"),
        ("chalk", "-"),
        ("is-number", "7.0.0"),
        ("react", "18.3.1"),
        ("left-pad", "link:./vendor/left-pad"),
    ])
}

#[test]
fn root_project_as_pnpm_12_resolves_it() {
    let root = ProjectManifest {
        name: Some("ovr-root".into()),
        dependencies: map(&[
            ("semver", "^5.0.0"),
            ("ms", "2.1.3"),
            ("debug", "^4.0.0"),
            ("chalk", "^4.0.0"),
        ]),
        dev_dependencies: map(&[("is-number", "^6.0.0")]),
        peer_dependencies: map(&[("react", ">=17")]),
        ..Default::default()
    };
    let got = apply_overrides(&root, &overrides());
    assert_eq!(
        got.dependencies,
        map(&[("semver", "^7.6.0"), ("ms", "2.1.2"), ("debug", "^4.0.0")])
    );
    assert_eq!(got.dev_dependencies, map(&[("is-number", "7.0.0")]));
    assert_eq!(got.peer_dependencies, map(&[("react", "18.3.1")]));
}

#[test]
fn parent_selectors_in_a_sub_project() {
    let p = ProjectManifest {
        name: Some("p".into()),
        version: Some("1.0.0".into()),
        dependencies: map(&[
            ("ms", "^2.0.0"),
            ("is-odd", "^3.0.0"),
            ("left-pad", "link:../../vendor/left-pad"),
        ]),
        ..Default::default()
    };
    // The caller rebases `link:` values per project (the root's
    // `link:./vendor/left-pad` is `link:../../vendor/left-pad` here).
    let mut rebased = overrides();
    rebased["left-pad"] = "link:../../vendor/left-pad".into();
    let got = apply_overrides(&p, &rebased);
    assert_eq!(
        got.dependencies,
        map(&[
            ("ms", "2.1.2"),
            ("is-odd", "3.0.0"),
            ("left-pad", "link:../../vendor/left-pad"),
        ])
    );
    // Another project is not `p`: the parent selector does not apply.
    let q = ProjectManifest {
        name: Some("q".into()),
        ..p.clone()
    };
    assert_eq!(
        apply_overrides(&q, &overrides()).dependencies["is-odd"],
        "^3.0.0"
    );
}

#[test]
fn a_ranged_override_wins_over_a_bare_one() {
    let m = ProjectManifest {
        dependencies: map(&[("foo", "^1.2.0"), ("bar", "^2.0.0")]),
        ..Default::default()
    };
    let o = map(&[("foo", "3.0.0"), ("foo@^1", "1.9.0"), ("bar@^1", "1.0.0")]);
    let got = apply_overrides(&m, &o);
    assert_eq!(
        got.dependencies,
        map(&[("foo", "1.9.0"), ("bar", "^2.0.0")])
    );
}

#[test]
fn keys_with_scopes_and_ranges_that_contain_gt() {
    assert_eq!(
        parse_override("@scope/a@>=1 <2>@scope/b@^3", "1.0.0"),
        Some(Override {
            parent: Some(Selector {
                name: "@scope/a".into(),
                range: Some(">=1 <2".into()),
            }),
            target: Selector {
                name: "@scope/b".into(),
                range: Some("^3".into()),
            },
            value: "1.0.0".into(),
        })
    );
    assert_eq!(
        parse_override("foo@>1", "2"),
        Some(Override {
            parent: None,
            target: Selector {
                name: "foo".into(),
                range: Some(">1".into()),
            },
            value: "2".into(),
        })
    );
}

#[test]
fn dollar_references_take_the_root_specifier() {
    let root = ProjectManifest {
        dev_dependencies: map(&[("typescript", "^5.5.0")]),
        ..Default::default()
    };
    let got = resolve_override_references(&map(&[("typescript", "$typescript")]), &root).unwrap();
    assert_eq!(got, map(&[("typescript", "^5.5.0")]));
    let err = resolve_override_references(&map(&[("ms", "$nothere")]), &root).unwrap_err();
    assert!(matches!(err, LockfileError::OverrideReference { .. }));
}

/// `catalog:` values become the catalog's specifier for the overridden
/// package, as pnpm 12 records them (vitest's and slidev's workspaces).
#[test]
fn catalog_values_resolve_to_the_catalog_specifier() {
    let mut catalogs: IndexMap<String, IndexMap<String, String>> = IndexMap::new();
    catalogs.insert("default".into(), map(&[("rollup", "^4.62.4")]));
    catalogs.insert("prod".into(), map(&[("markdown-exit", "^1.1.0-beta.2")]));
    let overrides = map(&[
        ("rollup", "catalog:"),
        ("parent>markdown-exit", "catalog:prod"),
        ("missing", "catalog:"),
        ("plain", "1.0.0"),
    ]);
    assert_eq!(
        super::resolve_override_catalogs(&overrides, &catalogs),
        map(&[
            ("rollup", "^4.62.4"),
            ("parent>markdown-exit", "^1.1.0-beta.2"),
            ("missing", "catalog:"),
            ("plain", "1.0.0"),
        ])
    );
}
