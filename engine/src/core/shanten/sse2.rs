use super::{Lanes, VALID};
use std::arch::x86_64::*;

#[inline(always)]
pub(super) fn join_suits(e: &[&Lanes; 4], sets: usize) -> u8 {
    // SAFETY: SSE2 is part of the x86_64 baseline, enabled on every
    // x86_64 target, so the CPU running this has it.
    unsafe { join_suits_sse2(e, sets) }
}

#[inline]
#[target_feature(enable = "sse2")]
fn join_suits_sse2(e: &[&Lanes; 4], sets: usize) -> u8 {
    last(
        join(complement(e[0]), load(e[1])),
        join(complement(e[2]), load(e[3])),
        sets,
    )
}

#[inline]
#[target_feature(enable = "sse2")]
fn load(l: &Lanes) -> __m128i {
    let [lo, hi] = [0, 8].map(|i| i64::from_le_bytes(l.0[i..i + 8].try_into().expect("8")));
    _mm_set_epi64x(hi, lo)
}

#[inline]
#[target_feature(enable = "sse2")]
fn valid() -> __m128i {
    let [lo, hi] = [0, 8].map(|i| i64::from_le_bytes(VALID[i..i + 8].try_into().expect("8")));
    _mm_set_epi64x(hi, lo)
}

/// `255 - d` in the distance lanes, 0 in the others.
#[inline]
#[target_feature(enable = "sse2")]
fn complement(l: &Lanes) -> __m128i {
    _mm_andnot_si128(load(l), valid())
}

/// Two suits joined, from the first's complement and the second's
/// distances, as a complement: a term for each distance `b[k]` of the
/// second (lane 0, always 0, is `ac` itself), `ac` moved up `k` lanes
/// less `b[k]`. A row-0 lane 4 moved 4 lands in lane 8 (no sets, the
/// pair) as the distance to 8 sets, at least 10 for 14 tiles against a
/// pair's at most 1 in a suit holding tiles, so it never wins.
#[inline]
#[target_feature(enable = "sse2")]
fn join(ac: __m128i, b: __m128i) -> __m128i {
    // Bytes doubled into 16-bit words, so that a word shuffle and a
    // dword one spread one byte over all sixteen lanes.
    let lo = _mm_unpacklo_epi8(b, b);
    let hi = _mm_unpackhi_epi8(b, b);
    let mut r = ac;
    macro_rules! term {
        ($k:literal, $spread:expr) => {
            r = _mm_max_epu8(r, _mm_subs_epu8(_mm_slli_si128::<$k>(ac), $spread));
        };
    }
    term!(1, low_word::<0x55>(lo));
    term!(2, low_word::<0xAA>(lo));
    term!(3, low_word::<0xFF>(lo));
    term!(4, fifth_word(lo));
    term!(8, low_word::<0x00>(hi));
    term!(9, low_word::<0x55>(hi));
    term!(10, low_word::<0xAA>(hi));
    term!(11, low_word::<0xFF>(hi));
    term!(12, fifth_word(hi));
    _mm_and_si128(r, valid())
}

/// Word `W / 0x55` (0 to 3) of `x` in every word.
#[inline]
#[target_feature(enable = "sse2")]
fn low_word<const W: i32>(x: __m128i) -> __m128i {
    _mm_shuffle_epi32::<0x00>(_mm_shufflelo_epi16::<W>(x))
}

/// Word 4 of `x` in every word.
#[inline]
#[target_feature(enable = "sse2")]
fn fifth_word(x: __m128i) -> __m128i {
    _mm_shuffle_epi32::<0xAA>(_mm_shufflehi_epi16::<0x00>(x))
}

/// Lane `8 + sets` of two joined complements: the largest of
/// [`terms`], as a distance.
#[inline]
#[target_feature(enable = "sse2")]
fn last(xc: __m128i, yc: __m128i, sets: usize) -> u8 {
    let t = terms(xc, yc, sets);
    let t = _mm_max_epu8(t, _mm_srli_si128::<8>(t));
    let t = _mm_max_epu8(t, _mm_srli_si128::<4>(t));
    let t = _mm_max_epu8(t, _mm_srli_si128::<2>(t));
    let t = _mm_max_epu8(t, _mm_srli_si128::<1>(t));
    255 - _mm_cvtsi128_si32(t) as u8
}

/// The terms of lane `8 + sets` of two joined complements, as a
/// complement: `yc` reversed and moved so that lane `j` holds lane
/// `8 + sets - j` (0, the largest, past it), then `xc[j] - y[8 + sets - j]`
/// in lane `j`.
#[inline]
#[target_feature(enable = "sse2")]
fn terms(xc: __m128i, yc: __m128i, sets: usize) -> __m128i {
    let swapped = _mm_or_si128(_mm_slli_epi16::<8>(yc), _mm_srli_epi16::<8>(yc));
    let words = _mm_shufflehi_epi16::<0x1B>(_mm_shufflelo_epi16::<0x1B>(swapped));
    let reversed = _mm_shuffle_epi32::<0x4E>(words);
    // Lane j of `reversed` is lane 15 - j.
    let y = match sets {
        4 => _mm_srli_si128::<3>(reversed),
        3 => _mm_srli_si128::<4>(reversed),
        2 => _mm_srli_si128::<5>(reversed),
        1 => _mm_srli_si128::<6>(reversed),
        _ => _mm_srli_si128::<7>(reversed),
    };
    _mm_subs_epu8(xc, _mm_xor_si128(y, _mm_set1_epi8(-1)))
}

/// The standard form's distance of the four suits `e` with `sets` sets
/// still needed, and for each suit the lanes (bit `j` for lane `j`) of
/// its distances that some split at that distance uses: suit `s`'s lane
/// `j` is in one when its distance plus the other three suits' joined
/// distance at the rest of the target is the least. The three others are
/// joined from the two pairs' joins (`ab`, `cd`), six joins in all.
#[inline(always)]
pub(super) fn least_lanes(e: &[&Lanes; 4], sets: usize) -> (u8, [u32; 4]) {
    // SAFETY: as in `join_suits`, SSE2 is in the x86_64 baseline.
    unsafe { least_lanes_sse2(e, sets) }
}

#[inline]
#[target_feature(enable = "sse2")]
fn least_lanes_sse2(e: &[&Lanes; 4], sets: usize) -> (u8, [u32; 4]) {
    let c = [0, 1, 2, 3].map(|s| complement(e[s]));
    let raw = [0, 1, 2, 3].map(|s| load(e[s]));
    let ab = join(c[0], raw[1]);
    let cd = join(c[2], raw[3]);
    let d = last(ab, cd, sets);
    let rest = [
        join(cd, raw[1]),
        join(cd, raw[0]),
        join(ab, raw[3]),
        join(ab, raw[2]),
    ];
    let want = _mm_set1_epi8((255 - d) as i8);
    let lanes = [0, 1, 2, 3]
        .map(|s| _mm_movemask_epi8(_mm_cmpeq_epi8(terms(c[s], rest[s], sets), want)) as u32);
    (d, lanes)
}
