//! Gunzipping a whole tarball in one call.
//!
//! npm tarballs are small and arrive whole, so the common case inflates the
//! buffer in one libdeflate call into an output sized from the gzip
//! trailer: 1,040 MB/s of CPU time here against 450 MB/s for flate2
//! streaming in 8 KiB reads (docs/store.md §7.2). Anything unusual (a size
//! the trailer cannot vouch for, trailing bytes, several gzip members, a
//! corrupt stream) goes to the streaming path, which decides what it is.

use libdeflater::Decompressor;

/// Largest output inflated in one call. Above it the streaming path keeps
/// memory bounded by one entry instead of the whole archive. The largest
/// package of the alotta fixture unpacks to 47 MiB (highcharts); at 32 MiB
/// its two versions, a quarter of all unpacked bytes, went to the slower
/// streaming path.
pub(crate) const WHOLE_MAX: u64 = 64 << 20;

/// DEFLATE cannot expand input more than 1032:1, so a trailer claiming more
/// is lying (or is not the trailer: trailing bytes follow the member).
const MAX_RATIO: u64 = 1032;

/// Smallest gzip member: 10-byte header, 2-byte empty block, 8-byte trailer.
const MIN_GZIP: usize = 18;

/// The uncompressed bytes of `tgz`, inflated into `out` (kept between
/// calls by the caller: its pages are already mapped, where a fresh buffer
/// per tarball cost a page fault and a zeroed page per 4 KiB), or `None`
/// when the one-call path does not apply and the caller must stream.
/// `limit` caps the output size.
pub(crate) fn inflate_whole<'o>(tgz: &[u8], limit: u64, out: &'o mut Vec<u8>) -> Option<&'o [u8]> {
    let len = whole_size(tgz, limit)?;
    let out = crate::buffers::sized(out, len);
    inflate_exact(tgz, out).then_some(&*out)
}

/// Inflates `tgz` into `out`, whose length is its [`whole_size`]; `false`
/// when the archive is not one gzip member of exactly that size.
pub(crate) fn inflate_exact(tgz: &[u8], out: &mut [u8]) -> bool {
    // libdeflate checks the CRC32 and that the output is exactly ISIZE
    // bytes; bytes after the first member are ignored here, as by the
    // streaming decoder, but then the trailer read by `whole_size` was not
    // this member's and the sizes disagree.
    Decompressor::new()
        .gzip_decompress(tgz, out)
        .is_ok_and(|written| written == out.len())
}

/// The size [`inflate_whole`] inflates `tgz` into, or `None` when it
/// leaves `tgz` to the streaming path.
pub(crate) fn whole_size(tgz: &[u8], limit: u64) -> Option<usize> {
    let claimed = trailer_size(tgz)?;
    if claimed == 0 || claimed > WHOLE_MAX.min(limit) || claimed > tgz.len() as u64 * MAX_RATIO {
        return None;
    }
    usize::try_from(claimed).ok()
}

/// ISIZE, the last four bytes of a gzip member: the input size mod 2³².
fn trailer_size(tgz: &[u8]) -> Option<u64> {
    if tgz.len() < MIN_GZIP {
        return None;
    }
    let tail: [u8; 4] = tgz[tgz.len() - 4..].try_into().ok()?;
    Some(u64::from(u32::from_le_bytes(tail)))
}

#[cfg(test)]
mod tests;
