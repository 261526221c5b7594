//! SHA-512 of many buffers at once.
//!
//! A cold install hashes every file of every package (the blob names of
//! docs/store.md §3). npm files are small, so one SHA-512 at a time leaves
//! most of a vector unit idle: this crate runs 8 messages through the AVX-512
//! registers (or 4 through AVX2) side by side, one 64-bit lane each, and
//! refills a lane as soon as its message is done. `cargo bench -p
//! pacquet-sha512` on 2–10 KB files (AMD EPYC, Zen 4): sha2 one at a time
//! 857 MiB/s, 4 AVX2 lanes 1.18 GiB/s, 8 AVX-512 lanes 3.52 GiB/s. Without
//! either, it falls back to `sha2`.

mod avx2;
mod avx512;
mod block;
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
mod lanes;

#[cfg(test)]
mod tests;

use sha2::{Digest, Sha512};

/// A SHA-512 digest.
pub type Hash = [u8; 64];

/// How the digests are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// 8 messages at a time in AVX-512 registers (AVX-512F and BW).
    Avx512,
    /// 4 messages at a time in AVX2 registers.
    Avx2,
    /// One message at a time (`sha2`).
    Scalar,
}

impl Backend {
    /// The fastest backend this CPU runs.
    pub fn detect() -> Backend {
        Backend::available()[0]
    }

    /// Every backend this CPU runs, fastest first.
    pub fn available() -> Vec<Backend> {
        let mut backends = Vec::with_capacity(3);
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
            {
                backends.push(Backend::Avx512);
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                backends.push(Backend::Avx2);
            }
        }
        backends.push(Backend::Scalar);
        backends
    }
}

/// Lowercase hex of `hash`, the name the store gives a blob. `hex::encode`
/// builds it a character at a time: 0.3 % of a cold alotta install's CPU
/// (`perf record`), one digest per file.
pub fn to_hex(hash: &Hash) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut hex = Vec::with_capacity(2 * hash.len());
    for &byte in hash {
        hex.push(DIGITS[usize::from(byte >> 4)]);
        hex.push(DIGITS[usize::from(byte & 0xf)]);
    }
    String::from_utf8(hex).expect("hex digits are ASCII")
}

/// SHA-512 of one buffer.
pub fn digest(input: &[u8]) -> Hash {
    Sha512::digest(input).into()
}

/// SHA-512 of each of `inputs`, in order, with the fastest backend.
pub fn digest_many(inputs: &[&[u8]]) -> Vec<Hash> {
    digest_many_with(cached_backend(), inputs)
}

/// SHA-512 of each of `inputs`, in order, with `backend`, which must be one
/// of [`Backend::available`].
pub fn digest_many_with(backend: Backend, inputs: &[&[u8]]) -> Vec<Hash> {
    // One message gains nothing from lanes.
    if inputs.len() < 2 {
        return inputs.iter().map(|input| digest(input)).collect();
    }
    match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => {
            assert!(
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
            );
            lanes::digest_lanes::<8, avx512::Avx512>(inputs)
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => {
            assert!(std::arch::is_x86_feature_detected!("avx2"));
            lanes::digest_lanes::<4, avx2::Avx2>(inputs)
        }
        _ => inputs.iter().map(|input| digest(input)).collect(),
    }
}

fn cached_backend() -> Backend {
    static BACKEND: std::sync::OnceLock<Backend> = std::sync::OnceLock::new();
    *BACKEND.get_or_init(Backend::detect)
}
