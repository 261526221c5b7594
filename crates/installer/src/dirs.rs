//! Creating the plan's directories: one `mkdir` each, level by level so a
//! parent always exists before its children are created in parallel.

use std::{io::ErrorKind, path::Path};

use rayon::prelude::*;

use super::InstallError;

/// Creates `dirs` (relative to `root`); existing ones are fine.
pub fn create_dirs<'a>(
    root: &Path,
    dirs: impl IntoIterator<Item = &'a String>,
) -> Result<(), InstallError> {
    let mut levels: Vec<Vec<&str>> = Vec::new();
    for dir in dirs {
        let depth = dir.matches('/').count();
        if levels.len() <= depth {
            levels.resize_with(depth + 1, Vec::new);
        }
        levels[depth].push(dir);
    }
    for level in levels {
        level.par_iter().try_for_each(|dir| {
            let path = root.join(dir);
            match std::fs::create_dir(&path) {
                Err(e) if e.kind() == ErrorKind::AlreadyExists => Ok(()),
                Err(e) if e.kind() == ErrorKind::NotFound => {
                    std::fs::create_dir_all(&path).map_err(InstallError::write(&path))
                }
                other => other.map_err(InstallError::write(&path)),
            }
        })?;
    }
    Ok(())
}
