//! Files read from an archive, hashed together, then written to the CAS.
//!
//! Hashing one file at a time leaves most of the vector unit idle on
//! npm-sized files; `pacquet-sha512` hashes 8 at once (AVX-512: 3.52 GiB/s
//! against 857 MiB/s one at a time on 2–10 KB files, `cargo bench -p
//! pacquet-sha512` on an AMD EPYC Zen 4). A batch is stored once it holds
//! [`FLUSH_BYTES`], so a huge package never sits in memory whole.

use pacquet_cas::Cas;
use pacquet_store_index::FileInfo;

use super::split::{self, FILE_WEIGHT, MIN_WRITE_PART};
use super::{ExtractErrors, Files};
use crate::TarballError;
use crate::integrity::TarballCheck;

/// Content held before a batch is stored.
const FLUSH_BYTES: usize = 4 << 20;

/// A file's bytes: a slice of the inflated archive, or read from a stream.
pub(super) enum Content<'t> {
    Borrowed(&'t [u8]),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Content<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Content::Borrowed(bytes) => bytes,
            Content::Owned(bytes) => bytes,
        }
    }
}

#[derive(Default)]
pub(super) struct FileBatch<'t> {
    /// `(path, mode, content)` in archive order.
    files: Vec<(String, u32, Content<'t>)>,
    bytes: usize,
}

impl<'t> FileBatch<'t> {
    pub(super) fn push(&mut self, path: String, mode: u32, content: Content<'t>) {
        // Borrowed contents cost no memory of their own.
        if let Content::Owned(bytes) = &content {
            self.bytes += bytes.len();
        }
        self.files.push((path, mode, content));
    }

    pub(super) fn is_full(&self) -> bool {
        self.bytes >= FLUSH_BYTES
    }

    /// Hashes and writes every file, in archive order, into `cas` and
    /// `files` (a later entry for the same path replaces an earlier one, as
    /// in pnpm); keeps the content of `package.json`. Leaves the batch empty.
    /// With `check`, the tarball is hashed in the same pass and nothing is
    /// written unless it matches. A large batch is written by several
    /// threads (`split`).
    pub(super) fn store(
        &mut self,
        cas: &Cas,
        files: &mut Files,
        package_json: &mut Option<Vec<u8>>,
        check: Option<(&[u8], &TarballCheck)>,
        errors: &ExtractErrors<'_>,
    ) -> Result<(), TarballError> {
        let mut inputs: Vec<&[u8]> = Vec::with_capacity(self.files.len() + 1);
        inputs.extend(check.map(|(tgz, _)| tgz));
        inputs.extend(self.contents());
        // Hashed in one pass, whatever its size: on a thread of its own the
        // `.tgz` would go one block at a time instead of riding in a lane
        // beside the files (splitting a large package's hashing in two cost
        // a cold alotta install ~0.07 CPU-s more in `sha2`).
        let digests = pacquet_sha512::digest_many(&inputs);
        drop(inputs);
        let own = match check {
            Some((_, check)) => {
                let (tgz, own) = digests.split_first().expect("one digest per input");
                check.matches(tgz)?;
                own
            }
            None => &digests[..],
        };
        let weights: Vec<u64> = self
            .contents()
            .map(|content| content.len() as u64 + FILE_WEIGHT)
            .collect();
        let parts = split::ranges(&weights, MIN_WRITE_PART);
        self.write(&parts, own, cas, files, package_json, errors)
    }

    /// The files' contents, in archive order: what [`FileBatch::write`]
    /// takes the digests of.
    pub(super) fn contents(&self) -> impl Iterator<Item = &[u8]> {
        self.files.iter().map(|(_, _, content)| &content[..])
    }

    pub(super) fn len(&self) -> usize {
        self.files.len()
    }

    /// Writes every file under its digest (`digests`, in archive order), as
    /// [`FileBatch::store`] does: the files of the first of `parts` on this
    /// thread, those of each other part on a helper (`split::run`). Group
    /// members pass one part: they are small (a first version that also
    /// split their writes, and large packages' hashing, used 0.1 CPU-s more
    /// on a cold alotta install, ~0.07 of it in `sha2`, and was no faster;
    /// 6 interleaved runs). Leaves the batch empty.
    pub(super) fn write(
        &mut self,
        parts: &[std::ops::Range<usize>],
        digests: &[pacquet_sha512::Hash],
        cas: &Cas,
        files: &mut Files,
        package_json: &mut Option<Vec<u8>>,
        errors: &ExtractErrors<'_>,
    ) -> Result<(), TarballError> {
        let batch = std::mem::take(&mut self.files);
        self.bytes = 0;
        assert_eq!(digests.len(), batch.len(), "one digest per file");
        // Each part stops at its first failure; the first failure in
        // archive order is the one reported, as when written in one go.
        let written = split::run(parts, |part| {
            batch[part.clone()]
                .iter()
                .zip(&digests[part])
                .map(|((_, mode, content), digest)| {
                    let executable = mode & 0o111 != 0;
                    cas.write_hashed(content, executable, pacquet_sha512::to_hex(digest))
                })
                .collect::<Result<Vec<_>, _>>()
        });
        let mut stored_files = Vec::with_capacity(batch.len());
        for part in written {
            stored_files.extend(part.map_err(|source| errors.store(source))?);
        }
        for ((path, mode, content), stored) in batch.into_iter().zip(stored_files) {
            let info = FileInfo {
                digest: stored.digest,
                mode,
                size: content.len() as u64,
                checked_at: Some(stored.checked_at),
            };
            if path == "package.json" {
                *package_json = Some(match content {
                    Content::Borrowed(bytes) => bytes.to_vec(),
                    Content::Owned(bytes) => bytes,
                });
            }
            files.insert(path, info);
        }
        Ok(())
    }
}
