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
    key, passes, Chances, ChancesError, Found, Gain, Graph, Hands, Start, Win, WinValues, Wins,
    MAX_SHANTEN,
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

fn beyond(c: &Counts, start: &Counts) -> i8 {
    c.iter()
        .zip(start)
        .map(|(&a, &b)| i8::try_from(a.saturating_sub(b)).unwrap_or(i8::MAX))
        .sum()
}

/// The states and their links as the search made them.
struct States {
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
    g: States,
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
) -> Result<States, ChancesError> {
    // Room for the states a hand this far from ready usually reaches, so
    // that the maps seldom grow (each growth hashes every key again).
    let room = (256usize << (2 * s0.max(0))).min(max_states);
    let mut b = Builder {
        start,
        max_states,
        changes,
        s0,
        g: States {
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
    let mut hands = Hands::new(start.melds, start.forms, start.unseen, start.hand, 0);
    solve(&mut hands, start, changes, max_states, &mut values)
}

/// The chances of `start`, its ready hands scored once in `hands`.
pub(super) fn solve(
    hands: &mut Hands<'_>,
    start: Start<'_>,
    changes: Changes,
    max_states: usize,
    values: &mut impl FnMut(&Counts) -> WinValues,
) -> Result<Chances, ChancesError> {
    let s0 = shanten::shanten(start.hand, start.melds, start.forms).best;
    if s0 > MAX_SHANTEN {
        return Err(ChancesError::TooFar { shanten: s0 });
    }
    let g = build(start, changes, s0, max_states)?;
    const NONE: u32 = u32::MAX;
    let ready: Vec<u32> = g
        .hand
        .iter()
        .zip(&g.shanten)
        .map(|(h, &s)| if s == 0 { hands.ready(h, values) } else { NONE })
        .collect();
    let wins: Vec<&[Win]> = ready
        .iter()
        .map(|&i| if i == NONE { &[][..] } else { hands.wins(i) })
        .collect();
    let complete = g.complete;
    let found = lay(g.hand, g.shanten, complete.len(), g.links);
    let g = Graph::lay(&start, found, wins, Wins::OnKeeps(&complete));
    Ok(passes::<Gain>(&start, s0, &g, false).0)
}

/// The links by 13-tile state (in the order linked) as keeps, and by
/// 14-tile state as throws: counting sorts, stable, so that each state
/// keeps its links' order.
fn lay(hand: Vec<Counts>, shanten: Vec<i8>, nd: usize, links: Vec<(u32, u8, u32)>) -> Found {
    let n = hand.len();
    let mut keep_at = vec![0u32; n + 1];
    let mut throw_at = vec![0u32; nd + 1];
    for &(a, _, b) in &links {
        keep_at[a as usize + 1] += 1;
        throw_at[b as usize + 1] += 1;
    }
    for i in 0..n {
        keep_at[i + 1] += keep_at[i];
    }
    for b in 0..nd {
        throw_at[b + 1] += throw_at[b];
    }
    let mut fill_k = keep_at.clone();
    let mut fill_t = throw_at.clone();
    let mut keep = vec![(0u8, 0u32); links.len()];
    let mut throw = vec![0u32; links.len()];
    for &(a, y, b) in &links {
        keep[fill_k[a as usize] as usize] = (y, b);
        fill_k[a as usize] += 1;
        throw[fill_t[b as usize] as usize] = a;
        fill_t[b as usize] += 1;
    }
    Found {
        hand,
        shanten,
        keep_at,
        keep,
        throw_at,
        throw,
    }
}
