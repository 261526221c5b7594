use indexmap::IndexMap;

use super::*;

fn policy(entries: &[(&str, bool)], all: bool) -> BuildPolicy {
    let map: IndexMap<String, bool> = entries.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    BuildPolicy::new(&map, all)
}

#[test]
fn unlisted_is_not_approved() {
    let p = policy(&[("esbuild", true)], false);
    assert_eq!(
        p.decide("ps-order", "1.0.0", "ps-order@1.0.0"),
        BuildDecision::NotApproved
    );
}

#[test]
fn bare_name_allows_and_denies() {
    let p = policy(&[("esbuild", true), ("ps-gyp", false)], false);
    assert_eq!(
        p.decide("esbuild", "0.23.1", "esbuild@0.23.1"),
        BuildDecision::Allowed
    );
    assert_eq!(
        p.decide("ps-gyp", "1.0.0", "ps-gyp@1.0.0"),
        BuildDecision::Denied
    );
}

#[test]
fn exact_version_lists() {
    let p = policy(
        &[
            ("ps-env-dep@2.0.0 || 1.0.0", true),
            ("ps-env@2.0.0", true),
            ("@s/n@3.0.0", true),
        ],
        false,
    );
    assert_eq!(
        p.decide("ps-env-dep", "1.0.0", "ps-env-dep@1.0.0"),
        BuildDecision::Allowed
    );
    assert_eq!(
        p.decide("ps-env", "1.0.0", "ps-env@1.0.0"),
        BuildDecision::NotApproved
    );
    assert_eq!(
        p.decide("@s/n", "3.0.0", "@s/n@3.0.0"),
        BuildDecision::Allowed
    );
    assert_eq!(
        p.decide("@s/n", "3.0.1", "@s/n@3.0.1"),
        BuildDecision::NotApproved
    );
}

#[test]
fn false_wins_whatever_the_key_kind_or_order() {
    let p = policy(&[("ps-env", false), ("ps-env@1.0.0", true)], false);
    assert_eq!(
        p.decide("ps-env", "1.0.0", "ps-env@1.0.0"),
        BuildDecision::Denied
    );
    let p = policy(&[("ps-order", true), ("ps-order@1.0.0", false)], false);
    assert_eq!(
        p.decide("ps-order", "1.0.0", "ps-order@1.0.0"),
        BuildDecision::Denied
    );
}

#[test]
fn dangerously_allow_all_keeps_explicit_false() {
    let p = policy(&[("ps-fail", false)], true);
    assert_eq!(
        p.decide("ps-fail", "1.0.0", "ps-fail@1.0.0"),
        BuildDecision::Denied
    );
    assert_eq!(
        p.decide("ps-order", "1.0.0", "ps-order@1.0.0"),
        BuildDecision::Allowed
    );
}

#[test]
fn dep_path_keys_for_git_and_tarball_deps() {
    let key = "pkg@https://codeload.github.com/o/pkg/tar.gz/0123456789abcdef";
    let p = policy(&[(key, true)], false);
    assert_eq!(
        p.decide(
            "pkg",
            "https://codeload.github.com/o/pkg/tar.gz/0123456789abcdef",
            key
        ),
        BuildDecision::Allowed
    );
    assert_eq!(
        p.decide(
            "pkg",
            "https://codeload.github.com/o/pkg/tar.gz/ffff",
            "pkg@https://codeload.github.com/o/pkg/tar.gz/ffff"
        ),
        BuildDecision::NotApproved
    );
}

#[test]
fn ignored_builds_message_is_sorted_like_pnpm() {
    let err = ignored_builds_error(&[
        "ps-order@1.0.0".into(),
        "ps-env-dep@1.0.0".into(),
        "ps-gyp@1.0.0".into(),
        "ps-fail@1.0.0".into(),
        "ps-gyp@1.0.0".into(),
    ]);
    assert_eq!(
        err.to_string(),
        "Ignored build scripts: ps-env-dep@1.0.0, ps-fail@1.0.0, ps-gyp@1.0.0, ps-order@1.0.0"
    );
    assert_eq!(err.pnpm_code(), "ERR_PNPM_IGNORED_BUILDS");
    let help = miette::Diagnostic::help(&err).unwrap().to_string();
    assert_eq!(
        help,
        "Run \"pnpm approve-builds\" to pick which dependencies should be allowed to run scripts."
    );
    let code = miette::Diagnostic::code(&err).unwrap().to_string();
    assert_eq!(code, "ERR_PNPM_IGNORED_BUILDS");
}
