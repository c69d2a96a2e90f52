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
    255 - terms(xc, yc, sets).into_iter().max().unwrap_or(0)
}

/// Lane `j` of the terms of lane `8 + sets`: `xc[j] - y[8 + sets - j]`
/// (0 past lane `8 + sets`).
fn terms(xc: &[u8; 16], yc: &[u8; 16], sets: usize) -> [u8; 16] {
    let want = 8 + sets;
    std::array::from_fn(|j| {
        if j <= want {
            xc[j].saturating_sub(!yc[want - j])
        } else {
            0
        }
    })
}

/// The SSE2 `least_lanes`, lane by lane.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(super) fn least_lanes(e: &[&Lanes; 4], sets: usize) -> (u8, [u32; 4]) {
    let c = e.map(complement);
    let ab = join(&c[0], e[1]);
    let cd = join(&c[2], e[3]);
    let d = last(&ab, &cd, sets);
    let rest = [
        join(&cd, e[1]),
        join(&cd, e[0]),
        join(&ab, e[3]),
        join(&ab, e[2]),
    ];
    let lanes = [0, 1, 2, 3].map(|s| {
        terms(&c[s], &rest[s], sets)
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t == 255 - d)
            .fold(0u32, |m, (j, _)| m | 1 << j)
    });
    (d, lanes)
}
