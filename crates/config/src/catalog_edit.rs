//! Rewrites one catalog entry of `pnpm-workspace.yaml` in place, every
//! other byte kept: what `update` does to a `catalog:` dependency (pnpm
//! 12.21 moves the catalog entry, not the manifest's `catalog:`;
//! docs/resolution.md §11).
//!
//! Only block mappings are understood (`catalog:` / `catalogs: <name>:`
//! with one entry per line, as pnpm writes them); an entry written any
//! other way (flow mappings, anchors) is not found.

/// `text` with the entry `alias` of catalog `catalog` (`default`: the
/// top-level `catalog:`, else `catalogs: default:`) set to `specifier`;
/// `None` when the entry is not found as a block mapping line.
pub fn set_catalog_entry(
    text: &str,
    catalog: &str,
    alias: &str,
    specifier: &str,
) -> Option<String> {
    let paths: Vec<Vec<&str>> = if catalog == "default" {
        vec![vec!["catalog", alias], vec!["catalogs", "default", alias]]
    } else {
        vec![vec!["catalogs", catalog, alias]]
    };
    let (start, end, quote) = paths.iter().find_map(|path| find_value(text, path))?;
    // A quoted value's range is inside its quotes.
    let value = match quote {
        Some('\'') => specifier.replace('\'', "''"),
        Some(_) => specifier.replace('\\', "\\\\").replace('"', "\\\""),
        None if needs_quotes(specifier) => format!("'{}'", specifier.replace('\'', "''")),
        None => specifier.to_owned(),
    };
    Some(format!("{}{value}{}", &text[..start], &text[end..]))
}

/// The byte range of the value at `path` (a chain of block mapping keys)
/// and the quote it is written in.
fn find_value(text: &str, path: &[&str]) -> Option<(usize, usize, Option<char>)> {
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let line_start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let indent = content.len() - content.trim_start_matches(' ').len();
        let rest = &content[indent..];
        if rest.is_empty() || rest.starts_with('#') || rest == "---" {
            continue;
        }
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        let Some((key, after_key)) = split_key(rest) else {
            continue;
        };
        stack.push((indent, key));
        let matches = stack.len() == path.len() && stack.iter().zip(path).all(|((_, k), p)| k == p);
        if !matches {
            continue;
        }
        let value_field = &rest[after_key..];
        let leading = value_field.len() - value_field.trim_start().len();
        let value = value_field.trim_start();
        let value_start = line_start + indent + after_key + leading;
        let (len, quote) = match value.chars().next() {
            Some(q @ ('\'' | '"')) => (value[1..].find(q)? + 2, Some(q)),
            Some(_) => {
                let end = value.find(" #").unwrap_or(value.len());
                (value[..end].trim_end().len(), None)
            }
            None => return None,
        };
        return match quote {
            Some(_) => Some((value_start + 1, value_start + len - 1, quote)),
            None => Some((value_start, value_start + len, None)),
        };
    }
    None
}

/// A block mapping line's key (unquoted) and where its value starts
/// (after the `:`); `None` for other lines.
fn split_key(rest: &str) -> Option<(String, usize)> {
    match rest.chars().next()? {
        q @ ('\'' | '"') => {
            let close = rest[1..].find(q)? + 1;
            let after = &rest[close + 1..];
            after
                .starts_with(':')
                .then(|| (rest[1..close].to_owned(), close + 2))
        }
        '-' | '{' | '[' | '&' | '*' | '!' | '|' | '>' => None,
        _ => {
            let colon = rest
                .match_indices(':')
                .find(|(i, _)| matches!(rest.as_bytes().get(i + 1), None | Some(b' ')))?
                .0;
            Some((rest[..colon].trim_end().to_owned(), colon + 1))
        }
    }
}

/// Whether a plain scalar would not read back as `s`.
fn needs_quotes(s: &str) -> bool {
    s.is_empty()
        || s.starts_with([
            '*', '&', '!', '|', '>', '\'', '"', '%', '@', '`', '{', '[', '#', ',', '?', '-',
        ])
        || s.contains(": ")
        || s.contains(" #")
        || s.ends_with(':')
}

#[cfg(test)]
mod tests;
