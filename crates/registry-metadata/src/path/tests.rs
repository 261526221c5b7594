//! Expected names as pnpm 12.21 created them (docs/registry-metadata.md §1).

use super::*;

#[test]
fn registry_slugs_match_pnpm() {
    let cases = [
        ("https://registry.npmjs.org/", "https%3A+registry.npmjs.org"),
        ("http://127.0.0.1:4873/", "http%3A+127.0.0.1+4873"),
        ("http://LocalHost:80/", "http%3A+localhost"),
        ("https://localhost:443/", "https%3A+localhost"),
        ("http://u:p@localhost:4873/", "http%3A+localhost+4873"),
        (
            "http://localhost:4873/sub/path/",
            "http%3A+localhost+4873%2Fsub+path",
        ),
        (
            "http://localhost:4873/a/b/c/",
            "http%3A+localhost+4873%2Fa+b+c",
        ),
        (
            "http://localhost:4873/x_y-z.w~!/",
            "http%3A+localhost+4873%2Fx_y-z.w%7E%21",
        ),
        (
            "http://localhost:4873/a+b/q?x=1",
            "http%3A+localhost+4873%2Fa%2Bb+q",
        ),
    ];
    for (registry, slug) in cases {
        assert_eq!(registry_slug(registry).as_deref(), Some(slug), "{registry}");
    }
    assert_eq!(registry_slug("not a url"), None);
}

#[test]
fn file_names_match_pnpm() {
    assert_eq!(file_name("pq-plain"), "pq-plain.jsonl");
    assert_eq!(file_name("@pq/plain"), "@pq/plain.jsonl");
    assert_eq!(
        file_name("PqUpper"),
        "PqUpper_0a666cdc8635d1348b67237c8e6c0f4a32b1daf1fc8d2c06da11c04eea0deca4.jsonl"
    );
    assert_eq!(
        file_name("@pq/MixedCase"),
        "@pq/MixedCase_8a1ef9e9ee78987f44c430634cc67cb7eaf73bc7d5d9f88ef7e15e635f38e39d.jsonl"
    );
}

#[test]
fn names_that_would_leave_the_directory_have_no_mirror() {
    let dir = Path::new("/cache");
    let registry = "https://registry.npmjs.org/";
    for name in ["..", "../x", "@s/..", "a/b/c", "@s/", "a\\b"] {
        assert_eq!(mirror_path(dir, FULL_DIR, registry, name), None, "{name}");
    }
    assert_eq!(
        mirror_path(dir, FULL_DIR, registry, "@s/x"),
        Some(PathBuf::from(
            "/cache/v12/metadata-full/https%3A+registry.npmjs.org/@s/x.jsonl"
        ))
    );
}
