use std::path::Path;

use super::*;

#[test]
fn relative_paths_match_path_relative() {
    assert_eq!(
        relative(
            "node_modules",
            "node_modules/.pnpm/chalk@4.1.2/node_modules/chalk"
        ),
        ".pnpm/chalk@4.1.2/node_modules/chalk"
    );
    assert_eq!(
        relative("node_modules/@s", "node_modules/.pnpm/x/node_modules/@s/n"),
        "../.pnpm/x/node_modules/@s/n"
    );
    assert_eq!(relative("packages/a/node_modules", "packages/b"), "../../b");
    assert_eq!(relative("node_modules", "packages/a"), "../packages/a");
    assert_eq!(relative("a", "a"), "");
}

#[test]
fn normalize_and_join() {
    assert_eq!(normalize("packages/b/../../localdir"), "localdir");
    assert_eq!(normalize("./a//b/."), "a/b");
    assert_eq!(normalize("../x"), "../x");
    assert_eq!(join("", "node_modules"), "node_modules");
    assert_eq!(
        join("packages/a", "node_modules"),
        "packages/a/node_modules"
    );
}

#[test]
fn filesystem_paths() {
    let rel = |from: &str, to: &str| relative_path(Path::new(from), Path::new(to));
    assert_eq!(
        rel(
            "/p/node_modules/.bin",
            "/p/node_modules/.pnpm/a@1/node_modules/a/cli.js"
        ),
        "../.pnpm/a@1/node_modules/a/cli.js"
    );
    assert_eq!(
        rel(
            "/p/nm/.pnpm/a@1/node_modules/a/node_modules/.bin",
            "/p/nm/.pnpm/a@1/node_modules/a/node_modules"
        ),
        ".."
    );
    assert_eq!(rel("/p/a/node_modules/.bin", "/p/nm"), "../../../nm");
    assert_eq!(rel("/p/x", "/p/x"), "");
    assert_eq!(rel("/p/./x/../y", "/p/y/z"), "z");
}

#[test]
fn join_all_skips_the_root() {
    assert_eq!(
        join_all(&["node_modules/.pnpm", "a@1.0.0", "node_modules", "a"]),
        "node_modules/.pnpm/a@1.0.0/node_modules/a"
    );
    assert_eq!(join_all(&["", "node_modules", ""]), "node_modules");
    assert_eq!(join_all(&["", ""]), "");
    assert_eq!(join_all(&[]), "");
}
