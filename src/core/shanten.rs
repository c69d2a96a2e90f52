//! Shanten (向聽): how many tiles a hand is from ready, in each form the
//! ruleset scores.
//!
//! The method is tomohxx/shanten-number's (its README and the Qiita article
//! "シャンテン数計算アルゴリズム"): for the tiles of one suit, a table holds
//! the *distance* to `m` sets (0 to 4) without and with a pair, the fewest
//! tiles that must be drawn (each replacing one that is thrown) before the
//! suit holds them, never more than four of a kind. A hand's distance is the
//! least sum over its four suits of distances whose sets add up to the sets
//! still needed (four less the declared melds) with exactly one pair, and its
//! shanten is that distance less one: 0 is ready (聽牌), −1 a complete hand.
//!
//! The tables are built once, on first use (the first analysis; [`warm`]
//! builds them ahead, as the benchmarks do), from the
//! suit's targets: every config holding `m` sets and `p` pairs exactly is a
//! target; a config *contains* one if a sub-config is one (ascending pass),
//! and its distance is one more than the least distance of the configs one
//! tile larger (descending pass) over all 5⁹ configs. Only the configs a
//! hand can hold (at most 14 tiles of the suit) are kept, ranked
//! lexicographically: 405,350 entries for a number suit and 43,130 for the
//! honours, ten bytes each, 4.5 MB in all.
//!
//! Seven pairs and thirteen orphans have closed forms (below), counted only
//! where the ruleset scores that hand and the hand has no melds.

use super::tile::{Counts, KINDS};
use std::sync::OnceLock;

/// Tiles of one suit a hand can hold.
const MAX_SUIT: usize = 14;
/// Distance entries per config: `m` sets (0..=4) by pair (0 or 1).
const ENTRIES: usize = 10;

/// Shanten in each form; `None` where the ruleset does not score the form or
/// the hand has melds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shanten {
    pub standard: i8,
    pub seven_pairs: Option<i8>,
    pub thirteen_orphans: Option<i8>,
    /// The least of the three.
    pub best: i8,
}

/// The special forms the ruleset in force scores (from its `Special`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Forms {
    pub seven_pairs: bool,
    /// Seven pairs may hold four of a kind as two pairs.
    pub four_as_two_pairs: bool,
    pub thirteen_orphans: bool,
}

impl From<super::decompose::Special> for Forms {
    fn from(s: super::decompose::Special) -> Self {
        Forms {
            seven_pairs: s.seven_pairs,
            four_as_two_pairs: s.four_as_two_pairs,
            thirteen_orphans: s.thirteen_orphans,
        }
    }
}

impl Forms {
    /// The forms `ruleset` scores.
    pub fn of(ruleset: &super::ruleset::Ruleset) -> Forms {
        Forms::from(ruleset.tables().special)
    }
}

/// One suit's table: distances by config rank.
struct SuitTable {
    /// `rank_step[i][prefix][c]`: what a count `c` at position `i`, after
    /// `prefix` tiles before it, adds to the rank.
    rank_step: Vec<[[u32; 5]; MAX_SUIT + 1]>,
    dist: Vec<[u8; ENTRIES]>,
}

struct Tables {
    number: SuitTable,
    honour: SuitTable,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

fn tables() -> &'static Tables {
    TABLES.get_or_init(|| Tables {
        number: SuitTable::build(9, true),
        honour: SuitTable::build(7, false),
    })
}

/// Builds the tables now rather than on the first call that needs them
/// (about 35 ms in a release build, 6 s in a debug one).
pub fn warm() {
    tables();
}

impl SuitTable {
    fn build(n: usize, chows: bool) -> SuitTable {
        let pow: Vec<usize> = (0..=n).map(|i| 5usize.pow(i as u32)).collect();
        let size = pow[n];

        // Targets: up to four sets (pungs, then chows where the suit has
        // them) in non-decreasing order, with or without one pair.
        let mut sets: Vec<[u8; 9]> = Vec::new();
        for i in 0..n {
            let mut s = [0u8; 9];
            s[i] = 3;
            sets.push(s);
        }
        if chows {
            for i in 0..n - 2 {
                let mut s = [0u8; 9];
                s[i..i + 3].fill(1);
                sets.push(s);
            }
        }
        let mut mask = vec![0u16; size];
        let mut mark = |c: &[u8; 9], m: usize| {
            let idx: usize = (0..n).map(|i| c[i] as usize * pow[i]).sum();
            mask[idx] |= 1 << (m * 2);
            for j in 0..n {
                if c[j] <= 2 {
                    mask[idx + 2 * pow[j]] |= 1 << (m * 2 + 1);
                }
            }
        };
        fn each(
            sets: &[[u8; 9]],
            from: usize,
            c: &mut [u8; 9],
            m: usize,
            mark: &mut impl FnMut(&[u8; 9], usize),
        ) {
            mark(c, m);
            if m == 4 {
                return;
            }
            for (k, s) in sets.iter().enumerate().skip(from) {
                if (0..9).all(|i| c[i] + s[i] <= 4) {
                    (0..9).for_each(|i| c[i] += s[i]);
                    each(sets, k, c, m + 1, mark);
                    (0..9).for_each(|i| c[i] -= s[i]);
                }
            }
        }
        each(&sets, 0, &mut [0; 9], 0, &mut mark);

        // Contains: a target is inside (a sub-config is one). The digits
        // of `idx` are kept as an odometer, not divided out each time.
        let mut c = [0u8; 9];
        for idx in 0..size {
            let mut m = mask[idx];
            for (i, &p) in pow[..n].iter().enumerate() {
                if c[i] > 0 {
                    m |= mask[idx - p];
                }
            }
            mask[idx] = m;
            odometer_up(&mut c[..n]);
        }
        // Distance: none when it contains the target, else one more than the
        // nearest config one tile larger. The full config contains them all.
        let mut dense = vec![[0u8; ENTRIES]; size];
        let mut c = [4u8; 9];
        for idx in (0..size).rev() {
            let mut d = [u8::MAX; ENTRIES];
            for (i, &p) in pow[..n].iter().enumerate() {
                if c[i] < 4 {
                    let up = &dense[idx + p];
                    for (e, u) in d.iter_mut().zip(up) {
                        *e = (*e).min(u.saturating_add(1));
                    }
                }
            }
            for (e, v) in d.iter_mut().enumerate() {
                if mask[idx] & (1 << e) != 0 {
                    *v = 0;
                }
            }
            dense[idx] = d;
            odometer_down(&mut c[..n]);
        }

        // Ranks of the configs of at most MAX_SUIT tiles, lexicographic:
        // `fits[k][s]` counts the configs of k positions and at most s tiles.
        let mut fits = vec![[0u32; MAX_SUIT + 1]; n + 1];
        fits[0] = [1; MAX_SUIT + 1];
        for k in 1..=n {
            for s in 0..=MAX_SUIT {
                fits[k][s] = (0..=4.min(s)).map(|c| fits[k - 1][s - c]).sum();
            }
        }
        let mut rank_step = vec![[[0u32; 5]; MAX_SUIT + 1]; n];
        for (i, step) in rank_step.iter_mut().enumerate() {
            for (prefix, row) in step.iter_mut().enumerate() {
                for c in 1..5 {
                    let v = c - 1;
                    let below = if prefix + v <= MAX_SUIT {
                        fits[n - i - 1][MAX_SUIT - prefix - v]
                    } else {
                        0
                    };
                    row[c] = row[c - 1] + below;
                }
            }
        }
        let mut dist = vec![[0u8; ENTRIES]; fits[n][MAX_SUIT] as usize];
        let mut c = [0u8; 9];
        for d in &dense {
            if c.iter().map(|&x| x as usize).sum::<usize>() <= MAX_SUIT {
                dist[rank(&rank_step, &c[..n])] = *d;
            }
            odometer_up(&mut c[..n]);
        }
        SuitTable { rank_step, dist }
    }

    fn distances(&self, counts: &[u8]) -> &[u8; ENTRIES] {
        &self.dist[rank(&self.rank_step, counts)]
    }
}

/// The next config in base-5 order (digit 0 the lowest).
fn odometer_up(c: &mut [u8]) {
    for d in c {
        if *d < 4 {
            *d += 1;
            return;
        }
        *d = 0;
    }
}

/// The previous config in base-5 order.
fn odometer_down(c: &mut [u8]) {
    for d in c {
        if *d > 0 {
            *d -= 1;
            return;
        }
        *d = 4;
    }
}

fn rank(step: &[[[u32; 5]; MAX_SUIT + 1]], counts: &[u8]) -> usize {
    let mut prefix = 0usize;
    let mut r = 0u32;
    for (row, &c) in step.iter().zip(counts) {
        r += row[prefix][c as usize];
        prefix += c as usize;
    }
    r as usize
}

/// One suit's distances: `counts` of a suit starting at kind `first`.
fn suit_distances(t: &Tables, counts: &Counts, first: usize) -> [u8; ENTRIES] {
    if first == 27 {
        *t.honour.distances(&counts[27..KINDS])
    } else {
        *t.number.distances(&counts[first..first + 9])
    }
}

/// Two suits' distances together: for each `m` and pair, the least sum.
fn combine(a: &[u8; ENTRIES], b: &[u8; ENTRIES], sets: usize) -> [u8; ENTRIES] {
    let mut next = [u8::MAX; ENTRIES];
    for m in 0..=sets {
        for p in 0..2 {
            let mut v = u8::MAX;
            for m1 in 0..=m {
                for p1 in 0..=p {
                    v = v.min(a[m1 * 2 + p1].saturating_add(b[(m - m1) * 2 + (p - p1)]));
                }
            }
            next[m * 2 + p] = v;
        }
    }
    next
}

/// The standard form's distance over four suits' distances: `sets` sets
/// still needed (4 less the declared melds) and one pair. The last suit
/// is joined for that one entry only.
fn standard_of(suits: &[[u8; ENTRIES]; 4], sets: usize) -> u8 {
    let best = combine(&combine(&suits[0], &suits[1], sets), &suits[2], sets);
    let last = &suits[3];
    let mut v = u8::MAX;
    for m1 in 0..=sets {
        for p1 in 0..2 {
            v = v.min(best[m1 * 2 + p1].saturating_add(last[(sets - m1) * 2 + (1 - p1)]));
        }
    }
    v
}

const FIRSTS: [usize; 4] = [0, 9, 18, 27];

fn standard_distance(counts: &Counts, sets: usize) -> u8 {
    let t = tables();
    standard_of(&FIRSTS.map(|f| suit_distances(t, counts, f)), sets)
}

/// Standard form (four sets and a pair): `counts` are the concealed tiles
/// (13 or 14 less three per declared meld), `melds` the declared melds.
pub fn standard(counts: &Counts, melds: usize) -> i8 {
    standard_distance(counts, 4 - melds.min(4)) as i8 - 1
}

/// Seven pairs of a concealed hand of 13 or 14 tiles. With
/// `four_as_two_pairs` a four of a kind is two pairs; without, the pairs
/// must be seven kinds, so a lone tile of a new kind is needed for each
/// kind short of seven.
pub fn seven_pairs(counts: &Counts, four_as_two_pairs: bool) -> i8 {
    FormCounts::of(counts).seven_pairs(four_as_two_pairs)
}

/// Thirteen orphans: one of each terminal and honour, one of them twice.
pub fn thirteen_orphans(counts: &Counts) -> i8 {
    FormCounts::of(counts).thirteen_orphans()
}

/// What the special forms' closed forms read of a hand.
#[derive(Clone, Copy, Debug)]
struct FormCounts {
    /// Kinds held twice or more, kinds held, pairs with a four as two.
    pairs: i8,
    kinds: i8,
    halves: i8,
    /// Terminal and honour kinds held, and those held twice or more.
    orphan_kinds: i8,
    orphan_pairs: i8,
}

impl FormCounts {
    fn of(counts: &Counts) -> FormCounts {
        let mut f = FormCounts {
            pairs: 0,
            kinds: 0,
            halves: 0,
            orphan_kinds: 0,
            orphan_pairs: 0,
        };
        for (y, &c) in counts.iter().enumerate() {
            f = f.moved(y, 0, c);
        }
        f
    }

    /// The counts once kind `y` goes from `before` to `after` copies.
    fn moved(self, y: usize, before: u8, after: u8) -> FormCounts {
        let step = |from: bool, to: bool| to as i8 - from as i8;
        let orphan = super::tile::ORPHANS & (1 << y) != 0;
        FormCounts {
            pairs: self.pairs + step(before >= 2, after >= 2),
            kinds: self.kinds + step(before >= 1, after >= 1),
            halves: self.halves + (after / 2) as i8 - (before / 2) as i8,
            orphan_kinds: self.orphan_kinds
                + if orphan {
                    step(before >= 1, after >= 1)
                } else {
                    0
                },
            orphan_pairs: self.orphan_pairs
                + if orphan {
                    step(before >= 2, after >= 2)
                } else {
                    0
                },
        }
    }

    /// With `four_as_two_pairs` a four of a kind is two pairs; without,
    /// the pairs must be seven kinds, so a lone tile of a new kind is
    /// needed for each kind short of seven.
    fn seven_pairs(&self, four_as_two_pairs: bool) -> i8 {
        if four_as_two_pairs {
            6 - self.halves.min(7)
        } else {
            6 - self.pairs + (7 - self.kinds).max(0)
        }
    }

    fn thirteen_orphans(&self) -> i8 {
        13 - self.orphan_kinds - (self.orphan_pairs > 0) as i8
    }
}

impl Shanten {
    /// Beside a standard shanten already known, the special forms `forms`
    /// allows (none with melds), and the least.
    fn with_forms(standard: i8, f: &FormCounts, melds: usize, forms: Forms) -> Shanten {
        let concealed = melds == 0;
        let seven_pairs =
            (concealed && forms.seven_pairs).then(|| f.seven_pairs(forms.four_as_two_pairs));
        let thirteen_orphans = (concealed && forms.thirteen_orphans).then(|| f.thirteen_orphans());
        let best = [seven_pairs, thirteen_orphans]
            .into_iter()
            .flatten()
            .fold(standard, i8::min);
        Shanten {
            standard,
            seven_pairs,
            thirteen_orphans,
            best,
        }
    }
}

/// Shanten in every form `forms` allows.
pub fn shanten(counts: &Counts, melds: usize, forms: Forms) -> Shanten {
    Shanten::with_forms(
        standard(counts, melds),
        &FormCounts::of(counts),
        melds,
        forms,
    )
}

/// A hand's shanten, kept by suit (and the special forms' counts) so that
/// the hand one tile larger or smaller is worked out from one suit's table
/// entry and a few counts (acceptance and the discard table look at up to
/// 34 such hands).
pub struct Prepared {
    counts: Counts,
    melds: usize,
    forms: Forms,
    suits: [[u8; ENTRIES]; 4],
    special: FormCounts,
}

impl Prepared {
    pub fn new(counts: &Counts, melds: usize, forms: Forms) -> Prepared {
        let t = tables();
        Prepared {
            counts: *counts,
            melds,
            forms,
            suits: FIRSTS.map(|f| suit_distances(t, counts, f)),
            special: FormCounts::of(counts),
        }
    }

    /// The shanten of the hand with kind `y` one more (`up`) or one fewer.
    /// `y` must be below four (drawing) or above zero (discarding).
    pub fn changed(&self, y: usize, up: bool) -> Shanten {
        let before = self.counts[y];
        let after = if up { before + 1 } else { before - 1 };
        let mut c = self.counts;
        c[y] = after;
        let s = if y >= 27 { 3 } else { y / 9 };
        let mut suits = self.suits;
        suits[s] = suit_distances(tables(), &c, FIRSTS[s]);
        let standard = standard_of(&suits, 4 - self.melds.min(4)) as i8 - 1;
        let special = self.special.moved(y, before, after);
        Shanten::with_forms(standard, &special, self.melds, self.forms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tile::{counts_of, parse_tiles};

    fn counts(s: &str) -> Counts {
        counts_of(&parse_tiles(s).expect("test tiles parse"))
    }

    const ALL: Forms = Forms {
        seven_pairs: true,
        four_as_two_pairs: false,
        thirteen_orphans: true,
    };

    /// Hands worked by hand, (tiles, declared melds, standard, seven pairs,
    /// thirteen orphans).
    #[test]
    fn worked_hands() {
        let cases: &[(&str, &str, usize, i8, i8, i8)] = &[
            ("complete all chows", "123m456m789m123p55s", 0, -1, 5, 10),
            ("nine gates, nine waits", "1112345678999m", 0, 0, 4, 10),
            ("thirteen-sided wait", "19m19p19s1234567z", 0, 8, 6, 0),
            (
                "thirteen orphans complete",
                "19m19p19s12345677z",
                0,
                7,
                5,
                -1,
            ),
            ("seven pairs ready", "1133m5577p99s113z", 0, 3, 0, 8),
            (
                "one declared meld, ready on a pair",
                "123m456p789s5z",
                1,
                0,
                6,
                10,
            ),
            ("four declared melds, a single tile", "5z", 4, 0, 12, 12),
            ("far apart", "147m258p369s1357z", 0, 8, 6, 7),
            // 1111m is a pung and a lone 1m whose pair, the fifth 1m, cannot
            // come: one from ready, not ready.
            ("holds four of its wait", "1111m234p567p888s", 0, 1, 4, 11),
        ];
        for &(name, tiles, melds, std_, sp, to) in cases {
            let c = counts(tiles);
            assert_eq!(standard(&c, melds), std_, "{name}: standard");
            assert_eq!(seven_pairs(&c, false), sp, "{name}: seven pairs");
            assert_eq!(thirteen_orphans(&c), to, "{name}: thirteen orphans");
        }
    }

    /// Seven pairs with a four of a kind: two pairs under
    /// `four_as_two_pairs`, else one pair and a kind short.
    #[test]
    fn seven_pairs_with_a_four() {
        let c = counts("1111m33p55s7799s1z");
        assert_eq!(seven_pairs(&c, true), 0, "four as two pairs: ready on 1z");
        assert_eq!(seven_pairs(&c, false), 2, "one pair of 1m, six kinds");
    }

    #[test]
    fn the_forms_the_ruleset_does_not_score_are_none() {
        let c = counts("19m19p19s1234567z");
        let s = shanten(&c, 0, Forms::default());
        assert_eq!((s.seven_pairs, s.thirteen_orphans, s.best), (None, None, 8));
        let s = shanten(&c, 0, ALL);
        assert_eq!((s.thirteen_orphans, s.best), (Some(0), 0));
        let s = shanten(&counts("123m456p789s5z"), 1, ALL);
        assert_eq!((s.seven_pairs, s.thirteen_orphans), (None, None), "melds");
    }

    /// A hand one tile larger or smaller, from the prepared suits, is the
    /// hand worked out afresh.
    #[test]
    fn prepared_changes_are_the_hand_afresh() {
        for (tiles, melds) in [
            ("1112345678999m5p", 0),
            ("123m456p789s1133z", 0),
            ("19m19p19s1234567z", 0),
            ("1133m5577p99s113z", 0),
            ("1111m33p55s7799s1z", 0),
            ("123m456p789s5z", 1),
        ] {
            let c = counts(tiles);
            let four = Forms {
                four_as_two_pairs: true,
                ..ALL
            };
            for forms in [ALL, four] {
                let p = Prepared::new(&c, melds, forms);
                for y in 0..KINDS {
                    for up in [true, false] {
                        if (up && c[y] == 4) || (!up && c[y] == 0) {
                            continue;
                        }
                        let mut d = c;
                        if up {
                            d[y] += 1;
                        } else {
                            d[y] -= 1;
                        }
                        assert_eq!(
                            p.changed(y, up),
                            shanten(&d, melds, forms),
                            "{tiles} {y} {up}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn table_sizes() {
        let t = tables();
        assert_eq!(t.number.dist.len(), 405_350);
        assert_eq!(t.honour.dist.len(), 43_130);
    }
}
