//! 8 lanes in AVX-512 registers: native 64-bit rotates and three-input
//! logic (`vpternlogq`) for Ch, Maj and the three-way XORs.

#[cfg(target_arch = "x86_64")]
mod imp {
    use std::arch::x86_64::*;

    use crate::block::K;
    use crate::lanes::Engine;

    pub(crate) struct Avx512;

    impl Engine<8> for Avx512 {
        #[target_feature(enable = "avx512f,avx512bw")]
        unsafe fn compress(state: &mut [[u64; 8]; 8], blocks: &[*const u8; 8]) {
            // SAFETY: the arrays are 64 bytes each (unaligned loads and
            // stores); each lane's block is read within the 128 bytes the
            // caller vouches for.
            unsafe {
                let load = |p: &[u64; 8]| _mm512_loadu_si512(p.as_ptr().cast());
                let mut s: [__m512i; 8] = std::array::from_fn(|i| load(&state[i]));
                let mut m = [_mm512_setzero_si512(); 16];
                for half in 0..2 {
                    // Row `lane`: eight words of the lane's block, bytes
                    // reversed (big-endian to native).
                    let rows: [__m512i; 8] = std::array::from_fn(|lane| {
                        let row = _mm512_loadu_si512(blocks[lane].add(64 * half).cast());
                        _mm512_shuffle_epi8(row, reverse())
                    });
                    let columns = transpose(rows);
                    m[8 * half..8 * half + 8].copy_from_slice(&columns);
                }
                rounds(&mut s, &mut m);
                for (i, v) in s.into_iter().enumerate() {
                    let sum = _mm512_add_epi64(v, load(&state[i]));
                    _mm512_storeu_si512(state[i].as_mut_ptr().cast(), sum);
                }
            }
        }
    }

    /// Reverses the bytes of each 64-bit word (with `_mm512_shuffle_epi8`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn reverse() -> __m512i {
        _mm512_broadcast_i32x4(_mm_set_epi8(
            8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
        ))
    }

    /// `columns[j][lane] = rows[lane][j]`: 8 unpacks and 16 shuffles of
    /// 128-bit quarters.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn transpose(r: [__m512i; 8]) -> [__m512i; 8] {
        // Quarter k of `lo[p]` holds rows 2p and 2p + 1 at word 2k, of
        // `hi[p]` at word 2k + 1.
        let lo: [__m512i; 4] =
            std::array::from_fn(|p| _mm512_unpacklo_epi64(r[2 * p], r[2 * p + 1]));
        let hi: [__m512i; 4] =
            std::array::from_fn(|p| _mm512_unpackhi_epi64(r[2 * p], r[2 * p + 1]));
        let even = |a: __m512i, b: __m512i| _mm512_shuffle_i64x2::<0b10_00_10_00>(a, b);
        let odd = |a: __m512i, b: __m512i| _mm512_shuffle_i64x2::<0b11_01_11_01>(a, b);
        let mut out = [_mm512_setzero_si512(); 8];
        for (t, first) in [(lo, 0), (hi, 1)] {
            // Quarters 0 and 2 of each pair, then 1 and 3.
            let (a0, a1) = (even(t[0], t[1]), odd(t[0], t[1]));
            let (b0, b1) = (even(t[2], t[3]), odd(t[2], t[3]));
            out[first] = even(a0, b0);
            out[first + 4] = odd(a0, b0);
            out[first + 2] = even(a1, b1);
            out[first + 6] = odd(a1, b1);
        }
        out
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn xor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
        _mm512_ternarylogic_epi64::<0x96>(a, b, c)
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn big_sigma0(a: __m512i) -> __m512i {
        xor3(
            _mm512_ror_epi64::<28>(a),
            _mm512_ror_epi64::<34>(a),
            _mm512_ror_epi64::<39>(a),
        )
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn big_sigma1(e: __m512i) -> __m512i {
        xor3(
            _mm512_ror_epi64::<14>(e),
            _mm512_ror_epi64::<18>(e),
            _mm512_ror_epi64::<41>(e),
        )
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn small_sigma0(x: __m512i) -> __m512i {
        xor3(
            _mm512_ror_epi64::<1>(x),
            _mm512_ror_epi64::<8>(x),
            _mm512_srli_epi64::<7>(x),
        )
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn small_sigma1(x: __m512i) -> __m512i {
        xor3(
            _mm512_ror_epi64::<19>(x),
            _mm512_ror_epi64::<61>(x),
            _mm512_srli_epi64::<6>(x),
        )
    }

    /// 80 rounds over `s` (a..h); `m` holds the block's 16 words and is
    /// overwritten by the message schedule.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn rounds(s: &mut [__m512i; 8], m: &mut [__m512i; 16]) {
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *s;
        for (t, &k) in K.iter().enumerate() {
            let j = t & 15;
            if t >= 16 {
                m[j] = _mm512_add_epi64(
                    _mm512_add_epi64(small_sigma1(m[(j + 14) & 15]), m[(j + 9) & 15]),
                    _mm512_add_epi64(small_sigma0(m[(j + 1) & 15]), m[j]),
                );
            }
            // Ch(e, f, g) = e ? f : g; Maj(a, b, c) = majority.
            let ch = _mm512_ternarylogic_epi64::<0xCA>(e, f, g);
            let maj = _mm512_ternarylogic_epi64::<0xE8>(a, b, c);
            let t1 = _mm512_add_epi64(
                _mm512_add_epi64(h, big_sigma1(e)),
                _mm512_add_epi64(ch, _mm512_add_epi64(_mm512_set1_epi64(k as i64), m[j])),
            );
            let t2 = _mm512_add_epi64(big_sigma0(a), maj);
            h = g;
            g = f;
            f = e;
            e = _mm512_add_epi64(d, t1);
            d = c;
            c = b;
            b = a;
            a = _mm512_add_epi64(t1, t2);
        }
        *s = [a, b, c, d, e, f, g, h];
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use imp::Avx512;
