use sha2::{Digest, Sha512};

use crate::{Backend, digest_many, digest_many_with};

/// The reference: `sha2`, one message at a time.
fn reference(input: &[u8]) -> [u8; 64] {
    Sha512::digest(input).into()
}

fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// Lengths on both sides of every padding boundary: the 0x80 byte and the
/// 16-byte length fit in the last block up to 111 bytes past a multiple of
/// 128, and need another block from 112.
const SIZE_CLASSES: [usize; 17] = [
    0, 1, 8, 63, 64, 111, 112, 113, 127, 128, 129, 239, 240, 255, 256, 257, 1000,
];

fn check(backend: Backend, inputs: &[Vec<u8>]) {
    let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let got = digest_many_with(backend, &refs);
    assert_eq!(got.len(), inputs.len());
    for (i, (input, hash)) in inputs.iter().zip(&got).enumerate() {
        assert!(
            *hash == reference(input),
            "{backend:?}: input {i} of {} ({} bytes)",
            inputs.len(),
            input.len()
        );
    }
}

#[test]
fn every_size_class_in_every_lane_count() {
    for backend in Backend::available() {
        for count in 0..=20 {
            for (c, &len) in SIZE_CLASSES.iter().enumerate() {
                let inputs: Vec<Vec<u8>> = (0..count)
                    .map(|i| bytes((c * 100 + i) as u64, len))
                    .collect();
                check(backend, &inputs);
            }
        }
    }
}

#[test]
fn mixed_sizes_in_every_lane_count() {
    for backend in Backend::available() {
        for count in 1..=40 {
            let inputs: Vec<Vec<u8>> = (0..count)
                .map(|i| {
                    let len = SIZE_CLASSES[(i * 7 + count) % SIZE_CLASSES.len()] + i * 131;
                    bytes((count * 1000 + i) as u64, len)
                })
                .collect();
            check(backend, &inputs);
        }
    }
}

#[test]
fn one_long_message_among_short_ones_finishes_alone() {
    for backend in Backend::available() {
        let mut inputs: Vec<Vec<u8>> = (0..30).map(|i| bytes(i, 300 + i as usize)).collect();
        inputs.insert(13, bytes(99, 1 << 20));
        inputs.push(bytes(98, 70_001));
        check(backend, &inputs);
    }
}

#[test]
fn random_buffers() {
    let mut state = 0x1234_5678_9abc_def1u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for backend in Backend::available() {
        for round in 0..30 {
            let count = (next() % 25) as usize;
            let inputs: Vec<Vec<u8>> = (0..count)
                .map(|i| bytes(round * 100 + i as u64, (next() % 5000) as usize))
                .collect();
            check(backend, &inputs);
        }
    }
}

#[test]
fn known_answers() {
    // FIPS 180-2 appendix C.
    let abc = "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
               2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f";
    let two_block = "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018\
                     501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909";
    let msg2: &[u8] = b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    let got = digest_many(&[b"abc", msg2, b"abc"]);
    let hex = |h: &[u8; 64]| h.iter().map(|b| format!("{b:02x}")).collect::<String>();
    assert_eq!(hex(&got[0]), abc);
    assert_eq!(hex(&got[1]), two_block);
    assert_eq!(hex(&got[2]), abc);
}

#[test]
fn hex_is_lowercase_two_digits_per_byte() {
    let mut hash = [0u8; 64];
    for (i, byte) in hash.iter_mut().enumerate() {
        *byte = (i * 37 + 5) as u8;
    }
    hash[0] = 0x00;
    hash[1] = 0xff;
    hash[2] = 0x0a;
    let expected: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(crate::to_hex(&hash), expected);
}
