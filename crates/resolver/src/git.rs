//! Git repository specifiers (`git+https://…`, `git+ssh://…`,
//! `git+file://…`, `git://…`, `https://….git`): which repository, which
//! ref, and the commit a ref names among a repository's refs
//! (docs/resolution.md §13.1).
//!
//! Hosted shorthands (`github:user/repo`, `user/repo`) are not parsed
//! here: pnpm decides between a tarball and a clone for those by asking
//! the host whether the repository is public.

use std::collections::BTreeMap;

use nodejs_semver::{Range, Version};

use crate::ResolveError;

/// A git dependency: the repository to ask and what of it is wanted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitSpec {
    /// The specifier as written, for messages.
    pub raw: String,
    /// The URL `git ls-remote` and `git clone` get (`git+` dropped).
    pub repo: String,
    /// A branch, tag or commit (prefix); `None`: `HEAD`.
    pub committish: Option<String>,
    /// `#semver:<range>`: the highest version tag in the range.
    pub range: Option<String>,
    /// `#path:<dir>`: the package is in that directory of the repository.
    pub path: Option<String>,
}

/// Protocols pnpm 12.21 treats as git repositories.
const GIT_PROTOCOLS: [&str; 8] = [
    "git",
    "git+http",
    "git+https",
    "git+rsync",
    "git+ftp",
    "git+file",
    "git+ssh",
    "ssh",
];

impl GitSpec {
    /// Parses `spec`, or `None` when it is not a git URL pacquet resolves.
    pub fn parse(spec: &str) -> Option<GitSpec> {
        let spec = spec.trim();
        let (protocol, _) = spec.split_once(':')?;
        let protocol = protocol.to_ascii_lowercase();
        let dot_git = matches!(protocol.as_str(), "http" | "https")
            && spec.split('#').next().is_some_and(|s| s.ends_with(".git"));
        if !(GIT_PROTOCOLS.contains(&protocol.as_str()) || dot_git) {
            return None;
        }
        let mut url = url::Url::parse(&scp_to_url(spec)).ok()?;
        let host = url.host_str().unwrap_or("").to_ascii_lowercase();
        if crate::remote::GIT_HOSTS.contains(&host.strip_prefix("www.").unwrap_or(&host)) {
            return None;
        }
        let hash = url.fragment().filter(|f| !f.is_empty()).map(|f| {
            percent_encoding::percent_decode_str(f)
                .decode_utf8_lossy()
                .into_owned()
        });
        url.set_fragment(None);
        let text = url.to_string();
        let repo = text.strip_prefix("git+").unwrap_or(&text).to_owned();
        let mut parsed = GitSpec {
            raw: spec.to_owned(),
            repo,
            committish: None,
            range: None,
            path: None,
        };
        for param in hash.as_deref().unwrap_or("").split('&') {
            if let Some(range) = param.strip_prefix("semver:") {
                parsed.range = Some(range.to_owned());
            } else if let Some(path) = param.strip_prefix("path:") {
                parsed.path = Some(path.to_owned());
            } else if !param.is_empty() {
                parsed.committish = Some(param.to_owned());
            }
        }
        Some(parsed)
    }

    /// What tells one git dependency from another within an install.
    pub fn key(&self) -> String {
        format!(
            "{}#{}&semver:{}&path:{}",
            self.repo,
            self.wanted_ref(),
            self.range.as_deref().unwrap_or(""),
            self.path.as_deref().unwrap_or("")
        )
    }

    /// This spec, pinned to `commit` (what a lockfile recorded for it).
    pub fn at_commit(&self, commit: &str) -> GitSpec {
        GitSpec {
            committish: Some(commit.to_owned()),
            range: None,
            ..self.clone()
        }
    }

    /// The ref to resolve: the committish, else `HEAD`.
    pub fn wanted_ref(&self) -> &str {
        self.committish.as_deref().unwrap_or("HEAD")
    }

    /// The refs `git ls-remote` is asked for: none (all of them) for a
    /// range or a commit prefix, else the ref and its peeled tag.
    pub fn ls_remote_patterns(&self) -> Vec<String> {
        let wanted = self.wanted_ref();
        if self.range.is_some() || is_commit_prefix(wanted) {
            Vec::new()
        } else {
            vec![wanted.to_owned(), format!("{wanted}^{{}}")]
        }
    }

    /// The commit without asking the repository: a full commit id.
    pub fn known_commit(&self) -> Option<&str> {
        let wanted = self.wanted_ref();
        (self.range.is_none() && wanted.len() == 40 && is_commit_prefix(wanted)).then_some(wanted)
    }

    /// The commit `refs` (`git ls-remote` output) give for this spec, as
    /// pnpm 12.21 picks it.
    pub fn commit_from(&self, ls_remote: &str) -> Result<String, ResolveError> {
        let refs: BTreeMap<&str, &str> = ls_remote
            .lines()
            .filter_map(|line| {
                let (commit, name) = line.split_once('\t')?;
                Some((name.trim(), commit.trim()))
            })
            .collect();
        let wanted = self.wanted_ref();
        if let Some(range) = &self.range {
            return highest_tag(&refs, range).ok_or_else(|| {
                let tags: Vec<&str> = version_tags(&refs).into_iter().map(|(t, _)| t).collect();
                ResolveError::GitRef {
                    reason: format!(
                        "Could not resolve {range} to a commit of {}. Available versions are: {}",
                        self.repo,
                        tags.join(", ")
                    ),
                }
            });
        }
        let commit_prefix = is_commit_prefix(wanted);
        let named = [
            wanted.to_owned(),
            format!("refs/{wanted}"),
            format!("refs/tags/{wanted}^{{}}"),
            format!("refs/tags/{wanted}"),
            format!("refs/heads/{wanted}"),
        ]
        .into_iter()
        .find_map(|name| refs.get(name.as_str()).map(|c| (*c).to_owned()));
        let commit = match named {
            Some(commit) => commit,
            None => {
                let mut matching: Vec<&str> = if commit_prefix {
                    refs.values()
                        .filter(|c| c.starts_with(wanted))
                        .copied()
                        .collect()
                } else {
                    Vec::new()
                };
                matching.sort_unstable();
                matching.dedup();
                match matching.as_slice() {
                    [one] => (*one).to_owned(),
                    _ => {
                        return Err(ResolveError::GitRef {
                            reason: format!(
                                "Could not resolve {wanted} to a commit of {}.",
                                self.repo
                            ),
                        });
                    }
                }
            }
        };
        if commit_prefix && !commit.starts_with(wanted) {
            return Err(ResolveError::GitAmbiguousRef {
                reason: format!("resolved commit {commit} from commit-ish reference {wanted}"),
            });
        }
        Ok(commit)
    }

    /// The version part of the package id: `git+<repo>#<commit>`, with
    /// `&path:<dir>` (pnpm's `createGitHostedPkgId`).
    pub fn id_version(&self, commit: &str) -> String {
        let repo = scp_repo_to_url(&self.repo);
        let mut id = if repo.contains("://") {
            format!("{repo}#{commit}")
        } else {
            format!("https://{repo}#{commit}")
        };
        if !id.starts_with("git+") {
            id.insert_str(0, "git+");
        }
        if let Some(path) = &self.path {
            id.push_str("&path:");
            id.push_str(path);
        }
        id
    }
}

/// Whether `s` can be (a prefix of) a commit id.
fn is_commit_prefix(s: &str) -> bool {
    (7..=40).contains(&s.len()) && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Version tags (`v1.2.3`, `1.2.3-rc.1`, annotated or not) and their
/// refs' names, deduplicated.
fn version_tags<'r>(refs: &BTreeMap<&'r str, &str>) -> Vec<(&'r str, Version)> {
    let mut tags: Vec<(&str, Version)> = refs
        .keys()
        .filter_map(|name| {
            let tag = name.strip_prefix("refs/tags/")?;
            let tag = tag.strip_suffix("^{}").unwrap_or(tag);
            let bare = tag.strip_prefix('v').unwrap_or(tag);
            let digits_first = bare.split('.').take(3).count() == 3
                && bare
                    .split(['.', '-', '+'])
                    .take(3)
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
            if !digits_first {
                return None;
            }
            Version::parse(bare).ok().map(|v| (tag, v))
        })
        .collect();
    tags.dedup_by(|a, b| a.0 == b.0);
    tags
}

/// The commit of the highest version tag `range` allows, an annotated
/// tag's commit preferred over the tag object.
fn highest_tag(refs: &BTreeMap<&str, &str>, range: &str) -> Option<String> {
    let range = Range::parse(range).ok()?;
    let (tag, _) = version_tags(refs)
        .into_iter()
        .filter(|(_, v)| v.satisfies(&range))
        .max_by(|a, b| a.1.cmp(&b.1))?;
    refs.get(format!("refs/tags/{tag}^{{}}").as_str())
        .or_else(|| refs.get(format!("refs/tags/{tag}").as_str()))
        .map(|c| (*c).to_owned())
}

/// `git+ssh://git@host:user/repo` (scp-like, a path after the colon) as a
/// URL: `git+ssh://git@host/user/repo` (pnpm's `correctUrl`).
fn scp_to_url(spec: &str) -> String {
    let bare = spec.strip_prefix("git+").unwrap_or(spec);
    let Some(rest) = bare.strip_prefix("ssh://") else {
        return spec.to_owned();
    };
    let (before_hash, hash) = match rest.find('#') {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    let (auth, path) = match before_hash.find('/') {
        Some(at) => before_hash.split_at(at),
        None => (before_hash, ""),
    };
    let host = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
    let after_host = match host.strip_prefix('[') {
        Some(v6) => v6.split_once(']').map_or("", |(_, rest)| rest),
        None => host,
    };
    let port_only = after_host
        .rsplit_once(':')
        .is_some_and(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()));
    if !after_host.contains(':') || port_only {
        return spec.to_owned();
    }
    let (user_host, first) = auth.rsplit_once(':').unwrap_or((auth, ""));
    let protocol = spec.split("://").next().unwrap_or("ssh");
    format!("{protocol}://{user_host}/{first}{path}{hash}")
}

/// An scp-like repository (`user@host:path`) as an `ssh://` URL, for ids.
fn scp_repo_to_url(repo: &str) -> String {
    if repo.contains("://") {
        return repo.to_owned();
    }
    match repo.split_once(':') {
        Some((user_host, path))
            if user_host.contains('@') && !user_host.contains(char::is_whitespace) =>
        {
            format!("ssh://{user_host}/{path}")
        }
        _ => repo.to_owned(),
    }
}

#[cfg(test)]
mod tests;
