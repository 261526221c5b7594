//! Existence checks for many paths below one directory. A repeat install
//! asks whether each kept package's `package.json` is in place; resolving
//! every absolute path walks the whole root prefix again, so on Unix the
//! lookups start from a descriptor of the root instead, or of the virtual
//! store for paths inside it: `.pnpm/<slot>/node_modules/<name>` from
//! there is four components where the root has six, and the kernel's
//! name lookups (`__d_lookup_rcu`) were a third of the samples of the
//! thread probing alotta's ~1,350 package directories.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Answers "does `<root>/<relative>` exist?" (following symlinks, as
/// [`Path::exists`]).
pub struct DirProbe {
    root: PathBuf,
    #[cfg(unix)]
    fd: Option<rustix::fd::OwnedFd>,
    /// `inner` of [`DirProbe::open`] with a trailing `/`, and its
    /// descriptor when it could be opened.
    #[cfg(unix)]
    inner: Option<(String, rustix::fd::OwnedFd)>,
}

impl DirProbe {
    /// Probes below `root`; paths under `inner` (root-relative, e.g. the
    /// virtual store dir) are looked up from there.
    pub fn open(root: &Path, inner: &str) -> Self {
        #[cfg(unix)]
        let inner = (!inner.is_empty())
            .then(|| open_dir(&root.join(inner)))
            .flatten()
            .map(|fd| (format!("{}/", inner.trim_end_matches('/')), fd));
        #[cfg(not(unix))]
        let _ = inner;
        DirProbe {
            root: root.to_path_buf(),
            #[cfg(unix)]
            fd: open_dir(root),
            #[cfg(unix)]
            inner,
        }
    }

    /// `relative` may also be absolute (a slot in the global virtual store).
    pub fn exists(&self, relative: &str) -> bool {
        #[cfg(unix)]
        {
            let stat = |fd, path: &str| rustix::fs::statat(fd, path, rustix::fs::AtFlags::empty());
            if let Some((prefix, fd)) = &self.inner
                && let Some(rest) = relative.strip_prefix(prefix.as_str())
            {
                return stat(fd, rest).is_ok();
            }
            if let Some(fd) = &self.fd {
                return stat(fd, relative).is_ok();
            }
        }
        self.root.join(relative).exists()
    }

    /// Whether the package directory `dir` holds its `package.json`.
    pub fn has_manifest(&self, dir: &str) -> bool {
        self.exists(&format!("{dir}/package.json"))
    }
}

/// A descriptor for lookups below `dir` (not for reading it).
#[cfg(unix)]
fn open_dir(dir: &Path) -> Option<rustix::fd::OwnedFd> {
    use rustix::fs::{Mode, OFlags};
    rustix::fs::open(
        dir,
        OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .ok()
}

/// [`DirProbe::has_manifest`] asked ahead: the previous tree's package
/// directories are probed on the core that planning leaves idle, until the
/// plan is made ([`ProbeAhead::take`]); the install asks [`DirProbe`] only
/// for the rest. On alotta with five dependencies added, the ~1,350
/// probes were ~10 % of the install's CPU, all after planning.
#[derive(Default)]
pub struct ProbeAhead {
    taken: AtomicBool,
    found: Mutex<Probed>,
}

/// Package directories probed ahead, and whether each holds its
/// `package.json`.
pub type Probed = foldhash::HashMap<String, bool>;

impl ProbeAhead {
    /// Probes the package directories `dirs` in order until [`Self::take`]
    /// is called.
    pub fn probe<'d>(&self, probe: &DirProbe, dirs: impl IntoIterator<Item = &'d str>) {
        for dir in dirs {
            if self.taken.load(Ordering::Relaxed) {
                return;
            }
            let found = probe.has_manifest(dir);
            self.found
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(dir.to_owned(), found);
        }
    }

    /// Stops the probing and returns what it found so far.
    pub fn take(&self) -> Probed {
        self.taken.store(true, Ordering::Relaxed);
        std::mem::take(&mut *self.found.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

#[cfg(test)]
mod tests;
