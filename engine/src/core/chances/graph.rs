//! The one graph both models are solved on. Two kinds of state: 13-tile
//! hands before a draw and 14-tile hands before a discard. A 13-tile state
//! *keeps* a drawn kind into a 14-tile state, and a 14-tile state *throws*
//! a kind back to a 13-tile state; which keeps and throws exist is the
//! model's rule, applied by its search ([`super::Hands`] with hand changes
//! off, [`crate::core::hand_changes`] with them on). The passes
//! ([`super::passes`]) read only this.

use super::{Start, Win};
use crate::core::tile::Counts;

/// A graph as its search found it, before its weights: 13-tile states in
/// the order found (the start first), each with its keeps, and 14-tile
/// states with their throws.
#[derive(Clone, Default)]
pub(in crate::core) struct Found {
    pub hand: Vec<Counts>,
    pub shanten: Vec<i8>,
    /// `keep[keep_at[i]..keep_at[i + 1]]`: state `i`'s keeps, each the
    /// kind drawn and the 14-tile state it makes.
    pub keep_at: Vec<u32>,
    pub keep: Vec<(u8, u32)>,
    /// `throw[throw_at[d]..throw_at[d + 1]]`: 14-tile state `d`'s throws,
    /// as the 13-tile states they leave.
    pub throw_at: Vec<u32>,
    pub throw: Vec<u32>,
}

/// A keep as the passes read it.
#[derive(Clone, Copy, Debug)]
pub(in crate::core) struct Keep {
    /// The weight of its kind (`u₀ + H₀ − H`, 0 to 4), so that a turn's
    /// chance `w / left` is looked up.
    pub w: u8,
    /// The 14-tile state.
    pub to: u32,
    /// Where the model counts a win on the keep, its points; else minus
    /// infinity, which never beats going on.
    pub win: f64,
}

/// One start's graph with its weights, laid out in the order the passes
/// read it.
pub(in crate::core) struct Graph<'w> {
    pub hand: Vec<Counts>,
    pub shanten: Vec<i8>,
    /// Each state's wins (a ready state's; empty otherwise).
    pub wins: Vec<&'w [Win]>,
    /// State `i`'s self-drawn wins kept apart from its keeps, and its
    /// keeps: how many of each (in `won` and `keep`, state after state).
    pub len: Vec<(u32, u32)>,
    /// (weight, points) of each self-drawn win kept apart, in tile order.
    pub won: Vec<(u8, f64)>,
    pub keep: Vec<Keep>,
    pub throw_at: Vec<u32>,
    pub throw: Vec<u32>,
    /// The weight of state `i`'s wins on a discard that count.
    pub hits: Vec<f64>,
}

/// Where a model counts a self-drawn win.
#[derive(Clone, Copy)]
pub(in crate::core) enum Wins<'a> {
    /// Apart from the keeps: a ready state keeps nothing else.
    Apart,
    /// On the keep into a complete 14-tile state (`complete[d]`), which
    /// the player may decline for the best throw.
    OnKeeps(&'a [bool]),
}

impl<'w> Graph<'w> {
    pub fn lay(start: &Start<'_>, f: Found, wins: Vec<&'w [Win]>, on: Wins<'_>) -> Graph<'w> {
        let weight = |h: &Counts, y: usize| -> u8 {
            (start.unseen[y] + start.hand[y])
                .saturating_sub(h[y])
                .min(4)
        };
        let n = f.hand.len();
        let apart = matches!(on, Wins::Apart);
        let mut g = Graph {
            wins,
            len: Vec::with_capacity(n),
            won: Vec::with_capacity(0),
            keep: Vec::with_capacity(f.keep.len()),
            hits: Vec::with_capacity(n),
            hand: f.hand,
            shanten: f.shanten,
            throw_at: f.throw_at,
            throw: f.throw,
        };
        if apart {
            g.won.reserve(g.wins.iter().map(|w| w.len()).sum());
        }
        for (i, h) in g.hand.iter().enumerate() {
            let (w0, k0) = (g.won.len(), g.keep.len());
            let wins = g.wins[i];
            if apart {
                g.won.extend(
                    wins.iter()
                        .filter_map(|w| w.self_draw.map(|p| (weight(h, w.kind), p))),
                );
            }
            g.hits.push(
                wins.iter()
                    .filter(|w| w.discard.is_some())
                    .map(|w| f64::from(weight(h, w.kind)))
                    .sum(),
            );
            let (a, b) = (f.keep_at[i] as usize, f.keep_at[i + 1] as usize);
            g.keep.extend(f.keep[a..b].iter().map(|&(y, to)| {
                let y = usize::from(y);
                let win = match on {
                    Wins::OnKeeps(complete) if complete[to as usize] => wins
                        .iter()
                        .find(|w| w.kind == y)
                        .and_then(|w| w.self_draw)
                        .unwrap_or(f64::NEG_INFINITY),
                    _ => f64::NEG_INFINITY,
                };
                Keep {
                    w: weight(h, y),
                    to,
                    win,
                }
            }));
            g.len
                .push(((g.won.len() - w0) as u32, (g.keep.len() - k0) as u32));
        }
        g
    }

    pub fn len(&self) -> usize {
        self.hand.len()
    }

    /// How many 14-tile states.
    pub fn drawn(&self) -> usize {
        self.throw_at.len() - 1
    }
}
