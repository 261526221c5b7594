//! Equivalent spellings of a hosted-git specifier. pnpm 12 treats
//! `github:o/r#c`, `o/r#c`, `git+https://github.com/o/r.git#c` and
//! `https://github.com/o/r#c` as the same specifier when checking importers.

/// `(host, owner, repo, committish)` of a hosted-git specifier.
type HostedGit<'a> = (&'static str, &'a str, &'a str, &'a str);

const HOSTS: &[(&str, &str)] = &[
    ("github", "github.com"),
    ("gitlab", "gitlab.com"),
    ("bitbucket", "bitbucket.org"),
];

fn hosted(spec: &str) -> Option<HostedGit<'_>> {
    let (body, committish) = spec.split_once('#').unwrap_or((spec, ""));
    let (host, path) = host_and_path(body)?;
    let path = path.strip_suffix(".git").unwrap_or(path);
    let (owner, repo) = path.split_once('/')?;
    let valid = |s: &str| !s.is_empty() && !s.contains(['/', ':', ' ', '@']);
    (valid(owner) && valid(repo)).then_some((host, owner, repo, committish))
}

fn host_and_path(body: &str) -> Option<(&'static str, &str)> {
    for (short, domain) in HOSTS {
        if let Some(path) = body.strip_prefix(short).and_then(|r| r.strip_prefix(':')) {
            return Some((short, path));
        }
        for scheme in [
            "git+https://",
            "https://",
            "git+ssh://git@",
            "ssh://git@",
            "git://",
            "git+http://",
            "http://",
        ] {
            if let Some(path) = body
                .strip_prefix(scheme)
                .and_then(|r| r.strip_prefix(domain))
                .and_then(|r| r.strip_prefix('/'))
            {
                return Some((short, path));
            }
        }
        if let Some(path) = body
            .strip_prefix("git@")
            .and_then(|r| r.strip_prefix(domain))
            .and_then(|r| r.strip_prefix(':'))
        {
            return Some((short, path));
        }
    }
    // `owner/repo` shorthand means GitHub.
    let bare = !body.contains(':')
        && !body.starts_with(['.', '@', '/', '~'])
        && body.matches('/').count() == 1;
    bare.then_some(("github", body))
}

/// Whether two specifiers name the same thing for the importer check.
pub(crate) fn specs_equal(a: &str, b: &str) -> bool {
    a == b || hosted(a).is_some_and(|h| Some(h) == hosted(b))
}

#[cfg(test)]
mod tests;
