//! Fast path for reading lockfiles as pnpm writes them (about 10× faster
//! than the general YAML parser). It declines anything unusual, including
//! every error case, and the caller then uses the general parser.

mod de;
mod tree;

use serde::Deserialize;

use crate::Lockfile;

/// `None` means "not handled here", never "invalid".
pub(crate) fn parse(text: &str) -> Option<Lockfile> {
    // Marker, directive and end lines are never valid keys, so a text that
    // does not open with a marker is one document or is declined anyway.
    if !text.trim_start().starts_with("---") {
        return parse_one(text);
    }
    let mut docs = split_documents(text)?;
    let main = docs.pop()?;
    let mut lockfile = parse_one(main)?;
    match docs.as_slice() {
        [] => {}
        [env] => lockfile.env = Some(Box::new(parse_one(env)?)),
        _ => return None,
    }
    Some(lockfile)
}

fn parse_one(text: &str) -> Option<Lockfile> {
    let root = tree::parse_document(text)?;
    Lockfile::deserialize(de::NodeDe(&root)).ok()
}

/// Splits at `---` lines. A leading marker opens the first document; text
/// before it must be blank.
fn split_documents(text: &str) -> Option<Vec<&str>> {
    let mut docs = Vec::new();
    let mut start = 0;
    let mut offset = 0;
    let mut seen_marker = false;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        if bare == "---" {
            let before = &text[start..offset];
            if seen_marker {
                docs.push(before);
            } else if !before.trim().is_empty() {
                return None;
            }
            seen_marker = true;
            start = offset + line.len();
        } else if bare.starts_with("---") || bare.starts_with("...") || bare.starts_with('%') {
            return None;
        }
        offset += line.len();
    }
    docs.push(&text[start..]);
    Some(docs)
}

#[cfg(test)]
mod tests;
