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

use super::chances::{
    key, others_of, shares, survive_hits, Chances, ChancesError, Start, WinValues, MAX_SHANTEN,
};
use super::shanten;
use super::tile::{Counts, KINDS};
use std::collections::hash_map::Entry;
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

type Win = (usize, Option<f64>, Option<f64>);

fn beyond(c: &Counts, start: &Counts) -> i8 {
    c.iter()
        .zip(start)
        .map(|(&a, &b)| i8::try_from(a.saturating_sub(b)).unwrap_or(i8::MAX))
        .sum()
}

/// The states and their links as the search made them.
struct Graph {
    /// 13-tile hands before their draw, with their shanten.
    hand: Vec<Counts>,
    shanten: Vec<i8>,
    /// 14-tile hands before their discard, and whether each is complete.
    full: Vec<Counts>,
    complete: Vec<bool>,
    /// (13-tile state, kind drawn, 14-tile state), in the order linked.
    links: Vec<(u32, u8, u32)>,
}

struct Builder<'a> {
    start: Start<'a>,
    max_states: usize,
    changes: Changes,
    s0: i8,
    g: Graph,
    /// Kinds linked from each 13-tile state (bit a kind), so that none is
    /// linked twice.
    linked: Vec<u64>,
    draw_at: HashMap<u128, u32, foldhash::fast::FixedState>,
    discard_at: HashMap<u128, u32, foldhash::fast::FixedState>,
    todo_draw: Vec<u32>,
    todo_discard: Vec<u32>,
}

impl Builder<'_> {
    fn full(&self) -> Result<(), ChancesError> {
        if self.g.hand.len() + self.g.full.len() >= self.max_states {
            Err(ChancesError::TooLarge {
                max: self.max_states,
            })
        } else {
            Ok(())
        }
    }

    /// The 13-tile state of `hand`, whose shanten `s` its 14-tile parent's
    /// discards gave.
    fn draw_state(&mut self, hand: Counts, s: i8) -> Result<u32, ChancesError> {
        let room = self.full();
        match self.draw_at.entry(key(&hand)) {
            Entry::Occupied(e) => Ok(*e.get()),
            Entry::Vacant(e) => {
                room?;
                let i = self.g.hand.len() as u32;
                e.insert(i);
                self.g.hand.push(hand);
                self.g.shanten.push(s);
                self.linked.push(0);
                self.todo_draw.push(i);
                Ok(i)
            }
        }
    }

    fn discard_state(&mut self, hand: Counts) -> Result<u32, ChancesError> {
        let room = self.full();
        match self.discard_at.entry(key(&hand)) {
            Entry::Occupied(e) => Ok(*e.get()),
            Entry::Vacant(e) => {
                room?;
                let i = self.g.full.len() as u32;
                e.insert(i);
                self.g.full.push(hand);
                self.g.complete.push(false);
                self.todo_discard.push(i);
                Ok(i)
            }
        }
    }

    fn link(&mut self, a: u32, y: usize, b: u32) {
        let l = &mut self.linked[a as usize];
        if *l >> y & 1 == 1 {
            return;
        }
        *l |= 1 << y;
        self.g.links.push((a, y as u8, b));
    }

    fn expand_draw(&mut self, a: u32) -> Result<(), ChancesError> {
        let h = self.g.hand[a as usize];
        let s = self.g.shanten[a as usize];
        debug_assert_eq!(
            shanten::shanten(&h, self.start.melds, self.start.forms).best,
            s
        );
        let on_course = beyond(&h, self.start.hand) + s == self.s0;
        // On course with swaps every kind is kept: the draws that lower
        // shanten are not needed.
        let any = self.changes.swaps && on_course;
        let need = if any {
            u64::MAX
        } else {
            let (t, need) = shanten::necessary(&h, self.start.melds, self.start.forms);
            debug_assert_eq!(t.best, s);
            need
        };
        for y in 0..KINDS {
            // No copy left to draw.
            if self.start.unseen[y] + self.start.hand[y] <= h[y] || need >> y & 1 == 0 {
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
        let h = self.g.full[b as usize];
        let (s, keep) = shanten::unneeded(&h, self.start.melds, self.start.forms);
        let s = s.best;
        self.g.complete[b as usize] = s == -1;
        let on_course = beyond(&h, self.start.hand) + s == self.s0;
        let any = self.changes.shanten_down && on_course;
        for j in 0..KINDS {
            if h[j] == 0 || !(any || keep >> j & 1 == 1) {
                continue;
            }
            let mut a = h;
            a[j] -= 1;
            // A discard that does not keep shanten raises it by one.
            let i = self.draw_state(a, s + i8::from(keep >> j & 1 == 0))?;
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
    // Room for the states a hand this far from ready usually reaches, so
    // that the maps seldom grow (each growth hashes every key again).
    let room = (256usize << (2 * s0.max(0))).min(max_states);
    let mut b = Builder {
        start,
        max_states,
        changes,
        s0,
        g: Graph {
            hand: Vec::new(),
            shanten: Vec::new(),
            full: Vec::new(),
            complete: Vec::new(),
            links: Vec::new(),
        },
        linked: Vec::new(),
        draw_at: HashMap::with_capacity_and_hasher(room / 2, Default::default()),
        discard_at: HashMap::with_capacity_and_hasher(room, Default::default()),
        todo_draw: Vec::new(),
        todo_discard: Vec::new(),
    };
    b.draw_state(*start.hand, s0)?;
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
    let g = build(start, changes, s0, max_states)?;
    let wins: Vec<Vec<Win>> = g
        .hand
        .iter()
        .zip(&g.shanten)
        .map(|(h, &s)| if s == 0 { values(h).wins } else { Vec::new() })
        .collect();
    let l = Laid::new(&g, &start, &wins);
    drop(g.links);
    Ok(passes(&g.shanten, &g.hand, &wins, &l, &start, s0))
}

/// One link as the passes read it.
#[derive(Clone, Copy)]
struct Edge {
    /// The weight of its kind (`u₀ + H₀ − H`, 1 to 4).
    w: u8,
    /// The 14-tile state.
    to: u32,
    /// The points of the win it makes, where it is one that counts; else
    /// minus infinity, which never beats going on.
    win: f64,
}

/// The links by 13-tile state (`edge[edge_at[i]..edge_at[i + 1]]`, in the
/// order linked) and by 14-tile state (`source`), laid out once.
struct Laid {
    edge_at: Vec<u32>,
    edge: Vec<Edge>,
    source_at: Vec<u32>,
    source: Vec<u32>,
}

impl Laid {
    fn new(g: &Graph, start: &Start<'_>, wins: &[Vec<Win>]) -> Laid {
        let (n, nd) = (g.hand.len(), g.full.len());
        // Counting sorts, stable, so that each state keeps its links' order.
        let mut edge_at = vec![0u32; n + 1];
        let mut source_at = vec![0u32; nd + 1];
        for &(a, _, b) in &g.links {
            edge_at[a as usize + 1] += 1;
            source_at[b as usize + 1] += 1;
        }
        for i in 0..n {
            edge_at[i + 1] += edge_at[i];
        }
        for b in 0..nd {
            source_at[b + 1] += source_at[b];
        }
        let mut fill_e = edge_at.clone();
        let mut fill_s = source_at.clone();
        let none = Edge {
            w: 0,
            to: 0,
            win: f64::NEG_INFINITY,
        };
        let mut edge = vec![none; g.links.len()];
        let mut source = vec![0u32; g.links.len()];
        for &(a, y, b) in &g.links {
            let (ai, yi) = (a as usize, usize::from(y));
            let h = &g.hand[ai];
            let win = if g.complete[b as usize] {
                wins[ai]
                    .iter()
                    .find(|w| w.0 == yi)
                    .and_then(|w| w.1)
                    .unwrap_or(f64::NEG_INFINITY)
            } else {
                f64::NEG_INFINITY
            };
            edge[fill_e[ai] as usize] = Edge {
                w: (start.unseen[yi] + start.hand[yi])
                    .saturating_sub(h[yi])
                    .min(4),
                to: b,
                win,
            };
            fill_e[ai] += 1;
            source[fill_s[b as usize] as usize] = a;
            fill_s[b as usize] += 1;
        }
        Laid {
            edge_at,
            edge,
            source_at,
            source,
        }
    }

    fn edges(&self, i: usize) -> &[Edge] {
        &self.edge[self.edge_at[i] as usize..self.edge_at[i + 1] as usize]
    }

    fn sources(&self, b: usize) -> &[u32] {
        &self.source[self.source_at[b] as usize..self.source_at[b + 1] as usize]
    }
}

fn passes(
    shanten: &[i8],
    hand: &[Counts],
    wins: &[Vec<Win>],
    l: &Laid,
    start: &Start<'_>,
    s0: i8,
) -> Chances {
    let draws = start.draws as usize;
    let (n, nd) = (hand.len(), l.source_at.len() - 1);
    let pool: f64 = start.unseen.iter().map(|&u| f64::from(u)).sum();
    let turn = if start.discards { 4.0 } else { 1.0 };
    let weight = |h: &Counts, y: usize| -> f64 {
        f64::from(start.unseen[y]) + f64::from(start.hand[y]) - f64::from(h[y])
    };

    // Backward: after_rev[draws - 1 - k][i], the points expected once the
    // player has discarded in turn k into state i (without the others'
    // discards, v[k + 1][i], moved, not copied); best_at[(draws - 1 - k)
    // * nd + b], the linked 13-tile state with the most of those (the
    // first in the order linked), best_v its points.
    let mut v_next = vec![0.0f64; n];
    let mut after_rev: Vec<Vec<f64>> = Vec::with_capacity(draws);
    let mut best_at: Vec<u32> = Vec::with_capacity(nd * draws);
    let mut best_v = vec![0.0f64; nd];
    for k in (0..draws).rev() {
        let left = pool - turn * k as f64;
        let after_k = if start.discards {
            (0..n)
                .map(|i| others_of(&hand[i], &wins[i], left, true, &weight, v_next[i]))
                .collect()
        } else {
            v_next
        };
        if left < 1.0 {
            best_at.extend(std::iter::repeat_n(0, nd));
            v_next = vec![0.0f64; n];
            after_rev.push(after_k);
            continue;
        }
        for (b, bv) in best_v.iter_mut().enumerate() {
            let s = l.sources(b);
            let mut at = s[0];
            let mut v = after_k[at as usize];
            for &a in &s[1..] {
                if after_k[a as usize] > v {
                    at = a;
                    v = after_k[a as usize];
                }
            }
            best_at.push(at);
            *bv = v;
        }
        let q = shares(left);
        let mut row = Vec::with_capacity(n);
        for (i, &stay) in after_k.iter().enumerate() {
            let mut e = stay;
            for x in l.edges(i) {
                let t = x.win.max(best_v[x.to as usize]);
                e += q[usize::from(x.w & 7)] * (t - stay);
            }
            row.push(e);
        }
        v_next = row;
        after_rev.push(after_k);
    }
    let expected_points = v_next[0];

    // The weight of each ready hand's wins on a discard, for the chance
    // that the others' discards do not win for it.
    let hits: Vec<f64> = hand
        .iter()
        .zip(wins)
        .map(|(h, w)| {
            w.iter()
                .filter(|w| w.2.is_some())
                .map(|&(y, _, _)| weight(h, y))
                .sum()
        })
        .collect();
    let survive = |i: usize, left: f64| {
        if !start.discards || wins[i].is_empty() {
            1.0
        } else {
            survive_hits(hits[i], left)
        }
    };

    // Forward, under the policy: `dist` over all states, `fresh` over the
    // mass never yet ready (dropped once it reaches a ready hand).
    let mut dist = vec![0.0f64; n];
    let mut fresh = vec![0.0f64; n];
    let mut next = vec![0.0f64; n];
    let mut next_fresh = vec![0.0f64; n];
    dist[0] = 1.0;
    if shanten[0] > 0 {
        fresh[0] = 1.0;
    }
    let mut won = 0.0f64;
    let (mut ready_by, mut win_by) = (Vec::with_capacity(draws), Vec::with_capacity(draws));
    for k in 0..draws {
        let left = pool - turn * k as f64;
        let r = draws - 1 - k;
        let after_k = &after_rev[r];
        let best_k = &best_at[r * nd..(r + 1) * nd];
        let q = shares(left);
        next.fill(0.0);
        next_fresh.fill(0.0);
        for i in 0..n {
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
            for x in l.edges(i) {
                let p = q[usize::from(x.w & 7)];
                let to = best_k[x.to as usize] as usize;
                stay -= m * p;
                stay_fresh -= f * p;
                if x.win >= after_k[to] {
                    won += m * p;
                    continue;
                }
                if start.discards {
                    let keep = survive(to, left);
                    won += m * p * (1.0 - keep);
                    next[to] += m * p * keep;
                } else {
                    next[to] += m * p;
                }
                if shanten[to] > 0 {
                    next_fresh[to] += f * p;
                }
            }
            if start.discards {
                let keep = survive(i, left);
                won += stay * (1.0 - keep);
                next[i] += stay * keep;
            } else {
                next[i] += stay;
            }
            next_fresh[i] += stay_fresh;
        }
        std::mem::swap(&mut dist, &mut next);
        std::mem::swap(&mut fresh, &mut next_fresh);
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
