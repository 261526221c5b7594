//! Expected lists are what pnpm 12.21 imported for the same directories.

use std::path::Path;

use super::packlist;

fn write(root: &Path, files: &[(&str, &str)]) {
    for (path, body) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
}

fn list(root: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root.join("package.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    packlist(root, Some(&manifest)).unwrap()
}

#[test]
fn files_field_plus_always_included() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        &[
            (
                "package.json",
                r#"{"name":"d","version":"1.0.0","files":["lib","bin.js"],"bin":{"ld":"bin.js"}}"#,
            ),
            ("lib/index.js", "1"),
            ("bin.js", "2"),
            ("ignored/x.txt", "3"),
            ("README.md", "4"),
        ],
    );
    assert_eq!(
        list(tmp.path()),
        ["README.md", "bin.js", "lib/index.js", "package.json"]
    );
}

#[test]
fn npmignore_and_default_exclusions() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        &[
            (
                "package.json",
                r#"{"name":"d2","version":"0.1.0","main":"main.js","bin":"cli.js"}"#,
            ),
            ("main.js", "m"),
            ("cli.js", "c"),
            ("src/a.js", "s"),
            ("test/t.js", "t"),
            ("deep/test/y.js", "y"),
            ("LICENSE", "l"),
            ("licence.md", "l"),
            ("CHANGELOG.md", "c"),
            ("node_modules/x/i.js", "n"),
            (".npmignore", "test/\n"),
            (".gitignore", "src/a.js\n"),
            (".npmrc", "x"),
            ("package-lock.json", "x"),
            ("yarn.lock", "x"),
            ("pnpm-lock.yaml", "x"),
            (".DS_Store", "x"),
            ("x.orig", "x"),
            (".env", "e"),
        ],
    );
    assert_eq!(
        list(tmp.path()),
        [
            ".env",
            "CHANGELOG.md",
            "LICENSE",
            "cli.js",
            "licence.md",
            "main.js",
            "package.json",
            "src/a.js"
        ]
    );
}

#[test]
fn gitignore_applies_without_npmignore() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        &[
            ("package.json", r#"{"name":"d3","version":"1.0.0"}"#),
            (".gitignore", "*.log\n/build\n!keep.log\n"),
            ("a.log", "x"),
            ("keep.log", "x"),
            ("build/out.js", "x"),
            ("src/build/in.js", "x"),
        ],
    );
    assert_eq!(
        list(tmp.path()),
        ["keep.log", "package.json", "src/build/in.js"]
    );
}
