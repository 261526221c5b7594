use std::io::{Read, Write};

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;

use super::WHOLE_MAX;

/// `inflate_whole` into a fresh buffer.
fn inflate_whole(tgz: &[u8], limit: u64) -> Option<Vec<u8>> {
    super::inflate_whole(tgz, limit, &mut Vec::new()).map(<[u8]>::to_vec)
}

const NO_LIMIT: u64 = u64::MAX;

/// Deterministic bytes: half noise, half repeats, so every size compresses
/// somewhat and blocks of all three DEFLATE kinds appear.
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        if state.is_multiple_of(3) && out.len() > 64 {
            let back = (state >> 8) as usize % 64 + 1;
            let start = out.len() - back;
            let run = ((state >> 20) as usize % 40).min(len - out.len());
            for i in 0..run {
                out.push(out[start + i % back]);
            }
        } else {
            out.push((state >> 32) as u8);
        }
    }
    out.truncate(len);
    out
}

fn gzip(data: &[u8], level: u32) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::new(level));
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

/// The reference: flate2's streaming decoder, first member only.
fn reference(tgz: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    GzDecoder::new(tgz).read_to_end(&mut out).ok()?;
    Some(out)
}

#[test]
fn agrees_with_the_streaming_decoder_on_every_size_class_and_level() {
    let sizes = [
        1,
        2,
        511,
        512,
        513,
        4096,
        65_535,
        65_536,
        65_537,
        300_001,
        2 << 20,
    ];
    for (i, &len) in sizes.iter().enumerate() {
        for level in [0, 1, 6, 9] {
            let data = bytes(i as u64 * 31 + u64::from(level), len);
            let tgz = gzip(&data, level);
            assert_eq!(reference(&tgz).as_deref(), Some(&data[..]));
            assert!(
                inflate_whole(&tgz, NO_LIMIT) == Some(data),
                "len {len} level {level}"
            );
        }
    }
}

#[test]
fn an_empty_member_goes_to_the_streaming_path() {
    // The streaming path reports an empty tarball as such.
    assert_eq!(inflate_whole(&gzip(b"", 6), NO_LIMIT), None);
}

#[test]
fn every_truncation_is_refused() {
    let data = bytes(7, 20_000);
    let tgz = gzip(&data, 6);
    for cut in 0..tgz.len() {
        assert_eq!(inflate_whole(&tgz[..cut], NO_LIMIT), None, "cut at {cut}");
    }
}

#[test]
fn corruption_anywhere_is_refused_or_matches_the_reference() {
    let data = bytes(11, 30_000);
    let tgz = gzip(&data, 6);
    for at in (0..tgz.len()).step_by(7) {
        let mut bad = tgz.clone();
        bad[at] ^= 0x5A;
        // Some header bytes (mtime, OS, XFL) are not checked by anyone; the
        // CRC catches everything else. Whatever is accepted must be what
        // the reference decoder reads.
        if let Some(out) = inflate_whole(&bad, NO_LIMIT) {
            assert_eq!(Some(out), reference(&bad), "flip at {at}");
            assert_eq!(reference(&bad).as_deref(), Some(&data[..]), "flip at {at}");
        }
    }
}

#[test]
fn a_wrong_crc_is_refused() {
    let mut tgz = gzip(&bytes(3, 5_000), 6);
    let crc_at = tgz.len() - 8;
    tgz[crc_at] ^= 1;
    assert_eq!(inflate_whole(&tgz, NO_LIMIT), None);
    assert_eq!(reference(&tgz), None);
}

#[test]
fn trailing_bytes_and_second_members_go_to_the_streaming_path() {
    let data = bytes(5, 10_000);
    let mut trailing = gzip(&data, 6);
    trailing.extend_from_slice(&[0u8; 1024]);
    assert!(inflate_whole(&trailing, NO_LIMIT).is_none());
    assert!(reference(&trailing) == Some(data.clone()));

    // A second member whose trailer happens to match the first one's: both
    // paths read the first member only.
    let mut two = gzip(&data, 6);
    two.extend(gzip(&data, 6));
    assert!(inflate_whole(&two, NO_LIMIT) == reference(&two));
    let mut other = gzip(&data, 6);
    other.extend(gzip(&data[..100], 6));
    assert!(inflate_whole(&other, NO_LIMIT).is_none());
    assert!(reference(&other) == Some(data));
}

#[test]
fn sizes_over_the_limit_or_the_whole_cap_are_streamed() {
    let data = bytes(9, 4096);
    let tgz = gzip(&data, 6);
    assert_eq!(inflate_whole(&tgz, 4095), None);
    assert_eq!(inflate_whole(&tgz, 4096), Some(data));

    let big = vec![0u8; WHOLE_MAX as usize + 1];
    assert_eq!(inflate_whole(&gzip(&big, 1), NO_LIMIT), None);
}

#[test]
fn a_trailer_claiming_an_impossible_ratio_is_not_trusted() {
    // 1 MiB of zeros compresses ~1000:1, within DEFLATE's bound; a trailer
    // rewritten to claim 32 MiB from the same few bytes is not.
    let mut tgz = gzip(&vec![0u8; 1 << 20], 9);
    assert!(inflate_whole(&tgz, NO_LIMIT).is_some());
    let len = tgz.len();
    tgz[len - 4..].copy_from_slice(&(32u32 << 20).to_le_bytes());
    assert!((tgz.len() as u64) * 1032 < 32 << 20);
    assert_eq!(inflate_whole(&tgz, NO_LIMIT), None);
}

#[test]
fn a_reused_buffer_never_shows_an_earlier_archive() {
    let mut buf = Vec::new();
    let big = bytes(21, 100_000);
    let small = bytes(22, 1_000);
    assert!(super::inflate_whole(&gzip(&big, 6), NO_LIMIT, &mut buf) == Some(&big[..]));
    assert!(super::inflate_whole(&gzip(&small, 6), NO_LIMIT, &mut buf) == Some(&small[..]));
    // A failed call leaves the next one unaffected.
    assert!(super::inflate_whole(&gzip(&big, 6)[..500], NO_LIMIT, &mut buf).is_none());
    assert!(super::inflate_whole(&gzip(&small, 6), NO_LIMIT, &mut buf) == Some(&small[..]));
}
