use super::is_git_hosted_archive;

const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

#[test]
fn archives_of_a_commit() {
    assert!(is_git_hosted_archive(&format!(
        "https://codeload.github.com/o/r/tar.gz/{SHA}"
    )));
    assert!(is_git_hosted_archive(&format!(
        "https://bitbucket.org/o/r/get/{SHA}.tar.gz"
    )));
    assert!(is_git_hosted_archive(&format!(
        "https://gitlab.com/g/r/-/archive/{SHA}/r-{SHA}.tar.gz"
    )));
    assert!(is_git_hosted_archive(&format!(
        "https://gitlab.com/api/v4/projects/1/repository/archive.tar.gz?ref={SHA}"
    )));
}

#[test]
fn anything_else_is_not() {
    assert!(!is_git_hosted_archive(
        "https://codeload.github.com/o/r/tar.gz/main"
    ));
    assert!(!is_git_hosted_archive(&format!(
        "http://codeload.github.com/o/r/tar.gz/{SHA}"
    )));
    assert!(!is_git_hosted_archive(&format!(
        "https://evil.example/o/r/tar.gz/{SHA}"
    )));
    assert!(!is_git_hosted_archive(
        "https://registry.npmjs.org/a/-/a-1.0.0.tgz"
    ));
}
