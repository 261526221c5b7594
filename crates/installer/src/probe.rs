//! Existence checks for many paths below one directory. A repeat install
//! asks whether each kept package's `package.json` is in place; resolving
//! every absolute path walks the whole root prefix again, so on Unix the
//! lookups start from a descriptor of the root instead.

use std::path::{Path, PathBuf};

/// Answers "does `<root>/<relative>` exist?" (following symlinks, as
/// [`Path::exists`]).
pub struct DirProbe {
    root: PathBuf,
    #[cfg(unix)]
    fd: Option<rustix::fd::OwnedFd>,
}

impl DirProbe {
    pub fn open(root: &Path) -> Self {
        DirProbe {
            root: root.to_path_buf(),
            #[cfg(unix)]
            fd: rustix::fs::open(
                root,
                rustix::fs::OFlags::PATH
                    | rustix::fs::OFlags::DIRECTORY
                    | rustix::fs::OFlags::CLOEXEC,
                rustix::fs::Mode::empty(),
            )
            .ok(),
        }
    }

    /// `relative` may also be absolute (a slot in the global virtual store).
    pub fn exists(&self, relative: &str) -> bool {
        #[cfg(unix)]
        if let Some(fd) = &self.fd {
            return rustix::fs::statat(fd, relative, rustix::fs::AtFlags::empty()).is_ok();
        }
        self.root.join(relative).exists()
    }
}

#[cfg(test)]
mod tests;
