use super::set_catalog_entry;

const WORKSPACE: &str = "packages:\n  - packages/*\n\n# pinned for the app\ncatalog:\n  pq-plain: ^1.0.0 # keep in step\n  '@pq/scoped': \"~2.0.0\"\n  react: 18.2.0\n\ncatalogs:\n  legacy:\n    pq-plain: ^0.9.0\n  default:\n    other: ^3.0.0\noverrides:\n  pq-plain: 1.0.0\n";

#[test]
fn the_default_catalog_entry_changes_and_nothing_else() {
    let out = set_catalog_entry(WORKSPACE, "default", "pq-plain", "^1.1.0").unwrap();
    assert_eq!(
        out,
        WORKSPACE.replace("pq-plain: ^1.0.0 # keep", "pq-plain: ^1.1.0 # keep")
    );
}

#[test]
fn quoted_keys_and_values_keep_their_quotes() {
    let out = set_catalog_entry(WORKSPACE, "default", "@pq/scoped", "~2.1.0").unwrap();
    assert_eq!(out, WORKSPACE.replace("\"~2.0.0\"", "\"~2.1.0\""));
}

#[test]
fn named_catalogs_and_catalogs_default() {
    let out = set_catalog_entry(WORKSPACE, "legacy", "pq-plain", "^0.9.5").unwrap();
    assert_eq!(out, WORKSPACE.replace("^0.9.0", "^0.9.5"));
    // Not under `catalog:`: `catalogs: default:`.
    let out = set_catalog_entry(WORKSPACE, "default", "other", "^3.1.0").unwrap();
    assert_eq!(out, WORKSPACE.replace("^3.0.0", "^3.1.0"));
}

#[test]
fn an_entry_elsewhere_or_missing_is_not_found() {
    // `overrides: pq-plain` has the same key at the same depth.
    assert_eq!(
        set_catalog_entry(WORKSPACE, "legacy", "react", "1.0.0"),
        None
    );
    assert_eq!(
        set_catalog_entry(WORKSPACE, "nope", "pq-plain", "1.0.0"),
        None
    );
    let flow = "catalog: {pq-plain: ^1.0.0}\n";
    assert_eq!(
        set_catalog_entry(flow, "default", "pq-plain", "^1.1.0"),
        None
    );
}

#[test]
fn a_value_that_would_not_read_back_is_quoted() {
    let out = set_catalog_entry(WORKSPACE, "default", "react", ">=18.3.0").unwrap();
    assert!(out.contains("  react: '>=18.3.0'\n"), "{out}");
}

#[test]
fn crlf_line_ends_stay() {
    let text = "catalog:\r\n  pq-plain: ^1.0.0\r\n";
    assert_eq!(
        set_catalog_entry(text, "default", "pq-plain", "^1.1.0").unwrap(),
        "catalog:\r\n  pq-plain: ^1.1.0\r\n"
    );
}
