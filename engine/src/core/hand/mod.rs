//! Hands and the circumstances of a win: as sent (`spec`), the rules they
//! must keep (`rules`), and their validation (`validate`).
//!
//! A [`HandSpec`] and a [`ContextSpec`] are what a client sends, still as
//! text; `TryFrom<Claim>` turns them into a [`Hand`] and a [`Context`] (the
//! one way to make either: parse, don't validate) or lists every broken
//! rule with a JSON pointer into the request (`/hand/tiles`,
//! `/context/discarder`, ...). The rules are those of `docs/api.md`
//! ("POST /v1/score") and `docs/rules.md` ("Shared reading of hands").

mod rules;
mod spec;
mod validate;

pub use rules::{FieldError, HandRule};
pub use spec::HandSpec;
pub use spec::{ContextSpec, MeldKind, MeldSpec, Replacement, RobbedKong, WinBy};
pub(super) use validate::notation;
pub use validate::{validate, validate_declared, Allowances, Claim, FlowerWins};

use super::tile::{Counts, Tile};

/// The most bonus tiles a hand holds: four flowers and four seasons.
pub const MAX_BONUS_TILES: usize = 8;

/// A declared meld, parsed and checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Meld {
    pub kind: MeldKind,
    /// Lowest tile of the meld.
    pub tile: Tile,
    pub concealed: bool,
    pub added: bool,
}

impl Meld {
    /// Claimed from a discard (breaks a concealed hand): every meld but a concealed kong.
    pub const fn is_claimed(&self) -> bool {
        !(matches!(self.kind, MeldKind::Kong) && self.concealed)
    }

    pub const fn size(&self) -> u8 {
        match self.kind {
            MeldKind::Kong => 4,
            _ => 3,
        }
    }
}

/// What a validated hand holds (read through [`Hand`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HandParts {
    /// Concealed tiles sorted, winning tile included.
    pub concealed_len: usize,
    pub concealed_counts: Counts,
    /// Declared melds in canonical (sorted) order.
    pub melds: Vec<Meld>,
    /// Winning tile; `None` only for a flower win.
    pub winning_tile: Option<Tile>,
    /// Bonus tiles held, as a bit set (bit i = [`Bonus::from_index`](super::tile::Bonus::from_index)`(i)`).
    pub flowers: u8,
}

impl HandParts {
    /// The concealed tiles in tile order.
    #[cfg(test)]
    pub fn concealed(&self) -> impl Iterator<Item = Tile> + '_ {
        self.concealed_counts
            .iter()
            .enumerate()
            .flat_map(|(i, &n)| {
                let t = Tile::from_index(i).expect("i < KINDS");
                std::iter::repeat_n(t, n as usize)
            })
    }

    /// Counts of every tile, concealed and declared (a kong counts four).
    pub fn all_counts(&self) -> Counts {
        let mut c = self.concealed_counts;
        for m in &self.melds {
            add_meld(&mut c, m);
        }
        c
    }

    pub fn kongs(&self) -> usize {
        self.melds
            .iter()
            .filter(|m| m.kind == MeldKind::Kong)
            .count()
    }
}

/// A validated hand: made only by `TryFrom<Claim>` (with its [`Context`]),
/// so a function taking a `&Hand` needs no check of its own.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hand(HandParts);

impl std::ops::Deref for Hand {
    type Target = HandParts;
    fn deref(&self) -> &HandParts {
        &self.0
    }
}

impl Hand {
    /// A waiting hand with `tile` drawn as its winning tile: the core's own
    /// step from a checked wait to each hand it completes (`waits`).
    pub(crate) fn with_drawn(&self, tile: Tile) -> Hand {
        let mut h = self.0.clone();
        h.concealed_len += 1;
        h.concealed_counts[tile.index()] += 1;
        h.winning_tile = Some(tile);
        Hand(h)
    }
}

/// The validated circumstances of a win: made only by `TryFrom<Claim>`
/// together with its [`Hand`] (the cross-field rules read both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Context(ContextSpec);

impl std::ops::Deref for Context {
    type Target = ContextSpec;
    fn deref(&self) -> &ContextSpec {
        &self.0
    }
}

impl Context {
    /// The same win with `change` made: the core's own variations of a
    /// checked context (`waits`: the wait won on the previous seat's
    /// discard rather than drawn), never a client's input.
    pub(crate) fn varied(self, change: impl FnOnce(&mut ContextSpec)) -> Context {
        let mut c = self.0;
        change(&mut c);
        Context(c)
    }

    /// Any context, unchecked: for unit tests of what reads one (every
    /// field into the cache key, the largest settlement).
    #[cfg(test)]
    pub(crate) fn unchecked(spec: ContextSpec) -> Context {
        Context(spec)
    }
}

fn add_meld(c: &mut Counts, m: &Meld) {
    let i = m.tile.index();
    match m.kind {
        MeldKind::Chow => {
            for k in 0..3 {
                c[i + k] = c[i + k].saturating_add(1);
            }
        }
        MeldKind::Pung => c[i] = c[i].saturating_add(3),
        MeldKind::Kong => c[i] = c[i].saturating_add(4),
    }
}
