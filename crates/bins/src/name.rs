//! Which command names may appear in a `.bin` directory.

/// A command name pnpm 12 accepts (docs/layout.md §5): non-empty, not `.` or
/// `..`, only `[A-Za-z0-9-_.!~*'()]`, or exactly `$`. Anything else (`/`,
/// spaces, non-ASCII) is skipped, so a name can never leave the `.bin`
/// directory.
pub fn is_valid_bin_name(name: &str) -> bool {
    if name == "$" {
        return true;
    }
    if name.is_empty() || name == "." || name == ".." {
        return false;
    }
    name.bytes().all(|b| {
        b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'_' | b'.' | b'!' | b'~' | b'*' | b'\'' | b'(' | b')'
            )
    })
}

#[cfg(test)]
mod tests;
