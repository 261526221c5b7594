use std::path::Path;

use crate::{Lockfile, LockfileError, check_patch_hashes};

const H7: &str = "89121733024b9a74d4534930d078244c6f1c622008e02e42df43d947de90a2a6";

/// The lockfile pnpm 12.21 wrote for is-number@7.0.0 patched and is-odd
/// (with is-number@6.0.0 below it), with `patched` selectors and the patched
/// snapshot key substituted.
fn lockfile(patched: &str, key7: &str) -> Lockfile {
    let text = format!(
        "lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

patchedDependencies:
{patched}
importers:

  .:
    dependencies:
      is-number:
        specifier: 7.0.0
        version: {version7}
      is-odd:
        specifier: 3.0.1
        version: 3.0.1

packages:

  is-number@6.0.0:
    resolution: {{integrity: sha512-Wu1VHeILBK8KAWJUAiSZQX94GmOE45Rg6/538fKwiloUu21KncEkYGPqob2oSZ5mUT73vLGrHQjKw3KMPwfDzg==}}

  is-number@7.0.0:
    resolution: {{integrity: sha512-41Cifkg6e8TylSpdtTpeLVMqvSBEVzTttHvERD741+pnZ8ANv0004MRL43QKPDlK9cGvNp6NZWZUBlbGXYxxng==}}

  is-odd@3.0.1:
    resolution: {{integrity: sha512-CQpnWPrDwmP1+SMHXZhtLtJv90yiyVfluGsX5iNCVkrhQtU3TQHsUWPG9wkdk9Lgd5yNpAg9jQEo90CBaXgWMA==}}

snapshots:

  is-number@6.0.0: {{}}

  {key7}: {{}}

  is-odd@3.0.1:
    dependencies:
      is-number: 6.0.0
",
        version7 = key7.strip_prefix("is-number@").unwrap(),
    );
    Lockfile::parse(&text, Path::new("pnpm-lock.yaml")).expect("parses")
}

fn patched_key() -> String {
    format!("is-number@7.0.0(patch_hash={H7})")
}

#[test]
fn consistent_lockfiles_pass() {
    let exact = format!("  is-number@7.0.0: {H7}\n");
    check_patch_hashes(&lockfile(&exact, &patched_key())).unwrap();
    let range = format!("  is-number@^7.0.0: {H7}\n");
    check_patch_hashes(&lockfile(&range, &patched_key())).unwrap();
    // pnpm 10's `{path, hash}` form.
    let v10 = format!("  is-number@7.0.0:\n    hash: {H7}\n    path: patches/x.patch\n");
    check_patch_hashes(&lockfile(&v10, &patched_key())).unwrap();
}

#[test]
fn a_key_without_its_patch_hash_is_inconsistent() {
    let exact = format!("  is-number@7.0.0: {H7}\n");
    let err = check_patch_hashes(&lockfile(&exact, "is-number@7.0.0")).unwrap_err();
    assert!(
        matches!(&err, LockfileError::InconsistentPatchHash { dep_path } if dep_path == "is-number@7.0.0")
    );
}

#[test]
fn a_key_with_another_hash_is_inconsistent() {
    let exact = format!("  is-number@7.0.0: {H7}\n");
    let err =
        check_patch_hashes(&lockfile(&exact, "is-number@7.0.0(patch_hash=0000)")).unwrap_err();
    assert!(matches!(err, LockfileError::InconsistentPatchHash { .. }));
}

#[test]
fn a_bare_selector_must_cover_every_version() {
    // `is-number` patches 6.0.0 as well, whose key has no hash.
    let bare = format!("  is-number: {H7}\n");
    let err = check_patch_hashes(&lockfile(&bare, &patched_key())).unwrap_err();
    assert!(
        matches!(&err, LockfileError::InconsistentPatchHash { dep_path } if dep_path == "is-number@6.0.0")
    );
}

#[test]
fn conflicting_or_invalid_selectors_are_uncheckable() {
    let conflict = format!("  is-number@>=7.0.0: {H7}\n  is-number@^7: {H7}\n");
    let err = check_patch_hashes(&lockfile(&conflict, &patched_key())).unwrap_err();
    assert!(matches!(err, LockfileError::UncheckablePatchHash { .. }));
    let invalid = format!("  is-number@foo%bar: {H7}\n");
    let err = check_patch_hashes(&lockfile(&invalid, &patched_key())).unwrap_err();
    assert!(matches!(err, LockfileError::UncheckablePatchHash { .. }));
}
