use std::path::Path;

use super::platform_list_matches;
use crate::Lockfile;

fn list(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn check_list_rules() {
    assert!(platform_list_matches(&["linux"], &list(&["linux"])));
    assert!(!platform_list_matches(&["linux"], &list(&["darwin"])));
    assert!(platform_list_matches(&["linux"], &list(&["any"])));
    assert!(platform_list_matches(&["linux"], &list(&["!win32"])));
    assert!(!platform_list_matches(&["win32"], &list(&["!win32"])));
    assert!(!platform_list_matches(
        &["linux"],
        &list(&["!win32", "darwin"])
    ));
    assert!(platform_list_matches(
        &["linux", "darwin"],
        &list(&["darwin"])
    ));
}

#[test]
fn recorded_platform_packages() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/optional/pnpm-lock.yaml");
    let text = std::fs::read_to_string(&path).expect("fixture");
    let lf = Lockfile::parse(&text, &path).expect("parses");
    let pkg = |k: &str| lf.packages.get(k).unwrap_or_else(|| panic!("{k}"));
    let host = (["linux"], ["x64"], ["glibc"]);
    assert!(pkg("@esbuild/linux-x64@0.23.1").supports_platform(&host.0, &host.1, &host.2));
    assert!(!pkg("@esbuild/darwin-arm64@0.23.1").supports_platform(&host.0, &host.1, &host.2));
    assert!(!pkg("fsevents@2.3.3").supports_platform(&host.0, &host.1, &host.2));
    assert!(pkg("fsevents@2.3.3").supports_platform(&["darwin"], &["arm64"], &[]));
    assert!(pkg("esbuild@0.23.1").supports_platform(&host.0, &host.1, &host.2));
}

#[test]
fn libc_is_checked_only_when_known() {
    let text = "lockfileVersion: '9.0'\n\nimporters: {}\n\npackages:\n\n  '@x/linux-x64-musl@1.0.0':\n    resolution: {integrity: sha512-AA==}\n    cpu: [x64]\n    os: [linux]\n    libc: [musl]\n";
    let lf = Lockfile::parse(text, Path::new("/p/pnpm-lock.yaml")).expect("parses");
    let pkg = &lf.packages["@x/linux-x64-musl@1.0.0"];
    assert!(!pkg.supports_platform(&["linux"], &["x64"], &["glibc"]));
    assert!(pkg.supports_platform(&["linux"], &["x64"], &["musl"]));
    assert!(pkg.supports_platform(&["linux"], &["x64"], &["glibc", "musl"]));
    assert!(pkg.supports_platform(&["linux"], &["x64"], &[]));
}
