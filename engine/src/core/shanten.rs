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
//! honours. An entry is 56 bytes (the ten distances and the special forms'
//! counts as 16 byte lanes, each distance's necessary and unnecessary kinds
//! in 2 × 20); their size in all (bench/analysis.md, "Peak memory") is the
//! price of acceptance and discards from one combination of the suits. The
//! standard form joins the suits' lanes with SSE2 byte operations on x86_64
//! ([`standard_portable`] is the same sums lane by lane, for other targets
//! and as the tests' check).
//!
//! Seven pairs and thirteen orphans have closed forms (below), counted only
//! where the ruleset scores that hand and the hand has no melds.

use super::tile::{Counts, KINDS};
use std::sync::OnceLock;

/// Tiles of one suit a hand can hold.
const MAX_SUIT: usize = 14;
/// Distance entries per config: `m` sets (0..=4) by pair (0 or 1).
const ENTRIES: usize = 10;
/// A rank part past every table: a suit of more than MAX_SUIT tiles.
const PAST: u32 = 1 << 23;

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

/// Where the special forms' counts start in the low eight lanes of an
/// entry read as a little-endian `u64` (lanes 5 to 7, after `m` = 0..=4
/// without the pair).
const FORMS_AT: usize = 40;
/// Every kind, as a mask in tile order.
const ALL_KINDS: u64 = (1 << KINDS) - 1;

/// A config's distances as byte lanes: lane `p * 8 + m` is the distance to
/// `m` sets and `p` pairs (never above 14), so that two suits' distances
/// join as shifted sums of whole vectors. Lanes 5 to 7 hold the special
/// forms' counts ([`FormCounts::pack`], summed over the four suits without
/// a carry), lanes 13 to 15 are 0; both are masked off before a join.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
struct Lanes([u8; 16]);

/// The lane of distance `e = p * 5 + m`.
const fn lane(e: usize) -> usize {
    (e / 5) * 8 + e % 5
}

/// The distance lanes, all ones (the rest 0).
const VALID: [u8; 16] = {
    let mut v = [0u8; 16];
    let mut e = 0;
    while e < ENTRIES {
        v[lane(e)] = 0xFF;
        e += 1;
    }
    v
};

/// The distances of a suit with no tiles: 3 a set, 2 the pair.
const EMPTY: [u8; ENTRIES] = [0, 3, 6, 9, 12, 2, 5, 8, 11, 14];

/// What rank 0, the suit with no tiles, holds in `lanes`: the join's
/// identity (0 for nothing, every other distance out of reach), not
/// [`EMPTY`]. An empty suit never helps (`an_empty_suit_never_helps`), so
/// the standard form joins all four suits without a branch; a hand with no
/// tiles at all is the one case it changes, caught by [`join_suits`]' bound.
const IDENTITY: Lanes = {
    let mut v = [0u8; 16];
    let mut e = 1;
    while e < ENTRIES {
        v[lane(e)] = 0xFF;
        e += 1;
    }
    Lanes(v)
};

/// The real distances of a suit with no tiles ([`EMPTY`]) as lanes, no
/// forms' counts.
const EMPTY_LANES: Lanes = {
    let mut v = [0u8; 16];
    let mut e = 0;
    while e < ENTRIES {
        v[lane(e)] = EMPTY[e];
        e += 1;
    }
    Lanes(v)
};

impl Lanes {
    /// The ten distances, `e = p * 5 + m`.
    fn dists(&self) -> [u8; ENTRIES] {
        std::array::from_fn(|e| self.0[lane(e)])
    }

    /// The low eight lanes: distances without the pair and the forms' counts.
    fn low(&self) -> u64 {
        u64::from_le_bytes(self.0[..8].try_into().expect("eight lanes"))
    }
}

/// One suit's table, by config rank. Distance `e = p * 5 + m` is to `m`
/// sets and `p` pairs. `lanes` holds the ten distances and the special
/// forms' counts of the config ([`Lanes`]); `need` holds, per distance, the
/// kinds whose draw lowers it, and `keep` the kinds held whose discard
/// keeps it (a bit a kind, tomohxx's and xiangting's "necessary" and
/// "unnecessary" tiles), so that a hand's acceptance and its discards that
/// keep its shanten come out of one combination of four entries.
struct SuitTable {
    /// The rank in two lookups rather than one a position: `lo[key]` for
    /// the first `split` counts read as a base-5 number (lowest first) is
    /// their part of the rank; `hi[prefix * 5^(n - split) + key]` is the
    /// part of the rest after `prefix` tiles in the first. A number suit
    /// splits 5 + 4, the honours 4 + 3, so that [`keys`] reads four counts
    /// at once from a `u64`, and the two lookups do not wait on each other.
    /// A suit past MAX_SUIT tiles gets a rank past the table.
    split: usize,
    lo: Vec<u32>,
    hi: Vec<u32>,
    lanes: Vec<Lanes>,
    need: Vec<[u16; ENTRIES]>,
    keep: Vec<[u16; ENTRIES]>,
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

/// Builds the tables now rather than on the first call that needs them,
/// which would pay for the build (bench/analysis.md, "Peak memory").
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
        // Held here as `e = p * 5 + m`.
        let bit = |e: usize| 1u16 << ((e % 5) * 2 + e / 5);
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
                if mask[idx] & bit(e) != 0 {
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
        // `rank_step[i][prefix][c]`: what a count `c` at position `i`, after
        // `prefix` tiles before it, adds to the rank.
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
        let len = fits[n][MAX_SUIT] as usize;
        // The part of the rank of counts `key` (base 5) at positions
        // `from..from + k` after `prefix` tiles, and the tiles then.
        let part = |from: usize, k: usize, mut key: usize, mut prefix: usize| {
            let mut r = 0u32;
            for step in &rank_step[from..from + k] {
                let c = key % 5;
                key /= 5;
                if prefix + c > MAX_SUIT {
                    return (PAST, prefix + c);
                }
                r += step[prefix][c];
                prefix += c;
            }
            (r, prefix)
        };
        let split = if chows { 5 } else { 4 };
        let lo = (0..pow[split])
            .map(|key| part(0, split, key, 0).0)
            .collect();
        let hi = (0..=4 * split)
            .flat_map(|prefix| (0..pow[n - split]).map(move |key| (prefix, key)))
            .map(|(prefix, key)| part(split, n - split, key, prefix).0)
            .collect();
        let mut t = SuitTable {
            split,
            lo,
            hi,
            lanes: vec![Lanes::default(); len],
            need: vec![[0; ENTRIES]; len],
            keep: vec![[0; ENTRIES]; len],
        };
        let orphan = |i: usize| !chows || i == 0 || i == n - 1;
        let mut c = [0u8; 9];
        for (idx, d) in dense.iter().enumerate() {
            if c.iter().map(|&x| x as usize).sum::<usize>() <= MAX_SUIT {
                let r = t.rank(&c[..n]);
                let (mut lanes, mut need, mut keep) =
                    (Lanes::default(), [0u16; ENTRIES], [0u16; ENTRIES]);
                for (e, &de) in d.iter().enumerate() {
                    debug_assert!(de <= 14, "a distance is at most 14");
                    lanes.0[lane(e)] = de;
                    for (i, &p) in pow[..n].iter().enumerate() {
                        if c[i] < 4 && dense[idx + p][e] < de {
                            need[e] |= 1 << i;
                        }
                        if c[i] > 0 && dense[idx - p][e] == de {
                            keep[e] |= 1 << i;
                        }
                    }
                }
                let mut f = FormCounts::default();
                for (i, &ci) in c[..n].iter().enumerate() {
                    f = f.moved(orphan(i), 0, ci);
                }
                lanes.0[5..8].copy_from_slice(&f.pack().to_le_bytes()[..3]);
                t.lanes[r] = lanes;
                t.need[r] = need;
                t.keep[r] = keep;
            }
            odometer_up(&mut c[..n]);
        }
        debug_assert_eq!(t.lanes[0].dists(), EMPTY);
        t.lanes[0] = IDENTITY;
        t
    }

    fn rank(&self, counts: &[u8]) -> usize {
        let (a, b) = counts.split_at(self.split);
        let prefix = a.iter().map(|&c| c as usize).sum::<usize>();
        self.lo[key(a)] as usize + self.hi[prefix * 5usize.pow(b.len() as u32) + key(b)] as usize
    }

    /// The rank of the number suit whose nine counts start at `f`: the
    /// first count, then the eight after it as two keys of four.
    #[inline(always)]
    fn rank_number(&self, counts: &Counts, f: usize) -> usize {
        let first = counts[f] as usize;
        let eight: [u8; 8] = counts[f + 1..f + 9].try_into().expect("eight counts");
        let (a, b, tiles) = keys(u64::from_le_bytes(eight));
        self.lo[first + 5 * a] as usize + self.hi[(first + tiles) * 625 + b] as usize
    }

    /// The rank of the honours, the last seven counts.
    #[inline(always)]
    fn rank_honours(&self, counts: &Counts) -> usize {
        let eight: [u8; 8] = counts[26..34].try_into().expect("eight counts");
        let (a, b, prefix) = keys(u64::from_le_bytes(eight) >> 8);
        self.lo[a] as usize + self.hi[prefix * 125 + b] as usize
    }
}

mod keys;
use keys::{key, keys, odometer_down, odometer_up};

const FIRSTS: [usize; 4] = [0, 9, 18, 27];

/// A hand's four suits: each one's table, the rank of its config there
/// and the config's lanes.
struct Suits {
    table: [&'static SuitTable; 4],
    rank: [usize; 4],
    lanes: [&'static Lanes; 4],
}

impl Suits {
    #[inline(always)]
    fn of(counts: &Counts) -> Suits {
        let t = tables();
        let table = [&t.number, &t.number, &t.number, &t.honour];
        let rank = [
            t.number.rank_number(counts, 0),
            t.number.rank_number(counts, 9),
            t.number.rank_number(counts, 18),
            t.honour.rank_honours(counts),
        ];
        let lanes = [
            &t.number.lanes[rank[0]],
            &t.number.lanes[rank[1]],
            &t.number.lanes[rank[2]],
            &t.honour.lanes[rank[3]],
        ];
        Suits { table, rank, lanes }
    }

    /// The special forms' counts, summed over the suits.
    #[inline(always)]
    fn forms(&self) -> FormCounts {
        // Each shifted down first: [`IDENTITY`]'s lanes would carry.
        let sum: u64 = self.lanes.iter().map(|l| l.low() >> FORMS_AT).sum();
        FormCounts::unpack(sum)
    }

    /// The standard form's distance with `sets` sets still needed.
    #[inline(always)]
    fn standard(&self, sets: usize) -> u8 {
        join_suits(&self.lanes, sets)
    }

    /// The standard form's distance and, with `keep` false, the kinds whose
    /// draw lowers it; with `keep` true, the kinds held whose discard keeps it.
    /// A draw or discard moves only its own suit's distances, so it moves
    /// the total where it moves a distance some least split uses: the kinds
    /// are those of every such distance. A suit with no tiles reads its real
    /// distances here ([`EMPTY_LANES`], not [`IDENTITY`]): drawing into it
    /// can help.
    #[inline(always)]
    fn standard_masked(&self, sets: usize, keep: bool) -> (u8, u64) {
        let lanes: [&Lanes; 4] = std::array::from_fn(|s| {
            if self.rank[s] == 0 {
                &EMPTY_LANES
            } else {
                self.lanes[s]
            }
        });
        let (d, least) = least_lanes(&lanes, sets);
        let mut mask = 0u64;
        for (s, &used) in least.iter().enumerate() {
            let (t, r) = (self.table[s], self.rank[s]);
            let bits = if keep { &t.keep[r] } else { &t.need[r] };
            let (mut used, mut m) = (used, 0u16);
            while used != 0 {
                let j = used.trailing_zeros() as usize;
                used &= used - 1;
                m |= bits[(j / 8) * 5 + j % 8];
            }
            mask |= u64::from(m) << FIRSTS[s];
        }
        (d, mask)
    }
}

/// The kinds held once, twice, three and four times.
fn held(counts: &Counts) -> [u64; 4] {
    let mut out = [0u64; 4];
    for (y, &c) in counts.iter().enumerate() {
        if c > 0 {
            out[(c as usize - 1).min(3)] |= 1 << y;
        }
    }
    out
}

/// The standard form's distance of the four suits `e` with `sets` sets
/// still needed: two suits' distances are joined (for each `m` and pair,
/// the least sum over the splits), twice, and the two joins for the one
/// entry wanted, lane `8 + sets`. No distance is above `3 * sets + 2`
/// (every set and the pair drawn afresh), which is the distance of a hand
/// with no tiles, whose suits are all [`IDENTITY`].
#[inline(always)]
fn join_suits(e: &[&Lanes; 4], sets: usize) -> u8 {
    #[cfg(target_arch = "x86_64")]
    let d = sse2::join_suits(e, sets);
    #[cfg(not(target_arch = "x86_64"))]
    let d = portable::join_suits(e, sets);
    d.min(3 * sets as u8 + 2)
}

/// The joins on SSE2 (in the x86_64 baseline, so on every x86_64 machine):
/// sixteen lanes at once. The operations run on complements (`255 - d`,
/// the padding lanes 0): a byte shift fills with 0, which is then the
/// largest distance, so `min(a + b)` is `max(subs(!a, b))`.
#[cfg(target_arch = "x86_64")]
mod sse2;

/// The same joins lane by lane, in plain Rust: the engine on targets
/// without SSE2, and what the tests hold the SSE2 one to.
mod portable;

/// The distance and each suit's lanes used by a least split
/// (`sse2::least_lanes`), on SSE2 where the target has it.
#[inline(always)]
fn least_lanes(e: &[&Lanes; 4], sets: usize) -> (u8, [u32; 4]) {
    #[cfg(target_arch = "x86_64")]
    return sse2::least_lanes(e, sets);
    #[cfg(not(target_arch = "x86_64"))]
    return portable::least_lanes(e, sets);
}

/// Standard form (four sets and a pair): `counts` are the concealed tiles
/// (13 or 14 less three per declared meld), `melds` the declared melds.
pub fn standard(counts: &Counts, melds: usize) -> i8 {
    Suits::of(counts).standard(4 - melds.min(4)) as i8 - 1
}

/// [`standard`] with the joins worked lane by lane in plain Rust, not SSE2:
/// the same figure on every hand (the seeded hands of `tests/shanten.rs`
/// check it), and the engine itself where SSE2 is missing.
#[doc(hidden)]
pub fn standard_portable(counts: &Counts, melds: usize) -> i8 {
    let sets = 4 - melds.min(4);
    let d = portable::join_suits(&Suits::of(counts).lanes, sets);
    d.min(3 * sets as u8 + 2) as i8 - 1
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
#[derive(Clone, Copy, Debug, Default)]
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
        let mut f = FormCounts::default();
        for (y, &c) in counts.iter().enumerate() {
            f = f.moved(super::tile::ORPHANS & (1 << y) != 0, 0, c);
        }
        f
    }

    /// The counts once a kind (`orphan` or not) goes from `before` to
    /// `after` copies.
    fn moved(self, orphan: bool, before: u8, after: u8) -> FormCounts {
        let step = |from: bool, to: bool| to as i8 - from as i8;
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

    /// Five fields of four bits: a suit's counts, added up over the four
    /// suits without a carry (a hand of at most 14 tiles holds at most 14
    /// kinds, 7 pairs, 13 orphans).
    fn pack(&self) -> u64 {
        [
            self.pairs,
            self.kinds,
            self.halves,
            self.orphan_kinds,
            self.orphan_pairs,
        ]
        .iter()
        .enumerate()
        .map(|(k, &v)| (v as u64 & 0xF) << (4 * k))
        .sum()
    }

    fn unpack(p: u64) -> FormCounts {
        let f = |k: usize| ((p >> (4 * k)) & 0xF) as i8;
        FormCounts {
            pairs: f(0),
            kinds: f(1),
            halves: f(2),
            orphan_kinds: f(3),
            orphan_pairs: f(4),
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

    /// The kinds whose draw lowers seven pairs, from the kinds held once to
    /// four times (`held`).
    fn seven_pairs_need(&self, held: &[u64; 4], four_as_two_pairs: bool) -> u64 {
        let [one, two, three, four] = *held;
        if four_as_two_pairs {
            if self.halves < 7 {
                one | three
            } else {
                0
            }
        } else {
            let zero = ALL_KINDS & !(one | two | three | four);
            one | if self.kinds < 7 { zero } else { 0 }
        }
    }

    /// The kinds held whose discard keeps seven pairs.
    fn seven_pairs_keep(&self, held: &[u64; 4], four_as_two_pairs: bool) -> u64 {
        let [one, two, three, four] = *held;
        if four_as_two_pairs {
            one | three | if self.halves > 7 { two | four } else { 0 }
        } else {
            three | four | if self.kinds > 7 { one } else { 0 }
        }
    }

    fn thirteen_orphans_need(&self, held: &[u64; 4]) -> u64 {
        let [one, two, three, four] = *held;
        let zero = ALL_KINDS & !(one | two | three | four);
        super::tile::ORPHANS & (zero | if self.orphan_pairs == 0 { one } else { 0 })
    }

    fn thirteen_orphans_keep(&self, held: &[u64; 4]) -> u64 {
        let [one, two, three, four] = *held;
        let o = super::tile::ORPHANS;
        ((one | two | three | four) & !o)
            | (o & (three | four))
            | (o & if self.orphan_pairs >= 2 { two } else { 0 })
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
    let suits = Suits::of(counts);
    let standard = suits.standard(4 - melds.min(4)) as i8 - 1;
    Shanten::with_forms(standard, &suits.forms(), melds, forms)
}

/// Shanten, and the kinds moving it: with `keep` false the kinds whose
/// draw lowers the best shanten, true the kinds held whose discard keeps it.
fn moving(counts: &Counts, melds: usize, forms: Forms, keep: bool) -> (Shanten, u64) {
    let suits = Suits::of(counts);
    let (d, standard_mask) = suits.standard_masked(4 - melds.min(4), keep);
    let f = suits.forms();
    let s = Shanten::with_forms(d as i8 - 1, &f, melds, forms);
    let mut mask = if s.standard == s.best {
        standard_mask
    } else {
        0
    };
    // Read from the hand only where a special form is at the least.
    let special = s.seven_pairs == Some(s.best) || s.thirteen_orphans == Some(s.best);
    let held = if special { held(counts) } else { [0; 4] };
    if s.seven_pairs == Some(s.best) {
        mask |= if keep {
            f.seven_pairs_keep(&held, forms.four_as_two_pairs)
        } else {
            f.seven_pairs_need(&held, forms.four_as_two_pairs)
        };
    }
    if s.thirteen_orphans == Some(s.best) {
        mask |= if keep {
            f.thirteen_orphans_keep(&held)
        } else {
            f.thirteen_orphans_need(&held)
        };
    }
    (s, mask)
}

/// Shanten, and the kinds (bit `y` for kind `y`) whose draw lowers the
/// best of it: a hand's acceptance, kinds it holds four of left out. The
/// least over the forms drops where a form at the least drops.
pub fn necessary(counts: &Counts, melds: usize, forms: Forms) -> (Shanten, u64) {
    moving(counts, melds, forms, false)
}

/// Shanten, and the kinds held whose discard keeps the best of it (any
/// other discard raises it by one): the discards that keep a hand's shanten.
pub fn unneeded(counts: &Counts, melds: usize, forms: Forms) -> (Shanten, u64) {
    moving(counts, melds, forms, true)
}

/// The kinds of a mask, in tile order.
pub fn kinds_of(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let y = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            y
        })
    })
}

#[cfg(test)]
mod tests;
