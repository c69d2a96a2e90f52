//! Property tests of the scoring core: no reading missed or duplicated
//! (against a brute-force enumerator), every reading a partition of the
//! hand, payments summing to zero, and tile order never mattering.

use faan::core::decompose::{readings, Form, Reading, SetKind, Special, WinPlace};
use faan::core::evaluate::score;
use faan::core::hand::{validate, Allowances};
use faan::core::tile::{counts_of, format_tiles, Counts, Tile, KINDS};
use faan::core::{ContextSpec, HandSpec, MeldKind, MeldSpec, Registry, WinBy, Wind};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A tiny deterministic generator driven by a proptest seed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random winning hand: `melds` declared melds, the rest concealed sets and
/// a pair; tiles drawn from `kinds` (a narrow range makes many readings).
fn random_hand(rng: &mut Rng, kinds: &[usize], melds: usize) -> Option<(HandSpec, Counts)> {
    let mut all = [0u8; KINDS];
    let mut concealed = Vec::new();
    let mut specs = Vec::new();
    let take = |all: &mut Counts, t: usize, n: u8| -> bool {
        if all[t] + n > 4 {
            return false;
        }
        all[t] += n;
        true
    };
    for i in 0..5 {
        let mut ok = false;
        for _ in 0..20 {
            let t = kinds[rng.below(kinds.len())];
            let tile = Tile::from_index(t).unwrap();
            if i == 4 {
                if take(&mut all, t, 2) {
                    concealed.extend([tile, tile]);
                    ok = true;
                    break;
                }
                continue;
            }
            let chow = rng.below(2) == 0 && tile.step(2).is_some();
            let declared = i < melds;
            if chow {
                let (b, c) = (tile.step(1).unwrap(), tile.step(2).unwrap());
                if all[t] < 4 && all[b.index()] < 4 && all[c.index()] < 4 {
                    for x in [tile, b, c] {
                        all[x.index()] += 1;
                    }
                    if declared {
                        specs.push(MeldSpec {
                            kind: MeldKind::Chow,
                            tiles: format_tiles(&[tile, b, c]),
                            concealed: false,
                            added: false,
                        });
                    } else {
                        concealed.extend([tile, b, c]);
                    }
                    ok = true;
                    break;
                }
            } else {
                let kong = declared && rng.below(3) == 0;
                let n = if kong { 4 } else { 3 };
                if take(&mut all, t, n) {
                    if declared {
                        let kind = if kong { MeldKind::Kong } else { MeldKind::Pung };
                        let concealed_kong = kong && rng.below(2) == 0;
                        specs.push(MeldSpec {
                            kind,
                            tiles: format_tiles(&vec![tile; n as usize]),
                            concealed: concealed_kong,
                            added: false,
                        });
                    } else {
                        concealed.extend([tile, tile, tile]);
                    }
                    ok = true;
                    break;
                }
            }
        }
        if !ok {
            return None;
        }
    }
    // Shuffle the concealed tiles so the written order is arbitrary.
    for i in (1..concealed.len()).rev() {
        concealed.swap(i, rng.below(i + 1));
    }
    let win = concealed[rng.below(concealed.len())];
    let counts = counts_of(&concealed);
    let spec = HandSpec {
        tiles: format_tiles(&concealed),
        melds: specs,
        winning_tile: Some(win.to_string()),
        flowers: vec![],
    };
    Some((spec, counts))
}

/// Canonical key of a reading: pair, sorted concealed sets, and where the winning tile sits.
type Key = (usize, Vec<(u8, usize)>, Option<(u8, usize)>);

fn kind_code(k: SetKind) -> u8 {
    match k {
        SetKind::Chow => 0,
        SetKind::Pung => 1,
        SetKind::Kong => 2,
    }
}

fn key_of(r: &Reading, declared: usize) -> Key {
    let mut sets: Vec<(u8, usize)> = r.sets[declared..]
        .iter()
        .map(|s| (kind_code(s.kind), s.tile.index()))
        .collect();
    sets.sort();
    let win = match r.win {
        WinPlace::Set(i) => {
            let s = r.sets[i as usize];
            Some((kind_code(s.kind), s.tile.index()))
        }
        _ => None,
    };
    (r.pair.index(), sets, win)
}

/// Every partition of `counts` into `n` sets and a pair, by trying every
/// group at every tile in every order and de-duplicating.
fn brute_partitions(
    counts: &mut Counts,
    n: usize,
    pair: Option<usize>,
    sets: &mut Vec<(u8, usize)>,
    out: &mut BTreeSet<(usize, Vec<(u8, usize)>)>,
) {
    if counts.iter().all(|&c| c == 0) {
        if let (Some(p), true) = (pair, sets.len() == n) {
            let mut s = sets.clone();
            s.sort();
            out.insert((p, s));
        }
        return;
    }
    for t in 0..KINDS {
        if counts[t] == 0 {
            continue;
        }
        if pair.is_none() && counts[t] >= 2 {
            counts[t] -= 2;
            brute_partitions(counts, n, Some(t), sets, out);
            counts[t] += 2;
        }
        if sets.len() < n && counts[t] >= 3 {
            counts[t] -= 3;
            sets.push((1, t));
            brute_partitions(counts, n, pair, sets, out);
            sets.pop();
            counts[t] += 3;
        }
        let tile = Tile::from_index(t).unwrap();
        if let (true, Some(b), Some(c)) = (sets.len() < n, tile.step(1), tile.step(2)) {
            if counts[b.index()] > 0 && counts[c.index()] > 0 {
                for x in [t, b.index(), c.index()] {
                    counts[x] -= 1;
                }
                sets.push((0, t));
                brute_partitions(counts, n, pair, sets, out);
                sets.pop();
                for x in [t, b.index(), c.index()] {
                    counts[x] += 1;
                }
            }
        }
    }
}

fn brute_readings(counts: &Counts, n: usize, win: usize) -> BTreeSet<Key> {
    let mut parts = BTreeSet::new();
    brute_partitions(&mut counts.clone(), n, None, &mut Vec::new(), &mut parts);
    let mut out = BTreeSet::new();
    for (pair, sets) in parts {
        let holds = |&(k, t): &(u8, usize)| {
            if k == 0 {
                (t..t + 3).contains(&win)
            } else {
                t == win
            }
        };
        for s in sets.iter().filter(|s| holds(s)) {
            out.insert((pair, sets.clone(), Some(*s)));
        }
        if pair == win {
            out.insert((pair, sets.clone(), None));
        }
    }
    out
}

fn allow() -> Allowances<'static> {
    Allowances {
        ruleset_id: "test",
        bonus_tiles: true,
        flower_win: false,
        waiting: false,
    }
}

fn check_readings(spec: &HandSpec, counts: &Counts) -> Result<(), TestCaseError> {
    let ctx = ContextSpec::new(WinBy::Discard, Wind::South, Wind::East, Some(Wind::West));
    let (hand, _) = validate(spec, &ctx, allow())
        .map_err(|e| TestCaseError::fail(format!("{spec:?}: {e:?}")))?;
    let found = readings(&hand, WinBy::Discard, false, Special::default());
    let declared = hand.melds.len();
    let keys: Vec<Key> = found.iter().map(|r| key_of(r, declared)).collect();
    let unique: BTreeSet<Key> = keys.iter().cloned().collect();
    prop_assert_eq!(unique.len(), keys.len(), "duplicate reading for {:?}", spec);
    let win = hand.winning_tile.unwrap().index();
    let brute = brute_readings(counts, 4 - declared, win);
    prop_assert_eq!(
        &unique,
        &brute,
        "readings differ from brute force for {:?}",
        spec
    );
    // Every reading is a partition of the whole hand.
    let all = hand.all_counts();
    for r in &found {
        let mut c = [0u8; KINDS];
        c[r.pair.index()] += 2;
        for s in r.sets() {
            match s.kind {
                SetKind::Chow => (0..3).for_each(|k| c[s.tile.index() + k] += 1),
                SetKind::Pung => c[s.tile.index()] += 3,
                SetKind::Kong => c[s.tile.index()] += 4,
            }
        }
        prop_assert_eq!(c, all, "reading {:?} is not a partition of {:?}", r, spec);
        prop_assert_eq!(r.form, Form::Standard);
    }
    Ok(())
}

const ALL_KINDS: [usize; 34] = {
    let mut a = [0; 34];
    let mut i = 0;
    while i < 34 {
        a[i] = i;
        i += 1;
    }
    a
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn readings_match_brute_force_on_random_hands(seed in 1u64.., melds in 0usize..3) {
        let mut rng = Rng(seed);
        if let Some((spec, counts)) = random_hand(&mut rng, &ALL_KINDS, melds) {
            check_readings(&spec, &counts)?;
        }
    }

    #[test]
    fn readings_match_brute_force_on_flushes(seed in 1u64.., start in 0usize..3) {
        // One suit, often a narrow window of it: the decomposer's worst case.
        let mut rng = Rng(seed);
        let width = 3 + rng.below(7);
        let kinds: Vec<usize> = (start * 9..start * 9 + width).collect();
        if let Some((spec, counts)) = random_hand(&mut rng, &kinds, 0) {
            check_readings(&spec, &counts)?;
        }
    }

    #[test]
    fn payments_sum_to_zero_and_order_never_matters(seed in 1u64.., melds in 0usize..3, ctx_pick in 0usize..64) {
        let registry = Registry::builtin().unwrap();
        let mut rng = Rng(seed);
        let Some((spec, _)) = random_hand(&mut rng, &ALL_KINDS, melds) else { return Ok(()) };
        let seat = Wind::ALL[ctx_pick % 4];
        let other = Wind::ALL[(ctx_pick / 4 + 1 + ctx_pick % 4) % 4];
        let ctx = match (ctx_pick / 16) % 3 {
            0 => ContextSpec::new(WinBy::SelfDraw, seat, Wind::ALL[ctx_pick % 3], None),
            1 => ContextSpec::new(WinBy::Discard, seat, Wind::East, Some(other)),
            _ => ContextSpec { liable: Some(other), ..ContextSpec::new(WinBy::SelfDraw, seat, Wind::South, None) },
        };
        let mut shuffled = spec.clone();
        let mut tiles = faan::core::tile::parse_tiles(&spec.tiles).unwrap();
        tiles.reverse();
        // Write the tiles one by one with their suit letter: another notation of the same hand.
        shuffled.tiles = tiles.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" ");
        shuffled.melds.reverse();
        for r in registry.all() {
            let a = score(r, &spec, &ctx);
            let b = score(r, &shuffled, &ctx);
            prop_assert_eq!(&a, &b, "{} {:?} vs {:?}", r.id, spec, shuffled);
            if let Ok(s) = a {
                prop_assert_eq!(s.payments.iter().sum::<i64>(), 0, "{} {:?} {:?}: {:?}", r.id, spec, ctx, s.payments);
                if s.meets_minimum && s.base_points > 0 {
                    prop_assert!(s.payments[seat.index()] > 0, "winner paid for {} {:?}", r.id, spec);
                }
            }
        }
    }
}

/// A tile as its Unicode character, written from `api-contract.md`'s
/// mapping (not the core's): winds U+1F000.., red U+1F004, green U+1F005,
/// white U+1F006, characters U+1F007.., bamboo U+1F010.., dots U+1F019...
fn glyph(t: Tile) -> char {
    let n = u32::from(t.number());
    let u = match (t.to_string().as_bytes()[1], n) {
        (b'm', _) => 0x1F007 + n - 1,
        (b's', _) => 0x1F010 + n - 1,
        (b'p', _) => 0x1F019 + n - 1,
        (_, 1..=4) => 0x1F000 + n - 1,
        (_, 5) => 0x1F006,
        (_, 6) => 0x1F005,
        _ => 0x1F004,
    };
    char::from_u32(u).unwrap()
}

/// The tiles written tile by tile, each as its glyph or as MPSZ by `picks`.
fn mixed(tiles: &[Tile], picks: &[bool]) -> String {
    tiles
        .iter()
        .zip(picks.iter().cycle())
        .map(|(&t, &g)| {
            if g {
                glyph(t).to_string()
            } else {
                format!("{t} ")
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Unicode tiles, alone or mixed with MPSZ, read as the MPSZ text of the same tiles.
    #[test]
    fn unicode_and_mixed_tiles_read_as_mpsz(kinds in proptest::collection::vec(0usize..KINDS, 0..20), picks in proptest::collection::vec(any::<bool>(), 1..20)) {
        let tiles: Vec<Tile> = kinds.iter().map(|&k| Tile::from_index(k).unwrap()).collect();
        let mpsz = format_tiles(&tiles);
        let want = faan::core::tile::parse_tiles(&mpsz).unwrap();
        prop_assert_eq!(&want, &tiles);
        for text in [mixed(&tiles, &picks), mixed(&tiles, &[true])] {
            prop_assert_eq!(faan::core::tile::parse_tiles(&text), Ok(want.clone()), "{:?} vs {}", text, mpsz);
        }
    }

    /// A hand written in Unicode (tiles, melds, winning tile) scores as its MPSZ text.
    #[test]
    fn a_hand_in_unicode_scores_as_in_mpsz(seed in 1u64.., melds in 0usize..3, picks in proptest::collection::vec(any::<bool>(), 1..8)) {
        let registry = Registry::builtin().unwrap();
        let mut rng = Rng(seed);
        let Some((spec, _)) = random_hand(&mut rng, &ALL_KINDS, melds) else { return Ok(()) };
        let unicode = |text: &str| mixed(&faan::core::tile::parse_tiles(text).unwrap(), &picks);
        let written = HandSpec {
            tiles: unicode(&spec.tiles),
            melds: spec.melds.iter().map(|m| MeldSpec { tiles: unicode(&m.tiles), ..m.clone() }).collect(),
            winning_tile: spec.winning_tile.as_deref().map(|w| glyph(w.parse().unwrap()).to_string()),
            flowers: spec.flowers.clone(),
        };
        let ctx = ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, None);
        for r in registry.all() {
            prop_assert_eq!(score(r, &spec, &ctx), score(r, &written, &ctx), "{} {:?} vs {:?}", r.id, spec, written);
        }
    }
}

#[test]
fn known_reading_counts() {
    // (concealed tiles, winning tile, expected number of readings)
    let cases: &[(&str, &str, usize)] = &[
        ("111222333m456p99s", "1m", 2), // three pungs or three identical chows; 1m in a pung or a chow
        ("111222333m456p99s", "9s", 2), // ... or the pair, in either partition
        ("11122233344455m", "5m", 4), // 111 222 333 444 55 / 123 123 123 444 55 / 11 123 234 345 345 ...
        ("22334455667788p", "8p", 3), // pair 22, 55 or 88 with two pairs of identical chows
        ("11123455678999s", "5s", 1), // nine gates with an extra 5: only 111 234 55 678 999
        ("119m19p19s1234567z", "1m", 0), // thirteen orphans has no standard reading
    ];
    for &(tiles, win, want) in cases {
        let spec: HandSpec = HandSpec {
            tiles: tiles.into(),
            melds: vec![],
            winning_tile: Some(win.into()),
            flowers: vec![],
        };
        let counts = counts_of(&faan::core::tile::parse_tiles(tiles).unwrap());
        let ctx = ContextSpec::new(WinBy::SelfDraw, Wind::East, Wind::East, None);
        let (hand, _) = validate(&spec, &ctx, allow()).unwrap();
        let found = readings(&hand, WinBy::SelfDraw, false, Special::default());
        let brute = brute_readings(&counts, 4, hand.winning_tile.unwrap().index());
        assert_eq!(
            found.len(),
            brute.len(),
            "{tiles} win {win}: engine vs brute force"
        );
        assert_eq!(found.len(), want, "{tiles} win {win}: readings {found:?}");
    }
}

/// A reading keeps at most `MAX_LINES` lines. House rules can make every
/// pattern an ordinary faan pattern (limits included), which gives the most
/// lines a hand can have: under every built-in ruleset so changed, no
/// corpus hand and none of the fullest hands built here comes near the
/// bound, and no line is dropped (the raw total is the number of lines).
#[test]
fn no_reading_outgrows_its_lines() {
    use faan::api::ScoreRequest;
    use faan::core::evaluate::{score_request, MAX_LINES};
    use faan::core::pattern::PatternId;
    use faan::core::{HouseRules, PatternOverride};

    let every_pattern_one_faan = HouseRules {
        flowers: Some(true),
        patterns: PatternId::ALL
            .iter()
            .map(|id| (id.as_str().to_string(), PatternOverride::Faan(1)))
            .collect(),
        ..HouseRules::default()
    };
    let full = |tiles: &str, melds: &[(MeldKind, &str, bool)], win: &str, flowers: &[&str]| {
        let hand = HandSpec {
            tiles: tiles.into(),
            melds: melds
                .iter()
                .map(|&(kind, t, concealed)| MeldSpec {
                    kind,
                    tiles: t.into(),
                    concealed,
                    added: false,
                })
                .collect(),
            winning_tile: Some(win.into()),
            flowers: flowers.iter().map(|f| f.to_string()).collect(),
        };
        let mut ctx = ContextSpec::new(WinBy::SelfDraw, Wind::East, Wind::East, None);
        if melds.is_empty() {
            ctx.heavenly = true;
        } else {
            ctx.replacement = faan::core::hand::Replacement::Kong;
            ctx.last_tile = true;
            ctx.double_kong = true;
        }
        (hand, ctx)
    };
    let eight = ["F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4"];
    let mut cases = vec![
        // Three dragon kongs and the seat and round wind's kong, concealed,
        // on a kong replacement after a kong, the last tile, eight flowers.
        full(
            "22z",
            &[
                (MeldKind::Kong, "1111z", true),
                (MeldKind::Kong, "5555z", true),
                (MeldKind::Kong, "6666z", true),
                (MeldKind::Kong, "7777z", true),
            ],
            "2z",
            &eight,
        ),
        // Four winds and a dragon pair.
        full(
            "55z",
            &[
                (MeldKind::Kong, "1111z", true),
                (MeldKind::Kong, "2222z", true),
                (MeldKind::Kong, "3333z", true),
                (MeldKind::Kong, "4444z", true),
            ],
            "5z",
            &eight,
        ),
        // Terminals and dragons in one suit, concealed, heavenly.
        full("111999m55566677z", &[], "9m", &eight),
    ];
    let text = include_str!("../bench/corpus.jsonl");
    for line in text.lines() {
        let r: ScoreRequest = serde_json::from_str(line).expect("corpus line");
        cases.push((r.hand.to_core().to_owned_spec(), r.context.to_core()));
    }
    let reg = Registry::builtin().unwrap();
    for (hand, ctx) in &cases[..3] {
        let r = reg.get("wisteria-court").unwrap();
        let s = score_request(r, &every_pattern_one_faan, hand, ctx);
        assert!(s.is_ok(), "{:?}: {s:?}", hand.tiles);
    }
    let mut most = 0;
    for ruleset in reg.all() {
        for (hand, ctx) in &cases {
            let Ok(s) = score_request(ruleset, &every_pattern_one_faan, hand, ctx) else {
                continue;
            };
            for r in &s.readings {
                assert_eq!(
                    r.raw_faan as usize,
                    r.lines.len(),
                    "{}: {:?}: a line was dropped",
                    ruleset.id,
                    hand.tiles
                );
                most = most.max(r.lines.len());
            }
        }
    }
    assert!(most >= 15, "the fullest hands hold {most} lines");
    assert!(
        most + 8 <= MAX_LINES,
        "{most} lines: within 8 of MAX_LINES ({MAX_LINES})"
    );
}
