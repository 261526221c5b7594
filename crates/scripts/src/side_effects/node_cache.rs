//! The `node --version` answer, cached per `node` binary (docs/store.md
//! §9.2): keyed by the binary's real path, size, modification time and
//! inode, and only for a real executable (not a shell-script or version
//! manager shim, whose answer depends on where it runs).

use std::{
    fs::Metadata,
    path::{Path, PathBuf},
};

pub(super) struct NodeBinary {
    fingerprint: String,
    cache: PathBuf,
}

impl NodeBinary {
    /// The `node` that `PATH` runs, when its answer can be cached.
    pub fn on_path() -> Option<NodeBinary> {
        let path = std::env::var_os("PATH")?;
        let found = std::env::split_paths(&path)
            .map(|dir| dir.join("node"))
            .find(|candidate| candidate.is_file())?;
        let real = found.canonicalize().ok()?;
        if real.file_name()? != "node" || !is_native_executable(&real) {
            return None;
        }
        let meta = std::fs::metadata(&real).ok()?;
        Some(NodeBinary {
            fingerprint: fingerprint(&real, &meta),
            cache: cache_dir()?.join("node-version"),
        })
    }

    pub fn cached_version(&self) -> Option<String> {
        let text = std::fs::read_to_string(&self.cache).ok()?;
        let (fingerprint, version) = text.trim_end().rsplit_once('\n')?;
        (fingerprint == self.fingerprint && !version.is_empty()).then(|| version.to_owned())
    }

    /// Best effort: a cache that cannot be written costs the next install
    /// one `node --version`.
    pub fn remember(&self, version: &str) {
        let Some(dir) = self.cache.parent() else {
            return;
        };
        let temp = dir.join(format!(".node-version.{}", std::process::id()));
        let written = std::fs::create_dir_all(dir)
            .and_then(|()| std::fs::write(&temp, format!("{}\n{version}\n", self.fingerprint)))
            .and_then(|()| std::fs::rename(&temp, &self.cache));
        if written.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
    }
}

/// Path, size, modification time (ns) and inode.
#[cfg(unix)]
fn fingerprint(real: &Path, meta: &Metadata) -> String {
    use std::os::unix::fs::MetadataExt;
    format!(
        "{}\t{}\t{}\t{}",
        real.display(),
        meta.len(),
        meta.mtime_nsec() + meta.mtime() * 1_000_000_000,
        meta.ino()
    )
}

/// Without inodes (Windows): path, size and modification time (ns).
#[cfg(not(unix))]
fn fingerprint(real: &Path, meta: &Metadata) -> String {
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("{}\t{}\t{}", real.display(), meta.len(), modified)
}

/// ELF or Mach-O, not a `#!` script (nor a Windows `.exe`, whose name is not
/// `node`).
fn is_native_executable(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 4];
    let read = std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut magic));
    read.is_ok()
        && (magic == *b"\x7fELF"
            || matches!(
                u32::from_le_bytes(magic),
                0xfeed_face | 0xfeed_facf | 0xcafe_babe | 0xbeba_feca
            ))
}

/// `$XDG_CACHE_HOME/pacquet`, else `~/.cache/pacquet`.
fn cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::home_dir().map(|home| home.join(".cache")))?;
    Some(base.join("pacquet"))
}

#[cfg(test)]
mod tests {
    use super::{NodeBinary, is_native_executable};

    #[test]
    fn remembers_per_fingerprint() {
        let dir = tempfile::tempdir().unwrap();
        let binary = |fingerprint: &str| NodeBinary {
            fingerprint: fingerprint.to_owned(),
            cache: dir.path().join("pacquet/node-version"),
        };
        assert_eq!(binary("a").cached_version(), None);
        binary("a").remember("20.20.2");
        assert_eq!(binary("a").cached_version().as_deref(), Some("20.20.2"));
        // Another binary (or the same path rebuilt) asks again.
        assert_eq!(binary("b").cached_version(), None);
    }

    #[test]
    fn scripts_are_not_native_executables() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("node");
        std::fs::write(&script, "#!/bin/sh\nexec real-node \"$@\"\n").unwrap();
        assert!(!is_native_executable(&script));
        let sh = std::path::Path::new("/bin/sh").canonicalize().unwrap();
        assert!(is_native_executable(&sh));
    }
}
