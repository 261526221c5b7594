use std::path::Path;

use pacquet_lockfile::Lockfile;

use super::{Candidate, collect};
use crate::error::Code;

const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

fn lockfile(packages: &str) -> Lockfile {
    let text = format!(
        "lockfileVersion: '9.0'\n\nimporters:\n\n  .: {{}}\n\npackages:\n\n{packages}\nsnapshots: {{}}\n"
    );
    Lockfile::parse(&text, Path::new("pnpm-lock.yaml")).unwrap()
}

#[test]
fn registry_and_http_tarball_entries_are_candidates() {
    let l = lockfile(&format!(
        "  a@1.0.0:\n    resolution: {{integrity: sha512-AAAA}}\n\
         \x20 b@2.0.0:\n    resolution: {{integrity: sha512-BBBB, tarball: https://r.example/b/-/b-2.0.0.tgz}}\n\
         \x20 c@file:c.tgz:\n    resolution: {{integrity: sha512-CCCC, tarball: file:c.tgz}}\n\
         \x20 d@https://codeload.github.com/o/d/tar.gz/{SHA}:\n    resolution: {{tarball: https://codeload.github.com/o/d/tar.gz/{SHA}}}\n\
         \x20 e@git+https://github.com/o/e.git#{SHA}:\n    resolution: {{type: git, repo: https://github.com/o/e.git, commit: {SHA}}}\n"
    ));
    let c = collect(&l);
    assert!(c.shape_violations.is_empty() && c.integrity_violations.is_empty());
    assert_eq!(
        c.candidates,
        [
            Candidate {
                name: "a".into(),
                version: "1.0.0".into(),
                tarball: None
            },
            Candidate {
                name: "b".into(),
                version: "2.0.0".into(),
                tarball: Some("https://r.example/b/-/b-2.0.0.tgz".into())
            },
        ]
    );
}

#[test]
fn a_semver_key_on_a_non_registry_resolution_is_a_shape_violation() {
    let l = lockfile(&format!(
        "  a@1.0.0:\n    resolution: {{type: git, repo: https://github.com/o/a.git, commit: {SHA}}}\n\
         \x20 b@1.0.0:\n    resolution: {{integrity: sha512-BBBB, tarball: file:b.tgz}}\n\
         \x20 c@1.0.0:\n    resolution: {{integrity: sha512-CCCC, tarball: https://x.example/c.tgz, gitHosted: true}}\n"
    ));
    let c = collect(&l);
    let names: Vec<_> = c
        .shape_violations
        .iter()
        .map(|v| (v.name.as_str(), v.code))
        .collect();
    assert_eq!(
        names,
        [
            ("a", Code::ResolutionShapeMismatch),
            ("b", Code::ResolutionShapeMismatch),
            ("c", Code::ResolutionShapeMismatch)
        ]
    );
}

#[test]
fn an_http_tarball_without_integrity_is_refused() {
    let l = lockfile(
        "  a@https://x.example/a.tgz:\n    resolution: {tarball: https://x.example/a.tgz}\n",
    );
    let c = collect(&l);
    assert_eq!(c.integrity_violations.len(), 1);
    assert_eq!(
        c.integrity_violations[0].code,
        Code::MissingTarballIntegrity
    );
    assert!(c.candidates.is_empty());
}
