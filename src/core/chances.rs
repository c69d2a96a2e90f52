//! The chances of a hand before the win: the probability of having been
//! ready and of having won within `t` draws, and the points expected, in
//! the model of docs/api.md ("Hand analysis: POST /v1/analyze") —
//! nekobean/mahjong-cpp's expected-score calculator with hand changes off
//! (its `docs/` and tomohxx's mahjong-algorithm-book give the recursion):
//!
//! - the pool is the N tiles unseen at the start; the k-th draw of the
//!   player comes from N − (k − 1) tiles (N − 4(k − 1) with the others'
//!   discards, a turn taking four), kind y with probability
//!   (u₀(y) + H₀(y) − H(y)) / pool;
//! - a draw that lowers shanten is kept and the discard that keeps the new
//!   shanten with the most expected points is made; any other draw is
//!   thrown back at once; a ready hand keeps only a draw that wins;
//! - with `discards`, after the player's turn the three others each discard
//!   one tile drawn the same way (the pool one smaller each time), and one
//!   that completes the hand is a win on a discard;
//! - a win counts only when it meets the ruleset's minimum for how it was
//!   won: the caller's values say which wins count ([`WinValues`]).
//!
//! Exact within the model, by backward induction over the graph of the
//! hands the policy can reach from the start (each state a 13-tile
//! concealed hand; the graph is finite because every kept draw lowers
//! shanten), then a forward pass of the state distribution under the policy
//! for the probabilities by draw. Near the end of the wall the few tiles
//! left can make the useful draws' chances add up past one, an artefact of
//! the model's pool; they are then scaled to add up to one.

use super::shanten::{self, Forms};
use super::tile::Counts;
use std::collections::HashMap;

/// Farthest hand answered: every hand of shanten 3 or less.
pub const MAX_SHANTEN: i8 = 3;
/// Most draws asked for.
pub const MAX_DRAWS: u32 = 30;

/// The points a ready hand collects on each of its winning tiles, by how it
/// is won; `None` where that win does not count (below the minimum, or not
/// a win that way).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WinValues {
    /// `(kind, self-draw points, discard points)`.
    pub wins: Vec<(usize, Option<f64>, Option<f64>)>,
}

/// What the model says of one 13-tile hand.
#[derive(Clone, Debug, PartialEq)]
pub struct Chances {
    /// `ready[t-1]`: probability of having been ready within `t` draws.
    pub ready: Vec<f64>,
    /// `win[t-1]`: probability of having won within `t` draws.
    pub win: Vec<f64>,
    pub expected_points: f64,
}

/// Why a hand is not answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChancesError {
    /// Shanten past [`MAX_SHANTEN`].
    TooFar { shanten: i8 },
    /// With hand changes, a graph past `max` states
    /// ([`super::hand_changes::MAX_STATES`]).
    TooLarge { max: usize },
}

/// The start: a 13-tile concealed hand and what is unseen.
#[derive(Clone, Copy, Debug)]
pub struct Start<'a> {
    pub hand: &'a Counts,
    pub melds: usize,
    pub forms: Forms,
    /// Unseen copies of each kind at the start.
    pub unseen: &'a Counts,
    pub draws: u32,
    pub discards: bool,
}

struct State {
    hand: Counts,
    shanten: i8,
    /// Draws that lower shanten: (kind, the hands a discard can leave).
    improve: Vec<(usize, Vec<usize>)>,
    /// Ready: (kind, self-draw points, discard points).
    wins: Vec<(usize, Option<f64>, Option<f64>)>,
}

/// The chances of `start` under the model; `values` gives the wins of a
/// ready hand (called once per ready hand reached).
pub fn chances(
    start: Start<'_>,
    values: impl FnMut(&Counts) -> WinValues,
) -> Result<Chances, ChancesError> {
    solve(start, values).map(|(c, _)| c)
}

/// The discards the model's player makes (what [`solve`] chose): for a
/// simulation of the same model to follow.
pub struct Policy {
    index: HashMap<Counts, usize>,
    states: Vec<State>,
    after: Vec<Vec<f64>>,
}

impl Policy {
    /// The hand the player keeps in turn `k` (0-based) after drawing kind
    /// `y` into `hand`, when the draw lowers shanten.
    pub fn keep(&self, k: usize, hand: &Counts, y: usize) -> Option<Counts> {
        let st = &self.states[*self.index.get(hand)?];
        let (_, next) = st.improve.iter().find(|(kind, _)| *kind == y)?;
        Some(self.states[pick(next, &self.after[k])].hand)
    }
}

/// [`chances`] and the policy it found.
pub fn solve(
    start: Start<'_>,
    mut values: impl FnMut(&Counts) -> WinValues,
) -> Result<(Chances, Policy), ChancesError> {
    let s0 = shanten::shanten(start.hand, start.melds, start.forms).best;
    if s0 > MAX_SHANTEN {
        return Err(ChancesError::TooFar { shanten: s0 });
    }
    let draws = start.draws as usize;
    let (states, index) = graph(start, &mut values);

    // The pool's numerator of kind y for hand h: u0 + H0 - H.
    let weight = |h: &Counts, y: usize| -> f64 {
        f64::from(start.unseen[y]) + f64::from(start.hand[y]) - f64::from(h[y])
    };
    let pool: f64 = start.unseen.iter().map(|&u| f64::from(u)).sum();
    let turn = if start.discards { 4.0 } else { 1.0 };

    // Backward: v[k][i], the points expected from the start of turn k
    // (0-based) in state i; after[k][i], those expected once the player
    // has discarded in turn k, the others' discards still to come.
    let n = states.len();
    let mut v = vec![vec![0.0f64; n]; draws + 1];
    let mut after = vec![vec![0.0f64; n]; draws];
    for k in (0..draws).rev() {
        let left = pool - turn * k as f64;
        for i in 0..n {
            let st = &states[i];
            after[k][i] = others(st, left, start.discards, &weight, v[k + 1][i]);
        }
        for i in 0..n {
            let st = &states[i];
            if left < 1.0 {
                v[k][i] = 0.0;
                continue;
            }
            let (p_win, p_imp, scale) = draw_chances(st, left, &weight);
            let mut e = 0.0;
            for &(y, points, _) in &st.wins {
                let p = win_chance(st, y, points, left, &weight);
                e += p * scale * points.unwrap_or(0.0);
            }
            for (y, next) in &st.improve {
                let p = weight(&st.hand, *y) / left;
                e += p * scale * after[k][pick(next, &after[k])];
            }
            let stay = 1.0 - scale * (p_win + p_imp);
            e += stay * after[k][i];
            v[k][i] = e;
        }
    }

    // Forward: the distribution over states at the start of each turn.
    let mut dist = vec![0.0f64; n];
    dist[0] = 1.0;
    let (mut won, mut ready_by) = (0.0f64, Vec::with_capacity(draws));
    let mut win_by = Vec::with_capacity(draws);
    for (k, after_k) in after.iter().enumerate() {
        let left = pool - turn * k as f64;
        let mut next = vec![0.0f64; n];
        for i in 0..n {
            let m = dist[i];
            if m == 0.0 {
                continue;
            }
            if left < 1.0 {
                next[i] += m;
                continue;
            }
            let st = &states[i];
            let (p_win, p_imp, scale) = draw_chances(st, left, &weight);
            won += m * scale * p_win;
            let stay = m * (1.0 - scale * (p_win + p_imp));
            for (y, to) in &st.improve {
                let p = weight(&st.hand, *y) / left;
                let to = pick(to, after_k);
                let moved = m * p * scale;
                let keep = survive(&states[to], left, start.discards, &weight);
                won += moved * (1.0 - keep);
                next[to] += moved * keep;
            }
            let keep = survive(st, left, start.discards, &weight);
            won += stay * (1.0 - keep);
            next[i] += stay * keep;
        }
        dist = next;
        win_by.push(won.min(1.0));
        let ready: f64 = dist
            .iter()
            .zip(&states)
            .filter(|(_, s)| s.shanten <= 0)
            .map(|(m, _)| m)
            .sum();
        // A hand ready at the start has been ready all along (not a sum
        // that rounds below one).
        ready_by.push(if s0 <= 0 { 1.0 } else { (ready + won).min(1.0) });
    }
    let chances = Chances {
        ready: ready_by,
        win: win_by,
        expected_points: v[0][0],
    };
    Ok((
        chances,
        Policy {
            index,
            states,
            after,
        },
    ))
}

/// The discard the policy makes: of the hands `next` a kept draw can
/// leave, the one with the most points expected after it (ties to the
/// first, in tile order of the discard).
fn pick(next: &[usize], after: &[f64]) -> usize {
    let mut best = next[0];
    for &j in &next[1..] {
        if after[j] > after[best] {
            best = j;
        }
    }
    best
}

/// The chance of a winning draw of kind `y` from `st` out of a pool of
/// `left` tiles; 0 where the win does not count.
fn win_chance(
    st: &State,
    y: usize,
    points: Option<f64>,
    left: f64,
    weight: &impl Fn(&Counts, usize) -> f64,
) -> f64 {
    if points.is_some() {
        weight(&st.hand, y) / left
    } else {
        0.0
    }
}

/// The chances of a winning and of an improving draw from `st` out of a
/// pool of `left` tiles (each the sum of its kinds' chances, added in tile
/// order), and the scale that keeps their sum within one.
fn draw_chances(st: &State, left: f64, weight: &impl Fn(&Counts, usize) -> f64) -> (f64, f64, f64) {
    let p_win: f64 = st
        .wins
        .iter()
        .map(|&(y, points, _)| win_chance(st, y, points, left, weight))
        .sum();
    let p_imp: f64 = st
        .improve
        .iter()
        .map(|&(y, _)| weight(&st.hand, y) / left)
        .sum();
    let sum = p_win + p_imp;
    (p_win, p_imp, if sum > 1.0 { 1.0 / sum } else { 1.0 })
}

/// The chance that none of the three others' discards wins for `st`, in a
/// turn whose player drew from `left` tiles.
fn survive(st: &State, left: f64, discards: bool, weight: &impl Fn(&Counts, usize) -> f64) -> f64 {
    survive_of(&st.hand, &st.wins, left, discards, weight)
}

/// [`survive`] of a hand and its wins.
pub(super) fn survive_of(
    hand: &Counts,
    wins: &[(usize, Option<f64>, Option<f64>)],
    left: f64,
    discards: bool,
    weight: &impl Fn(&Counts, usize) -> f64,
) -> f64 {
    if !discards || wins.is_empty() {
        return 1.0;
    }
    let hits: f64 = wins
        .iter()
        .filter(|w| w.2.is_some())
        .map(|&(y, _, _)| weight(hand, y))
        .sum();
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
/// discards may win, then the next turn (`next`).
fn others(
    st: &State,
    left: f64,
    discards: bool,
    weight: &impl Fn(&Counts, usize) -> f64,
    next: f64,
) -> f64 {
    others_of(&st.hand, &st.wins, left, discards, weight, next)
}

/// [`others`] of a hand and its wins.
pub(super) fn others_of(
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

/// Every hand the policy can reach from the start, the start first.
fn graph(
    start: Start<'_>,
    values: &mut impl FnMut(&Counts) -> WinValues,
) -> (Vec<State>, HashMap<Counts, usize>) {
    let mut index: HashMap<Counts, usize> = HashMap::new();
    let mut states: Vec<State> = Vec::new();
    let mut todo = vec![*start.hand];
    index.insert(*start.hand, 0);
    states.push(blank(*start.hand, &start));
    while let Some(h) = todo.pop() {
        let i = index[&h];
        let s = states[i].shanten;
        if s <= 0 {
            states[i].wins = values(&h).wins;
            continue;
        }
        let mut improve = Vec::new();
        // One combination of the suits gives the draws that lower shanten,
        // and one per such draw the discards that keep the new shanten.
        let (_, need) = shanten::necessary(&h, start.melds, start.forms);
        for y in shanten::kinds_of(need) {
            if f64::from(start.unseen[y]) + f64::from(start.hand[y]) - f64::from(h[y]) <= 0.0 {
                continue;
            }
            let mut drawn = h;
            drawn[y] += 1;
            let (_, keep) = shanten::unneeded(&drawn, start.melds, start.forms);
            let mut next = Vec::new();
            for d in shanten::kinds_of(keep) {
                let mut left = drawn;
                left[d] -= 1;
                let j = *index.entry(left).or_insert_with(|| {
                    states.push(State {
                        hand: left,
                        shanten: s - 1,
                        improve: Vec::new(),
                        wins: Vec::new(),
                    });
                    todo.push(left);
                    states.len() - 1
                });
                next.push(j);
            }
            improve.push((y, next));
        }
        states[i].improve = improve;
    }
    (states, index)
}

fn blank(hand: Counts, start: &Start<'_>) -> State {
    State {
        hand,
        shanten: shanten::shanten(&hand, start.melds, start.forms).best,
        improve: Vec::new(),
        wins: Vec::new(),
    }
}
