//! Fetch sources and store index keys of snapshots (docs/lockfile.md §4, docs/store.md §5.4).

use pacquet_lockfile::{DepPath, PackageInfo, Resolution};

use crate::{FetchSource, PlanError, PlanOptions};

/// The fetch source of `dep_path` and its store index key.
pub fn fetch_source(
    dep_path: &DepPath,
    info: &PackageInfo,
    opts: &PlanOptions,
) -> Result<(FetchSource, Option<String>), PlanError> {
    let package_id = dep_path.package_id();
    let version = dep_path.version();
    // URL and `file:` tarballs use the URL / path as pkgId.
    let tarball_pkg_id = if version.contains(':') {
        version
    } else {
        package_id
    };
    // Git and git-hosted packages are stored after pnpm's prepare step,
    // which `ignoreScripts` skips (checked with pnpm 12.21).
    let built = if opts.ignore_scripts {
        "not-built"
    } else {
        "built"
    };
    Ok(match &info.resolution {
        Resolution::Registry { integrity } => {
            let version = info.version.as_deref().unwrap_or(version);
            let name = info.name.as_deref().unwrap_or(dep_path.name());
            let url = (opts.tarball_url)(name, version);
            let key = format!("{integrity}\t{package_id}");
            let source = FetchSource::Registry {
                url,
                integrity: integrity.clone(),
            };
            (source, Some(key))
        }
        Resolution::Tarball {
            tarball,
            integrity,
            git_hosted,
            path,
        } => {
            let ids = TarballIds {
                dep_path,
                pkg_id: tarball_pkg_id,
                built,
            };
            tarball_source(&ids, tarball, integrity, *git_hosted, path)?
        }
        Resolution::Git { repo, commit, path } => {
            let key = format!("{tarball_pkg_id}\t{built}");
            let source = FetchSource::Git {
                repo: repo.clone(),
                commit: commit.clone(),
                path: path.clone(),
            };
            (source, Some(key))
        }
        Resolution::Directory { directory } => {
            let path = directory.clone();
            (FetchSource::Directory { path }, None)
        }
        Resolution::Other(map) => {
            let kind = map
                .get("type")
                .and_then(|v| v.as_str())
                .unwrap_or("unknown");
            let reason = format!("resolution type '{kind}'");
            (FetchSource::Unsupported { reason }, None)
        }
    })
}

/// HTTPS archive URLs of the git hosts pnpm recognizes.
fn is_git_hosted_url(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("https://") else {
        return false;
    };
    rest.starts_with("codeload.github.com/")
        || rest.starts_with("bitbucket.org/")
        || (rest.starts_with("gitlab.com/") && rest.contains("/-/archive/"))
}

/// How a tarball-kind resolution is keyed in the store.
struct TarballIds<'a> {
    dep_path: &'a DepPath,
    /// The URL or `file:` path for URL tarballs, else the package id.
    pkg_id: &'a str,
    /// `built` or `not-built` (git-hosted archives are prepared).
    built: &'a str,
}

/// `{tarball, integrity?, gitHosted?, path?}`: a git-hosted archive, a
/// `file:` tarball or a remote URL.
fn tarball_source(
    ids: &TarballIds<'_>,
    tarball: &str,
    integrity: &Option<String>,
    git_hosted: Option<bool>,
    path: &Option<String>,
) -> Result<(FetchSource, Option<String>), PlanError> {
    let missing_integrity = || PlanError::MissingTarballIntegrity {
        dep_path: ids.dep_path.to_string(),
    };
    // pnpm 12.21 lets only archives of the known git hosts go without
    // integrity; a `gitHosted: true` archive elsewhere is refused like any
    // tarball (checked with a loopback URL).
    if integrity.is_none() && !is_git_hosted_url(tarball) {
        return Err(missing_integrity());
    }
    if git_hosted == Some(true) || is_git_hosted_url(tarball) {
        let key = format!("{}\t{}", ids.pkg_id, ids.built);
        let source = FetchSource::GitHostedTarball {
            url: tarball.to_owned(),
            integrity: integrity.clone(),
            path: path.clone(),
        };
        return Ok((source, Some(key)));
    }
    let integrity = integrity.clone().ok_or_else(missing_integrity)?;
    let key = Some(format!("{integrity}\t{}", ids.pkg_id));
    Ok(if let Some(path) = tarball.strip_prefix("file:") {
        let path = path.to_owned();
        (FetchSource::LocalTarball { path, integrity }, key)
    } else if tarball.starts_with("http://") || tarball.starts_with("https://") {
        let url = tarball.to_owned();
        (FetchSource::Tarball { url, integrity }, key)
    } else {
        let reason = format!("relative tarball URL '{tarball}'");
        (FetchSource::Unsupported { reason }, None)
    })
}
