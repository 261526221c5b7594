//! The tree differ reports each kind of difference, and nothing else.
// Unix modes and symlinks.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;

use pacquet_testing::{DiffOptions, Difference, EntryKind, assert_trees_equal, diff_trees};

fn write(root: &Path, rel: &str, body: &str, mode: u32) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, body).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
}

/// A small `node_modules`-like tree.
fn base_tree(root: &Path) {
    write(
        root,
        ".pnpm/a@1.0.0/node_modules/a/package.json",
        "{\"name\":\"a\"}\n",
        0o644,
    );
    write(
        root,
        ".pnpm/a@1.0.0/node_modules/a/bin/cli.js",
        "#!/usr/bin/env node\n",
        0o755,
    );
    write(root, ".bin/cli", "#!/bin/sh\n", 0o755);
    symlink(".pnpm/a@1.0.0/node_modules/a", root.join("a")).unwrap();
    fs::create_dir_all(root.join("@s")).unwrap();
}

fn pair() -> (tempfile::TempDir, tempfile::TempDir) {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    base_tree(a.path());
    base_tree(b.path());
    (a, b)
}

#[test]
fn identical_trees_have_no_differences() {
    let (a, b) = pair();
    assert_eq!(
        diff_trees(a.path(), b.path(), &DiffOptions::default()),
        vec![]
    );
    assert_trees_equal(a.path(), b.path(), &DiffOptions::default());
}

#[test]
fn reports_entries_on_one_side_only() {
    let (a, b) = pair();
    write(a.path(), "only-a.txt", "x", 0o644);
    fs::create_dir_all(b.path().join("only-b")).unwrap();
    let diffs = diff_trees(a.path(), b.path(), &DiffOptions::default());
    assert_eq!(
        diffs,
        vec![
            Difference::OnlyInA {
                path: "only-a.txt".into(),
                kind: EntryKind::File
            },
            Difference::OnlyInB {
                path: "only-b".into(),
                kind: EntryKind::Dir
            },
        ]
    );
}

#[test]
fn reports_kind_changes() {
    let (a, b) = pair();
    fs::remove_file(b.path().join("a")).unwrap();
    fs::create_dir(b.path().join("a")).unwrap();
    let diffs = diff_trees(a.path(), b.path(), &DiffOptions::default());
    assert_eq!(
        diffs,
        vec![Difference::Kind {
            path: "a".into(),
            a: EntryKind::Symlink,
            b: EntryKind::Dir
        }]
    );
}

#[test]
fn reports_content_with_the_first_differing_line() {
    let (a, b) = pair();
    write(b.path(), ".bin/cli", "#!/bin/bash\n", 0o755);
    let diffs = diff_trees(a.path(), b.path(), &DiffOptions::default());
    assert_eq!(diffs.len(), 1);
    let Difference::Content { path, detail } = &diffs[0] else {
        panic!("{diffs:?}")
    };
    assert_eq!(path, ".bin/cli");
    assert!(
        detail.contains("line 1") && detail.contains("#!/bin/bash"),
        "{detail}"
    );
}

#[test]
fn reports_exec_bits_and_full_modes() {
    let (a, b) = pair();
    let cli = ".pnpm/a@1.0.0/node_modules/a/bin/cli.js";
    fs::set_permissions(b.path().join(cli), fs::Permissions::from_mode(0o644)).unwrap();
    fs::set_permissions(b.path().join(".bin/cli"), fs::Permissions::from_mode(0o775)).unwrap();
    let diffs = diff_trees(a.path(), b.path(), &DiffOptions::default());
    assert_eq!(
        diffs,
        vec![
            Difference::Mode {
                path: ".bin/cli".into(),
                a: 0o100755,
                b: 0o100775
            },
            Difference::ExecBits {
                path: cli.into(),
                a: 0o100755,
                b: 0o100644
            },
        ]
    );
    let lenient = DiffOptions {
        compare_full_mode: false,
        ..DiffOptions::default()
    };
    assert_eq!(diff_trees(a.path(), b.path(), &lenient).len(), 1);
}

#[test]
fn reports_raw_symlink_targets() {
    let (a, b) = pair();
    fs::remove_file(b.path().join("a")).unwrap();
    symlink("./.pnpm/a@1.0.0/node_modules/a", b.path().join("a")).unwrap();
    let diffs = diff_trees(a.path(), b.path(), &DiffOptions::default());
    assert_eq!(
        diffs,
        vec![Difference::SymlinkTarget {
            path: "a".into(),
            a: ".pnpm/a@1.0.0/node_modules/a".into(),
            b: "./.pnpm/a@1.0.0/node_modules/a".into(),
        }]
    );
}

#[test]
fn ignored_paths_are_skipped() {
    let (a, b) = pair();
    write(a.path(), ".cache/x", "1", 0o644);
    let opts = DiffOptions::default().ignore_path(".cache");
    assert_eq!(diff_trees(a.path(), b.path(), &opts), vec![]);
}

fn modules_yaml(store: &str, pruned: &str, hoisted: &str) -> String {
    format!(
        "{{\n  \"hoistedDependencies\": {hoisted},\n  \"prunedAt\": \"{pruned}\",\n  \"storeDir\": \"{store}/v11\"\n}}"
    )
}

#[test]
fn state_files_ignore_volatile_fields_and_map_paths() {
    let (a, b) = pair();
    let hoisted = r#"{"x@1.0.0": {"x": "private"}, "y@1.0.0": {"y": "private"}}"#;
    write(
        a.path(),
        ".modules.yaml",
        &modules_yaml("/tmp/A/store", "Sun, 22 Nov 2026 07:14:19 GMT", hoisted),
        0o644,
    );
    write(
        b.path(),
        ".modules.yaml",
        &modules_yaml("/tmp/B/store", "Mon, 23 Nov 2026 01:00:00 GMT", hoisted),
        0o644,
    );
    let state_a = r#"{"lastValidatedTimestamp": 1, "projects": {"/tmp/A/p": {"name": "p"}}, "validation": {"recordedAtNs": 5}}"#;
    let state_b = r#"{"lastValidatedTimestamp": 2, "projects": {"/tmp/B/p": {"name": "p"}}, "validation": {"recordedAtNs": 9}}"#;
    write(a.path(), ".pnpm-workspace-state-v1.json", state_a, 0o644);
    write(b.path(), ".pnpm-workspace-state-v1.json", state_b, 0o644);

    let unmapped = diff_trees(a.path(), b.path(), &DiffOptions::default());
    let paths: Vec<&str> = unmapped.iter().map(Difference::path).collect();
    assert_eq!(
        paths,
        vec![".modules.yaml", ".pnpm-workspace-state-v1.json"]
    );

    let opts = DiffOptions::default()
        .substitute("/tmp/A", "<ROOT>")
        .substitute("/tmp/B", "<ROOT>");
    assert_eq!(diff_trees(a.path(), b.path(), &opts), vec![]);
}

#[test]
fn state_files_report_values_and_key_order() {
    let (a, b) = pair();
    let ab = r#"{"a@1.0.0": {"a": "private"}, "b@1.0.0": {"b": "private"}}"#;
    let ba = r#"{"b@1.0.0": {"b": "private"}, "a@1.0.0": {"a": "public"}}"#;
    write(
        a.path(),
        ".modules.yaml",
        &modules_yaml("/s", "t", ab),
        0o644,
    );
    write(
        b.path(),
        ".modules.yaml",
        &modules_yaml("/s", "t", ba),
        0o644,
    );
    let diffs = diff_trees(a.path(), b.path(), &DiffOptions::default());
    assert_eq!(diffs.len(), 1);
    let Difference::State { path, detail } = &diffs[0] else {
        panic!("{diffs:?}")
    };
    assert_eq!(path, ".modules.yaml");
    assert!(
        detail.contains("/hoistedDependencies/a@1.0.0/a: a \"private\" , b \"public\""),
        "{detail}"
    );
    assert!(detail.contains("key order differs"), "{detail}");

    let unordered = DiffOptions {
        json_key_order: false,
        ..DiffOptions::default()
    };
    let diffs = diff_trees(a.path(), b.path(), &unordered);
    let Difference::State { detail, .. } = &diffs[0] else {
        panic!("{diffs:?}")
    };
    assert!(!detail.contains("key order"), "{detail}");
}

#[test]
fn assert_trees_equal_panics_with_a_report() {
    let (a, b) = pair();
    write(a.path(), "extra", "1", 0o644);
    let result = std::panic::catch_unwind(|| {
        assert_trees_equal(a.path(), b.path(), &DiffOptions::default())
    });
    let message = *result.unwrap_err().downcast::<String>().unwrap();
    assert!(
        message.contains("1 difference(s)") && message.contains("only in a (file): extra"),
        "{message}"
    );
}
