//! Every reading of a hand.
//!
//! A reading is one way to see the hand as four sets and a pair (the
//! declared melds plus a partition of the concealed tiles), or as a special
//! hand (seven pairs, thirteen orphans, a flower win), together with the
//! set or pair the winning tile completed (`docs/rules.md`, "Shared
//! reading of hands": each placement is its own reading, and a pung
//! completed by a discard or a robbed kong counts as exposed).
//!
//! The partition search places every copy of the lowest remaining tile at
//! once (at most one pung, the other copies each starting a chow), so each
//! partition is produced exactly once; placements are de-duplicated per partition (two identical chows
//! holding the winning tile are one reading). Everything lives in fixed
//! arrays: no allocation per reading besides the output vector.

use super::hand::{FlowerWins, Hand, MeldKind, WinBy};
use super::tile::{kinds_held, Counts, Tile, KINDS, ORPHANS};

/// Kind of a set inside a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SetKind {
    Chow,
    Pung,
    Kong,
}

/// A set in a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Set {
    pub kind: SetKind,
    /// Lowest tile.
    pub tile: Tile,
    /// Declared before the win (any meld, concealed kongs included).
    pub declared: bool,
    /// Claimed from a discard before the win (every declared meld but a concealed kong).
    pub claimed: bool,
    /// Counts as a concealed pung/kong: in hand or a concealed kong, and not completed by a discard.
    pub concealed: bool,
}

impl Set {
    pub const fn is_pung(&self) -> bool {
        matches!(self.kind, SetKind::Pung | SetKind::Kong)
    }

    pub fn contains(&self, t: Tile) -> bool {
        match self.kind {
            SetKind::Chow => (0..3).any(|k| self.tile.step(k) == Some(t)),
            _ => self.tile == t,
        }
    }

    /// The set's tiles as MPSZ text (`234m`, `777z`, `1111s`).
    pub fn text(&self) -> String {
        let (buf, len) = self.text_bytes();
        buf[..len].iter().map(|&b| b as char).collect()
    }

    /// The MPSZ text (`234m`, `777z`, `1111s`) as ASCII bytes, without allocating.
    pub fn text_bytes(&self) -> ([u8; 5], usize) {
        let n = b'0' + self.tile.number();
        let letter = self.tile.suit().letter() as u8;
        match self.kind {
            SetKind::Chow => ([n, n + 1, n + 2, letter, 0], 4),
            SetKind::Pung => ([n, n, n, letter, 0], 4),
            SetKind::Kong => ([n, n, n, n, letter], 5),
        }
    }
}

/// The shape of a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Form {
    /// Four sets and a pair.
    Standard,
    SevenPairs,
    ThirteenOrphans,
    /// A win on seven or eight bonus tiles.
    FlowerWin,
}

impl Form {
    pub const fn name(self) -> &'static str {
        match self {
            Form::Standard => "standard",
            Form::SevenPairs => "seven_pairs",
            Form::ThirteenOrphans => "thirteen_orphans",
            Form::FlowerWin => "flower_win",
        }
    }
}

/// Where the winning tile sits in a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WinPlace {
    /// In `sets[i]`.
    Set(u8),
    /// In the pair (or, for seven pairs, in `pairs[i]`; for thirteen orphans, anywhere).
    Pair,
    /// A flower win.
    None,
}

/// One reading of the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reading {
    pub form: Form,
    /// Standard form: four sets, declared melds first, then concealed sets in tile order.
    pub sets: [Set; 4],
    /// Standard: the pair's tile. Thirteen orphans: the doubled tile.
    pub pair: Tile,
    /// Seven pairs: the seven pair tiles in order.
    pub pairs: [Tile; 7],
    pub win: WinPlace,
}

const NO_SET: Set = Set {
    kind: SetKind::Chow,
    tile: Tile::WHITE,
    declared: false,
    claimed: false,
    concealed: false,
};

impl Reading {
    pub(crate) const fn blank(form: Form) -> Self {
        Reading {
            form,
            sets: [NO_SET; 4],
            pair: Tile::WHITE,
            pairs: [Tile::WHITE; 7],
            win: WinPlace::None,
        }
    }

    /// Thirteen orphans: the twelve single tiles beside the pair, in tile
    /// order; nothing for the other forms.
    pub fn singles(&self) -> impl Iterator<Item = Tile> {
        let (on, pair) = (self.form == Form::ThirteenOrphans, self.pair);
        (0..KINDS)
            .filter_map(Tile::from_index)
            .filter(move |&t| on && t.is_orphan() && t != pair)
    }

    /// The sets that exist in this form (four for a standard reading, none otherwise).
    pub fn sets(&self) -> &[Set] {
        match self.form {
            Form::Standard => &self.sets,
            _ => &[],
        }
    }
}

/// Which special forms the ruleset in force scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Special {
    pub seven_pairs: bool,
    /// Seven pairs may hold four of a kind as two pairs (`four_as_two_pairs`).
    pub four_as_two_pairs: bool,
    /// Thirteen orphans only when the winning tile makes its pair (`thirteen_sided_only`).
    pub thirteen_sided_only: bool,
    pub thirteen_orphans: bool,
    pub flower_wins: FlowerWins,
}

/// Every reading of a validated hand (an empty vector: not a winning hand).
pub fn readings(hand: &Hand, win_by: WinBy, flower_win: bool, special: Special) -> Vec<Reading> {
    let mut out = Vec::with_capacity(8);
    each_reading(hand, win_by, flower_win, special, |p| out.push(p.reading()));
    out
}

/// One reading as the decomposer finds it: a partition of the hand and
/// where the winning tile sits in it.
///
/// The consumer copies `base` to where it keeps readings and then applies
/// the placement ([`Placed::apply`]), rather than copying a patched reading
/// (faster; bench/corpus-and-peers.md).
#[derive(Clone, Copy, Debug)]
pub struct Placed<'a> {
    pub base: &'a Reading,
    pub win: WinPlace,
    /// A concealed pung completed by the discard: it counts as exposed.
    pub opened: Option<u8>,
}

impl Placed<'_> {
    /// Sets the placement on a copy of `base`.
    pub fn apply(&self, r: &mut Reading) {
        r.win = self.win;
        if let Some(i) = self.opened {
            r.sets[usize::from(i)].concealed = false;
        }
    }

    /// The reading itself.
    pub fn reading(&self) -> Reading {
        let mut r = *self.base;
        self.apply(&mut r);
        r
    }
}

/// A special-form reading, complete as it is.
fn whole(r: &Reading) -> Placed<'_> {
    Placed {
        base: r,
        win: r.win,
        opened: None,
    }
}

/// Hands every reading of a validated hand to `out`, in the order of [`readings`].
// Always inlined into its one caller per ruleset kind: left to the
// compiler, a small change elsewhere flipped it out of line and every hand
// paid for the calls (bench/core.md).
#[inline(always)]
pub fn each_reading(
    hand: &Hand,
    win_by: WinBy,
    flower_win: bool,
    special: Special,
    mut out: impl FnMut(Placed<'_>),
) {
    if flower_win {
        if special.flower_wins.on(hand.flowers.count_ones()) {
            out(whole(&Reading::blank(Form::FlowerWin)));
        }
        return;
    }
    let Some(win) = hand.winning_tile else {
        return;
    };
    let by_discard = win_by != WinBy::SelfDraw;

    let mut base = Reading::blank(Form::Standard);
    for (i, m) in hand.melds.iter().enumerate().take(4) {
        base.sets[i] = Set {
            kind: match m.kind {
                MeldKind::Chow => SetKind::Chow,
                MeldKind::Pung => SetKind::Pung,
                MeldKind::Kong => SetKind::Kong,
            },
            tile: m.tile,
            declared: true,
            claimed: m.is_claimed(),
            concealed: !m.is_claimed(),
        };
    }
    let declared = hand.melds.len().min(4);
    let mut counts = hand.concealed_counts;
    let mut search = Search {
        base,
        declared,
        win,
        by_discard,
        out: &mut out,
    };
    // Bit i: tile kind i is held (concealed). Read from the hand, not the
    // fresh local copy: reading a just-stored array at other offsets stalls.
    let held = kinds_held(&hand.concealed_counts);
    for p in pair_candidates(&hand.concealed_counts) {
        if counts[p] >= 2 {
            counts[p] -= 2;
            search.base.pair = Tile::from_index(p).expect("p < KINDS");
            let rest = held & !(u64::from(counts[p] == 0) << p);
            search.sets(&mut counts, rest, declared);
            counts[p] += 2;
        }
    }

    if hand.melds.is_empty() && hand.concealed_len == 14 {
        let c = &hand.concealed_counts;
        let kinds = held.count_ones();
        // Seven kinds of two each; under four_as_two_pairs fourteen tiles in
        // even counts (fewer kinds: a four fills two pairs).
        let pairs = special.seven_pairs
            && if special.four_as_two_pairs {
                kinds <= 7 && c.iter().all(|&n| n % 2 == 0)
            } else {
                kinds == 7 && c.iter().all(|&n| n == 0 || n == 2)
            };
        if pairs {
            let mut r = Reading::blank(Form::SevenPairs);
            let mut k = 0;
            for (i, &n) in c.iter().enumerate() {
                if n >= 2 {
                    let t = Tile::from_index(i).expect("i < KINDS");
                    r.pairs[k] = t;
                    k += 1;
                    if n == 4 {
                        r.pairs[k] = t;
                        k += 1;
                    }
                }
            }
            r.win = WinPlace::Pair;
            out(whole(&r));
        }
        if special.thirteen_orphans && held == ORPHANS {
            let sided = |d: usize| !special.thirteen_sided_only || d == win.index();
            if let Some(d) = (0..KINDS).find(|&i| c[i] == 2).filter(|&d| sided(d)) {
                let mut r = Reading::blank(Form::ThirteenOrphans);
                r.pair = Tile::from_index(d).expect("d < KINDS");
                r.win = WinPlace::Pair;
                out(whole(&r));
            }
        }
    }
}

/// The tile kinds that can be the pair of a standard reading of `counts`.
///
/// Every set holds three tiles of one suit (honours only as pungs), so
/// without the pair each suit's count is a multiple of three and each
/// honour's count is 0 or 3: the pair lies in the one suit whose count is
/// 2 mod 3, or is the one honour held twice. Within that suit, a chow on
/// number `n` weighs `3n + 3` and a pung `3n` when each tile counts its
/// number, both 0 mod 3; so the pair's number `p` has `2p` equal to the
/// suit's weight mod 3, which leaves every third number. Anything else has
/// no reading.
fn pair_candidates(counts: &Counts) -> std::iter::StepBy<std::ops::Range<usize>> {
    let none = (0..0).step_by(1);
    let mut honour_pair = None;
    for (i, &n) in counts[27..].iter().enumerate() {
        match n {
            0 | 3 => {}
            2 if honour_pair.is_none() => honour_pair = Some(27 + i),
            _ => return none,
        }
    }
    let mut pair_suit = None;
    for (s, suit) in counts[..27].chunks_exact(9).enumerate() {
        // At most 4 of each of 9 kinds: the sum fits a u8.
        match suit.iter().sum::<u8>() % 3 {
            0 => {}
            2 if pair_suit.is_none() && honour_pair.is_none() => pair_suit = Some(s),
            _ => return none,
        }
    }
    match (honour_pair, pair_suit) {
        (Some(h), None) => (h..h + 1).step_by(1),
        (None, Some(s)) => {
            let suit = &counts[s * 9..s * 9 + 9];
            let weight: u32 = (0u32..).zip(suit).map(|(i, &n)| i * u32::from(n)).sum();
            // 2p = weight (mod 3), and 2 is its own inverse mod 3.
            let first = (2 * weight % 3) as usize;
            (s * 9 + first..s * 9 + 9).step_by(3)
        }
        _ => none,
    }
}

struct Search<'a, F: FnMut(Placed<'_>)> {
    base: Reading,
    declared: usize,
    win: Tile,
    by_discard: bool,
    out: &'a mut F,
}

impl<F: FnMut(Placed<'_>)> Search<'_, F> {
    /// Fills `base.sets[n..4]` from `counts`; bit `i` of `held` is set when
    /// `counts[i] > 0`.
    ///
    /// All copies of the lowest remaining tile are placed at once: at most one
    /// pung, and every other copy starts a chow. Choosing the count of each
    /// group kind (not an order of groups) keeps every partition unique.
    fn sets(&mut self, counts: &mut Counts, held: u64, n: usize) {
        if held == 0 {
            if n == 4 {
                self.place();
            }
            return;
        }
        let i = held.trailing_zeros() as usize;
        let t = Tile::from_index(i).expect("i < KINDS");
        let have = counts[i] as usize;
        for pung in [1usize, 0] {
            if pung == 1 && have < 3 {
                continue;
            }
            let chows = have - 3 * pung;
            if n + pung + chows > 4 {
                continue;
            }
            let next = match (chows, t.step(1), t.step(2)) {
                (0, _, _) => None,
                (_, Some(b), Some(c))
                    if counts[b.index()] as usize >= chows
                        && counts[c.index()] as usize >= chows =>
                {
                    Some((b.index(), c.index()))
                }
                _ => continue,
            };
            let mut m = n;
            if pung == 1 {
                self.base.sets[m] = concealed_set(SetKind::Pung, t);
                m += 1;
            }
            for _ in 0..chows {
                self.base.sets[m] = concealed_set(SetKind::Chow, t);
                m += 1;
            }
            counts[i] = 0;
            let mut rest = held & !(1 << i);
            if let Some((b, c)) = next {
                counts[b] -= chows as u8;
                counts[c] -= chows as u8;
                rest &= !(u64::from(counts[b] == 0) << b) & !(u64::from(counts[c] == 0) << c);
            }
            self.sets(counts, rest, m);
            counts[i] = have as u8;
            if let Some((b, c)) = next {
                counts[b] += chows as u8;
                counts[c] += chows as u8;
            }
        }
    }

    /// Emits one reading per distinct concealed set (or the pair) holding the winning tile.
    fn place(&mut self) {
        let mut seen: [Option<(SetKind, Tile)>; 4] = [None; 4];
        let mut k = 0;
        for i in self.declared..4 {
            let s = self.base.sets[i];
            if s.contains(self.win) && !seen[..k].contains(&Some((s.kind, s.tile))) {
                seen[k] = Some((s.kind, s.tile));
                k += 1;
                (self.out)(Placed {
                    base: &self.base,
                    win: WinPlace::Set(i as u8),
                    opened: (self.by_discard && s.kind == SetKind::Pung).then_some(i as u8),
                });
            }
        }
        if self.base.pair == self.win {
            (self.out)(Placed {
                base: &self.base,
                win: WinPlace::Pair,
                opened: None,
            });
        }
    }
}

const fn concealed_set(kind: SetKind, tile: Tile) -> Set {
    Set {
        kind,
        tile,
        declared: false,
        claimed: false,
        concealed: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pair_candidates` by its definition, one count at a time.
    fn candidates_by_definition(counts: &Counts) -> Vec<usize> {
        let honour_pairs: Vec<usize> = (27..KINDS).filter(|&i| counts[i] == 2).collect();
        if (27..KINDS).any(|i| ![0, 2, 3].contains(&counts[i])) || honour_pairs.len() > 1 {
            return vec![];
        }
        let sums: Vec<u32> = (0..3)
            .map(|s| counts[s * 9..s * 9 + 9].iter().map(|&n| u32::from(n)).sum())
            .collect();
        if sums.iter().any(|&n| n % 3 == 1) {
            return vec![];
        }
        let pair_suits: Vec<usize> = (0..3).filter(|&s| sums[s] % 3 == 2).collect();
        match (honour_pairs.as_slice(), pair_suits.as_slice()) {
            ([h], []) => vec![*h],
            ([], [s]) => {
                let weight: u32 = (0..9)
                    .map(|i| i * u32::from(counts[*s * 9 + i as usize]))
                    .sum();
                (0..9)
                    .filter(|&p| (2 * p) % 3 == weight % 3)
                    .map(|p| s * 9 + p as usize)
                    .collect()
            }
            _ => vec![],
        }
    }

    #[test]
    fn pair_candidates_match_their_definition() {
        let mut next = crate::core::tile::xorshift(0x2545_f491_4f6c_dd1d);
        for round in 0..20_000 {
            let mut counts = [0u8; KINDS];
            // Counts 0 to 4 (a validated hand's), sparse in every other round.
            for c in counts.iter_mut() {
                let r = next();
                *c = match r % 8 {
                    0..=4 if round % 2 == 0 => 0,
                    _ => (r >> 8) as u8 % 5,
                };
            }
            let got: Vec<usize> = pair_candidates(&counts).collect();
            assert_eq!(got, candidates_by_definition(&counts), "{counts:?}");
        }
        // Any honour counts (they are checked one by one), with suits that allow a pair.
        for a in 0..=255u8 {
            for b in [0u8, 1, 2, 3, 4, 5, 130] {
                let mut counts = [0u8; KINDS];
                counts[27] = a;
                counts[33] = b;
                counts[0] = 2;
                let got: Vec<usize> = pair_candidates(&counts).collect();
                assert_eq!(got, candidates_by_definition(&counts), "{counts:?}");
            }
        }
    }
}
