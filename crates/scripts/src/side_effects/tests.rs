use std::path::Path;

use pacquet_lockfile::{DepPath, Lockfile};

use super::*;

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn fixture_lockfile(name: &str) -> Lockfile {
    Lockfile::parse(&fixture(name), Path::new("pnpm-lock.yaml")).unwrap()
}

/// `esbuild@0.23.1` and its 24 `@esbuild/*` optional dependencies, with the
/// integrities recorded from the registry.
fn esbuild_lockfile() -> Lockfile {
    let text = fixture("esbuild-0.23.1-integrities.txt");
    let mut packages = String::new();
    let mut snapshots = String::new();
    let mut optional = String::new();
    for line in text.lines() {
        let (name, integrity) = line.split_once(' ').unwrap();
        packages.push_str(&format!(
            "  '{name}@0.23.1':\n    resolution: {{integrity: {integrity}}}\n\n"
        ));
        if name == "esbuild" {
            continue;
        }
        snapshots.push_str(&format!("  '{name}@0.23.1':\n    optional: true\n\n"));
        optional.push_str(&format!("      '{name}': 0.23.1\n"));
    }
    let yaml = format!(
        "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      esbuild:\n        specifier: 0.23.1\n        version: 0.23.1\n\npackages:\n\n{packages}snapshots:\n\n{snapshots}  esbuild@0.23.1:\n    optionalDependencies:\n{optional}"
    );
    Lockfile::parse(&yaml, Path::new("pnpm-lock.yaml")).unwrap()
}

#[test]
fn esbuild_check_value_from_the_spec() {
    let lockfile = esbuild_lockfile();
    assert_eq!(lockfile.snapshots.len(), 25);
    let mut memo = DepsHashMemo::new();
    let hash = deps_hash(&lockfile, &DepPath::parse("esbuild@0.23.1"), &mut memo);
    assert_eq!(hash, "C7BeTK1x8RXfmxnbuGyLOQiLhgAG2XUNJo64ao/yV7w=");
    assert_eq!(
        side_effects_cache_key("linux", "x64", 20, Some(&hash), None),
        "linux;x64;node20;format=2;deps=C7BeTK1x8RXfmxnbuGyLOQiLhgAG2XUNJo64ao/yV7w="
    );
}

#[test]
fn recorded_keys_of_the_ps_env_fixture() {
    let lockfile = fixture_lockfile("ps-env.pnpm-lock.yaml");
    let mut memo = DepsHashMemo::new();
    let env = deps_hash(&lockfile, &DepPath::parse("ps-env@1.0.0"), &mut memo);
    let dep = deps_hash(&lockfile, &DepPath::parse("ps-env-dep@1.0.0"), &mut memo);
    assert_eq!(env, "F/Qzs0cly2BXCk9kTBpofbtRsInykhgY1jjvpG9QhmA=");
    assert_eq!(dep, "lsbuDmZNmcq6tg7jaloaBHS0ClXEdra+m5y9mEkfDEs=");
    // The memo gives the same answer as a fresh computation.
    let fresh = deps_hash(
        &lockfile,
        &DepPath::parse("ps-env-dep@1.0.0"),
        &mut DepsHashMemo::new(),
    );
    assert_eq!(fresh, dep);
}

/// `objectHash` of an already serialized value, from the formula of
/// store.md §9 (`base64(sha256(S(v)))`) with `sha2` directly: the expected
/// values below are written out by hand, not produced by `object_hash`.
fn spec_object_hash(serialized: &str) -> String {
    use base64::Engine as _;
    use sha2::Digest as _;
    base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(serialized))
}

/// The `lifecycle` fixture with `pq-lc-record` depending back on
/// `pq-lc-leaf`: the `deps=` parts of the side-effects keys pnpm 12.21
/// wrote for the three packages it built.
#[test]
fn cycles_hash_as_one_component() {
    let lockfile = fixture_lockfile("lifecycle-cycle.pnpm-lock.yaml");
    let mut memo = DepsHashMemo::new();
    let mut hash = |key: &str| deps_hash(&lockfile, &DepPath::parse(key), &mut memo);
    // In the cycle.
    assert_eq!(
        hash("pq-lc-leaf@1.0.0"),
        "/en1iaA9BHYWwqmo8jUJVE8AkJRrB2iN6xz4st9L+Rw="
    );
    // Depending on it.
    assert_eq!(
        hash("pq-lc-mid@1.0.0"),
        "Pgt/LL9pj/XRrUQKZ92KwYJUcuAIaThB1jA4vm99TME="
    );
    assert_eq!(
        hash("pq-lc-optional@1.0.0"),
        "6KrKdsX4AcoVZyEqw5xRJp9ZoQBWYb1q8l3MIwJth60="
    );
}

#[test]
fn resolution_without_integrity_hashes_the_resolution() {
    let yaml = "lockfileVersion: '9.0'\n\npackages:\n\n  g@https://codeload.github.com/o/g/tar.gz/abc:\n    resolution: {tarball: https://codeload.github.com/o/g/tar.gz/abc}\n    version: 1.0.0\n\nsnapshots:\n\n  g@https://codeload.github.com/o/g/tar.gz/abc: {}\n";
    let lockfile = Lockfile::parse(yaml, Path::new("pnpm-lock.yaml")).unwrap();
    let dep_path = DepPath::parse("g@https://codeload.github.com/o/g/tar.gz/abc");
    let hash = deps_hash(&lockfile, &dep_path, &mut DepsHashMemo::new());
    // `objectHash({ tarball })`; the URL is 42 characters.
    let res = spec_object_hash(
        "object:1:string:7:tarball:string:42:https://codeload.github.com/o/g/tar.gz/abc,",
    );
    // `{ id: "<pkgId>:<res>", deps: {} }`; the id is 2 + 42 + 1 + 44 = 89
    // characters.
    let expected = spec_object_hash(&format!(
        "object:2:string:4:deps:object:0:,string:2:id:string:89:g@https://codeload.github.com/o/g/tar.gz/abc:{res},"
    ));
    assert_eq!(hash, expected);
}

#[test]
fn serialization_format() {
    let mut s = String::new();
    object_hash::serialize(
        &HashInput::Object(vec![
            ("b".into(), HashInput::Str("é".into())),
            ("a".into(), HashInput::Str("😀".into())),
        ]),
        &mut s,
        true,
    );
    assert_eq!(s, "object:2:string:1:a:string:2:😀,string:1:b:string:1:é,");
}

#[test]
fn in_order_serialization_keeps_key_order() {
    let input = HashInput::Object(vec![
        ("engine".into(), HashInput::Null),
        ("deps".into(), HashInput::Str("x".into())),
    ]);
    let mut s = String::new();
    object_hash::serialize(&input, &mut s, false);
    assert_eq!(s, "object:2:string:6:engine:Null,string:4:deps:string:1:x,");
    assert_eq!(object_hash_hex_in_order(&input).len(), 64);
}

#[test]
fn cache_key_with_patch_and_without_deps() {
    assert_eq!(
        side_effects_cache_key("darwin", "arm64", 22, None, Some("abc")),
        "darwin;arm64;node22;format=2;patch=abc"
    );
    assert_eq!(
        side_effects_cache_key("linux", "x64", 20, Some("d"), Some("p")),
        "linux;x64;node20;format=2;deps=d;patch=p"
    );
}

#[test]
fn node_facts() {
    assert_eq!(parse_node_major("v20.20.2\n"), Some(20));
    assert_eq!(parse_node_major("22.1.0"), Some(22));
    assert_eq!(parse_node_major("garbage"), None);
    if cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        assert_eq!((node_platform(), node_arch()), ("linux", "x64"));
    }
    // node is on PATH in this environment (pnpm needs it too).
    let major = node_major().expect("node on PATH");
    assert!(major >= 18);
}
