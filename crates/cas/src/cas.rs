//! The CAS handle: where blobs live and how they are named.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// The `files/` directory of one store.
#[derive(Debug)]
pub struct Cas {
    files_dir: PathBuf,
    /// Set once all 256 shard dirs exist, so writes skip the `mkdir`s.
    shards_ready: AtomicBool,
    /// Held by the one thread creating the shard dirs.
    creating_shards: Mutex<()>,
    #[cfg(unix)]
    pub(crate) shard_fds: crate::at::ShardFds,
    pub(crate) known: crate::known::Known,
}

/// A blob that is now in the store.
#[derive(Debug, Clone, PartialEq)]
pub struct CasFile {
    /// Lowercase hex SHA-512 of the content.
    pub digest: String,
    pub path: PathBuf,
    pub size: u64,
    /// Wall-clock ms when the blob was written or found identical.
    pub checked_at: f64,
}

impl Cas {
    /// `store_dir` already ends in `/v11`.
    pub fn new(store_dir: &Path) -> Cas {
        Cas {
            files_dir: store_dir.join("files"),
            shards_ready: AtomicBool::new(false),
            creating_shards: Mutex::new(()),
            #[cfg(unix)]
            shard_fds: crate::at::ShardFds::new(),
            known: crate::known::Known::default(),
        }
    }

    pub fn files_dir(&self) -> &Path {
        &self.files_dir
    }

    /// `files/<hex[0..2]>/<hex[2..]>[-exec]`.
    pub fn file_path(&self, digest_hex: &str, executable: bool) -> PathBuf {
        let (shard, rest) = digest_hex.split_at(2.min(digest_hex.len()));
        let mut name = String::with_capacity(rest.len() + 5);
        name.push_str(rest);
        if executable {
            name.push_str("-exec");
        }
        self.files_dir.join(shard).join(name)
    }

    /// Makes the store ready for [`Cas::write`]: the shard dirs exist and
    /// their descriptors are open. A cold install calls it while its first
    /// downloads are in flight, so no extraction waits on it; writes call it
    /// anyway (cheap once done) and report its error.
    pub fn prepare_for_writes(&self) -> Result<(), crate::CasError> {
        self.ensure_shards()?;
        self.open_shards();
        Ok(())
    }

    /// Creates `files/00` … `files/ff` once per handle (pnpm 12 does the same
    /// on first use), tolerating dirs made by other processes. One thread
    /// creates them while the others wait: every extraction thread making
    /// all 256 at once cost a cold alotta install 931 failed `mkdir`s and
    /// 117 ms of threads blocked on the `files/` directory's lock
    /// (`perf sched`, after dropped caches).
    pub(crate) fn ensure_shards(&self) -> Result<(), crate::CasError> {
        if self.shards_ready.load(Ordering::Acquire) {
            return Ok(());
        }
        let _creating = self
            .creating_shards
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if self.shards_ready.load(Ordering::Acquire) {
            return Ok(());
        }
        for byte in 0..=255u8 {
            let dir = self.files_dir.join(format!("{byte:02x}"));
            std::fs::create_dir_all(&dir)
                .map_err(|source| crate::CasError::CreateDir { path: dir, source })?;
        }
        self.shards_ready.store(true, Ordering::Release);
        Ok(())
    }
}
