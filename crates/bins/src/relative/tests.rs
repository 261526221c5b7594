use std::path::Path;

use super::relative_path;

fn rel(from: &str, to: &str) -> String {
    relative_path(Path::new(from), Path::new(to))
        .to_string_lossy()
        .into_owned()
}

#[test]
fn sibling_and_nested() {
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
}

#[test]
fn equal_paths_and_dots() {
    assert_eq!(rel("/p/x", "/p/x"), "");
    assert_eq!(rel("/p/./x/../y", "/p/y/z"), "z");
}
