//! A kept document's index as resolution parsed it, in bytes: what
//! [`Packument::from_kept`] makes of a mirror file without its versions'
//! manifests (name, dist-tags, each version parsed and where its manifest
//! is, where `time` is, `modified`). It names the file's first line,
//! headers and index by their 128-bit XXH3 and answers only for a file
//! whose bytes there are the same: those bytes alone decide every field
//! here (docs/registry-metadata.md §7).
//!
//! Layout (little-endian): the digest (16 bytes), the least file length,
//! flags, `time`'s range, `modified`, the name, the dist-tags, then each
//! version in 22 bytes and its text: major, minor, patch, where its
//! manifest starts and its length (`u32` each), and its text's length
//! (`u16`; empty for `major.minor.patch` with numbers that fit, the form
//! most versions have). alotta's 52,740 versions take 1.3 MB.

use std::ops::Range;
use std::sync::OnceLock;

use nodejs_semver::Version;
use pacquet_registry_metadata::mirror::{self, FileBytes};
use xxhash_rust::xxh3::xxh3_128;

use super::{Packument, Text};

/// The digest of what decides a kept file's index: its bytes up to its
/// versions' manifests. `None` for a file without an index.
pub(crate) fn head_digest(file: &[u8]) -> Option<[u8; 16]> {
    let end = mirror::index_end(file)?;
    Some(xxh3_128(&file[..end]).to_le_bytes())
}

const HAS_TIME: u8 = 1;
const HAS_MODIFIED: u8 = 2;

/// Appends the entry of `packument` to `out`, naming the kept file it was
/// read from by its [`head_digest`]. `None` (nothing appended) for a
/// packument that is not a kept file's.
pub(crate) fn encode(packument: &Packument, out: &mut Vec<u8>) -> Option<()> {
    let before = out.len();
    let encoded = encode_to(packument, out);
    if encoded.is_none() {
        out.truncate(before);
    }
    encoded
}

fn encode_to(packument: &Packument, out: &mut Vec<u8>) -> Option<()> {
    let Text::Kept(file) = &packument.body else {
        return None;
    };
    let digest = head_digest(file)?;
    out.reserve(256 + packument.versions.len() * 24);
    let least_len = packument
        .versions
        .iter()
        .map(|(_, at)| at.end)
        .chain(packument.time_at.as_ref().map(|at| at.end))
        .max()
        .unwrap_or(0);
    debug_assert!(least_len <= file.len());
    out.extend_from_slice(&digest);
    put_u64(out, least_len as u64);
    let time = packument.time_at.clone().unwrap_or(0..0);
    let flags = if packument.time_at.is_some() {
        HAS_TIME
    } else {
        0
    } | if packument.modified_ms.is_some() {
        HAS_MODIFIED
    } else {
        0
    };
    out.push(flags);
    put_u64(out, time.start as u64);
    put_u64(out, time.end as u64);
    out.extend_from_slice(&packument.modified_ms.unwrap_or(0).to_le_bytes());
    put_str(out, &packument.name);
    put_u32(out, packument.dist_tags.len() as u32);
    for (tag, version) in &packument.dist_tags {
        put_str(out, tag);
        put_str(out, version);
    }
    put_u32(out, packument.versions.len() as u32);
    for (version, at) in &packument.versions {
        let numbers = [version.major(), version.minor(), version.patch()].map(u32::try_from);
        for n in &numbers {
            put_u32(out, *n.as_ref().unwrap_or(&0));
        }
        // Manifests past 4 GiB do not fit: such a file gets no entry.
        put_u32(out, u32::try_from(at.start).ok()?);
        put_u32(out, u32::try_from(at.end - at.start).ok()?);
        let plain = version.pre_release().is_empty()
            && version.build().is_empty()
            && numbers.iter().all(Result::is_ok);
        let text = if plain {
            String::new()
        } else {
            version.to_string()
        };
        out.extend_from_slice(&u16::try_from(text.len()).ok()?.to_le_bytes());
        out.extend_from_slice(text.as_bytes());
    }
    Some(())
}

/// The packument `entry` holds for `file`; `file` back when the entry is
/// not `file`'s (another digest, a shorter file) or is damaged.
pub(crate) fn decode(entry: &[u8], file: FileBytes) -> Result<Packument, FileBytes> {
    match decode_parts(entry, &file) {
        Some(parts) => Ok(parts.into_packument(file)),
        None => Err(file),
    }
}

struct Parts {
    name: String,
    dist_tags: std::collections::HashMap<String, String>,
    versions: Vec<(Version, Range<usize>)>,
    time_at: Option<Range<usize>>,
    modified_ms: Option<i64>,
}

impl Parts {
    fn into_packument(self, file: FileBytes) -> Packument {
        Packument {
            name: self.name,
            dist_tags: self.dist_tags,
            versions: self.versions,
            time_at: self.time_at,
            time_flat: OnceLock::new(),
            times: OnceLock::new(),
            modified_ms: self.modified_ms,
            body: Text::Kept(file),
        }
    }
}

fn decode_parts(entry: &[u8], file: &[u8]) -> Option<Parts> {
    let mut r = Reader(entry);
    let digest = r.take(16)?;
    let least_len = usize::try_from(r.u64()?).ok()?;
    if least_len > file.len() || digest != head_digest(file)? {
        return None;
    }
    let flags = r.take(1)?[0];
    let time = r.range()?;
    let modified = i64::from_le_bytes(r.take(8)?.try_into().ok()?);
    let name = r.str()?.to_owned();
    let tags = r.u32()? as usize;
    let mut dist_tags = std::collections::HashMap::with_capacity(tags.min(1024));
    for _ in 0..tags {
        let tag = r.str()?.to_owned();
        dist_tags.insert(tag, r.str()?.to_owned());
    }
    let count = r.u32()? as usize;
    // Each version takes at least 22 bytes: a count beyond the entry is damage.
    if count > r.0.len() / 22 {
        return None;
    }
    let mut versions = Vec::with_capacity(count);
    for _ in 0..count {
        let [major, minor, patch, start, len] = [(); 5].map(|()| r.u32());
        let start = start? as usize;
        let at = start..start + len? as usize;
        let text_len = u16::from_le_bytes(r.take(2)?.try_into().ok()?);
        let text = std::str::from_utf8(r.take(usize::from(text_len))?).ok()?;
        let version = if text.is_empty() {
            let [major, minor, patch] = [major?, minor?, patch?].map(u64::from);
            Version::new(major, minor, patch, Vec::new(), Vec::new())
        } else {
            Version::parse(text).ok()?
        };
        if at.end > least_len {
            return None;
        }
        versions.push((version, at));
    }
    let time_at = (flags & HAS_TIME != 0).then_some(time);
    if time_at.as_ref().is_some_and(|at| at.end > least_len) {
        return None;
    }
    Some(Parts {
        name,
        dist_tags,
        versions,
        time_at,
        modified_ms: (flags & HAS_MODIFIED != 0).then_some(modified),
    })
}

fn put_u32(out: &mut Vec<u8>, n: u32) {
    out.extend_from_slice(&n.to_le_bytes());
}

fn put_u64(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(&n.to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, text: &str) {
    put_u32(out, text.len() as u32);
    out.extend_from_slice(text.as_bytes());
}

/// Reads the layout above, every read bounds-checked.
pub(crate) struct Reader<'b>(pub(crate) &'b [u8]);

impl<'b> Reader<'b> {
    pub(crate) fn take(&mut self, n: usize) -> Option<&'b [u8]> {
        let (head, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(head)
    }

    pub(crate) fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn range(&mut self) -> Option<Range<usize>> {
        let start = usize::try_from(self.u64()?).ok()?;
        let end = usize::try_from(self.u64()?).ok()?;
        (start <= end).then_some(start..end)
    }

    pub(crate) fn str(&mut self) -> Option<&'b str> {
        let len = self.u32()? as usize;
        std::str::from_utf8(self.take(len)?).ok()
    }
}

#[cfg(test)]
mod tests;
