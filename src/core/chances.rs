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
use std::collections::hash_map::Entry;
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

type Win = (usize, Option<f64>, Option<f64>);

/// Packs counts of at most 4 into three bits each, eight kinds a word
/// folded in three shifts: a key hashed in a few instructions.
pub(super) fn key(c: &Counts) -> u128 {
    let pack = |at: usize| -> u128 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&c[at..at + 8]);
        let x = u64::from_le_bytes(b);
        let x = (x & 0x00FF_00FF_00FF_00FF) | ((x & 0xFF00_FF00_FF00_FF00) >> 5);
        let x = (x & 0x0000_FFFF_0000_FFFF) | ((x & 0xFFFF_0000_FFFF_0000) >> 10);
        u128::from((x & 0xFFFF_FFFF) | (x >> 20))
    };
    pack(0)
        | pack(8) << 24
        | pack(16) << 48
        | pack(24) << 72
        | u128::from(c[32]) << 96
        | u128::from(c[33]) << 99
}

/// A hand of the shared graph ([`Graph`]): its shanten, its draws that
/// lower shanten, each with the 14-tile hand it makes (expanded when a
/// search first needs them), and, ready, its wins.
struct Node {
    hand: Counts,
    shanten: i8,
    expanded: bool,
    /// `Graph::improve[a..b]`: (kind, the 14-tile hand the draw makes, in
    /// [`Graph::drawn`]).
    improve: (u32, u32),
    wins: Vec<Win>,
}

/// The hands every start of one analysis can reach, shared by its starts
/// (the 13-tile hands a 14-tile hand's discards leave), as mahjong-cpp
/// shares one graph across a hand's discards: a hand reached from two
/// starts is searched and scored once. The draws kept from a hand are
/// those that lower shanten with a copy left for *some* start (the pool's
/// numerator `u₀(y) + H(y) − h(y)`, `H` the 14 tiles, is at least any
/// start's); each start's own search leaves out the draws with no copy
/// left for it, so every start sees exactly the graph it would have alone,
/// in the same order, and its figures are the same to the bit.
///
/// A 14-tile hand after a kept draw is a node of its own, with the hands
/// its discards keeping shanten leave: many 13-tile hands draw into the
/// same one, and its discards are found once and, in each turn, the best
/// of them chosen once.
pub struct Graph<'a> {
    melds: usize,
    forms: Forms,
    unseen: &'a Counts,
    /// The most of each kind a start holds (the 14-tile hand, or the
    /// 13-tile start itself).
    most: Counts,
    index: HashMap<u128, u32, foldhash::fast::FixedState>,
    nodes: Vec<Node>,
    improve: Vec<(u8, u32)>,
    drawn_index: HashMap<u128, u32, foldhash::fast::FixedState>,
    /// `drawn_next[drawn_at[d]..drawn_at[d + 1]]`: the nodes 14-tile hand
    /// `d`'s discards keeping its shanten leave, in tile order.
    drawn_at: Vec<u32>,
    drawn_next: Vec<u32>,
}

/// One start's graph: its hands in the order its own search reached
/// them (the start first), with their draws that lower shanten.
struct Local {
    node: Vec<u32>,
    shanten: Vec<i8>,
    hand: Vec<Counts>,
    /// `imp[imp_at[i]..imp_at[i + 1]]`: hand `i`'s kept draws, each a kind
    /// and the local 14-tile hand it makes.
    imp_at: Vec<u32>,
    imp: Vec<(u8, u32)>,
    /// `next[next_at[d]..next_at[d + 1]]`: local 14-tile hand `d`'s
    /// discards, as local hands.
    next_at: Vec<u32>,
    next: Vec<u32>,
}

impl Local {
    fn len(&self) -> usize {
        self.node.len()
    }

    fn drawn(&self) -> usize {
        self.next_at.len() - 1
    }

    fn next(&self, d: u32) -> &[u32] {
        &self.next[self.next_at[d as usize] as usize..self.next_at[d as usize + 1] as usize]
    }

    fn improve(&self, i: usize) -> impl Iterator<Item = (usize, &[u32])> + '_ {
        self.imp[self.imp_at[i] as usize..self.imp_at[i + 1] as usize]
            .iter()
            .map(|&(y, d)| (usize::from(y), self.next(d)))
    }
}

impl<'a> Graph<'a> {
    /// An empty graph for the starts of one analysis: `most` holds, of
    /// each kind, the most any start holds; `unseen` is the same for all;
    /// `farthest` is the most shanten of a start, which sizes the graph.
    pub fn new(
        melds: usize,
        forms: Forms,
        unseen: &'a Counts,
        most: &Counts,
        farthest: i8,
    ) -> Graph<'a> {
        // Room for the hands a start this far from ready usually reaches
        // (about 6, 90 and 950 at one, two and three from ready), so that
        // the maps seldom grow: each growth hashes every key again.
        let room = 8usize << (3 * farthest.clamp(0, MAX_SHANTEN) as usize);
        Graph {
            melds,
            forms,
            unseen,
            most: *most,
            index: HashMap::with_capacity_and_hasher(room, Default::default()),
            nodes: Vec::with_capacity(room),
            improve: Vec::with_capacity(2 * room),
            drawn_index: HashMap::with_capacity_and_hasher(2 * room, Default::default()),
            drawn_at: Vec::with_capacity(2 * room),
            drawn_next: Vec::with_capacity(4 * room),
        }
        .started()
    }

    fn started(mut self) -> Self {
        self.drawn_at.push(0);
        self
    }

    fn node(&mut self, hand: Counts, shanten: impl FnOnce() -> i8) -> u32 {
        node_in(&mut self.index, &mut self.nodes, hand, shanten)
    }

    /// The 14-tile hand `drawn` (of shanten `s`) and its discards that keep
    /// it, found once.
    fn drawn(&mut self, drawn: Counts, s: i8) -> u32 {
        let d = self.drawn_at.len() as u32 - 1;
        match self.drawn_index.entry(key(&drawn)) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                e.insert(d);
                let (_, keep) = shanten::unneeded(&drawn, self.melds, self.forms);
                for k in shanten::kinds_of(keep) {
                    let mut left = drawn;
                    left[k] -= 1;
                    let j = node_in(&mut self.index, &mut self.nodes, left, || s);
                    self.drawn_next.push(j);
                }
                self.drawn_at.push(self.drawn_next.len() as u32);
                d
            }
        }
    }

    /// One combination of the suits gives the draws that lower shanten,
    /// and one per new 14-tile hand the discards that keep its shanten.
    fn expand(&mut self, i: u32, values: &mut impl FnMut(&Counts) -> WinValues) {
        let n = &self.nodes[i as usize];
        if n.expanded {
            return;
        }
        let (h, s) = (n.hand, n.shanten);
        if s <= 0 {
            self.nodes[i as usize].wins = values(&h).wins;
            self.nodes[i as usize].expanded = true;
            return;
        }
        let a = self.improve.len() as u32;
        let (_, need) = shanten::necessary(&h, self.melds, self.forms);
        for y in shanten::kinds_of(need) {
            if f64::from(self.unseen[y]) + f64::from(self.most[y]) - f64::from(h[y]) <= 0.0 {
                continue;
            }
            let mut drawn = h;
            drawn[y] += 1;
            let d = self.drawn(drawn, s - 1);
            self.improve.push((y as u8, d));
        }
        let n = &mut self.nodes[i as usize];
        n.improve = (a, self.improve.len() as u32);
        n.expanded = true;
    }

    /// `start`'s own graph, searched as it would be alone: depth first
    /// from the start, each hand's kept draws in tile order and their
    /// discards in tile order, a draw with no copy left for it skipped.
    #[inline(never)]
    fn local(
        &mut self,
        start: &Start<'_>,
        s0: i8,
        values: &mut impl FnMut(&Counts) -> WinValues,
    ) -> Local {
        const NONE: u32 = u32::MAX;
        let root = self.node(*start.hand, || s0);
        // Global node and 14-tile hand to local, NONE where not reached.
        // Sized as the graph so far (a start's graph is seldom larger), or
        // as its room before the first start.
        let grown = |len: usize, room: usize| len.max(room / 4);
        let mut at: Vec<u32> = Vec::with_capacity(self.nodes.capacity());
        let mut drawn_at: Vec<u32> = Vec::new();
        let mut l = Local {
            node: Vec::with_capacity(grown(self.nodes.len(), self.nodes.capacity())),
            shanten: Vec::new(),
            hand: Vec::new(),
            imp_at: Vec::new(),
            imp: Vec::with_capacity(grown(self.improve.len(), self.improve.capacity())),
            next_at: Vec::with_capacity(grown(self.drawn_at.len(), self.drawn_at.capacity())),
            next: Vec::with_capacity(grown(self.drawn_next.len(), self.drawn_next.capacity())),
        };
        l.node.push(root);
        l.next_at.push(0);
        let mut todo = Vec::with_capacity(64);
        todo.push(root);
        at.resize(self.nodes.len(), NONE);
        at[root as usize] = 0;
        let weight = |h: &Counts, y: usize| {
            f64::from(start.unseen[y]) + f64::from(start.hand[y]) - f64::from(h[y])
        };
        while let Some(g) = todo.pop() {
            self.expand(g, values);
            at.resize(self.nodes.len(), NONE);
            let n = &self.nodes[g as usize];
            if n.shanten <= 0 {
                continue;
            }
            let (a, b) = n.improve;
            for &(y, d) in &self.improve[a as usize..b as usize] {
                if weight(&n.hand, usize::from(y)) <= 0.0 {
                    continue;
                }
                let (a, b) = (self.drawn_at[d as usize], self.drawn_at[d as usize + 1]);
                for &j in &self.drawn_next[a as usize..b as usize] {
                    if at[j as usize] == NONE {
                        at[j as usize] = l.node.len() as u32;
                        l.node.push(j);
                        todo.push(j);
                    }
                }
            }
        }
        // The draws and discards in the start's own numbering.
        drawn_at.resize(self.drawn_at.len() - 1, NONE);
        l.shanten.reserve_exact(l.node.len());
        l.hand.reserve_exact(l.node.len());
        l.imp_at.reserve_exact(l.node.len() + 1);
        for &g in &l.node {
            let n = &self.nodes[g as usize];
            l.shanten.push(n.shanten);
            l.hand.push(n.hand);
            l.imp_at.push(l.imp.len() as u32);
            if n.shanten <= 0 {
                continue;
            }
            let (a, b) = n.improve;
            for &(y, d) in &self.improve[a as usize..b as usize] {
                if weight(&n.hand, usize::from(y)) <= 0.0 {
                    continue;
                }
                if drawn_at[d as usize] == NONE {
                    drawn_at[d as usize] = l.next_at.len() as u32 - 1;
                    let (a, b) = (self.drawn_at[d as usize], self.drawn_at[d as usize + 1]);
                    l.next.extend(
                        self.drawn_next[a as usize..b as usize]
                            .iter()
                            .map(|&j| at[j as usize]),
                    );
                    l.next_at.push(l.next.len() as u32);
                }
                l.imp.push((y, drawn_at[d as usize]));
            }
        }
        l.imp_at.push(l.imp.len() as u32);
        l
    }

    /// The chances of `start` (whose `unseen` and `melds` must be the
    /// graph's, and whose hand holds no kind past `most`).
    pub fn chances(
        &mut self,
        start: Start<'_>,
        mut values: impl FnMut(&Counts) -> WinValues,
    ) -> Result<Chances, ChancesError> {
        self.solve(start, &mut values, false).map(|(c, _, _)| c)
    }

    /// The chances of `start`, its graph, and with `keep_after` the points
    /// expected after each turn's discard (for [`Policy`]).
    fn solve(
        &mut self,
        start: Start<'_>,
        values: &mut impl FnMut(&Counts) -> WinValues,
        keep_after: bool,
    ) -> Result<(Chances, Local, Vec<Vec<f64>>), ChancesError> {
        let s0 = shanten::shanten(start.hand, start.melds, start.forms).best;
        if s0 > MAX_SHANTEN {
            return Err(ChancesError::TooFar { shanten: s0 });
        }
        let l = self.local(&start, s0, values);
        let wins: Vec<&[Win]> = l
            .node
            .iter()
            .map(|&g| self.nodes[g as usize].wins.as_slice())
            .collect();
        let (c, after) = passes(&start, s0, &l, &wins, keep_after);
        Ok((c, l, after))
    }
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
    local: Local,
    after: Vec<Vec<f64>>,
}

impl Policy {
    /// The hand the player keeps in turn `k` (0-based) after drawing kind
    /// `y` into `hand`, when the draw lowers shanten.
    pub fn keep(&self, k: usize, hand: &Counts, y: usize) -> Option<Counts> {
        let i = *self.index.get(hand)?;
        let (_, next) = self.local.improve(i).find(|(kind, _)| *kind == y)?;
        Some(self.local.hand[pick(next, &self.after[k])])
    }
}

/// [`chances`] and the policy it found.
pub fn solve(
    start: Start<'_>,
    mut values: impl FnMut(&Counts) -> WinValues,
) -> Result<(Chances, Policy), ChancesError> {
    let s0 = shanten::shanten(start.hand, start.melds, start.forms).best;
    let mut g = Graph::new(start.melds, start.forms, start.unseen, start.hand, s0);
    let (c, local, after) = g.solve(start, &mut values, true)?;
    let index = local
        .hand
        .iter()
        .enumerate()
        .map(|(i, h)| (*h, i))
        .collect();
    Ok((
        c,
        Policy {
            index,
            local,
            after,
        },
    ))
}

/// The node of `hand` in a graph's `index` and `nodes`, added (with its
/// `shanten`) when new; the hand is hashed once.
fn node_in(
    index: &mut HashMap<u128, u32, foldhash::fast::FixedState>,
    nodes: &mut Vec<Node>,
    hand: Counts,
    shanten: impl FnOnce() -> i8,
) -> u32 {
    let i = nodes.len() as u32;
    match index.entry(key(&hand)) {
        Entry::Occupied(e) => *e.get(),
        Entry::Vacant(e) => {
            e.insert(i);
            nodes.push(Node {
                hand,
                shanten: shanten(),
                expanded: false,
                improve: (0, 0),
                wins: Vec::new(),
            });
            i
        }
    }
}

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
pub(super) fn shares(left: f64) -> [f64; 8] {
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
fn passes(
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
fn pick(next: &[u32], after: &[f64]) -> usize {
    pick_value(next, after).0 as usize
}

/// The chance that none of the three others' discards wins for a hand
/// whose wins on a discard weigh `hits`, in a turn whose player drew from
/// `left` tiles.
pub(super) fn survive_hits(hits: f64, left: f64) -> f64 {
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
