use super::*;

fn catalogs() -> Catalogs {
    let mut default = IndexMap::new();
    default.insert("react".to_owned(), "^18.3.0".to_owned());
    default.insert("loop".to_owned(), "catalog:other".to_owned());
    default.insert("ws".to_owned(), "workspace:*".to_owned());
    default.insert("dir".to_owned(), "file:../dir".to_owned());
    let mut old = IndexMap::new();
    old.insert("react".to_owned(), "^17.0.0".to_owned());
    let mut all = IndexMap::new();
    all.insert("default".to_owned(), default);
    all.insert("old".to_owned(), old);
    all
}

#[test]
fn bare_catalog_is_the_default_one() {
    let found = lookup(&catalogs(), "react", "catalog:").unwrap().unwrap();
    assert_eq!(found.catalog, "default");
    assert_eq!(found.specifier, "^18.3.0");
    let found = lookup(&catalogs(), "react", "catalog:old")
        .unwrap()
        .unwrap();
    assert_eq!(
        (found.catalog.as_str(), found.specifier.as_str()),
        ("old", "^17.0.0")
    );
}

#[test]
fn other_specifiers_are_not_lookups() {
    assert_eq!(lookup(&catalogs(), "react", "^18.0.0").unwrap(), None);
}

#[test]
fn misconfigured_entries_have_pnpm_codes() {
    let code = |alias: &str, spec: &str| {
        let err = lookup(&catalogs(), alias, spec).unwrap_err();
        miette::Diagnostic::code(&err).unwrap().to_string()
    };
    assert_eq!(
        code("vue", "catalog:"),
        "ERR_PNPM_CATALOG_ENTRY_NOT_FOUND_FOR_SPEC"
    );
    assert_eq!(
        code("react", "catalog:nope"),
        "ERR_PNPM_CATALOG_ENTRY_NOT_FOUND_FOR_SPEC"
    );
    assert_eq!(
        code("loop", "catalog:"),
        "ERR_PNPM_CATALOG_ENTRY_INVALID_RECURSIVE_DEFINITION"
    );
    assert_eq!(
        code("ws", "catalog:"),
        "ERR_PNPM_CATALOG_ENTRY_INVALID_WORKSPACE_SPEC"
    );
    assert_eq!(
        code("dir", "catalog:"),
        "ERR_PNPM_CATALOG_ENTRY_INVALID_SPEC"
    );
}
