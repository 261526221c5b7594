use super::*;

#[test]
fn splits_name_version_and_suffix() {
    let p = DepPath::parse("@types/react-dom@19.3.1(@types/react@19.3.1)(react@19.3.1)");
    assert_eq!(p.name(), "@types/react-dom");
    assert_eq!(p.version(), "19.3.1");
    assert_eq!(p.package_id(), "@types/react-dom@19.3.1");
    assert_eq!(p.suffix(), "(@types/react@19.3.1)(react@19.3.1)");
}

#[test]
fn patch_hash_is_found() {
    let p = DepPath::parse("a@1.0.0(patch_hash=abc)(b@2.0.0)");
    assert_eq!(p.patch_hash(), Some("abc"));
    assert_eq!(p.package_id(), "a@1.0.0");
}

#[test]
fn refs_resolve_against_alias() {
    assert_eq!(
        DepRef::resolve("chalk", "4.1.2"),
        DepRef::Snapshot(DepPath::parse("chalk@4.1.2"))
    );
    assert_eq!(
        DepRef::resolve("react-dom", "19.3.1(react@19.3.1)"),
        DepRef::Snapshot(DepPath::parse("react-dom@19.3.1(react@19.3.1)"))
    );
    assert_eq!(
        DepRef::resolve("ms-alias", "ms@2.1.3"),
        DepRef::Snapshot(DepPath::parse("ms@2.1.3"))
    );
    assert_eq!(
        DepRef::resolve("x", "@s/n@1.0.0"),
        DepRef::Snapshot(DepPath::parse("@s/n@1.0.0"))
    );
    assert_eq!(DepRef::resolve("a", "link:../b"), DepRef::Link("../b"));
    assert_eq!(
        DepRef::resolve("localdir", "file:localdir"),
        DepRef::Snapshot(DepPath::parse("localdir@file:localdir"))
    );
    assert_eq!(
        DepRef::resolve("a", "https://pkgs.example.com/a-1.0.0.tgz"),
        DepRef::Snapshot(DepPath::parse("a@https://pkgs.example.com/a-1.0.0.tgz"))
    );
    assert_eq!(
        DepRef::resolve("b", "a@https://pkgs.example.com/b-1.0.0.tgz"),
        DepRef::Snapshot(DepPath::parse("a@https://pkgs.example.com/b-1.0.0.tgz"))
    );
    assert_eq!(
        DepRef::resolve("p", "parent@file:.."),
        DepRef::Snapshot(DepPath::parse("parent@file:.."))
    );
}
