//! 4 lanes in AVX2 registers. AVX2 has no 64-bit rotate: two shifts and
//! an OR.

#[cfg(target_arch = "x86_64")]
mod imp {
    use std::arch::x86_64::*;

    use crate::block::K;
    use crate::lanes::Engine;

    pub(crate) struct Avx2;

    impl Engine<4> for Avx2 {
        #[target_feature(enable = "avx2")]
        unsafe fn compress(state: &mut [[u64; 4]; 8], blocks: &[*const u8; 4]) {
            // SAFETY: the arrays are 32 bytes each (unaligned loads and
            // stores); each lane's block is read within the 128 bytes the
            // caller vouches for.
            unsafe {
                let load = |p: &[u64; 4]| _mm256_loadu_si256(p.as_ptr().cast());
                let mut s: [__m256i; 8] = std::array::from_fn(|i| load(&state[i]));
                // Each 64-bit word's bytes reversed: big-endian to native.
                let reverse = _mm256_broadcastsi128_si256(_mm_set_epi8(
                    8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
                ));
                let mut m = [_mm256_setzero_si256(); 16];
                for group in 0..4 {
                    // Row `lane`: words 4 × `group` … + 3 of its block.
                    let r: [__m256i; 4] = std::array::from_fn(|lane| {
                        let row = _mm256_loadu_si256(blocks[lane].add(32 * group).cast());
                        _mm256_shuffle_epi8(row, reverse)
                    });
                    let lo01 = _mm256_unpacklo_epi64(r[0], r[1]);
                    let hi01 = _mm256_unpackhi_epi64(r[0], r[1]);
                    let lo23 = _mm256_unpacklo_epi64(r[2], r[3]);
                    let hi23 = _mm256_unpackhi_epi64(r[2], r[3]);
                    m[4 * group] = _mm256_permute2x128_si256::<0x20>(lo01, lo23);
                    m[4 * group + 1] = _mm256_permute2x128_si256::<0x20>(hi01, hi23);
                    m[4 * group + 2] = _mm256_permute2x128_si256::<0x31>(lo01, lo23);
                    m[4 * group + 3] = _mm256_permute2x128_si256::<0x31>(hi01, hi23);
                }
                rounds(&mut s, &mut m);
                for (i, v) in s.into_iter().enumerate() {
                    let sum = _mm256_add_epi64(v, load(&state[i]));
                    _mm256_storeu_si256(state[i].as_mut_ptr().cast(), sum);
                }
            }
        }
    }

    macro_rules! rotr {
        ($x:expr, $n:literal) => {
            _mm256_or_si256(
                _mm256_srli_epi64::<$n>($x),
                _mm256_slli_epi64::<{ 64 - $n }>($x),
            )
        };
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn xor3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        _mm256_xor_si256(_mm256_xor_si256(a, b), c)
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn add(a: __m256i, b: __m256i) -> __m256i {
        _mm256_add_epi64(a, b)
    }

    /// 80 rounds over `s` (a..h); `m` holds the block's 16 words and is
    /// overwritten by the message schedule.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn rounds(s: &mut [__m256i; 8], m: &mut [__m256i; 16]) {
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *s;
        for (t, &k) in K.iter().enumerate() {
            let j = t & 15;
            if t >= 16 {
                let x = m[(j + 14) & 15];
                let y = m[(j + 1) & 15];
                let s1 = xor3(rotr!(x, 19), rotr!(x, 61), _mm256_srli_epi64::<6>(x));
                let s0 = xor3(rotr!(y, 1), rotr!(y, 8), _mm256_srli_epi64::<7>(y));
                m[j] = add(add(s1, m[(j + 9) & 15]), add(s0, m[j]));
            }
            let ch = _mm256_xor_si256(_mm256_and_si256(e, f), _mm256_andnot_si256(e, g));
            let maj = _mm256_or_si256(
                _mm256_and_si256(a, b),
                _mm256_and_si256(c, _mm256_or_si256(a, b)),
            );
            let sigma1 = xor3(rotr!(e, 14), rotr!(e, 18), rotr!(e, 41));
            let sigma0 = xor3(rotr!(a, 28), rotr!(a, 34), rotr!(a, 39));
            let t1 = add(
                add(h, sigma1),
                add(ch, add(_mm256_set1_epi64x(k as i64), m[j])),
            );
            let t2 = add(sigma0, maj);
            h = g;
            g = f;
            f = e;
            e = add(d, t1);
            d = c;
            c = b;
            b = a;
            a = add(t1, t2);
        }
        *s = [a, b, c, d, e, f, g, h];
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use imp::Avx2;
