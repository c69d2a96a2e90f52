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

use super::hand_changes::{self, Changes};
use super::shanten::{self, Forms};
use super::tile::Counts;
use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// A start's chances, its graph where kept, and the points expected after
/// each turn's throw.
type Solved = (Chances, Option<Found>, Vec<Vec<f64>>);

mod graph;
mod passes;

pub(in crate::core) use graph::{Found, Graph, Wins};
pub(in crate::core) use passes::{passes, Gain};
use passes::{pick, Scaled};

/// Farthest hand answered: every hand of shanten 3 or less.
pub const MAX_SHANTEN: i8 = 3;
/// Most draws asked for.
pub const MAX_DRAWS: u32 = 30;

/// A ready hand's win on one kind: the points it collects by how it is
/// won, `None` where that win does not count (below the minimum, or not a
/// win that way).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Win {
    pub kind: usize,
    pub self_draw: Option<f64>,
    pub discard: Option<f64>,
}

/// The wins of a ready hand, in tile order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WinValues {
    pub wins: Vec<Win>,
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

/// A hand of [`Hands`]: its shanten, its draws that lower shanten, each
/// with the 14-tile hand it makes (expanded when a search first needs
/// them), and, ready, its wins.
struct Node {
    hand: Counts,
    shanten: i8,
    expanded: bool,
    /// `Hands::improve[a..b]`: (kind, the 14-tile hand the draw makes, in
    /// [`Hands::drawn`]).
    improve: (u32, u32),
    wins: Vec<Win>,
}

/// The hands every start of one analysis can reach, shared by its starts
/// (the 13-tile hands a 14-tile hand's discards leave), as mahjong-cpp
/// shares one graph across a hand's discards: a hand reached from two
/// starts is searched and scored once. With hand changes on, only the
/// ready hands' wins are kept here; the graphs are the model's own.
///
/// With hand changes off, the draws kept from a hand are those that lower
/// shanten with a copy left for *some* start (the pool's numerator
/// `u₀(y) + H(y) − h(y)`, `H` the 14 tiles, is at least any start's); each
/// start's own search leaves out the draws with no copy left for it, so
/// every start sees exactly the graph it would have alone, in the same
/// order, and its figures are the same to the bit. A 14-tile hand after a
/// kept draw is a node of its own, with the hands its throws keeping
/// shanten leave: many 13-tile hands draw into the same one, and its
/// throws are found once.
pub struct Hands<'a> {
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
    /// `d`'s throws keeping its shanten leave, in tile order.
    drawn_at: Vec<u32>,
    drawn_next: Vec<u32>,
}

impl<'a> Hands<'a> {
    /// An empty store for the starts of one analysis: `most` holds, of
    /// each kind, the most any start holds; `unseen` is the same for all;
    /// `farthest` is the most shanten of a start searched here, which
    /// sizes the store.
    pub fn new(
        melds: usize,
        forms: Forms,
        unseen: &'a Counts,
        most: &Counts,
        farthest: i8,
    ) -> Hands<'a> {
        // Room for the hands a start this far from ready usually reaches
        // (about 6, 90 and 950 at one, two and three from ready), so that
        // the maps seldom grow: each growth hashes every key again.
        let room = 8usize << (3 * farthest.clamp(0, MAX_SHANTEN) as usize);
        let mut g = Hands {
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
        };
        g.drawn_at.push(0);
        g
    }

    fn node(&mut self, hand: Counts, shanten: impl FnOnce() -> i8) -> u32 {
        node_in(&mut self.index, &mut self.nodes, hand, shanten)
    }

    /// The 14-tile hand `drawn` (of shanten `s`) and its throws that keep
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

    /// A ready hand is scored; any other gets, from one combination of the
    /// suits, its draws that lower shanten, and one per new 14-tile hand
    /// the throws that keep its shanten.
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

    /// The node of ready hand `hand`, scored when new.
    pub(super) fn ready(
        &mut self,
        hand: &Counts,
        values: &mut impl FnMut(&Counts) -> WinValues,
    ) -> u32 {
        let i = self.node(*hand, || 0);
        self.expand(i, values);
        i
    }

    /// The wins of node `i`.
    pub(super) fn wins(&self, i: u32) -> &[Win] {
        &self.nodes[i as usize].wins
    }

    /// With hand changes off, `start`'s own graph, searched as it would be
    /// alone: depth first from the start, each hand's kept draws in tile
    /// order and their throws in tile order, a draw with no copy left for
    /// it skipped; and the node of each of its 13-tile states.
    #[inline(never)]
    fn local(
        &mut self,
        start: &Start<'_>,
        s0: i8,
        values: &mut impl FnMut(&Counts) -> WinValues,
    ) -> (Found, Vec<u32>) {
        const NONE: u32 = u32::MAX;
        let root = self.node(*start.hand, || s0);
        // Node and 14-tile hand to state, NONE where not reached. Sized as
        // the store so far (a start's graph is seldom larger), or as its
        // room before the first start.
        let grown = |len: usize, room: usize| len.max(room / 4);
        let mut at: Vec<u32> = Vec::with_capacity(self.nodes.capacity());
        let mut drawn_at: Vec<u32> = Vec::new();
        let mut node = Vec::with_capacity(grown(self.nodes.len(), self.nodes.capacity()));
        let mut f = Found {
            keep: Vec::with_capacity(grown(self.improve.len(), self.improve.capacity())),
            throw_at: Vec::with_capacity(grown(self.drawn_at.len(), self.drawn_at.capacity())),
            throw: Vec::with_capacity(grown(self.drawn_next.len(), self.drawn_next.capacity())),
            ..Found::default()
        };
        node.push(root);
        f.throw_at.push(0);
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
                        at[j as usize] = node.len() as u32;
                        node.push(j);
                        todo.push(j);
                    }
                }
            }
        }
        // The keeps and throws in the start's own numbering.
        drawn_at.resize(self.drawn_at.len() - 1, NONE);
        f.shanten.reserve_exact(node.len());
        f.hand.reserve_exact(node.len());
        f.keep_at.reserve_exact(node.len() + 1);
        for &g in &node {
            let n = &self.nodes[g as usize];
            f.shanten.push(n.shanten);
            f.hand.push(n.hand);
            f.keep_at.push(f.keep.len() as u32);
            if n.shanten <= 0 {
                continue;
            }
            let (a, b) = n.improve;
            for &(y, d) in &self.improve[a as usize..b as usize] {
                if weight(&n.hand, usize::from(y)) <= 0.0 {
                    continue;
                }
                if drawn_at[d as usize] == NONE {
                    drawn_at[d as usize] = f.throw_at.len() as u32 - 1;
                    let (a, b) = (self.drawn_at[d as usize], self.drawn_at[d as usize + 1]);
                    f.throw.extend(
                        self.drawn_next[a as usize..b as usize]
                            .iter()
                            .map(|&j| at[j as usize]),
                    );
                    f.throw_at.push(f.throw.len() as u32);
                }
                f.keep.push((y, drawn_at[d as usize]));
            }
        }
        f.keep_at.push(f.keep.len() as u32);
        (f, node)
    }

    /// The chances of `start` (whose `unseen` and `melds` must be the
    /// store's, and whose hand holds no kind past `most`) when the player
    /// may make `changes`; `values` gives the wins of a ready hand (called
    /// once per ready hand reached).
    pub fn chances(
        &mut self,
        start: Start<'_>,
        changes: Changes,
        mut values: impl FnMut(&Counts) -> WinValues,
    ) -> Result<Chances, ChancesError> {
        if changes.any() {
            hand_changes::solve(self, start, changes, hand_changes::MAX_STATES, &mut values)
        } else {
            self.solve(start, &mut values, false).map(|(c, _, _)| c)
        }
    }

    /// With hand changes off, the chances of `start`, with `keep_after`
    /// its graph and the points expected after each turn's throw (for
    /// [`Policy`]).
    fn solve(
        &mut self,
        start: Start<'_>,
        values: &mut impl FnMut(&Counts) -> WinValues,
        keep_after: bool,
    ) -> Result<Solved, ChancesError> {
        let s0 = shanten::shanten(start.hand, start.melds, start.forms).best;
        if s0 > MAX_SHANTEN {
            return Err(ChancesError::TooFar { shanten: s0 });
        }
        let (f, node) = self.local(&start, s0, values);
        let kept = keep_after.then(|| f.clone());
        let wins = node.iter().map(|&i| self.wins(i)).collect();
        let g = Graph::lay(&start, f, wins, Wins::Apart);
        let (c, after) = passes::<Scaled>(&start, s0, &g, keep_after);
        Ok((c, kept, after))
    }
}

/// The chances of `start` under the model with hand changes off; `values`
/// gives the wins of a ready hand (called once per ready hand reached).
pub fn chances(
    start: Start<'_>,
    values: impl FnMut(&Counts) -> WinValues,
) -> Result<Chances, ChancesError> {
    solve(start, values).map(|(c, _)| c)
}

/// The throws the model's player makes (what [`solve`] chose): for a
/// simulation of the same model to follow.
pub struct Policy {
    index: HashMap<Counts, usize>,
    graph: Found,
    after: Vec<Vec<f64>>,
}

impl Policy {
    /// The hand the player keeps in turn `k` (0-based) after drawing kind
    /// `y` into `hand`, when the draw lowers shanten.
    pub fn keep(&self, k: usize, hand: &Counts, y: usize) -> Option<Counts> {
        let g = &self.graph;
        let i = *self.index.get(hand)?;
        let keeps = &g.keep[g.keep_at[i] as usize..g.keep_at[i + 1] as usize];
        let &(_, d) = keeps.iter().find(|(kind, _)| usize::from(*kind) == y)?;
        let throws = &g.throw[g.throw_at[d as usize] as usize..g.throw_at[d as usize + 1] as usize];
        Some(g.hand[pick(throws, &self.after[k])])
    }
}

/// [`chances`] and the policy it found.
pub fn solve(
    start: Start<'_>,
    mut values: impl FnMut(&Counts) -> WinValues,
) -> Result<(Chances, Policy), ChancesError> {
    let s0 = shanten::shanten(start.hand, start.melds, start.forms).best;
    let mut g = Hands::new(start.melds, start.forms, start.unseen, start.hand, s0);
    let (c, graph, after) = g.solve(start, &mut values, true)?;
    let graph = graph.expect("kept when asked");
    let index = graph
        .hand
        .iter()
        .enumerate()
        .map(|(i, h)| (*h, i))
        .collect();
    Ok((
        c,
        Policy {
            index,
            graph,
            after,
        },
    ))
}

/// The node of `hand` in a store's `index` and `nodes`, added (with its
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
