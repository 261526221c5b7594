//! parse → to_yaml reproduces lockfiles written by pnpm 12 byte for byte.

use std::path::{Path, PathBuf};

use pacquet_lockfile::Lockfile;
use pretty_assertions::assert_eq;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn assert_round_trip(rel: &str) {
    let path = fixture(rel);
    let text = std::fs::read_to_string(&path).expect("fixture exists");
    let lockfile = Lockfile::parse(&text, &path).expect("fixture parses");
    assert_eq!(lockfile.to_yaml(), text, "{rel}");
    // CRLF input reads the same.
    let crlf = text.replace('\n', "\r\n");
    assert_eq!(
        Lockfile::parse(&crlf, &path).expect("CRLF parses"),
        lockfile
    );
}

macro_rules! round_trip {
    ($($name:ident => $path:expr),* $(,)?) => {$(
        #[test]
        fn $name() {
            assert_round_trip($path);
        }
    )*};
}

round_trip! {
    alotta => "../../benchmarks/fixtures/alotta/pnpm-lock.yaml",
    small => "../../benchmarks/fixtures/small/pnpm-lock.yaml",
    aliases => "tests/fixtures/aliases/pnpm-lock.yaml",
    catalogs => "tests/fixtures/catalogs/pnpm-lock.yaml",
    local => "tests/fixtures/local/pnpm-lock.yaml",
    misc => "tests/fixtures/misc/pnpm-lock.yaml",
    optional => "tests/fixtures/optional/pnpm-lock.yaml",
    overrides => "tests/fixtures/overrides/pnpm-lock.yaml",
    patched => "tests/fixtures/patched/pnpm-lock.yaml",
    peers => "tests/fixtures/peers/pnpm-lock.yaml",
    tarball => "tests/fixtures/tarball/pnpm-lock.yaml",
    workspace => "tests/fixtures/workspace/pnpm-lock.yaml",
    configdeps => "tests/fixtures/configdeps/pnpm-lock.yaml",
    remote => "tests/fixtures/remote/pnpm-lock.yaml",
    time => "tests/fixtures/time/pnpm-lock.yaml",
    settings => "tests/fixtures/settings/pnpm-lock.yaml",
    meta => "tests/fixtures/meta/pnpm-lock.yaml",
}

/// pnpm 10 recorded `{hash, path}` per patch; pnpm 12 reads it and writes
/// the hash alone (checked: its `node_modules/.pnpm/lock.yaml` after a
/// frozen install of such a lockfile).
#[test]
fn pnpm10_patch_entries_are_written_as_hashes() {
    let path = fixture("tests/fixtures/patched/pnpm-lock.yaml");
    let text = std::fs::read_to_string(&path).expect("fixture exists");
    let (selector, hash) = text
        .lines()
        .skip_while(|l| *l != "patchedDependencies:")
        .nth(1)
        .and_then(|l| l.trim().split_once(": "))
        .expect("a patchedDependencies entry");
    let v10 = text.replacen(
        &format!("  {selector}: {hash}\n"),
        &format!("  {selector}:\n    hash: {hash}\n    path: patches/x.patch\n"),
        1,
    );
    assert_ne!(v10, text);
    let lockfile = Lockfile::parse(&v10, &path).expect("pnpm 10 form parses");
    assert_eq!(lockfile.to_yaml(), text);
}

/// pnpm 12.21 reads `libc` written as a scalar (older pnpm versions wrote
/// `libc: glibc`) and writes it back as one; `os` and `cpu` must be lists
/// (a scalar is ERR_PNPM_BROKEN_LOCKFILE there too).
#[test]
fn scalar_libc_reads_and_writes_back() {
    let path = fixture("tests/fixtures/optional/pnpm-lock.yaml");
    let text = "lockfileVersion: '9.0'

importers:

  .:
    optionalDependencies:
      pq-linux:
        specifier: 1.0.0
        version: 1.0.0

packages:

  pq-linux@1.0.0:
    resolution: {integrity: sha512-AAAA}
    os: [linux]
    libc: glibc

snapshots:

  pq-linux@1.0.0:
    optional: true
";
    let lockfile = Lockfile::parse(text, &path).expect("scalar libc parses");
    let info = lockfile.packages.values().next().unwrap();
    assert_eq!(info.libc.as_deref(), Some(&["glibc".to_owned()][..]));
    assert!(info.supports_platform(&["linux"], &["x64"], &["glibc"]));
    assert!(!info.supports_platform(&["linux"], &["x64"], &["musl"]));
    assert_eq!(lockfile.to_yaml(), text);
    let scalar_os = text.replace("os: [linux]", "os: linux");
    let err = Lockfile::parse(&scalar_os, &path).unwrap_err();
    assert!(
        matches!(err, pacquet_lockfile::LockfileError::Broken { .. }),
        "{err}"
    );
}
