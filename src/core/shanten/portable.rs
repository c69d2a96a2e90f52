use super::{Lanes, VALID};

pub(super) fn join_suits(e: &[&Lanes; 4], sets: usize) -> u8 {
    last(
        &join(&complement(e[0]), e[1]),
        &join(&complement(e[2]), e[3]),
        sets,
    )
}

fn complement(l: &Lanes) -> [u8; 16] {
    std::array::from_fn(|i| !l.0[i] & VALID[i])
}

fn join(ac: &[u8; 16], b: &Lanes) -> [u8; 16] {
    let mut r = *ac;
    for k in [1, 2, 3, 4, 8, 9, 10, 11, 12] {
        for i in k..16 {
            r[i] = r[i].max(ac[i - k].saturating_sub(b.0[k]));
        }
    }
    std::array::from_fn(|i| r[i] & VALID[i])
}

fn last(xc: &[u8; 16], yc: &[u8; 16], sets: usize) -> u8 {
    let want = 8 + sets;
    let best = (0..=want)
        .map(|j| xc[j].saturating_sub(!yc[want - j]))
        .max()
        .unwrap_or(0);
    255 - best
}
