use std::path::{Path, PathBuf};

use serde_json::json;

use super::{BinCommand, bin_commands};

fn cmds(manifest: serde_json::Value, dir: &Path) -> Vec<(String, PathBuf)> {
    bin_commands(&manifest, dir)
        .into_iter()
        .map(|BinCommand { name, target }| (name, target))
        .collect()
}

#[test]
fn bin_string_uses_unscoped_package_name() {
    let dir = Path::new("/s/node_modules/@pq/tool");
    assert_eq!(
        cmds(json!({"name": "@pq/tool", "bin": "./cli.js"}), dir),
        vec![("tool".to_owned(), dir.join("cli.js"))]
    );
    assert_eq!(
        cmds(json!({"name": "tool", "bin": "cli.js"}), dir)[0].0,
        "tool"
    );
}

#[test]
fn bin_map_strips_any_scope_and_keeps_order() {
    let dir = Path::new("/p");
    let manifest = json!({"name": "@pq/x", "bin": {"b": "b.js", "@pq/scoped": "s.js", "@other/foreign": "f.js", "a": "./lib/../a.js"}});
    assert_eq!(
        cmds(manifest, dir),
        vec![
            ("b".to_owned(), dir.join("b.js")),
            ("scoped".to_owned(), dir.join("s.js")),
            ("foreign".to_owned(), dir.join("f.js")),
            ("a".to_owned(), dir.join("a.js")),
        ]
    );
}

#[test]
fn invalid_names_are_skipped() {
    let manifest = json!({"name": "x", "bin": {
        "../x": "a.js", "/etc/x": "a.js", ".": "a.js", "..": "a.js", "has space": "a.js",
        "": "a.js", "unicodé": "a.js", "$": "a.js", "ok": "a.js", "@s/../x": "a.js"
    }});
    let names: Vec<String> = cmds(manifest, Path::new("/p"))
        .into_iter()
        .map(|c| c.0)
        .collect();
    assert_eq!(names, ["$", "ok"]);
}

#[test]
fn targets_never_leave_the_package() {
    let dir = Path::new("/p/node_modules/x");
    let manifest = json!({"name": "x", "bin": {
        "up": "../other/cli.js", "deep": "bin/../../../x.js", "abs": "/etc/passwd",
        "root": "..", "dot": ".", "inner": "bin/../ok.js", "num": 1
    }});
    assert_eq!(
        cmds(manifest, dir),
        vec![
            ("up".to_owned(), dir.join("other/cli.js")),
            ("deep".to_owned(), dir.join("x.js")),
            ("inner".to_owned(), dir.join("ok.js")),
        ]
    );
}

#[test]
fn bin_wins_over_directories_bin() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("tools")).unwrap();
    std::fs::write(tmp.path().join("tools/t"), "").unwrap();
    let manifest = json!({"name": "x", "bin": "cli.js", "directories": {"bin": "tools"}});
    assert_eq!(
        cmds(manifest, tmp.path()),
        vec![("x".to_owned(), tmp.path().join("cli.js"))]
    );
}

#[cfg(unix)]
#[test]
fn directories_bin_walks_files_recursively() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    for dir in ["tools/sub/deeper", "tools/empty"] {
        std::fs::create_dir_all(root.join(dir)).unwrap();
    }
    for file in [
        "tools/b.js",
        "tools/.hidden",
        "tools/has space",
        "tools/sub/a",
        "tools/sub/deeper/c.sh",
    ] {
        std::fs::write(root.join(file), "").unwrap();
    }
    std::os::unix::fs::symlink(root.join("tools/b.js"), root.join("tools/link")).unwrap();
    let manifest = json!({"name": "x", "directories": {"bin": "./tools"}});
    assert_eq!(
        cmds(manifest, root),
        vec![
            (".hidden".to_owned(), root.join("tools/.hidden")),
            ("b.js".to_owned(), root.join("tools/b.js")),
            ("a".to_owned(), root.join("tools/sub/a")),
            ("c.sh".to_owned(), root.join("tools/sub/deeper/c.sh")),
        ]
    );
}

#[test]
fn directories_bin_cannot_escape() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("pkg");
    std::fs::create_dir_all(tmp.path().join("outside")).unwrap();
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(tmp.path().join("outside/evil"), "").unwrap();
    for dir in ["../outside", "/etc", ".."] {
        let manifest = json!({"name": "x", "directories": {"bin": dir}});
        assert_eq!(cmds(manifest, &pkg), vec![], "{dir}");
    }
}

#[test]
fn no_bins() {
    assert_eq!(cmds(json!({"name": "x"}), Path::new("/p")), vec![]);
    assert_eq!(
        cmds(json!({"name": "x", "bin": 3}), Path::new("/p")),
        vec![]
    );
}
