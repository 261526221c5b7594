//! `{dir}` selectors as globs over project directories: path segments
//! compared one by one, `**` spanning any number of them, `*` any run of
//! characters within one.

pub(crate) fn is_match(candidate: &str, pattern: &str) -> bool {
    let pattern = normalize(pattern);
    let candidate = normalize(candidate);
    let pattern: Vec<&str> = pattern.split('/').collect();
    let candidate: Vec<&str> = candidate.split('/').collect();
    segments_match(&pattern, &candidate)
}

fn normalize(path: &str) -> String {
    let path = path.replace('\\', "/");
    match path.strip_suffix('/') {
        Some(stripped) if !stripped.is_empty() => stripped.to_owned(),
        _ => path,
    }
}

fn segments_match(pattern: &[&str], candidate: &[&str]) -> bool {
    match pattern.split_first() {
        None => candidate.is_empty(),
        Some((&"**", rest)) => {
            (0..=candidate.len()).any(|skip| segments_match(rest, &candidate[skip..]))
        }
        Some((segment, rest)) => match candidate.split_first() {
            Some((head, tail)) => segment_match(segment, head) && segments_match(rest, tail),
            None => false,
        },
    }
}

/// `*` matches any run of characters; everything else literally.
fn segment_match(pattern: &str, text: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let text: Vec<char> = text.chars().collect();
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if pattern.get(p) == Some(&'*') {
            star = Some((p, t));
            p += 1;
        } else if pattern.get(p) == Some(&text[t]) {
            p += 1;
            t += 1;
        } else if let Some((sp, st)) = star {
            p = sp + 1;
            t = st + 1;
            star = Some((sp, t));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::is_match;

    #[test]
    fn segments_and_stars() {
        assert!(is_match("/ws/packages/app", "/ws/packages/app"));
        assert!(is_match("/ws/packages/app", "/ws/packages/*"));
        assert!(is_match("/ws/packages/app", "/ws/packages/a*p"));
        assert!(!is_match("/ws/packages/app/x", "/ws/packages/*"));
        assert!(is_match("/ws/packages/app/x", "/ws/packages/**"));
        assert!(is_match("/ws/packages", "/ws/packages/**"));
        assert!(!is_match("/ws/packages/app", "/ws/packages"));
        assert!(is_match("/ws/packages/app", "/ws/packages/app/"));
    }
}
