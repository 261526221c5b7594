//! `type: git` resolutions: clone the repository with the system `git`,
//! check out the locked commit, then prepare and store the package.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use pacquet_cas::Cas;

use pacquet_store_index::PackageFilesIndex;

use crate::{SourceError, prepare::prepare_and_store, sub_dir, temp::TempDir};

/// Clones `repo` at `commit` and stores the package at `path` inside it;
/// `may_prepare` is the build policy's answer for its prepare step.
pub fn fetch_git(
    cas: &Cas,
    may_prepare: Option<bool>,
    package_id: &str,
    repo: &str,
    commit: &str,
    path: Option<&str>,
) -> Result<PackageFilesIndex, SourceError> {
    let (_tmp, dir) = checkout(package_id, repo, commit, path)?;
    prepare_and_store(cas, may_prepare, package_id, &dir)
}

/// A scratch clone of `repo` at `commit` (removed when the returned
/// directory is dropped) and the package's directory in it.
fn checkout(
    package_id: &str,
    repo: &str,
    commit: &str,
    path: Option<&str>,
) -> Result<(TempDir, PathBuf), SourceError> {
    let tmp = TempDir::new("git").map_err(|source| SourceError::SourceIo {
        package_id: package_id.to_owned(),
        what: "create a directory for the clone",
        source,
    })?;
    let checkout = tmp.path().join("repo");
    // A clone without checkout, then the commit: works for any commit the
    // repository has, whatever the server allows to be fetched by id.
    let fail = |step: &str, output: String| SourceError::GitFetch {
        package_id: package_id.to_owned(),
        repo: repo.to_owned(),
        commit: commit.to_owned(),
        output: format!("git {step}: {output}"),
    };
    git(
        tmp.path(),
        &["clone", "--quiet", "--no-checkout", "--", repo, "repo"],
    )
    .map_err(|o| fail("clone", o))?;
    git(
        &checkout,
        &["checkout", "--quiet", "--detach", commit, "--"],
    )
    .map_err(|o| fail("checkout", o))?;
    let dir = sub_dir(&checkout, path, package_id)?;
    Ok((tmp, dir))
}

/// `git ls-remote -- <repo> [patterns]`: the refs of `repo` (all of them
/// without patterns), one `<commit>\t<ref>` per line; the error is git's
/// output.
pub fn ls_remote(repo: &str, patterns: &[String]) -> Result<String, String> {
    let mut args = vec!["ls-remote", "--", repo];
    args.extend(patterns.iter().map(String::as_str));
    git(&std::env::temp_dir(), &args)
}

/// The `package.json` of the package at `path` in `repo` at `commit`
/// (`None` when it has none), for resolution; the error is why not.
pub fn git_manifest(
    repo: &str,
    commit: &str,
    path: Option<&str>,
    package_id: &str,
) -> Result<Option<serde_json::Value>, SourceError> {
    let (_tmp, dir) = checkout(package_id, repo, commit, path)?;
    crate::read_manifest(&dir).map_err(|source| SourceError::SourceIo {
        package_id: package_id.to_owned(),
        what: "read the package.json",
        source,
    })
}

/// Runs `git <args>` in `dir`; the output on success, else the error
/// output.
fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        // Never wait for credentials on a terminal.
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).trim().to_owned())
    }
}
