//! The passes over one start's graph ([`super::Local`]): the backward
//! induction that chooses each discard and works the points expected, and
//! the forward pass of the distribution over hands under that choice for
//! the chances by draw.

use super::{Chances, Local, Start, Win};
use crate::core::tile::Counts;

/// One start's draws with their weights (the pool's numerators
/// `u₀ + H₀ − H`, the same in every turn) worked once and laid out in the
/// order the passes read them. A weight is 0 to 4 (`u₀ + H₀` is at most
/// the four copies, and a reachable hand holds no more of a kind than
/// that), so each turn's chances `w / left` are five divisions, looked up.
struct Weighted {
    /// Hand `i`'s self-drawn wins that count and its kept draws: how many
    /// of each (in `win` and `edge`, hand after hand).
    len: Vec<(u32, u32)>,
    /// (weight, points) of each win, in tile order.
    win: Vec<(u8, f64)>,
    /// (weight, local 14-tile hand) of each kept draw, in tile order.
    edge: Vec<(u8, u32)>,
    /// The weight of hand `i`'s wins on a discard that count.
    hits: Vec<f64>,
}

impl Weighted {
    #[inline(never)]
    fn new(start: &Start<'_>, l: &Local, wins: &[&[Win]]) -> Weighted {
        let weight = |h: &Counts, y: usize| -> u8 {
            (start.unseen[y] + start.hand[y])
                .saturating_sub(h[y])
                .min(4)
        };
        let n = l.len();
        let mut w = Weighted {
            len: Vec::with_capacity(n),
            win: Vec::with_capacity(wins.iter().map(|w| w.len()).sum()),
            edge: Vec::with_capacity(l.imp.len()),
            hits: Vec::with_capacity(n),
        };
        for (i, h) in l.hand.iter().enumerate() {
            let (w0, e0) = (w.win.len(), w.edge.len());
            w.win.extend(
                wins[i]
                    .iter()
                    .filter_map(|&(y, points, _)| points.map(|p| (weight(h, y), p))),
            );
            w.hits.push(
                wins[i]
                    .iter()
                    .filter(|w| w.2.is_some())
                    .map(|&(y, _, _)| f64::from(weight(h, y)))
                    .sum(),
            );
            let (a, b) = (l.imp_at[i] as usize, l.imp_at[i + 1] as usize);
            w.edge.extend(
                l.imp[a..b]
                    .iter()
                    .map(|&(y, d)| (weight(h, usize::from(y)), d)),
            );
            w.len
                .push(((w.win.len() - w0) as u32, (w.edge.len() - e0) as u32));
        }
        w
    }
}

/// `w / left` for each weight `w` (read as `q[w & 7]`, which needs no
/// bounds check; weights are at most 4).
pub(crate) fn shares(left: f64) -> [f64; 8] {
    [
        0.0 / left,
        1.0 / left,
        2.0 / left,
        3.0 / left,
        4.0 / left,
        0.0,
        0.0,
        0.0,
    ]
}

/// The backward induction and the forward pass over one start's graph.
#[inline(never)]
pub(super) fn passes(
    start: &Start<'_>,
    s0: i8,
    l: &Local,
    wins: &[&[Win]],
    keep_after: bool,
) -> (Chances, Vec<Vec<f64>>) {
    let draws = start.draws as usize;

    // The pool's numerator of kind y for hand h: u0 + H0 - H.
    let weight = |h: &Counts, y: usize| -> f64 {
        f64::from(start.unseen[y]) + f64::from(start.hand[y]) - f64::from(h[y])
    };
    let wt = Weighted::new(start, l, wins);
    let pool: f64 = start.unseen.iter().map(|&u| f64::from(u)).sum();
    let turn = if start.discards { 4.0 } else { 1.0 };

    // Backward: v[k][i], the points expected from the start of turn k
    // (0-based) in state i; after[k][i], those expected once the player
    // has discarded in turn k, the others' discards still to come (without
    // them, v[k + 1][i]). Rows are built turn by turn, from the last, in
    // two buffers; `kept` holds each turn's `after` only for a policy.
    let n = l.len();
    let nd = l.drawn();
    let mut v_next = vec![0.0f64; n];
    let mut row = vec![0.0f64; n];
    let mut after_row: Vec<f64> = Vec::with_capacity(if start.discards { n } else { 0 });
    let mut kept: Vec<Vec<f64>> = Vec::with_capacity(if keep_after { draws } else { 0 });
    // best[(draws - 1 - k) * nd + d]: the discard chosen from 14-tile hand
    // d in turn k; best_v its points expected after.
    let mut best = vec![0u32; nd * draws];
    let mut best_v = vec![0.0f64; nd];
    // draw[(draws - 1 - k) * n + i]: hand i's (scale, chance of a win,
    // chance of neither a win nor a kept draw, scaled) in turn k, for the
    // forward pass.
    let mut draw = vec![(1.0, 0.0, 1.0); n * draws];
    for k in (0..draws).rev() {
        let left = pool - turn * k as f64;
        if start.discards {
            after_row.clear();
            after_row.extend(
                (0..n).map(|i| others_of(&l.hand[i], wins[i], left, true, &weight, v_next[i])),
            );
        }
        let after_k: &[f64] = if start.discards { &after_row } else { &v_next };
        if keep_after {
            kept.push(after_k.to_vec());
        }
        let r = draws - 1 - k;
        if left < 1.0 {
            // No draw: the rows' defaults (the first discard, nothing
            // drawn) stand, and nothing more is expected.
            row.fill(0.0);
            std::mem::swap(&mut v_next, &mut row);
            continue;
        }
        let best_k = &mut best[r * nd..(r + 1) * nd];
        for ((b, bv), ends) in best_k
            .iter_mut()
            .zip(best_v.iter_mut())
            .zip(l.next_at.windows(2))
        {
            let (j, v) = pick_value(&l.next[ends[0] as usize..ends[1] as usize], after_k);
            *b = j;
            *bv = v;
        }
        let q = shares(left);
        let (mut win, mut edge) = (&wt.win[..], &wt.edge[..]);
        let draw_k = &mut draw[r * n..(r + 1) * n];
        for (((&(nw, ne), &a_i), out), dr) in wt
            .len
            .iter()
            .zip(after_k)
            .zip(row.iter_mut())
            .zip(draw_k.iter_mut())
        {
            let (ws, rest) = win.split_at(nw as usize);
            win = rest;
            let (es, rest) = edge.split_at(ne as usize);
            edge = rest;
            (*out, *dr) = expected(ws, es, &q, &best_v, a_i);
        }
        std::mem::swap(&mut v_next, &mut row);
    }
    let expected_points = v_next.first().copied().unwrap_or(0.0);
    // after[k], first turn first.
    kept.reverse();
    let after = kept;
    let (ready, win) = forward(start, s0, l, wins, &wt, &best, &draw);
    let chances = Chances {
        ready,
        win,
        expected_points,
    };
    (chances, after)
}

/// The forward pass: the distribution over states at the start of each
/// turn under the policy the backward pass chose (`best`, with each
/// hand's chances of the turn in `draw`), for the chances of having been
/// ready and of having won by each draw.
#[inline(never)]
fn forward(
    start: &Start<'_>,
    s0: i8,
    l: &Local,
    wins: &[&[Win]],
    wt: &Weighted,
    best: &[u32],
    draw: &[(f64, f64, f64)],
) -> (Vec<f64>, Vec<f64>) {
    let draws = start.draws as usize;
    let (n, nd) = (l.len(), l.drawn());
    let pool: f64 = start.unseen.iter().map(|&u| f64::from(u)).sum();
    let turn = if start.discards { 4.0 } else { 1.0 };
    let mut dist = vec![0.0f64; n];
    let mut next = vec![0.0f64; n];
    dist[0] = 1.0;
    let (mut won, mut ready_by) = (0.0f64, Vec::with_capacity(draws));
    let mut win_by = Vec::with_capacity(draws);
    for k in 0..draws {
        let left = pool - turn * k as f64;
        next.fill(0.0);
        if left < 1.0 {
            next.copy_from_slice(&dist);
        } else {
            let r = draws - 1 - k;
            let best_k = &best[r * nd..(r + 1) * nd];
            let draw_k = &draw[r * n..(r + 1) * n];
            let q = shares(left);
            let mut edge = &wt.edge[..];
            for (i, (&m, (&(_, ne), &(scale, p_win, stay)))) in
                dist.iter().zip(wt.len.iter().zip(draw_k)).enumerate()
            {
                let (es, rest) = edge.split_at(ne as usize);
                edge = rest;
                if m == 0.0 {
                    continue;
                }
                won += m * scale * p_win;
                let stay = m * stay;
                if start.discards {
                    let survive = |i: usize| {
                        if wins[i].is_empty() {
                            1.0
                        } else {
                            survive_hits(wt.hits[i], left)
                        }
                    };
                    for &(w, d) in es {
                        let to = best_k[d as usize] as usize;
                        let moved = m * q[usize::from(w & 7)] * scale;
                        let keep = survive(to);
                        won += moved * (1.0 - keep);
                        next[to] += moved * keep;
                    }
                    let keep = survive(i);
                    won += stay * (1.0 - keep);
                    next[i] += stay * keep;
                } else {
                    // Nothing is won on a discard: each hand keeps all
                    // that reaches it.
                    if scale == 1.0 {
                        for &(w, d) in es {
                            next[best_k[d as usize] as usize] += m * q[usize::from(w & 7)];
                        }
                    } else {
                        for &(w, d) in es {
                            next[best_k[d as usize] as usize] += m * q[usize::from(w & 7)] * scale;
                        }
                    }
                    next[i] += stay;
                }
            }
        }
        std::mem::swap(&mut dist, &mut next);
        win_by.push(won.min(1.0));
        let ready: f64 = dist
            .iter()
            .zip(&l.shanten)
            .filter(|(_, s)| **s <= 0)
            .map(|(m, _)| m)
            .sum();
        // A hand ready at the start has been ready all along (not a sum
        // that rounds below one).
        ready_by.push(if s0 <= 0 { 1.0 } else { (ready + won).min(1.0) });
    }
    (ready_by, win_by)
}

/// One hand's points expected from the start of a turn whose chances are
/// `q`, with its wins `ws`, its kept draws `es` (the points expected after
/// each in `best_v`) and `after` if it keeps nothing; and its (scale,
/// chance of a win, chance of neither, scaled) for the forward pass.
#[inline(always)]
fn expected(
    ws: &[(u8, f64)],
    es: &[(u8, u32)],
    q: &[f64; 8],
    best_v: &[f64],
    after: f64,
) -> (f64, (f64, f64, f64)) {
    // Worked first with a scale of one, which the chances nearly always
    // have (a product by 1.0 is exact, so the sums are the same to the
    // bit), and again scaled when they add up past one.
    let (mut p_win, mut p_imp, mut e) = (-0.0, -0.0, 0.0);
    for &(w, points) in ws {
        let p = q[usize::from(w & 7)];
        p_win += p;
        e += p * points;
    }
    for &(w, d) in es {
        let p = q[usize::from(w & 7)];
        p_imp += p;
        e += p * best_v[d as usize];
    }
    let sum = p_win + p_imp;
    let scale = if sum > 1.0 { 1.0 / sum } else { 1.0 };
    if scale != 1.0 {
        e = 0.0;
        for &(w, points) in ws {
            e += q[usize::from(w & 7)] * scale * points;
        }
        for &(w, d) in es {
            e += q[usize::from(w & 7)] * scale * best_v[d as usize];
        }
    }
    let stay = 1.0 - scale * (p_win + p_imp);
    (e + stay * after, (scale, p_win, stay))
}

/// [`pick`] and the points expected after the discard it picks.
#[inline(always)]
fn pick_value(next: &[u32], after: &[f64]) -> (u32, f64) {
    let (mut best, mut v) = (next[0], after[next[0] as usize]);
    for &j in &next[1..] {
        let x = after[j as usize];
        if x > v {
            (best, v) = (j, x);
        }
    }
    (best, v)
}

/// The discard the policy makes: of the hands `next` a kept draw can
/// leave, the one with the most points expected after it (ties to the
/// first, in tile order of the discard).
pub(super) fn pick(next: &[u32], after: &[f64]) -> usize {
    pick_value(next, after).0 as usize
}

/// The chance that none of the three others' discards wins for a hand
/// whose wins on a discard weigh `hits`, in a turn whose player drew from
/// `left` tiles.
pub(crate) fn survive_hits(hits: f64, left: f64) -> f64 {
    let mut keep = 1.0;
    for j in 1..=3 {
        let pool = left - j as f64;
        if pool < 1.0 {
            break;
        }
        keep *= 1.0 - (hits / pool).min(1.0);
    }
    keep
}

/// Points expected once the player has discarded in a turn: the others'
/// discards may win for `hand`, then the next turn (`next`).
pub(crate) fn others_of(
    hand: &Counts,
    wins: &[(usize, Option<f64>, Option<f64>)],
    left: f64,
    discards: bool,
    weight: &impl Fn(&Counts, usize) -> f64,
    next: f64,
) -> f64 {
    if !discards || wins.is_empty() {
        return next;
    }
    let mut e = 0.0;
    let mut alive = 1.0;
    for j in 1..=3 {
        let pool = left - j as f64;
        if pool < 1.0 {
            break;
        }
        let mut hit = 0.0;
        for &(y, _, points) in wins {
            if let Some(pts) = points {
                let p = weight(hand, y) / pool;
                hit += p;
                e += alive * p * pts;
            }
        }
        alive *= 1.0 - hit.min(1.0);
    }
    e + alive * next
}
