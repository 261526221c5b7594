//! A gzip writer whose output depends on nothing but the input bytes.
//!
//! Fixture tarballs are committed to lockfiles by their sha512, so their bytes
//! must not change when a compression library changes its block splitting or
//! match finder. The deflate stream therefore uses stored (uncompressed)
//! blocks only; any inflater reads it.

/// Largest payload of one stored deflate block.
const MAX_STORED: usize = 0xFFFF;

/// gzip member of `data`: fixed header (no name, mtime 0, OS 255), stored
/// blocks, CRC-32 and size trailer.
pub fn gzip_stored(data: &[u8]) -> Vec<u8> {
    let blocks = data.len() / MAX_STORED + 1;
    let mut out = Vec::with_capacity(data.len() + blocks * 5 + 18);
    out.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
    let mut chunks: Vec<&[u8]> = data.chunks(MAX_STORED).collect();
    if chunks.is_empty() {
        chunks.push(&[]);
    }
    let last = chunks.len() - 1;
    for (i, chunk) in chunks.iter().enumerate() {
        out.push(u8::from(i == last));
        let len = chunk.len() as u16;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(chunk);
    }
    let mut crc = flate2::Crc::new();
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::gzip_stored;
    use std::io::Read;

    fn gunzip(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut out)
            .expect("valid gzip");
        out
    }

    #[test]
    fn round_trips_empty_small_and_multi_block() {
        for len in [0usize, 1, 1000, 0xFFFF, 0xFFFF + 1, 200_000] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
            assert_eq!(gunzip(&gzip_stored(&data)), data, "len {len}");
        }
    }
}
