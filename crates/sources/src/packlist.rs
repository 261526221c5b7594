//! The files `npm pack` would put in a package's tarball, which is what pnpm
//! imports for `file:` directories and prepared git packages: npm-packlist's
//! walk (docs/packlist.md), rules matched with `globset`.

mod level;
mod rule;

use std::path::Path;

use serde_json::Value;

use level::Level;

/// Relative, `/`-separated paths of the packed files of `dir`, sorted.
pub fn packlist(dir: &Path, manifest: Option<&Value>) -> std::io::Result<Vec<String>> {
    let (root, required) = Level::root(dir, manifest)?;
    let mut levels = vec![root];
    let mut out = Vec::new();
    walk(dir, "", &mut levels, &required, &mut out)?;
    out.sort();
    Ok(out)
}

/// Adds the included files under `dir` (`rel` from the package root);
/// `levels` holds the rules of `dir` and of every directory above it.
fn walk(
    dir: &Path,
    rel: &str,
    levels: &mut Vec<Level>,
    required: &[String],
    out: &mut Vec<String>,
) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // npm refuses names Windows cannot hold (docs/packlist.md §1).
        if name.contains('*') {
            continue;
        }
        let path = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        let kind = entry.file_type()?;
        if kind.is_file() {
            if level::included(levels, &name, false) {
                out.push(path);
            }
        } else if kind.is_dir() && level::included(levels, &name, true) {
            let child_required = level::required_below(required, &name);
            levels.push(Level::child(&entry.path(), &name, &child_required)?);
            let result = walk(&entry.path(), &path, levels, &child_required, out);
            levels.pop();
            result?;
        }
        // Symlinks and anything else are never packed.
    }
    Ok(())
}

#[cfg(test)]
mod tests;
