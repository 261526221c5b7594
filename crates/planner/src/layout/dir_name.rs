//! `.pnpm` directory names for snapshot keys (pnpm 12.21's `depPathToFilename`).

use sha2::{Digest, Sha256};

/// The default `virtualStoreDirMaxLength` on POSIX systems.
pub const DEFAULT_VIRTUAL_STORE_DIR_MAX_LENGTH: usize = 120;

/// Turns a snapshot key into the directory name of its slot under `.pnpm`.
pub fn dep_path_to_filename(key: &str, max_len: usize) -> String {
    let escaped = escape(key);
    let ambiguous = is_ambiguous_url(key);
    let trimmed = escaped.trim_end_matches(['.', ' ']).len();
    // Most keys need neither suffix: their name is the escaped key, unless
    // it is cut below.
    let suffixed = if ambiguous {
        Some(format!("{escaped}_{}", short_hash(key)))
    } else if trimmed < escaped.len() {
        let dots = escaped.len() - trimmed;
        let mut result = escaped[..trimmed].to_owned();
        result.extend(std::iter::repeat_n('+', dots));
        result.push('_');
        result.push_str(&short_hash(&escaped));
        Some(result)
    } else {
        None
    };
    let name = suffixed.as_deref().unwrap_or(&escaped);
    // pnpm 12.21 keeps uppercase in names that already carry the step-4
    // hash (seen with a git key whose repository path has capitals).
    let has_upper = !ambiguous && escaped.bytes().any(|b| b.is_ascii_uppercase());
    if name.len() > max_len || (has_upper && !escaped.starts_with("file+")) {
        let mut cut = max_len.saturating_sub(33).min(escaped.len());
        while !escaped.is_char_boundary(cut) {
            cut -= 1;
        }
        // A name that needed the step-4 hash keeps hashing the raw key
        // (pnpm 12.21, seen with a git key carrying `&path:`).
        let hashed = if ambiguous { key } else { escaped.as_str() };
        return format!("{}_{}", &escaped[..cut], short_hash(hashed));
    }
    suffixed.unwrap_or(escaped)
}

/// Steps 1–3: scheme prefix, forbidden characters, peer parentheses.
fn escape(key: &str) -> String {
    let key: std::borrow::Cow<str> = match key.strip_prefix("file:") {
        Some(rest) => format!("file+{rest}").into(),
        None => key.strip_prefix('/').unwrap_or(key).into(),
    };
    let mut out: String = key
        .chars()
        .map(|c| match c {
            '\\' | '/' | ':' | '*' | '?' | '"' | '<' | '>' | '|' | '#' => '+',
            c => c,
        })
        .collect();
    if out.contains('(') {
        if out.ends_with(')') {
            out.pop();
        }
        let mut replaced = String::with_capacity(out.len());
        let mut chars = out.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                ')' if chars.peek() == Some(&'(') => {
                    chars.next();
                    replaced.push('_');
                }
                '(' | ')' => replaced.push('_'),
                c => replaced.push(c),
            }
        }
        out = replaced;
    }
    out
}

/// Step 4: a URL, `file:` or git version whose body holds characters that
/// escaping would merge with `/` (`+ # : ?`).
fn is_ambiguous_url(key: &str) -> bool {
    let Some(at) = key.get(1..).and_then(|k| k.find('@')).map(|i| i + 1) else {
        return false;
    };
    let version = &key[at + 1..];
    let body = if let Some(i) = version.find("://") {
        &version[i + 3..]
    } else if let Some(rest) = version.strip_prefix("file:") {
        rest
    } else {
        return false;
    };
    body.contains(['+', '#', ':', '?'])
}

/// First 32 hex digits of the SHA-256 of `s`.
pub(crate) fn short_hash(s: &str) -> String {
    let digest = Sha256::digest(s.as_bytes());
    let mut hex = hex::encode(digest);
    hex.truncate(32);
    hex
}

#[cfg(test)]
mod tests;
