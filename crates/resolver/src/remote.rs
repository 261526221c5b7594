//! Tarballs named by an `http:`/`https:` URL that is not a registry's own
//! tarball URL: downloaded while resolving, for their manifest and
//! integrity (docs/resolution.md §13); and what resolution asks of the
//! sources that fetch those and git repositories.

use std::{future::Future, pin::Pin};

use crate::{ResolveError, git::GitSpec};

/// What resolution learns from a remote tarball.
#[derive(Debug, Clone)]
pub struct RemoteTarball {
    /// The archive's root `package.json`.
    pub manifest: serde_json::Value,
    /// `sha512-…` of the archive.
    pub integrity: String,
    /// The URL the lockfile records: where redirects ended when the
    /// server said the answer is immutable, else the URL asked for.
    pub url: String,
}

/// A git dependency as resolution sees it: the commit its ref names and
/// the package's `package.json` there.
#[derive(Debug, Clone)]
pub struct GitPackage {
    pub commit: String,
    pub manifest: serde_json::Value,
}

type Fetching<'s, T> = Pin<Box<dyn Future<Output = Result<T, ResolveError>> + 's>>;

/// Where resolution gets packages that are not on a registry; `alias`
/// names the dependency in messages.
pub trait RemoteSources: Sync {
    /// Downloads the tarball at `url` (already [`tarball_url`]-normalized).
    fn tarball<'s>(&'s self, alias: &str, url: &str) -> Fetching<'s, RemoteTarball>;
    /// Resolves `spec`'s ref to a commit and reads the manifest there.
    fn git<'s>(&'s self, alias: &str, spec: &GitSpec) -> Fetching<'s, GitPackage>;
}

/// A pnpmfile's `readPackage` hook: a manifest in, the manifest it
/// returns out (docs/pnpmfile.md).
pub trait ReadPackage {
    fn read_package(&self, manifest: serde_json::Value) -> Result<serde_json::Value, ResolveError>;
}

/// The URL of a remote tarball dependency as pnpm 12.21 keys it (parsed
/// and printed back: a default port dropped, the host lowercased), or
/// `None` when `spec` is not one: not `http:`/`https:`, or a git
/// repository's URL.
pub fn tarball_url(spec: &str) -> Option<String> {
    let spec = spec.trim();
    if !(spec.starts_with("http:") || spec.starts_with("https:")) || is_git_url(spec) {
        return None;
    }
    url::Url::parse(spec).ok().map(|url| url.to_string())
}

/// Hosts whose repository pages pnpm resolves as git repositories (those
/// `hosted-git-info` knows).
pub(crate) const GIT_HOSTS: [&str; 5] = [
    "github.com",
    "gitlab.com",
    "bitbucket.org",
    "gist.github.com",
    "git.sr.ht",
];

/// Whether an `http(s):` specifier names a git repository rather than a
/// tarball: a URL ending in `.git` (before any `#`), or the page of a
/// repository on a known git host, which is anything there but an
/// archive file.
pub fn is_git_url(spec: &str) -> bool {
    let without_hash = spec.split('#').next().unwrap_or(spec);
    if without_hash.ends_with(".git") {
        return true;
    }
    let Ok(url) = url::Url::parse(spec) else {
        return false;
    };
    let host = url.host_str().unwrap_or("");
    let host = host.strip_prefix("www.").unwrap_or(host);
    GIT_HOSTS.contains(&host) && !is_archive(url.path())
}

fn is_archive(path: &str) -> bool {
    [".tgz", ".tar.gz", ".tar", ".zip"]
        .iter()
        .any(|suffix| path.ends_with(suffix))
        || path.contains("/archive/")
        || path.contains("/get/")
}

#[cfg(test)]
mod tests;
