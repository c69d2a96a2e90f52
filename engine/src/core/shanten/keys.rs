//! A suit's counts as base-5 keys (the tables' ranks), and the odometers
//! that walk every config when the tables are built.

/// The counts in the low four bytes and in the high four of `v` (each at
/// most 4), each read as a base-5 number, the first the lowest digit (pairs
/// of bytes, then pairs of pairs, a multiply each), and the tiles of the
/// low four (their bytes summed into the top one by a multiply).
#[inline(always)]
pub(super) fn keys(v: u64) -> (usize, usize, usize) {
    const BYTES: u64 = 0x00FF_00FF_00FF_00FF;
    const PAIRS: u64 = 0x0000_FFFF_0000_FFFF;
    let p = (v & BYTES) + ((v >> 8) & BYTES) * 5;
    let q = (p & PAIRS) + ((p >> 16) & PAIRS) * 25;
    let tiles = (v as u32).wrapping_mul(0x0101_0101) >> 24;
    (q as u32 as usize, (q >> 32) as usize, tiles as usize)
}

/// Counts read as a base-5 number, the first the lowest digit.
#[inline(always)]
pub(super) fn key(c: &[u8]) -> usize {
    c.iter().rev().fold(0, |k, &x| k * 5 + x as usize)
}

/// The next config in base-5 order (digit 0 the lowest).
pub(super) fn odometer_up(c: &mut [u8]) {
    for d in c {
        if *d < 4 {
            *d += 1;
            return;
        }
        *d = 0;
    }
}

/// The previous config in base-5 order.
pub(super) fn odometer_down(c: &mut [u8]) {
    for d in c {
        if *d > 0 {
            *d -= 1;
            return;
        }
        *d = 4;
    }
}
