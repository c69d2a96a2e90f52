//! The passes over one start's graph ([`Graph`]), for either model: the
//! backward induction that chooses each 14-tile state's throw and works
//! the points expected, and the forward pass of the distribution over
//! states under that choice for the chances by draw. The models differ
//! only in a 13-tile state's turn ([`Model`]).

use super::graph::{Graph, Keep};
use super::{Chances, Start, Win};
use crate::core::tile::Counts;

/// A model's turn of one 13-tile state.
pub(in crate::core) trait Model {
    /// What the forward pass needs of a state's turn.
    type Turn: Copy;
    const UNSET: Self::Turn;
    /// Whether the forward pass reads each turn's points expected after
    /// the throws.
    const AFTER: bool;
    /// Whether the forward pass follows the mass never yet ready.
    const FRESH: bool;

    /// The points expected from the start of a turn whose chances are
    /// `q`, for a state with self-drawn wins `ws`, keeps `ks` (the points
    /// expected after each 14-tile state's best throw in `best_v`), and
    /// `after` if it keeps nothing.
    fn value(
        ws: &[(u8, f64)],
        ks: &[Keep],
        q: &[f64; 8],
        best_v: &[f64],
        after: f64,
    ) -> (f64, Self::Turn);

    /// Moves state `i`'s mass over its turn.
    fn spread<S: Fn(usize) -> f64>(
        f: &mut Flow,
        i: usize,
        ks: &[Keep],
        turn: Self::Turn,
        at: &Moves<'_, S>,
    );

    /// The chance of having been ready, once the turn is done.
    fn ready(f: &Flow, g: &Graph<'_>) -> f64;
}

/// With hand changes off: a state keeps only draws that lower shanten
/// (and wins apart), and where the chances of a turn add up past one
/// (near the end of the wall) they are scaled to one.
pub(in crate::core) enum Scaled {}

/// With hand changes on, mahjong-cpp's recursion: staying plus each keep's
/// chance times what it gains over staying; the chances may add up past
/// one, and the share of staying go below zero.
pub(in crate::core) enum Gain {}

/// The mass over states in the forward pass.
pub(in crate::core) struct Flow {
    dist: Vec<f64>,
    next: Vec<f64>,
    /// The mass never yet ready (where the model follows it).
    fresh: Vec<f64>,
    next_fresh: Vec<f64>,
    won: f64,
}

/// What a turn's moves read: its chances, the throws chosen, the points
/// expected after them, and the chance the others' discards leave a state.
pub(in crate::core) struct Moves<'a, S> {
    q: [f64; 8],
    best: &'a [u32],
    after: &'a [f64],
    discards: bool,
    survive: S,
    shanten: &'a [i8],
}

impl Model for Scaled {
    /// (scale, chance of a win, chance of neither a win nor a keep, scaled).
    type Turn = (f64, f64, f64);
    const UNSET: Self::Turn = (1.0, 0.0, 1.0);
    const AFTER: bool = false;
    const FRESH: bool = false;

    #[inline(always)]
    fn value(
        ws: &[(u8, f64)],
        ks: &[Keep],
        q: &[f64; 8],
        best_v: &[f64],
        after: f64,
    ) -> (f64, Self::Turn) {
        // Worked first with a scale of one, which the chances nearly always
        // have (a product by 1.0 is exact, so the sums are the same to the
        // bit), and again scaled when they add up past one.
        let (mut p_win, mut p_imp, mut e) = (-0.0, -0.0, 0.0);
        for &(w, points) in ws {
            let p = q[usize::from(w & 7)];
            p_win += p;
            e += p * points;
        }
        for x in ks {
            let p = q[usize::from(x.w & 7)];
            p_imp += p;
            e += p * best_v[x.to as usize];
        }
        let sum = p_win + p_imp;
        let scale = if sum > 1.0 { 1.0 / sum } else { 1.0 };
        if scale != 1.0 {
            e = 0.0;
            for &(w, points) in ws {
                e += q[usize::from(w & 7)] * scale * points;
            }
            for x in ks {
                e += q[usize::from(x.w & 7)] * scale * best_v[x.to as usize];
            }
        }
        let stay = 1.0 - scale * (p_win + p_imp);
        (e + stay * after, (scale, p_win, stay))
    }

    #[inline(always)]
    fn spread<S: Fn(usize) -> f64>(
        f: &mut Flow,
        i: usize,
        ks: &[Keep],
        turn: Self::Turn,
        at: &Moves<'_, S>,
    ) {
        let m = f.dist[i];
        if m == 0.0 {
            return;
        }
        let (scale, p_win, stay) = turn;
        f.won += m * scale * p_win;
        let stay = m * stay;
        if at.discards {
            for x in ks {
                let to = at.best[x.to as usize] as usize;
                let moved = m * at.q[usize::from(x.w & 7)] * scale;
                let keep = (at.survive)(to);
                f.won += moved * (1.0 - keep);
                f.next[to] += moved * keep;
            }
            let keep = (at.survive)(i);
            f.won += stay * (1.0 - keep);
            f.next[i] += stay * keep;
        } else {
            // Nothing is won on a discard: each state keeps all that
            // reaches it.
            if scale == 1.0 {
                for x in ks {
                    f.next[at.best[x.to as usize] as usize] += m * at.q[usize::from(x.w & 7)];
                }
            } else {
                for x in ks {
                    f.next[at.best[x.to as usize] as usize] +=
                        m * at.q[usize::from(x.w & 7)] * scale;
                }
            }
            f.next[i] += stay;
        }
    }

    /// A ready state stays ready until it wins: the mass on ready states
    /// and the mass won.
    fn ready(f: &Flow, g: &Graph<'_>) -> f64 {
        let ready: f64 = f
            .dist
            .iter()
            .zip(&g.shanten)
            .filter(|(_, s)| **s <= 0)
            .map(|(m, _)| m)
            .sum();
        (ready + f.won).min(1.0)
    }
}

impl Model for Gain {
    type Turn = ();
    const UNSET: Self::Turn = ();
    const AFTER: bool = true;
    const FRESH: bool = true;

    #[inline(always)]
    fn value(
        _: &[(u8, f64)],
        ks: &[Keep],
        q: &[f64; 8],
        best_v: &[f64],
        stay: f64,
    ) -> (f64, Self::Turn) {
        let mut e = stay;
        for x in ks {
            let t = x.win.max(best_v[x.to as usize]);
            e += q[usize::from(x.w & 7)] * (t - stay);
        }
        (e, ())
    }

    #[inline(always)]
    fn spread<S: Fn(usize) -> f64>(
        f: &mut Flow,
        i: usize,
        ks: &[Keep],
        _: Self::Turn,
        at: &Moves<'_, S>,
    ) {
        let (m, fr) = (f.dist[i], f.fresh[i]);
        if m == 0.0 && fr == 0.0 {
            return;
        }
        let (mut stay, mut stay_fresh) = (m, fr);
        for x in ks {
            let p = at.q[usize::from(x.w & 7)];
            let to = at.best[x.to as usize] as usize;
            stay -= m * p;
            stay_fresh -= fr * p;
            // The win, where it beats the best throw.
            if x.win >= at.after[to] {
                f.won += m * p;
                continue;
            }
            if at.discards {
                let keep = (at.survive)(to);
                f.won += m * p * (1.0 - keep);
                f.next[to] += m * p * keep;
            } else {
                f.next[to] += m * p;
            }
            if at.shanten[to] > 0 {
                f.next_fresh[to] += fr * p;
            }
        }
        if at.discards {
            let keep = (at.survive)(i);
            f.won += stay * (1.0 - keep);
            f.next[i] += stay * keep;
        } else {
            f.next[i] += stay;
        }
        f.next_fresh[i] += stay_fresh;
    }

    /// A state may leave ready again: one less the mass never ready.
    fn ready(f: &Flow, _: &Graph<'_>) -> f64 {
        let never: f64 = f.fresh.iter().sum();
        (1.0 - never).clamp(0.0, 1.0)
    }
}

/// `w / left` for each weight `w` (read as `q[w & 7]`, which needs no
/// bounds check; weights are at most 4).
fn shares(left: f64) -> [f64; 8] {
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

/// The pool's numerator of kind `y` for hand `h`: `u₀ + H₀ − H`.
fn weight(start: &Start<'_>, h: &Counts, y: usize) -> f64 {
    f64::from(start.unseen[y]) + f64::from(start.hand[y]) - f64::from(h[y])
}

/// The backward induction and the forward pass over one start's graph
/// under model `M`; with `keep_after`, the points expected after each
/// turn's throw too (first turn first).
#[inline(never)]
pub(in crate::core) fn passes<M: Model>(
    start: &Start<'_>,
    s0: i8,
    g: &Graph<'_>,
    keep_after: bool,
) -> (Chances, Vec<Vec<f64>>) {
    let draws = start.draws as usize;
    let weight = |h: &Counts, y: usize| weight(start, h, y);
    let pool: f64 = start.unseen.iter().map(|&u| f64::from(u)).sum();
    let turn = if start.discards { 4.0 } else { 1.0 };

    // Backward: v[k][i], the points expected from the start of turn k
    // (0-based) in state i; after[k][i], those expected once the player
    // has thrown in turn k, the others' discards still to come (without
    // them, v[k + 1][i]). Rows are built turn by turn, from the last, in
    // two buffers; `kept` holds each turn's `after` where asked for.
    let (n, nd) = (g.len(), g.drawn());
    let keep_rows = keep_after || M::AFTER;
    let mut v_next = vec![0.0f64; n];
    let mut row = vec![0.0f64; n];
    let mut after_row: Vec<f64> = Vec::with_capacity(if start.discards { n } else { 0 });
    let mut kept: Vec<Vec<f64>> = Vec::with_capacity(if keep_rows { draws } else { 0 });
    // best[(draws - 1 - k) * nd + d]: the throw chosen from 14-tile state
    // d in turn k; best_v its points expected after.
    let mut best = vec![0u32; nd * draws];
    let mut best_v = vec![0.0f64; nd];
    // turns[(draws - 1 - k) * n + i]: state i's turn k, for the forward
    // pass.
    let mut turns = vec![M::UNSET; n * draws];
    for k in (0..draws).rev() {
        let left = pool - turn * k as f64;
        if start.discards {
            after_row.clear();
            after_row.extend(
                (0..n).map(|i| others_of(&g.hand[i], g.wins[i], left, true, &weight, v_next[i])),
            );
        }
        let after_k: &[f64] = if start.discards { &after_row } else { &v_next };
        if keep_rows {
            kept.push(after_k.to_vec());
        }
        let r = draws - 1 - k;
        if left < 1.0 {
            // No draw: the rows' defaults (the first throw, nothing
            // drawn) stand, and nothing more is expected.
            row.fill(0.0);
            std::mem::swap(&mut v_next, &mut row);
            continue;
        }
        let best_k = &mut best[r * nd..(r + 1) * nd];
        for ((b, bv), ends) in best_k
            .iter_mut()
            .zip(best_v.iter_mut())
            .zip(g.throw_at.windows(2))
        {
            let (j, v) = pick_value(&g.throw[ends[0] as usize..ends[1] as usize], after_k);
            *b = j;
            *bv = v;
        }
        let q = shares(left);
        let (mut won, mut keep) = (&g.won[..], &g.keep[..]);
        let turn_k = &mut turns[r * n..(r + 1) * n];
        for (((&(nw, nk), &a_i), out), t) in g
            .len
            .iter()
            .zip(after_k)
            .zip(row.iter_mut())
            .zip(turn_k.iter_mut())
        {
            let (ws, rest) = won.split_at(nw as usize);
            won = rest;
            let (ks, rest) = keep.split_at(nk as usize);
            keep = rest;
            (*out, *t) = M::value(ws, ks, &q, &best_v, a_i);
        }
        std::mem::swap(&mut v_next, &mut row);
    }
    let expected_points = v_next.first().copied().unwrap_or(0.0);
    // after[k], first turn first.
    kept.reverse();
    let (ready, win) = forward::<M>(start, s0, g, &best, &turns, &kept);
    let chances = Chances {
        ready,
        win,
        expected_points,
    };
    (chances, if keep_after { kept } else { Vec::new() })
}

/// The forward pass: the distribution over states at the start of each
/// turn under the throws the backward pass chose (`best`, with each
/// state's turns in `turns` and the points expected after the throws in
/// `after`, where the model reads them), for the chances of having been
/// ready and of having won by each draw.
// `k` is the turn: it sets the tiles left and the draws remaining as
// well as indexing `after`.
#[allow(clippy::needless_range_loop)]
#[inline(never)]
fn forward<M: Model>(
    start: &Start<'_>,
    s0: i8,
    g: &Graph<'_>,
    best: &[u32],
    turns: &[M::Turn],
    after: &[Vec<f64>],
) -> (Vec<f64>, Vec<f64>) {
    let draws = start.draws as usize;
    let (n, nd) = (g.len(), g.drawn());
    let pool: f64 = start.unseen.iter().map(|&u| f64::from(u)).sum();
    let turn = if start.discards { 4.0 } else { 1.0 };
    let fresh = if M::FRESH { n } else { 0 };
    let mut f = Flow {
        dist: vec![0.0f64; n],
        next: vec![0.0f64; n],
        fresh: vec![0.0f64; fresh],
        next_fresh: vec![0.0f64; fresh],
        won: 0.0,
    };
    f.dist[0] = 1.0;
    if M::FRESH && g.shanten[0] > 0 {
        f.fresh[0] = 1.0;
    }
    let (mut ready_by, mut win_by) = (Vec::with_capacity(draws), Vec::with_capacity(draws));
    for k in 0..draws {
        let left = pool - turn * k as f64;
        f.next.fill(0.0);
        f.next_fresh.fill(0.0);
        if left < 1.0 {
            f.next.copy_from_slice(&f.dist);
            f.next_fresh.copy_from_slice(&f.fresh);
        } else {
            let r = draws - 1 - k;
            let survive = |i: usize| {
                if !start.discards || g.wins[i].is_empty() {
                    1.0
                } else {
                    survive_hits(g.hits[i], left)
                }
            };
            let at = Moves {
                q: shares(left),
                best: &best[r * nd..(r + 1) * nd],
                after: if M::AFTER { &after[k] } else { &[] },
                discards: start.discards,
                survive,
                shanten: &g.shanten,
            };
            let turn_k = &turns[r * n..(r + 1) * n];
            let mut keep = &g.keep[..];
            for (i, (&(_, nk), &t)) in g.len.iter().zip(turn_k).enumerate() {
                let (ks, rest) = keep.split_at(nk as usize);
                keep = rest;
                M::spread(&mut f, i, ks, t, &at);
            }
        }
        std::mem::swap(&mut f.dist, &mut f.next);
        std::mem::swap(&mut f.fresh, &mut f.next_fresh);
        win_by.push(f.won.clamp(0.0, 1.0));
        // A hand ready at the start has been ready all along (not a sum
        // that rounds below one).
        ready_by.push(if s0 <= 0 { 1.0 } else { M::ready(&f, g) });
    }
    (ready_by, win_by)
}

/// [`pick`] and the points expected after the throw it picks.
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

/// The throw the policy makes: of the states `next` a keep can leave, the
/// one with the most points expected after it (ties to the first, in
/// tile order of the throw).
pub(in crate::core) fn pick(next: &[u32], after: &[f64]) -> usize {
    pick_value(next, after).0 as usize
}

/// The chance that none of the three others' discards wins for a hand
/// whose wins on a discard weigh `hits`, in a turn whose player drew from
/// `left` tiles.
fn survive_hits(hits: f64, left: f64) -> f64 {
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

/// Points expected once the player has thrown in a turn: the others'
/// discards may win for `hand`, then the next turn (`next`).
fn others_of(
    hand: &Counts,
    wins: &[Win],
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
        for w in wins {
            if let Some(pts) = w.discard {
                let p = weight(hand, w.kind) / pool;
                hit += p;
                e += alive * p * pts;
            }
        }
        alive *= 1.0 - hit.min(1.0);
    }
    e + alive * next
}
