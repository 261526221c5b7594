//! Just enough semver ordering to pick `dist-tags.latest`.

use std::cmp::Ordering;

/// Highest version without a prerelease part; if all are prereleases, the
/// highest of them.
pub fn highest_release<'a>(versions: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let all: Vec<&str> = versions.into_iter().collect();
    let releases: Vec<&str> = all.iter().copied().filter(|v| !v.contains('-')).collect();
    let pool = if releases.is_empty() { all } else { releases };
    pool.into_iter().max_by(|a, b| compare(a, b))
}

/// Compares `major.minor.patch[-pre][+build]` numerically, prerelease lower
/// than release, prereleases lexically.
pub fn compare(a: &str, b: &str) -> Ordering {
    let (core_a, pre_a) = split(a);
    let (core_b, pre_b) = split(b);
    core_a.cmp(&core_b).then_with(|| match (pre_a, pre_b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(x), Some(y)) => x.cmp(y),
    })
}

fn split(v: &str) -> (Vec<u64>, Option<&str>) {
    let v = v.split('+').next().unwrap_or(v);
    let (core, pre) = match v.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (v, None),
    };
    let nums = core.split('.').map(|n| n.parse().unwrap_or(0)).collect();
    (nums, pre)
}

#[cfg(test)]
mod tests {
    use super::highest_release;

    #[test]
    fn latest_prefers_highest_release() {
        let v = ["1.0.0", "1.10.0", "1.9.0", "2.0.0-rc.1"];
        assert_eq!(highest_release(v), Some("1.10.0"));
        assert_eq!(highest_release(["1.0.0-a", "1.0.0-b"]), Some("1.0.0-b"));
    }
}
