//! The complete shims printed in docs/layout.md §6 (pnpm 12.21.0 output for
//! `semver` and `esbuild`), reproduced by `shim_script`.

use std::path::{Path, PathBuf};

use pacquet_bins::shim_script;

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/spec")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

fn node_path(root: &Path, slot: &str, name: &str) -> Vec<PathBuf> {
    let slot_modules = root.join(".pnpm").join(slot).join("node_modules");
    vec![
        slot_modules.join(name).join("node_modules"),
        slot_modules,
        root.join(".pnpm/node_modules"),
    ]
}

#[test]
fn semver_js_bin() {
    let root = Path::new("/proj/node_modules");
    let target = root.join(".pnpm/semver@7.8.6/node_modules/semver/bin/semver.js");
    let script = shim_script(
        &root.join(".bin"),
        &target,
        b"#!/usr/bin/env node\n\n// Standalone semver comparison program.\n",
        &node_path(root, "semver@7.8.6", "semver"),
    );
    assert_eq!(script, fixture("semver"));
}

#[test]
fn esbuild_native_bin() {
    let root = Path::new("/proj/node_modules");
    let target = root.join(".pnpm/esbuild@0.23.1/node_modules/esbuild/bin/esbuild");
    let script = shim_script(
        &root.join(".bin"),
        &target,
        b"\x7fELF\x02\x01\x01\x00",
        &node_path(root, "esbuild@0.23.1", "esbuild"),
    );
    assert_eq!(script, fixture("esbuild"));
}

#[test]
fn esbuild_own_bin_differs_only_in_paths() {
    let root = Path::new("/proj/node_modules");
    let pkg = root.join(".pnpm/esbuild@0.23.1/node_modules/esbuild");
    let script = shim_script(
        &pkg.join("node_modules/.bin"),
        &pkg.join("bin/esbuild"),
        b"\x7fELF",
        &node_path(root, "esbuild@0.23.1", "esbuild"),
    );
    let expected = fixture("esbuild")
        .replace(
            "'../.pnpm/esbuild@0.23.1/node_modules/esbuild/node_modules':\"$basedir_abs\"/'../.pnpm/esbuild@0.23.1/node_modules':\"$basedir_abs\"/'../.pnpm/node_modules'",
            "'..':\"$basedir_abs\"/'../../..':\"$basedir_abs\"/'../../../../../node_modules'",
        )
        .replace("../.pnpm/esbuild@0.23.1/node_modules/esbuild/bin/esbuild", "../../bin/esbuild");
    assert_eq!(script, expected);
}
