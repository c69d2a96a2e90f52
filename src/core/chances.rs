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

type Win = (usize, Option<f64>, Option<f64>);

/// A hand of the shared graph ([`Graph`]): its shanten, its draws that
/// lower shanten, each with the hands a discard keeping the new shanten
/// can leave (expanded when a search first needs them), and, ready, its
/// wins.
struct Node {
    hand: Counts,
    shanten: i8,
    expanded: bool,
    /// (kind, the nodes a discard can leave).
    improve: Vec<(u8, Vec<u32>)>,
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
pub struct Graph<'a> {
    melds: usize,
    forms: Forms,
    unseen: &'a Counts,
    /// The most of each kind a start holds (the 14-tile hand, or the
    /// 13-tile start itself).
    most: Counts,
    index: HashMap<Counts, u32, foldhash::fast::FixedState>,
    nodes: Vec<Node>,
}

/// One start's graph: its hands in the order its own search reached
/// them (the start first), with their draws that lower shanten.
struct Local {
    node: Vec<u32>,
    shanten: Vec<i8>,
    hand: Vec<Counts>,
    /// `imp[imp_at[i]..imp_at[i + 1]]`: hand `i`'s kept draws, each a kind
    /// and the range of `next` holding the hands a discard can leave.
    imp_at: Vec<u32>,
    imp: Vec<(u8, u32, u32)>,
    next: Vec<u32>,
}

impl Local {
    fn len(&self) -> usize {
        self.node.len()
    }

    fn improve(&self, i: usize) -> impl Iterator<Item = (usize, &[u32])> + '_ {
        self.imp[self.imp_at[i] as usize..self.imp_at[i + 1] as usize]
            .iter()
            .map(|&(y, a, b)| (usize::from(y), &self.next[a as usize..b as usize]))
    }
}

impl<'a> Graph<'a> {
    /// An empty graph for the starts of one analysis: `most` holds, of
    /// each kind, the most any start holds; `unseen` is the same for all.
    pub fn new(melds: usize, forms: Forms, unseen: &'a Counts, most: &Counts) -> Graph<'a> {
        Graph {
            melds,
            forms,
            unseen,
            most: *most,
            index: HashMap::default(),
            nodes: Vec::new(),
        }
    }

    fn node(&mut self, hand: Counts, shanten: impl FnOnce() -> i8) -> u32 {
        if let Some(&i) = self.index.get(&hand) {
            return i;
        }
        let i = self.nodes.len() as u32;
        self.nodes.push(Node {
            hand,
            shanten: shanten(),
            expanded: false,
            improve: Vec::new(),
            wins: Vec::new(),
        });
        self.index.insert(hand, i);
        i
    }

    /// One combination of the suits gives the draws that lower shanten,
    /// and one per such draw the discards that keep the new shanten.
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
        let mut improve = Vec::new();
        let (_, need) = shanten::necessary(&h, self.melds, self.forms);
        for y in shanten::kinds_of(need) {
            if f64::from(self.unseen[y]) + f64::from(self.most[y]) - f64::from(h[y]) <= 0.0 {
                continue;
            }
            let mut drawn = h;
            drawn[y] += 1;
            let (_, keep) = shanten::unneeded(&drawn, self.melds, self.forms);
            let mut next = Vec::new();
            for d in shanten::kinds_of(keep) {
                let mut left = drawn;
                left[d] -= 1;
                next.push(self.node(left, || s - 1));
            }
            improve.push((y as u8, next));
        }
        let n = &mut self.nodes[i as usize];
        n.improve = improve;
        n.expanded = true;
    }

    /// `start`'s own graph, searched as it would be alone: depth first
    /// from the start, each hand's kept draws in tile order and their
    /// discards in tile order, a draw with no copy left for it skipped.
    fn local(
        &mut self,
        start: &Start<'_>,
        s0: i8,
        values: &mut impl FnMut(&Counts) -> WinValues,
    ) -> Local {
        let root = self.node(*start.hand, || s0);
        let mut at: HashMap<u32, u32, foldhash::fast::FixedState> = HashMap::default();
        let mut l = Local {
            node: vec![root],
            shanten: Vec::new(),
            hand: Vec::new(),
            imp_at: Vec::new(),
            imp: Vec::new(),
            next: Vec::new(),
        };
        at.insert(root, 0);
        let mut todo = vec![root];
        let weight = |h: &Counts, y: usize| {
            f64::from(start.unseen[y]) + f64::from(start.hand[y]) - f64::from(h[y])
        };
        while let Some(g) = todo.pop() {
            self.expand(g, values);
            let n = &self.nodes[g as usize];
            if n.shanten <= 0 {
                continue;
            }
            for (y, next) in &n.improve {
                if weight(&n.hand, usize::from(*y)) <= 0.0 {
                    continue;
                }
                for &j in next {
                    at.entry(j).or_insert_with(|| {
                        l.node.push(j);
                        todo.push(j);
                        (l.node.len() - 1) as u32
                    });
                }
            }
        }
        // The draws and discards in the start's own numbering.
        for &g in &l.node {
            let n = &self.nodes[g as usize];
            l.shanten.push(n.shanten);
            l.hand.push(n.hand);
            l.imp_at.push(l.imp.len() as u32);
            if n.shanten <= 0 {
                continue;
            }
            for (y, next) in &n.improve {
                if weight(&n.hand, usize::from(*y)) <= 0.0 {
                    continue;
                }
                let a = l.next.len() as u32;
                l.next.extend(next.iter().map(|j| at[j]));
                l.imp.push((*y, a, l.next.len() as u32));
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
        self.solve(start, &mut values).map(|(c, _, _)| c)
    }

    fn solve(
        &mut self,
        start: Start<'_>,
        values: &mut impl FnMut(&Counts) -> WinValues,
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
        let (c, after) = passes(&start, s0, &l, &wins);
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
    let mut g = Graph::new(start.melds, start.forms, start.unseen, start.hand);
    let (c, local, after) = g.solve(start, &mut values)?;
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

/// The backward induction and the forward pass over one start's graph.
fn passes(start: &Start<'_>, s0: i8, l: &Local, wins: &[&[Win]]) -> (Chances, Vec<Vec<f64>>) {
    let draws = start.draws as usize;

    // The pool's numerator of kind y for hand h: u0 + H0 - H.
    let weight = |h: &Counts, y: usize| -> f64 {
        f64::from(start.unseen[y]) + f64::from(start.hand[y]) - f64::from(h[y])
    };
    let pool: f64 = start.unseen.iter().map(|&u| f64::from(u)).sum();
    let turn = if start.discards { 4.0 } else { 1.0 };

    // Backward: v[k][i], the points expected from the start of turn k
    // (0-based) in state i; after[k][i], those expected once the player
    // has discarded in turn k, the others' discards still to come.
    let n = l.len();
    let mut v = vec![vec![0.0f64; n]; draws + 1];
    let mut after = vec![vec![0.0f64; n]; draws];
    for k in (0..draws).rev() {
        let left = pool - turn * k as f64;
        for i in 0..n {
            after[k][i] = others_of(
                &l.hand[i],
                wins[i],
                left,
                start.discards,
                &weight,
                v[k + 1][i],
            );
        }
        for i in 0..n {
            if left < 1.0 {
                v[k][i] = 0.0;
                continue;
            }
            let h = &l.hand[i];
            let (p_win, p_imp, scale) = draw_chances(l, wins, i, left, &weight);
            let mut e = 0.0;
            for &(y, points, _) in wins[i] {
                let p = win_chance(h, y, points, left, &weight);
                e += p * scale * points.unwrap_or(0.0);
            }
            for (y, next) in l.improve(i) {
                let p = weight(h, y) / left;
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
            let h = &l.hand[i];
            let (p_win, p_imp, scale) = draw_chances(l, wins, i, left, &weight);
            won += m * scale * p_win;
            let stay = m * (1.0 - scale * (p_win + p_imp));
            for (y, to) in l.improve(i) {
                let p = weight(h, y) / left;
                let to = pick(to, after_k);
                let moved = m * p * scale;
                let keep = survive_of(&l.hand[to], wins[to], left, start.discards, &weight);
                won += moved * (1.0 - keep);
                next[to] += moved * keep;
            }
            let keep = survive_of(h, wins[i], left, start.discards, &weight);
            won += stay * (1.0 - keep);
            next[i] += stay * keep;
        }
        dist = next;
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
    let chances = Chances {
        ready: ready_by,
        win: win_by,
        expected_points: v[0][0],
    };
    (chances, after)
}

/// The discard the policy makes: of the hands `next` a kept draw can
/// leave, the one with the most points expected after it (ties to the
/// first, in tile order of the discard).
fn pick(next: &[u32], after: &[f64]) -> usize {
    let mut best = next[0] as usize;
    for &j in &next[1..] {
        if after[j as usize] > after[best] {
            best = j as usize;
        }
    }
    best
}

/// The chance of a winning draw of kind `y` from hand `h` out of a pool
/// of `left` tiles; 0 where the win does not count.
fn win_chance(
    h: &Counts,
    y: usize,
    points: Option<f64>,
    left: f64,
    weight: &impl Fn(&Counts, usize) -> f64,
) -> f64 {
    if points.is_some() {
        weight(h, y) / left
    } else {
        0.0
    }
}

/// The chances of a winning and of an improving draw from hand `i` out of
/// a pool of `left` tiles (each the sum of its kinds' chances, added in
/// tile order), and the scale that keeps their sum within one.
fn draw_chances(
    l: &Local,
    wins: &[&[Win]],
    i: usize,
    left: f64,
    weight: &impl Fn(&Counts, usize) -> f64,
) -> (f64, f64, f64) {
    let h = &l.hand[i];
    let p_win: f64 = wins[i]
        .iter()
        .map(|&(y, points, _)| win_chance(h, y, points, left, weight))
        .sum();
    let p_imp: f64 = l.improve(i).map(|(y, _)| weight(h, y) / left).sum();
    let sum = p_win + p_imp;
    (p_win, p_imp, if sum > 1.0 { 1.0 / sum } else { 1.0 })
}

/// The chance that none of the three others' discards wins for `hand`,
/// in a turn whose player drew from `left` tiles.
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
