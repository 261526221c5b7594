//! `link_bins` on a scratch tree: modes, rewrites, conflicts, errors.
// Unix shims, modes and symlinks; Windows shims are unit-tested in
// `src/windows_shim`.
#![cfg(unix)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use miette::Diagnostic;
use pacquet_bins::{BinError, BinSource, LinkedBin, link_bins};
use serde_json::{Value, json};

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o7777
}

/// `<root>/node_modules/.pnpm/<name>@1.0.0/node_modules/<name>` with `files`
/// (path, content, mode).
fn package(root: &Path, name: &str, files: &[(&str, &str, u32)]) -> PathBuf {
    let dir = root.join(format!(
        "node_modules/.pnpm/{name}@1.0.0/node_modules/{name}"
    ));
    for (path, content, mode) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(*mode)).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn source<'a>(name: &'a str, dir: &'a Path, manifest: &'a Value, direct: bool) -> BinSource<'a> {
    BinSource {
        package_name: name,
        package_dir: dir,
        manifest,
        direct,
        node_path: Vec::new(),
        symlink: false,
        real_dir: None,
        project: None,
    }
}

fn names(linked: &[LinkedBin]) -> Vec<(&str, &str, bool)> {
    linked
        .iter()
        .map(|b| (b.name.as_str(), b.package_name.as_str(), b.written))
        .collect()
}

#[test]
fn modes_after_linking() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = package(
        tmp.path(),
        "a",
        &[
            ("cli.js", "#!/usr/bin/env node\n", 0o644),
            ("run", "#!/bin/sh\n", 0o700),
            ("x", "", 0o755),
        ],
    );
    let manifest = json!({"name": "a", "bin": {"a": "cli.js", "a-run": "run", "a-x": "x"}});
    let bin_dir = tmp.path().join("node_modules/.bin");
    let linked = link_bins(&bin_dir, &[source("a", &dir, &manifest, true)]).unwrap();
    assert_eq!(
        names(&linked),
        [("a", "a", true), ("a-run", "a", true), ("a-x", "a", true)]
    );
    assert_eq!(mode(&dir.join("cli.js")), 0o755);
    assert_eq!(mode(&dir.join("run")), 0o711);
    assert_eq!(mode(&dir.join("x")), 0o755);
    for name in ["a", "a-run", "a-x"] {
        assert_eq!(mode(&bin_dir.join(name)), 0o755, "{name}");
    }
    assert_eq!(linked[0].target, dir.join("cli.js"));
}

#[test]
fn workspace_project_targets_keep_their_mode() {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("packages/app");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("cli.js"), "console.log(1)\n").unwrap();
    std::fs::set_permissions(
        project.join("cli.js"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let manifest = json!({"name": "app", "bin": "cli.js"});
    let bin_dir = tmp.path().join("node_modules/.bin");
    link_bins(&bin_dir, &[source("app", &project, &manifest, true)]).unwrap();
    assert_eq!(mode(&project.join("cli.js")), 0o644);
    assert_eq!(mode(&bin_dir.join("app")), 0o755);
}

#[test]
fn identical_shims_are_not_rewritten_and_stale_ones_are() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = package(
        tmp.path(),
        "a",
        &[("cli.js", "#!/usr/bin/env node\n", 0o644)],
    );
    let manifest = json!({"name": "a", "bin": {"a": "cli.js", "b": "cli.js", "c": "cli.js"}});
    let bin_dir = tmp.path().join("node_modules/.bin");
    let sources = [source("a", &dir, &manifest, true)];
    link_bins(&bin_dir, &sources).unwrap();
    let inode = std::fs::metadata(bin_dir.join("a")).unwrap().ino();
    std::fs::set_permissions(bin_dir.join("b"), std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::write(bin_dir.join("c"), "#!/bin/sh\nold pnpm 10 shim\n").unwrap();

    let linked = link_bins(&bin_dir, &sources).unwrap();
    assert_eq!(
        names(&linked),
        [("a", "a", false), ("b", "a", false), ("c", "a", true)]
    );
    assert_eq!(std::fs::metadata(bin_dir.join("a")).unwrap().ino(), inode);
    assert_eq!(
        mode(&bin_dir.join("b")),
        0o755,
        "mode fixed without a rewrite"
    );
    assert_eq!(
        std::fs::read(bin_dir.join("c")).unwrap(),
        std::fs::read(bin_dir.join("a")).unwrap()
    );
}

#[test]
fn a_symlink_at_the_shim_path_is_replaced_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = package(tmp.path(), "a", &[("cli.js", "", 0o644)]);
    let victim = tmp.path().join("victim");
    std::fs::write(&victim, "keep").unwrap();
    let bin_dir = tmp.path().join("node_modules/.bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    std::os::unix::fs::symlink(&victim, bin_dir.join("a")).unwrap();
    let manifest = json!({"name": "a", "bin": "cli.js"});
    link_bins(&bin_dir, &[source("a", &dir, &manifest, true)]).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    assert!(
        std::fs::symlink_metadata(bin_dir.join("a"))
            .unwrap()
            .is_file()
    );
}

#[test]
fn conflicts_do_not_depend_on_source_order() {
    let tmp = tempfile::tempdir().unwrap();
    let m_tool = json!({"name": "tool", "bin": "t.js"});
    let m_aaa = json!({"name": "aaa", "bin": {"tool": "a.js", "lex": "a.js", "hoisted": "a.js"}});
    let m_bbb = json!({"name": "bbb", "bin": {"tool": "b.js", "lex": "b.js"}});
    let m_hoisted = json!({"name": "hoisted", "bin": "h.js"});
    let d_tool = package(tmp.path(), "tool", &[("t.js", "", 0o644)]);
    let d_aaa = package(tmp.path(), "aaa", &[("a.js", "", 0o644)]);
    let d_bbb = package(tmp.path(), "bbb", &[("b.js", "", 0o644)]);
    let d_hoisted = package(tmp.path(), "hoisted", &[("h.js", "", 0o644)]);
    let mut sources = vec![
        source("bbb", &d_bbb, &m_bbb, true),
        source("hoisted", &d_hoisted, &m_hoisted, false),
        source("tool", &d_tool, &m_tool, true),
        source("aaa", &d_aaa, &m_aaa, true),
    ];
    let expected = [
        ("hoisted", "aaa", true),
        ("lex", "aaa", true),
        ("tool", "tool", true),
    ];
    let linked = link_bins(&tmp.path().join("one/.bin"), &sources).unwrap();
    assert_eq!(names(&linked), expected);
    sources.reverse();
    let linked = link_bins(&tmp.path().join("two/.bin"), &sources).unwrap();
    assert_eq!(names(&linked), expected);
    assert_eq!(linked[2].target, d_tool.join("t.js"));
}

#[test]
fn missing_targets_are_skipped_only_in_the_packages_own_bin_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = package(tmp.path(), "a", &[]);
    let manifest = json!({"name": "a", "bin": {"gone": "gone.js"}});
    let sources = [source("a", &dir, &manifest, false)];
    assert_eq!(
        link_bins(&dir.join("node_modules/.bin"), &sources).unwrap(),
        []
    );
    assert!(
        !dir.join("node_modules/.bin").exists(),
        "nothing to write, no directory"
    );
    let linked = link_bins(&tmp.path().join("node_modules/.bin"), &sources).unwrap();
    assert_eq!(names(&linked), [("gone", "a", true)]);
    let shim = std::fs::read_to_string(tmp.path().join("node_modules/.bin/gone")).unwrap();
    assert!(
        shim.contains(
            "exec node  \"$basedir_abs\"/'../.pnpm/a@1.0.0/node_modules/a/gone.js' \"$@\""
        )
    );
}

#[test]
fn escaping_targets_never_leave_the_package() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = package(tmp.path(), "a", &[]);
    let outside = tmp
        .path()
        .join("node_modules/.pnpm/a@1.0.0/node_modules/b.js");
    std::fs::write(&outside, "").unwrap();
    std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o644)).unwrap();
    let manifest =
        json!({"name": "a", "bin": {"up": "../b.js", "abs": "/etc/passwd", "../x": "b.js"}});
    let linked = link_bins(
        &tmp.path().join("node_modules/.bin"),
        &[source("a", &dir, &manifest, true)],
    )
    .unwrap();
    assert_eq!(names(&linked), [("up", "a", true)]);
    assert_eq!(linked[0].target, dir.join("b.js"));
    assert_eq!(mode(&outside), 0o644, "never followed");
    assert!(!tmp.path().join("node_modules/x").exists());
}

#[test]
fn no_commands_no_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let manifest = json!({"name": "a"});
    let bin_dir = tmp.path().join(".bin");
    assert_eq!(
        link_bins(&bin_dir, &[source("a", tmp.path(), &manifest, true)]).unwrap(),
        []
    );
    assert_eq!(link_bins(&bin_dir, &[]).unwrap(), []);
    assert!(!bin_dir.exists());
}

#[test]
fn a_directory_target_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = package(tmp.path(), "a", &[("bin/keep", "", 0o644)]);
    let manifest = json!({"name": "a", "bin": "bin"});
    let err = link_bins(
        &tmp.path().join(".bin"),
        &[source("a", &dir, &manifest, true)],
    )
    .unwrap_err();
    assert!(matches!(err, BinError::ReadTarget { .. }), "{err:?}");
    assert_eq!(
        err.code().unwrap().to_string(),
        "ERR_PACQUET_BIN_READ_TARGET"
    );
    assert!(err.help().is_some());
}

#[test]
fn unwritable_bin_dir_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = package(tmp.path(), "a", &[("cli.js", "", 0o644)]);
    let blocker = tmp.path().join("file");
    std::fs::write(&blocker, "").unwrap();
    let manifest = json!({"name": "a", "bin": "cli.js"});
    let err = link_bins(&blocker.join(".bin"), &[source("a", &dir, &manifest, true)]).unwrap_err();
    assert_eq!(err.code().unwrap().to_string(), "ERR_PACQUET_BIN_DIR");
}
