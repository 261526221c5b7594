//! Turning a tar entry path into a package-relative path, refusing any that
//! could land outside the package directory.

/// Strips the first component (`package/`, `node/`, whatever it is) of a
/// tar entry path and normalizes `.` and empty components away.
///
/// `Ok(None)` is the package root itself (e.g. the `package/` directory
/// entry). `Err` carries why the path is refused, phrased to follow the
/// entry name in a message.
pub(crate) fn strip_first_component(raw: &[u8]) -> Result<Option<String>, &'static str> {
    let path = std::str::from_utf8(raw).map_err(|_| "is not valid UTF-8")?;
    if path.starts_with('/') {
        return Err("is an absolute path");
    }
    let mut components = path.split('/').skip_while(|c| *c == ".");
    let Some(root) = components.next() else {
        return Ok(None);
    };
    if root == ".." {
        return Err("escapes the package directory");
    }
    let rest: Vec<&str> = components.collect();
    // `package//etc/passwd` strips to `/etc/passwd`.
    if rest.first() == Some(&"") && rest.iter().any(|c| !c.is_empty()) {
        return Err("is an absolute path");
    }
    if rest.contains(&"..") {
        return Err("escapes the package directory");
    }
    let kept: Vec<&str> = rest
        .into_iter()
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    if kept.is_empty() {
        Ok(None)
    } else {
        Ok(Some(kept.join("/")))
    }
}

#[cfg(test)]
mod tests;
