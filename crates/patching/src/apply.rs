//! Applying a patch file to a package directory (docs/patches.md §4–§6).

use std::{
    io,
    path::{Component, Path, PathBuf},
};

use crate::{
    PatchError,
    hunks::{apply_hunks, reversed},
    parse::{FilePatch, parse},
    write::{mode_of, replace},
};

/// Mode of a file a patch creates without saying which.
const DEFAULT_MODE: u32 = 0o644;

/// Applies every file change of `patch_file` to `package_dir`. A change
/// already made (the reversed hunks apply, the file to create is there with
/// the patched content, the file to delete is gone) is skipped, so applying
/// twice is applying once.
pub fn apply_patch(package_dir: &Path, patch_file: &Path) -> Result<(), PatchError> {
    let text = read_patch(patch_file)?;
    let files = parse(&text).map_err(|message| PatchError::Invalid {
        patch_file: patch_file.to_path_buf(),
        message,
    })?;
    let target = Target {
        package_dir,
        patch_file,
    };
    for file in &files {
        target.apply(file)?;
    }
    Ok(())
}

/// The patch file as UTF-8 text, invalid bytes replaced (as pnpm reads it).
pub(crate) fn read_patch(patch_file: &Path) -> Result<String, PatchError> {
    match std::fs::read(patch_file) {
        Ok(bytes) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Err(PatchError::NotFound {
            path: patch_file.to_path_buf(),
        }),
        Err(source) => Err(PatchError::Read {
            path: patch_file.to_path_buf(),
            source,
        }),
    }
}

struct Target<'a> {
    package_dir: &'a Path,
    patch_file: &'a Path,
}

impl Target<'_> {
    fn failed(&self, message: String) -> PatchError {
        PatchError::Failed {
            patch_file: self.patch_file.to_path_buf(),
            package_dir: self.package_dir.to_path_buf(),
            message,
        }
    }

    /// `rel` inside the package directory; a patch is untrusted input, so
    /// absolute paths and `..` are refused.
    fn path(&self, rel: Option<&str>) -> Result<PathBuf, PatchError> {
        let rel = rel.ok_or_else(|| self.failed("a file change names no file".to_owned()))?;
        let escapes = Path::new(rel)
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir));
        if rel.is_empty() || escapes {
            return Err(self.failed(format!("patch path escapes target dir: {rel}")));
        }
        Ok(self.package_dir.join(rel))
    }

    fn apply(&self, file: &FilePatch) -> Result<(), PatchError> {
        if file.binary {
            return Err(self.failed("binary patch is not supported".to_owned()));
        }
        if file.copied {
            return Err(self.failed("copy operations in patches are not supported".to_owned()));
        }
        if file.created {
            self.create(file)
        } else if file.deleted {
            self.delete(file)
        } else if file.renamed {
            self.rename(file)
        } else {
            self.modify(file)
        }
    }

    fn io(&self, what: &str, path: &Path) -> impl Fn(io::Error) -> PatchError + '_ {
        let text = format!("{what} {}", path.display());
        move |err| self.failed(format!("{text}: {err}"))
    }

    /// `text` with `file`'s hunks applied, or `None` when they are already
    /// in (only the reversed hunks apply).
    fn patched(
        &self,
        file: &FilePatch,
        path: &Path,
        text: &str,
    ) -> Result<Option<String>, PatchError> {
        match apply_hunks(text, &file.hunks) {
            Ok(patched) => Ok(Some(patched)),
            Err(_) if apply_hunks(text, &reversed(&file.hunks)).is_ok() => Ok(None),
            Err(n) => Err(self.failed(format!(
                "apply to {}: error applying hunk #{n}",
                path.display()
            ))),
        }
    }

    fn create(&self, file: &FilePatch) -> Result<(), PatchError> {
        let path = self.path(file.new_path.as_deref())?;
        let content = apply_hunks("", &file.hunks).map_err(|n| {
            self.failed(format!(
                "create {}: error applying hunk #{n}",
                path.display()
            ))
        })?;
        if path.exists() {
            let existing = std::fs::read(&path).map_err(self.io("read", &path))?;
            if String::from_utf8_lossy(&existing) == content {
                return Ok(());
            }
            return Err(self.failed(format!(
                "cannot create {}: target already exists",
                path.display()
            )));
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(self.io("create the parent of", &path))?;
        }
        let mode = file.new_mode.map_or(DEFAULT_MODE, |m| m & 0o7777);
        replace(&path, content.as_bytes(), mode).map_err(self.io("write", &path))
    }

    fn delete(&self, file: &FilePatch) -> Result<(), PatchError> {
        let path = self.path(file.old_path.as_deref())?;
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(err) => return Err(self.io("read", &path)(err)),
        };
        // pnpm patch-commit writes deletions without hunks; with hunks they
        // must match the whole file.
        if !file.hunks.is_empty() {
            let left = apply_hunks(&String::from_utf8_lossy(&bytes), &file.hunks).map_err(|n| {
                self.failed(format!(
                    "apply to {}: error applying hunk #{n}",
                    path.display()
                ))
            })?;
            if !left.is_empty() {
                return Err(self.failed(format!(
                    "delete {}: the file has more than the patch removes",
                    path.display()
                )));
            }
        }
        std::fs::remove_file(&path).map_err(self.io("delete", &path))
    }

    fn rename(&self, file: &FilePatch) -> Result<(), PatchError> {
        let from = self.path(file.old_path.as_deref())?;
        let to = self.path(file.new_path.as_deref())?;
        if !from.exists() && to.exists() {
            return Ok(());
        }
        let bytes = std::fs::read(&from).map_err(self.io("read", &from))?;
        let mode = mode_of(&from).map_err(self.io("stat", &from))?;
        let mode = file.new_mode.map_or(mode, |m| m & 0o7777);
        let text = String::from_utf8_lossy(&bytes);
        let content = match self.patched(file, &from, &text)? {
            Some(patched) => patched.into_bytes(),
            None => bytes,
        };
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(self.io("create the parent of", &to))?;
        }
        replace(&to, &content, mode).map_err(self.io("write", &to))?;
        std::fs::remove_file(&from).map_err(self.io("delete", &from))
    }

    fn modify(&self, file: &FilePatch) -> Result<(), PatchError> {
        let path = self.path(file.new_path.as_deref().or(file.old_path.as_deref()))?;
        let bytes = std::fs::read(&path).map_err(self.io("read", &path))?;
        let mode = mode_of(&path).map_err(self.io("stat", &path))?;
        let new_mode = file.new_mode.map_or(mode, |m| m & 0o7777);
        let patched = if file.hunks.is_empty() {
            None
        } else {
            self.patched(file, &path, &String::from_utf8_lossy(&bytes))?
        };
        if patched.is_none() && new_mode == mode {
            return Ok(());
        }
        let content = patched.map_or(bytes, String::into_bytes);
        replace(&path, &content, new_mode).map_err(self.io("write", &path))
    }
}

/// Unix link counts and modes.
#[cfg(all(test, unix))]
mod tests;
