use super::*;

#[test]
fn registry_urls_follow_pnpm() {
    let npm = "https://registry.npmjs.org/";
    assert_eq!(
        DepPath::parse("is-number@7.0.0").registry_tarball_url(npm),
        "https://registry.npmjs.org/is-number/-/is-number-7.0.0.tgz"
    );
    assert_eq!(
        DepPath::parse("@sindresorhus/is@4.6.0(x@1.0.0)").registry_tarball_url(npm),
        "https://registry.npmjs.org/@sindresorhus/is/-/is-4.6.0.tgz"
    );
    assert_eq!(
        registry_tarball_url("https://npm.corp.io/api/npm", "@corp/x", "1.0.0+b7"),
        "https://npm.corp.io/api/npm/@corp/x/-/x-1.0.0.tgz"
    );
}

#[test]
fn git_hosted_archives_are_recognised() {
    let tarball = |url: &str, git_hosted: Option<bool>| Resolution::Tarball {
        tarball: url.to_owned(),
        integrity: None,
        git_hosted,
        path: None,
    };
    assert!(
        tarball(
            "https://codeload.github.com/kevva/is-negative/tar.gz/1d7e288",
            None
        )
        .is_git_hosted_tarball()
    );
    assert!(
        tarball("https://gitlab.com/o/r/-/archive/abc/r-abc.tar.gz", None).is_git_hosted_tarball()
    );
    assert!(tarball("https://bitbucket.org/o/r/get/abc.tar.gz", None).is_git_hosted_tarball());
    assert!(!tarball("https://gitlab.com/o/r/raw/a.tgz", None).is_git_hosted_tarball());
    assert!(!tarball("https://registry.npmjs.org/a/-/a-1.0.0.tgz", None).is_git_hosted_tarball());
    assert!(tarball("https://example.com/x.tgz", Some(true)).is_git_hosted_tarball());
    assert!(
        !Resolution::Registry {
            integrity: "sha512-x".into()
        }
        .is_git_hosted_tarball()
    );
}
