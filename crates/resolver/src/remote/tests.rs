use super::*;

#[test]
fn tarball_urls_are_normalized_like_a_url_parser() {
    assert_eq!(
        tarball_url("https://Example.COM:443/pkg/x-1.0.0.tgz").as_deref(),
        Some("https://example.com/pkg/x-1.0.0.tgz")
    );
    assert_eq!(
        tarball_url("http://127.0.0.1:80/a.tgz").as_deref(),
        Some("http://127.0.0.1/a.tgz")
    );
    assert_eq!(
        tarball_url("http://127.0.0.1:4873/a.tgz").as_deref(),
        Some("http://127.0.0.1:4873/a.tgz")
    );
}

#[test]
fn git_repositories_are_not_tarballs() {
    for spec in [
        "https://example.com/repo.git",
        "https://example.com/repo.git#v1.0.0",
        "https://github.com/user/repo",
        "https://github.com/user/repo#main",
        "https://gitlab.com/group/project",
        "git+https://example.com/x.tgz",
        "file:x.tgz",
        "1.0.0",
    ] {
        assert_eq!(tarball_url(spec), None, "{spec}");
    }
    for spec in [
        "https://github.com/user/repo/archive/refs/tags/v1.0.0.tar.gz",
        "https://cdn.example.com/x/x-0.20.2.tgz",
        "https://example.com/download?id=3",
    ] {
        assert!(tarball_url(spec).is_some(), "{spec}");
    }
}
