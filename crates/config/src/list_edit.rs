//! Sets a top-level list of `pnpm-workspace.yaml` (every other line kept),
//! as pnpm 12.21 writes `minimumReleaseAgeExclude` after picking versions
//! younger than `minimumReleaseAge` (docs/resolution.md §1):
//!
//! * a block list (`key:` then `  - item` lines) is rewritten as one, two
//!   spaces in;
//! * a flow list on the key's line is rewritten as `key: [ a, b ]`;
//! * a missing key goes where it sorts when the top-level keys are
//!   sorted, else at the end; a missing file is `key:` and the items.

/// `text` (`None`: no file yet) with the top-level list `key` set to
/// `items`.
pub fn set_top_level_list(text: Option<&str>, key: &str, items: &[String]) -> String {
    let block: String = items.iter().map(|item| format!("  - {item}\n")).collect();
    let Some(text) = text else {
        return format!("{key}:\n{block}");
    };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let top_level_key = |line: &str| -> Option<String> {
        let first = line.chars().next()?;
        if first.is_whitespace() || first == '#' || first == '-' {
            return None;
        }
        let colon = line.find(':')?;
        Some(line[..colon].trim().trim_matches(['"', '\'']).to_owned())
    };
    let keys: Vec<Option<String>> = lines.iter().map(|line| top_level_key(line)).collect();
    let mut out = String::with_capacity(text.len() + block.len());
    if let Some(at) = keys.iter().position(|k| k.as_deref() == Some(key)) {
        let line = lines[at];
        let rest = line[line.find(':').map_or(0, |c| c + 1)..].trim();
        // The old items: lines more indented than the key, or `- ` ones.
        let mut end = at + 1;
        if !rest.starts_with('[') {
            while end < lines.len() && lines[end].starts_with([' ', '\t', '-']) {
                end += 1;
            }
        }
        lines[..at].iter().for_each(|l| out.push_str(l));
        if rest.starts_with('[') {
            let newline = if line.ends_with('\n') { "\n" } else { "" };
            out.push_str(&format!("{key}: [ {} ]{newline}", items.join(", ")));
        } else {
            out.push_str(&format!("{key}:\n{block}"));
        }
        lines[end..].iter().for_each(|l| out.push_str(l));
        return out;
    }
    let present: Vec<&str> = keys.iter().flatten().map(String::as_str).collect();
    let sorted = present.windows(2).all(|pair| pair[0] <= pair[1]);
    let at = keys
        .iter()
        .position(|k| sorted && k.as_deref().is_some_and(|other| other > key))
        .unwrap_or(lines.len());
    lines[..at].iter().for_each(|l| out.push_str(l));
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!("{key}:\n{block}"));
    lines[at..].iter().for_each(|l| out.push_str(l));
    out
}

/// pnpm's `mergePackageVersionSpecs`: one entry per package name, in the
/// order names are first met; a bare name (every version) absorbs its
/// versions; versions of one name are joined with ` || `, sorted by
/// semver.
pub fn merge_version_specs<'s>(specs: impl IntoIterator<Item = &'s str>) -> Vec<String> {
    let mut by_name: indexmap::IndexMap<String, Option<Vec<String>>> = indexmap::IndexMap::new();
    for spec in specs {
        let spec = spec.trim();
        let at = spec[1.min(spec.len())..].find('@').map(|at| at + 1);
        let (name, versions) = match at {
            Some(at) => (
                &spec[..at],
                spec[at + 1..]
                    .split("||")
                    .map(|v| v.trim().to_owned())
                    .filter(|v| !v.is_empty())
                    .collect::<Vec<_>>(),
            ),
            None => (spec, Vec::new()),
        };
        let entry = by_name
            .entry(name.to_owned())
            .or_insert_with(|| Some(Vec::new()));
        match (entry.as_mut(), versions.is_empty()) {
            (_, true) => *entry = None,
            (Some(known), false) => {
                for version in versions {
                    if !known.contains(&version) {
                        known.push(version);
                    }
                }
            }
            (None, false) => {}
        }
    }
    by_name
        .into_iter()
        .map(|(name, versions)| match versions {
            None => name,
            Some(mut versions) => {
                versions.sort_by(|a, b| {
                    match (
                        nodejs_semver::Version::parse(a),
                        nodejs_semver::Version::parse(b),
                    ) {
                        (Ok(a), Ok(b)) => a.cmp(&b),
                        _ => a.cmp(b),
                    }
                });
                format!("{name}@{}", versions.join(" || "))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
