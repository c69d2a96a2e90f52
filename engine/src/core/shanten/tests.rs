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

/// The kinds `necessary` and `unneeded` give are those whose draw or
/// discard, worked out afresh, lowers or keeps the best shanten.
#[test]
fn masks_are_the_hand_afresh() {
    for (tiles, melds) in [
        ("1112345678999m", 0),
        ("1112345678999m5p", 0),
        ("123m456p789s1133z", 0),
        ("123m456p789s113z", 0),
        ("19m19p19s1234567z", 0),
        ("19m19p19s12345677z", 0),
        ("1133m5577p99s113z", 0),
        ("1111m33p55s7799s1z", 0),
        ("1111m33p55s7799s", 0),
        ("147m258p369s1357z", 0),
        ("147m258p369s1357z5m", 0),
        ("123m456p789s5z", 1),
        ("123m456p789s55z", 1),
        ("5z", 4),
    ] {
        let c = counts(tiles);
        let four = Forms {
            four_as_two_pairs: true,
            ..ALL
        };
        for forms in [ALL, four, Forms::default()] {
            let now = shanten(&c, melds, forms);
            let (s, need) = necessary(&c, melds, forms);
            let (s2, keep) = unneeded(&c, melds, forms);
            assert_eq!((s, s2), (now, now), "{tiles}: shanten");
            for y in 0..KINDS {
                let mut d = c;
                let drawn = c[y] < 4 && {
                    d[y] += 1;
                    shanten(&d, melds, forms).best < now.best
                };
                assert_eq!(need >> y & 1 == 1, drawn, "{tiles} {forms:?}: draw {y}");
                let mut d = c;
                let kept = c[y] > 0 && {
                    d[y] -= 1;
                    shanten(&d, melds, forms).best == now.best
                };
                assert_eq!(keep >> y & 1 == 1, kept, "{tiles} {forms:?}: discard {y}");
            }
        }
    }
}

/// Why `Suits::standard` may leave out a suit with no tiles: in every
/// entry, a distance is never more than a smaller one's plus 3 a set
/// and 2 the pair, so an empty suit's terms never beat a suit's own.
#[test]
fn an_empty_suit_never_helps() {
    let t = tables();
    for table in [&t.number, &t.honour] {
        for d in std::iter::once(EMPTY).chain(table.lanes[1..].iter().map(Lanes::dists)) {
            for e in 0..ENTRIES {
                for f in 0..ENTRIES {
                    let (m, pair, m2, pair2) = (e % 5, e / 5, f % 5, f / 5);
                    if m2 <= m && pair2 <= pair {
                        let step = 3 * (m - m2) + 2 * (pair - pair2);
                        assert!(d[e] as usize <= d[f] as usize + step, "{d:?}");
                    }
                }
            }
        }
        assert_eq!(table.lanes[0], IDENTITY, "the suit with no tiles");
        assert_eq!(table.lanes[0].0[5..8], [0; 3], "no forms' counts");
    }
}

/// With every suit empty (all [`IDENTITY`]), the joins reach nothing:
/// the bound in `join_suits` gives the tiles of every set and the pair.
#[test]
fn a_hand_with_no_tiles_draws_them_all() {
    for (melds, want) in [(0, 13), (2, 7), (4, 1)] {
        let none = [0u8; KINDS];
        assert_eq!(standard(&none, melds), want, "{melds} melds");
        assert_eq!(standard_portable(&none, melds), want, "{melds} melds");
    }
}

#[test]
fn table_sizes() {
    let t = tables();
    assert_eq!(t.number.lanes.len(), 405_350);
    assert_eq!(t.honour.lanes.len(), 43_130);
}

/// The SSE2 least lanes (acceptance and discards) and the lane-by-lane
/// ones agree on 20,000 seeded draws of four table entries, for every
/// count of sets still needed.
#[test]
#[cfg(target_arch = "x86_64")]
fn least_lanes_are_the_portable_ones() {
    let t = tables();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut pick = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for _ in 0..20_000 {
        let r = [
            pick(t.number.lanes.len()),
            pick(t.number.lanes.len()),
            pick(t.number.lanes.len()),
            pick(t.honour.lanes.len()),
        ];
        let l: [&Lanes; 4] = std::array::from_fn(|s| {
            let table = if s == 3 { &t.honour } else { &t.number };
            if r[s] % 7 == 0 {
                &EMPTY_LANES
            } else {
                &table.lanes[r[s]]
            }
        });
        for sets in 0..=4 {
            assert_eq!(
                super::sse2::least_lanes(&l, sets),
                super::portable::least_lanes(&l, sets),
                "{r:?}, {sets} sets"
            );
        }
    }
}
