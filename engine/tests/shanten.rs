//! Shanten against a brute force written here and against the `xiangting`
//! crate, on a seeded set of 10,000 hands with honours and declared melds.
//!
//! The brute force is the definition: for each suit, every target of `m`
//! sets and `p` pairs is enumerated and the fewest tiles the suit lacks for
//! one is its distance; a hand's distance is the least sum over every way of
//! spreading the sets still needed and the one pair over the four suits.

mod common;

use common::Rng;
use faan_engine::core::shanten::{self, Forms};
use faan_engine::core::tile::{Counts, KINDS};
use std::collections::HashMap;

/// Every target of one suit of `n` positions, with its sets and pairs.
fn targets(n: usize, chows: bool) -> Vec<([u8; 9], usize, usize)> {
    let mut sets: Vec<[u8; 9]> = (0..n)
        .map(|i| {
            let mut s = [0; 9];
            s[i] = 3;
            s
        })
        .collect();
    if chows {
        for i in 0..n - 2 {
            let mut s = [0; 9];
            s[i..i + 3].fill(1);
            sets.push(s);
        }
    }
    let mut out = Vec::new();
    fn go(
        sets: &[[u8; 9]],
        from: usize,
        c: [u8; 9],
        m: usize,
        n: usize,
        out: &mut Vec<([u8; 9], usize, usize)>,
    ) {
        out.push((c, m, 0));
        for j in 0..n {
            if c[j] <= 2 {
                let mut p = c;
                p[j] += 2;
                out.push((p, m, 1));
            }
        }
        if m == 4 {
            return;
        }
        for (k, s) in sets.iter().enumerate().skip(from) {
            let mut next = c;
            if (0..9).all(|i| {
                next[i] += s[i];
                next[i] <= 4
            }) {
                go(sets, k, next, m + 1, n, out);
            }
        }
    }
    go(&sets, 0, [0; 9], 0, n, &mut out);
    out
}

/// Distances of one suit's counts to every (m, p), by enumeration.
fn suit_distances(targets: &[([u8; 9], usize, usize)], c: &[u8]) -> [[u8; 2]; 5] {
    let mut d = [[u8::MAX; 2]; 5];
    for (t, m, p) in targets {
        let lack: u8 = c
            .iter()
            .zip(t)
            .map(|(&have, &want)| want.saturating_sub(have))
            .sum();
        d[*m][*p] = d[*m][*p].min(lack);
    }
    d
}

struct Brute {
    number: Vec<([u8; 9], usize, usize)>,
    honour: Vec<([u8; 9], usize, usize)>,
    memo: HashMap<(bool, [u8; 9]), [[u8; 2]; 5]>,
}

impl Brute {
    fn new() -> Brute {
        Brute {
            number: targets(9, true),
            honour: targets(7, false),
            memo: HashMap::new(),
        }
    }

    fn suit(&mut self, honour: bool, c: &[u8]) -> [[u8; 2]; 5] {
        let mut k = [0u8; 9];
        k[..c.len()].copy_from_slice(c);
        let key = (honour, k);
        if let Some(d) = self.memo.get(&key) {
            return *d;
        }
        let t = if honour { &self.honour } else { &self.number };
        let d = suit_distances(t, c);
        self.memo.insert(key, d);
        d
    }

    /// Standard-form shanten: every split of the sets over the suits, the
    /// pair in each suit in turn.
    fn standard(&mut self, counts: &Counts, melds: usize) -> i8 {
        let need = 4 - melds;
        let d = [
            self.suit(false, &counts[0..9]),
            self.suit(false, &counts[9..18]),
            self.suit(false, &counts[18..27]),
            self.suit(true, &counts[27..KINDS]),
        ];
        let mut best = u8::MAX;
        for a in 0..=need {
            for b in 0..=need - a {
                for c in 0..=need - a - b {
                    let m = [a, b, c, need - a - b - c];
                    for pair in 0..4 {
                        let sum = (0..4)
                            .map(|s| d[s][m[s]][(s == pair) as usize])
                            .fold(0u8, |x, y| x.saturating_add(y));
                        best = best.min(sum);
                    }
                }
            }
        }
        best as i8 - 1
    }
}

/// Seven pairs as the definition: the target gives each kind 0 or 2
/// tiles (or 4, two pairs, under `four_as_two_pairs`), seven pairs in all;
/// a knapsack over the kinds finds the most tiles of the hand it can keep.
fn brute_seven_pairs(c: &Counts, four_as_two: bool) -> i8 {
    let allocs: &[usize] = if four_as_two { &[0, 1, 2] } else { &[0, 1] };
    // kept[k]: most tiles kept with k pairs allotted so far.
    let mut kept = [i32::MIN; 8];
    kept[0] = 0;
    for &h in c.iter() {
        let mut next = [i32::MIN; 8];
        for k in 0..8 {
            if kept[k] == i32::MIN {
                continue;
            }
            for &a in allocs {
                if k + a <= 7 {
                    let v = kept[k] + (h as i32).min(2 * a as i32);
                    next[k + a] = next[k + a].max(v);
                }
            }
        }
        kept = next;
    }
    (14 - kept[7]) as i8 - 1
}

/// A random hand: `melds` declared, the rest concealed, either drawn at
/// random from the wall or a complete hand with a few tiles replaced.
fn random_hand(rng: &mut Rng) -> (Counts, usize) {
    let melds = [0, 0, 0, 1, 1, 2, 3, 4][rng.below(8)];
    let size = 3 * (4 - melds) + 1 + rng.below(2);
    let mut c = [0u8; KINDS];
    let mut placed = 0;
    if rng.below(2) == 0 {
        // Sets first, then tiles replaced at random.
        while placed + 3 <= size {
            let t = rng.below(KINDS);
            if t < 27 && t % 9 <= 6 && rng.below(2) == 0 {
                if (0..3).all(|k| c[t + k] < 4) {
                    (0..3).for_each(|k| c[t + k] += 1);
                    placed += 3;
                }
            } else if c[t] <= 1 {
                c[t] += 3;
                placed += 3;
            }
        }
        for _ in 0..rng.below(4).min(placed) {
            let held: Vec<usize> = (0..KINDS).filter(|&i| c[i] > 0).collect();
            c[held[rng.below(held.len())]] -= 1;
            placed -= 1;
        }
    }
    while placed < size {
        let t = rng.below(KINDS);
        if c[t] < 4 {
            c[t] += 1;
            placed += 1;
        }
    }
    (c, melds)
}

const SPECIALS: Forms = Forms {
    seven_pairs: true,
    four_as_two_pairs: false,
    thirteen_orphans: true,
};

#[test]
fn ten_thousand_hands_match_the_brute_force_and_xiangting_acceptance_too() {
    let mut brute = Brute::new();
    let mut rng = Rng(0x5eed_fa4e);
    let mut by_shanten = [0usize; 10];
    let mut accepted = 0;
    for i in 0..10_000 {
        let (c, melds) = random_hand(&mut rng);
        let s = shanten::shanten(&c, melds, SPECIALS);
        let want = brute.standard(&c, melds);
        assert_eq!(s.standard, want, "hand {i}: {c:?} with {melds} melds");
        // The SSE2 joins (on x86_64) and the plain lane-by-lane ones agree.
        assert_eq!(
            shanten::standard_portable(&c, melds),
            want,
            "hand {i}: portable joins of {c:?} with {melds} melds"
        );
        if melds == 0 {
            for four in [false, true] {
                assert_eq!(
                    shanten::seven_pairs(&c, four),
                    brute_seven_pairs(&c, four),
                    "hand {i}: seven pairs (four_as_two_pairs {four}) of {c:?}"
                );
            }
        }
        // xiangting: the least of the three riichi forms (seven pairs of
        // seven kinds), the same distance less one.
        let x = xiangting::calculate_replacement_number(&c, xiangting::PlayerCount::Four)
            .expect("a valid hand");
        assert_eq!(
            s.best,
            x as i8 - 1,
            "hand {i}: xiangting of {c:?} ({melds} melds)"
        );
        by_shanten[(s.best + 1) as usize] += 1;

        // Acceptance of a 13-tile hand against the brute force, with a few
        // tiles seen: the kinds whose draw lowers shanten, each with 4 less
        // the hand and the seen copies (melds' copies aside here).
        let held: u8 = c.iter().sum();
        if (held as usize + 3 * melds) % 3 == 1 && i % 4 == 0 {
            let mut unseen = [0u8; KINDS];
            for k in 0..KINDS {
                let seen = (rng.below(3) as u8).min(4 - c[k]);
                unseen[k] = 4 - c[k] - seen;
            }
            let got =
                faan_engine::core::analysis::acceptance(&c, melds, Forms::default(), want, &unseen);
            let mut count = 0u32;
            let mut tiles = Vec::new();
            for y in 0..KINDS {
                if c[y] < 4 {
                    let mut d = c;
                    d[y] += 1;
                    if brute.standard(&d, melds) < want {
                        tiles.push((faan_engine::core::Tile::from_index(y).unwrap(), unseen[y]));
                        count += u32::from(unseen[y]);
                    }
                }
            }
            assert_eq!(got.tiles, tiles, "hand {i}: acceptance of {c:?}");
            assert_eq!(got.count, count, "hand {i}: acceptance count");
            accepted += 1;
        }
    }
    assert!(accepted > 500, "acceptance checked on {accepted} hands");
    // The set reaches complete, ready and far hands alike.
    assert!(by_shanten[0] > 20, "complete hands: {by_shanten:?}");
    assert!(by_shanten[1] > 200, "ready hands: {by_shanten:?}");
    assert!(
        by_shanten[5..].iter().sum::<usize>() > 500,
        "far hands: {by_shanten:?}"
    );
}
