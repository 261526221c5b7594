//! Git hosts' archive URLs (docs/supply-chain.md §1): decided from the URL
//! alone, never from the lockfile's `gitHosted` flag, so a tampered entry
//! cannot mark an arbitrary URL as git-hosted to skip the registry checks.
//! Only HTTPS archives of a full commit hash count.

pub(crate) fn is_git_hosted_archive(url: &str) -> bool {
    let Some(rest) = url
        .get(..8)
        .filter(|s| s.eq_ignore_ascii_case("https://"))
        .and_then(|_| url.get(8..))
    else {
        return false;
    };
    let Some((host, path)) = rest.split_once('/') else {
        return false;
    };
    let path = path.split('#').next().unwrap_or(path);
    let (path, query) = match path.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (path, None),
    };
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    match host.to_ascii_lowercase().as_str() {
        // codeload.github.com/<owner>/<repo>/tar.gz/<sha>
        "codeload.github.com" => {
            segments.len() == 4 && segments[2] == "tar.gz" && is_sha(segments[3])
        }
        // bitbucket.org/<owner>/<repo>/get/<sha>.tar.gz
        "bitbucket.org" => {
            segments.len() == 4
                && segments[2] == "get"
                && segments[3].strip_suffix(".tar.gz").is_some_and(is_sha)
        }
        "gitlab.com" => is_gitlab_archive(&segments, query),
        _ => false,
    }
}

/// `api/v4/projects/<id>/repository/archive.tar.gz?ref=<sha>`, or
/// `<group…>/<repo>/-/archive/<sha>/<file>.tar.gz`.
fn is_gitlab_archive(segments: &[&str], query: Option<&str>) -> bool {
    if segments.len() == 6
        && segments[..3] == ["api", "v4", "projects"]
        && segments[4] == "repository"
        && segments[5] == "archive.tar.gz"
    {
        return query
            .into_iter()
            .flat_map(|q| q.split('&'))
            .filter_map(|kv| kv.split_once('='))
            .any(|(k, v)| k == "ref" && is_sha(v));
    }
    let Some(marker) = segments.windows(2).position(|w| w == ["-", "archive"]) else {
        return false;
    };
    marker >= 2
        && segments.len() == marker + 4
        && is_sha(segments[marker + 2])
        && segments[marker + 3].ends_with(".tar.gz")
}

fn is_sha(s: &str) -> bool {
    s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests;
