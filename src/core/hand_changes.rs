//! The chances of a hand when the player may change it: keep a drawn tile
//! that does not lower shanten and throw another (a swap, mahjong-cpp's
//! tegawari), and, where asked, throw a tile that raises shanten by one
//! (its shanten-down). nekobean/mahjong-cpp's expected-score graph with
//! `extra` 1, exactly; docs/analysis.md states the model.
//!
//! Two kinds of state: 13-tile hands before a draw and 14-tile hands
//! before a discard. With `s₀` the start's shanten and `d(X)` the tiles of
//! `X` beyond the start hand, a state is *on course* when `d(X) + s(X) =
//! s₀` (every tile kept so far lowered shanten):
//!
//! - a 13-tile hand keeps a drawn kind that lowers its shanten, and, on
//!   course with swaps on, any kind;
//! - a 14-tile hand throws a kind that keeps its shanten, and, on course
//!   with shanten-down on, any kind;
//! - the states are those reached from the start by these moves, and a
//!   13-tile hand `A` and a 14-tile hand `B = A + y` are linked when either
//!   rule gives the move: `A` may keep `y`, or `B` may throw `y`. From `A`,
//!   a draw of `y` linked to `B` is kept when that gains (the player then
//!   throws to the linked 13-tile hand with the most points expected,
//!   `A` itself among them); a draw that completes `A` and counts is a win.
//!
//! The values follow mahjong-cpp's recursion: the points expected in turn
//! `k` are those of staying, plus each linked draw's weight over the pool
//! times what keeping it gains over staying. The weights are the unseen
//! copies `u₀(y) + H₀(y) − H(y)` and the pool shrinks by one a draw (four a
//! turn with the others' discards); where every kind is linked the weights
//! add up past the pool, and the share of staying goes below zero, as in
//! mahjong-cpp.

use super::chances::{others_of, survive_of, Chances, ChancesError, Start, WinValues, MAX_SHANTEN};
use super::shanten;
use super::tile::{Counts, KINDS};
use std::collections::HashMap;

/// Most states (13- and 14-tile hands together) one graph may hold: the
/// bound on a request's time and memory with hand changes on.
pub const MAX_STATES: usize = 400_000;

/// Which changes the player may make.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Keep a draw that does not lower shanten and throw another tile.
    pub swaps: bool,
    /// Throw a tile that raises shanten by one.
    pub shanten_down: bool,
}

impl Changes {
    /// Whether any change is allowed (else the model of [`super::chances`]).
    pub fn any(self) -> bool {
        self.swaps || self.shanten_down
    }
}

/// A 13-tile hand before its draw.
struct Draw {
    hand: Counts,
    shanten: i8,
    /// Kinds with a link (bit a kind), so that none is linked twice.
    linked: u64,
    /// Links: (kind drawn, 14-tile state, weight).
    links: Vec<(u8, u32, f64)>,
    /// Ready: (kind, self-draw points, discard points).
    wins: Vec<(usize, Option<f64>, Option<f64>)>,
}

/// A 14-tile hand before its discard.
struct Discard {
    hand: Counts,
    complete: bool,
    /// The 13-tile states linked to it.
    sources: Vec<u32>,
}

/// Packs counts of at most 4 into three bits each.
fn key(c: &Counts) -> u128 {
    c.iter()
        .enumerate()
        .fold(0u128, |k, (i, &n)| k | (u128::from(n) << (3 * i)))
}

fn beyond(c: &Counts, start: &Counts) -> i8 {
    c.iter()
        .zip(start)
        .map(|(&a, &b)| i8::try_from(a.saturating_sub(b)).unwrap_or(i8::MAX))
        .sum()
}

struct Graph {
    draws: Vec<Draw>,
    discards: Vec<Discard>,
}

struct Builder<'a> {
    start: Start<'a>,
    max_states: usize,
    changes: Changes,
    s0: i8,
    g: Graph,
    draw_at: HashMap<u128, u32, foldhash::fast::FixedState>,
    discard_at: HashMap<u128, u32, foldhash::fast::FixedState>,
    todo_draw: Vec<u32>,
    todo_discard: Vec<u32>,
}

impl Builder<'_> {
    fn weight(&self, h: &Counts, y: usize) -> f64 {
        f64::from(self.start.unseen[y]) + f64::from(self.start.hand[y]) - f64::from(h[y])
    }

    fn states(&self) -> usize {
        self.g.draws.len() + self.g.discards.len()
    }

    fn draw_state(&mut self, hand: Counts) -> Result<u32, ChancesError> {
        if let Some(&i) = self.draw_at.get(&key(&hand)) {
            return Ok(i);
        }
        self.check()?;
        let i = self.g.draws.len() as u32;
        self.g.draws.push(Draw {
            hand,
            shanten: 0,
            linked: 0,
            links: Vec::new(),
            wins: Vec::new(),
        });
        self.draw_at.insert(key(&hand), i);
        self.todo_draw.push(i);
        Ok(i)
    }

    fn discard_state(&mut self, hand: Counts) -> Result<u32, ChancesError> {
        if let Some(&i) = self.discard_at.get(&key(&hand)) {
            return Ok(i);
        }
        self.check()?;
        let i = self.g.discards.len() as u32;
        self.g.discards.push(Discard {
            hand,
            complete: false,
            sources: Vec::new(),
        });
        self.discard_at.insert(key(&hand), i);
        self.todo_discard.push(i);
        Ok(i)
    }

    fn check(&self) -> Result<(), ChancesError> {
        if self.states() >= self.max_states {
            Err(ChancesError::TooLarge {
                max: self.max_states,
            })
        } else {
            Ok(())
        }
    }

    fn link(&mut self, a: u32, y: usize, b: u32) {
        let d = &mut self.g.draws[a as usize];
        if d.linked >> y & 1 == 1 {
            return;
        }
        d.linked |= 1 << y;
        let w =
            f64::from(self.start.unseen[y]) + f64::from(self.start.hand[y]) - f64::from(d.hand[y]);
        d.links.push((y as u8, b, w));
        self.g.discards[b as usize].sources.push(a);
    }

    fn expand_draw(&mut self, a: u32) -> Result<(), ChancesError> {
        let h = self.g.draws[a as usize].hand;
        let (s, need) = shanten::necessary(&h, self.start.melds, self.start.forms);
        self.g.draws[a as usize].shanten = s.best;
        let on_course = beyond(&h, self.start.hand) + s.best == self.s0;
        let any = self.changes.swaps && on_course;
        for y in 0..KINDS {
            if self.weight(&h, y) <= 0.0 || !(any || need >> y & 1 == 1) {
                continue;
            }
            let mut b = h;
            b[y] += 1;
            let j = self.discard_state(b)?;
            self.link(a, y, j);
        }
        Ok(())
    }

    fn expand_discard(&mut self, b: u32) -> Result<(), ChancesError> {
        let h = self.g.discards[b as usize].hand;
        let (s, keep) = shanten::unneeded(&h, self.start.melds, self.start.forms);
        self.g.discards[b as usize].complete = s.best == -1;
        let on_course = beyond(&h, self.start.hand) + s.best == self.s0;
        let any = self.changes.shanten_down && on_course;
        for j in 0..KINDS {
            if h[j] == 0 || !(any || keep >> j & 1 == 1) {
                continue;
            }
            let mut a = h;
            a[j] -= 1;
            let i = self.draw_state(a)?;
            self.link(i, j, b);
        }
        Ok(())
    }
}

fn build(
    start: Start<'_>,
    changes: Changes,
    s0: i8,
    max_states: usize,
) -> Result<Graph, ChancesError> {
    let mut b = Builder {
        start,
        max_states,
        changes,
        s0,
        g: Graph {
            draws: Vec::new(),
            discards: Vec::new(),
        },
        draw_at: HashMap::default(),
        discard_at: HashMap::default(),
        todo_draw: Vec::new(),
        todo_discard: Vec::new(),
    };
    b.draw_state(*start.hand)?;
    loop {
        if let Some(a) = b.todo_draw.pop() {
            b.expand_draw(a)?;
        } else if let Some(d) = b.todo_discard.pop() {
            b.expand_discard(d)?;
        } else {
            break;
        }
    }
    Ok(b.g)
}

/// The chances of `start` when the player may make `changes`; `values`
/// gives the wins of a ready hand (called once per ready hand reached).
pub fn chances(
    start: Start<'_>,
    changes: Changes,
    values: impl FnMut(&Counts) -> WinValues,
) -> Result<Chances, ChancesError> {
    chances_within(start, changes, MAX_STATES, values)
}

/// [`chances`] with a graph of at most `max_states` states (past it,
/// [`ChancesError::TooLarge`]): the bound the tests lower to reach it.
pub fn chances_within(
    start: Start<'_>,
    changes: Changes,
    max_states: usize,
    mut values: impl FnMut(&Counts) -> WinValues,
) -> Result<Chances, ChancesError> {
    let s0 = shanten::shanten(start.hand, start.melds, start.forms).best;
    if s0 > MAX_SHANTEN {
        return Err(ChancesError::TooFar { shanten: s0 });
    }
    let mut g = build(start, changes, s0, max_states)?;
    for d in g.draws.iter_mut().filter(|d| d.shanten == 0) {
        d.wins = values(&d.hand).wins;
    }
    Ok(solve(&g, &start, s0))
}

/// The points of a win by self-draw of kind `y` for a ready hand.
fn self_draw(d: &Draw, y: u8) -> Option<f64> {
    d.wins
        .iter()
        .find(|w| w.0 == usize::from(y))
        .and_then(|w| w.1)
}

fn solve(g: &Graph, start: &Start<'_>, s0: i8) -> Chances {
    let draws = start.draws as usize;
    let n = g.draws.len();
    let pool: f64 = start.unseen.iter().map(|&u| f64::from(u)).sum();
    let turn = if start.discards { 4.0 } else { 1.0 };
    let weight = |h: &Counts, y: usize| -> f64 {
        f64::from(start.unseen[y]) + f64::from(start.hand[y]) - f64::from(h[y])
    };
    // Points of each link's win (None where it is not a win), worked once.
    let win_of: Vec<Vec<Option<f64>>> = g
        .draws
        .iter()
        .map(|d| {
            d.links
                .iter()
                .map(|&(y, b, _)| {
                    if g.discards[b as usize].complete {
                        self_draw(d, y)
                    } else {
                        None
                    }
                })
                .collect()
        })
        .collect();

    // Backward: after[k][i], the points expected once the player has
    // discarded in turn k into state i; best[b], the most of those among
    // the states linked to 14-tile state b.
    let mut v_next = vec![0.0f64; n];
    let mut v = vec![0.0f64; n];
    let mut after = vec![vec![0.0f64; n]; draws];
    let mut best = vec![0.0f64; g.discards.len()];
    for k in (0..draws).rev() {
        let left = pool - turn * k as f64;
        for (i, d) in g.draws.iter().enumerate() {
            after[k][i] = others_of(&d.hand, &d.wins, left, start.discards, &weight, v_next[i]);
        }
        let after_k = &after[k];
        for (b, disc) in g.discards.iter().enumerate() {
            best[b] = disc
                .sources
                .iter()
                .map(|&a| after_k[a as usize])
                .fold(f64::NEG_INFINITY, f64::max);
        }
        for (i, d) in g.draws.iter().enumerate() {
            if left < 1.0 {
                v[i] = 0.0;
                continue;
            }
            let stay = after_k[i];
            let mut e = stay;
            for (&(_, b, w), win) in d.links.iter().zip(&win_of[i]) {
                let go = best[b as usize];
                let t = match win {
                    Some(p) => p.max(go),
                    None => go,
                };
                e += w / left * (t - stay);
            }
            v[i] = e;
        }
        std::mem::swap(&mut v, &mut v_next);
    }
    let expected_points = v_next[0];

    // Forward, under the policy: `dist` over all states, `fresh` over the
    // mass never yet ready (dropped once it reaches a ready hand).
    let mut dist = vec![0.0f64; n];
    let mut fresh = vec![0.0f64; n];
    dist[0] = 1.0;
    if g.draws[0].shanten > 0 {
        fresh[0] = 1.0;
    }
    let mut won = 0.0f64;
    let (mut ready_by, mut win_by) = (Vec::with_capacity(draws), Vec::with_capacity(draws));
    let mut to_of = vec![0u32; g.discards.len()];
    for (k, after_k) in after.iter().enumerate() {
        let left = pool - turn * k as f64;
        for (b, disc) in g.discards.iter().enumerate() {
            let mut at = disc.sources[0];
            for &a in &disc.sources[1..] {
                if after_k[a as usize] > after_k[at as usize] {
                    at = a;
                }
            }
            to_of[b] = at;
        }
        let mut next = vec![0.0f64; n];
        let mut next_fresh = vec![0.0f64; n];
        for (i, d) in g.draws.iter().enumerate() {
            let (m, f) = (dist[i], fresh[i]);
            if m == 0.0 && f == 0.0 {
                continue;
            }
            if left < 1.0 {
                next[i] += m;
                next_fresh[i] += f;
                continue;
            }
            let (mut stay, mut stay_fresh) = (m, f);
            for (&(_, b, w), win) in d.links.iter().zip(&win_of[i]) {
                let p = w / left;
                let to = to_of[b as usize] as usize;
                stay -= m * p;
                stay_fresh -= f * p;
                if win.is_some_and(|pts| pts >= after_k[to]) {
                    won += m * p;
                    continue;
                }
                let keep = survive_of(
                    &g.draws[to].hand,
                    &g.draws[to].wins,
                    left,
                    start.discards,
                    &weight,
                );
                won += m * p * (1.0 - keep);
                next[to] += m * p * keep;
                if g.draws[to].shanten > 0 {
                    next_fresh[to] += f * p;
                }
            }
            let keep = survive_of(&d.hand, &d.wins, left, start.discards, &weight);
            won += stay * (1.0 - keep);
            next[i] += stay * keep;
            next_fresh[i] += stay_fresh;
        }
        dist = next;
        fresh = next_fresh;
        win_by.push(won.clamp(0.0, 1.0));
        let never: f64 = fresh.iter().sum();
        ready_by.push(if s0 <= 0 {
            1.0
        } else {
            (1.0 - never).clamp(0.0, 1.0)
        });
    }
    Chances {
        ready: ready_by,
        win: win_by,
        expected_points,
    }
}
