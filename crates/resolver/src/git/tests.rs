use super::*;

const COMMIT: &str = "2d1242b30f88f5189ebfcb4825a8a1dd90c86970";
const TAG_OBJECT: &str = "1111111111111111111111111111111111111111";
const OTHER: &str = "3333333333333333333333333333333333333333";

fn refs() -> String {
    format!(
        "{COMMIT}\tHEAD\n{COMMIT}\trefs/heads/main\n{OTHER}\trefs/heads/next\n\
         {COMMIT}\trefs/tags/v1.0.0\n{TAG_OBJECT}\trefs/tags/v1.1.0\n\
         {OTHER}\trefs/tags/v1.1.0^{{}}\n{OTHER}\trefs/tags/not-a-version\n"
    )
}

#[test]
fn git_urls_parse_like_pnpm() {
    let spec = GitSpec::parse("git+file:///tmp/repo#semver:^1.0.0&path:packages/a").unwrap();
    assert_eq!(spec.repo, "file:///tmp/repo");
    assert_eq!(spec.range.as_deref(), Some("^1.0.0"));
    assert_eq!(spec.path.as_deref(), Some("packages/a"));
    assert_eq!(spec.committish, None);

    let spec = GitSpec::parse("git+ssh://git@example.com:team/repo.git#v1.0.0").unwrap();
    assert_eq!(spec.repo, "ssh://git@example.com/team/repo.git");
    assert_eq!(spec.committish.as_deref(), Some("v1.0.0"));

    let spec = GitSpec::parse("git+ssh://git@example.com:2222/team/repo.git").unwrap();
    assert_eq!(spec.repo, "ssh://git@example.com:2222/team/repo.git");

    let spec = GitSpec::parse("https://Example.com:443/repo.git#feature%2Fx").unwrap();
    assert_eq!(spec.repo, "https://example.com/repo.git");
    assert_eq!(spec.committish.as_deref(), Some("feature/x"));

    for not_git in [
        "https://example.com/x.tgz",
        "file:../x",
        "^1.0.0",
        // Hosted repositories are decided by asking the host.
        "git+https://github.com/user/repo.git",
        "git+ssh://git@github.com:user/repo.git",
    ] {
        assert_eq!(GitSpec::parse(not_git), None, "{not_git}");
    }
}

#[test]
fn refs_resolve_to_commits_like_pnpm() {
    let commit = |spec: &str| GitSpec::parse(spec).unwrap().commit_from(&refs());
    assert_eq!(commit("git+file:///r").unwrap(), COMMIT);
    assert_eq!(commit("git+file:///r#main").unwrap(), COMMIT);
    assert_eq!(commit("git+file:///r#next").unwrap(), OTHER);
    // An annotated tag is its commit, not the tag object.
    assert_eq!(commit("git+file:///r#v1.1.0").unwrap(), OTHER);
    assert_eq!(commit("git+file:///r#semver:^1.0.0").unwrap(), OTHER);
    assert_eq!(commit("git+file:///r#semver:~1.0.0").unwrap(), COMMIT);
    assert_eq!(commit("git+file:///r#2d1242b").unwrap(), COMMIT);
    let missing = commit("git+file:///r#nope").unwrap_err().to_string();
    assert_eq!(missing, "Could not resolve nope to a commit of file:///r.");
    let no_tag = commit("git+file:///r#semver:^2.0.0")
        .unwrap_err()
        .to_string();
    assert!(
        no_tag.ends_with("Available versions are: v1.0.0, v1.1.0"),
        "{no_tag}"
    );
}

#[test]
fn full_commits_need_no_request() {
    let spec = GitSpec::parse(&format!("git+file:///r#{COMMIT}")).unwrap();
    assert_eq!(spec.known_commit(), Some(COMMIT));
    let spec = GitSpec::parse("git+file:///r#main").unwrap();
    assert_eq!(spec.known_commit(), None);
    assert_eq!(spec.ls_remote_patterns(), ["main", "main^{}"]);
    let spec = GitSpec::parse("git+file:///r#semver:^1").unwrap();
    assert!(spec.ls_remote_patterns().is_empty());
}

#[test]
fn ids_are_git_urls_with_the_commit() {
    let spec = GitSpec::parse("git+file:///tmp/r#main").unwrap();
    assert_eq!(
        spec.id_version(COMMIT),
        format!("git+file:///tmp/r#{COMMIT}")
    );
    let spec = GitSpec::parse("git://example.com/r.git#path:a/b").unwrap();
    assert_eq!(
        spec.id_version(COMMIT),
        format!("git+git://example.com/r.git#{COMMIT}&path:a/b")
    );
}
