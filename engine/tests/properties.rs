//! Property tests of the scoring core: no reading missed or duplicated
//! (against a brute-force enumerator), every reading a partition of the
//! hand, payments summing to zero, and tile order never mattering.

use faan_engine::core::decompose::{readings, Form, Reading, SetKind, Special, WinPlace};
use faan_engine::core::evaluate::score;
use faan_engine::core::hand::{validate, Allowances, FlowerWins};
use faan_engine::core::tile::{counts_of, format_tiles, Counts, Tile, KINDS};
use faan_engine::core::{ContextSpec, HandSpec, MeldKind, MeldSpec, Registry, WinBy, Wind};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The choices a hand is built from, drawn by proptest as a list of
/// numbers: a failing case shrinks by shrinking them towards zero (1m, a
/// chow, the first seat...), down to a minimal hand. Past the end of the
/// list (a long ledger) the choices go on from a xorshift seeded by it.
struct Rng {
    draws: Vec<u16>,
    at: usize,
    state: u64,
}

impl Rng {
    fn new(draws: Vec<u16>) -> Rng {
        let state = draws.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &d| {
            (h ^ u64::from(d)).wrapping_mul(0x100_0000_01B3)
        }) | 1;
        Rng {
            draws,
            at: 0,
            state,
        }
    }
    fn next(&mut self) -> u64 {
        if let Some(&d) = self.draws.get(self.at) {
            self.at += 1;
            return u64::from(d);
        }
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        self.state
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The list of choices of one case.
fn draws(n: usize) -> impl Strategy<Value = Vec<u16>> {
    proptest::collection::vec(any::<u16>(), n)
}

/// A case whose choices build no hand is rejected, not passed: proptest
/// counts it against its limit of rejections.
fn no_hand() -> TestCaseError {
    TestCaseError::reject("the choices built no hand (five of a tile)")
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
        flower_wins: FlowerWins::NONE,
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
    fn readings_match_brute_force_on_random_hands(choices in draws(96), melds in 0usize..3) {
        let mut rng = Rng::new(choices);
        let (spec, counts) = random_hand(&mut rng, &ALL_KINDS, melds).ok_or_else(no_hand)?;
        check_readings(&spec, &counts)?;
    }

    #[test]
    fn readings_match_brute_force_on_flushes(choices in draws(96), start in 0usize..3) {
        // One suit, often a narrow window of it: the decomposer's worst case.
        let mut rng = Rng::new(choices);
        let width = 3 + rng.below(7);
        let kinds: Vec<usize> = (start * 9..start * 9 + width).collect();
        let (spec, counts) = random_hand(&mut rng, &kinds, 0).ok_or_else(no_hand)?;
        check_readings(&spec, &counts)?;
    }

    #[test]
    fn payments_sum_to_zero_and_order_never_matters(choices in draws(96), melds in 0usize..3, ctx_pick in 0usize..64) {
        let registry = Registry::builtin().unwrap();
        let mut rng = Rng::new(choices);
        let (spec, _) = random_hand(&mut rng, &ALL_KINDS, melds).ok_or_else(no_hand)?;
        let seat = Wind::ALL[ctx_pick % 4];
        let other = Wind::ALL[(ctx_pick / 4 + 1 + ctx_pick % 4) % 4];
        let ctx = match (ctx_pick / 16) % 3 {
            0 => ContextSpec::new(WinBy::SelfDraw, seat, Wind::ALL[ctx_pick % 3], None),
            1 => ContextSpec::new(WinBy::Discard, seat, Wind::East, Some(other)),
            _ => ContextSpec { liable: Some(other), ..ContextSpec::new(WinBy::SelfDraw, seat, Wind::South, None) },
        };
        let mut shuffled = spec.clone();
        let mut tiles = faan_engine::core::tile::parse_tiles(&spec.tiles).unwrap();
        tiles.reverse();
        // Write the tiles one by one with their suit letter: another notation of the same hand.
        shuffled.tiles = tiles.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" ");
        shuffled.melds.reverse();
        for r in registry.all() {
            let a = score(r, &spec, &ctx);
            let b = score(r, &shuffled, &ctx);
            prop_assert_eq!(&a, &b, "{} {:?} vs {:?}", r.id(), spec, shuffled);
            if let Ok(s) = a {
                prop_assert_eq!(s.payments.iter().sum::<i64>(), 0, "{} {:?} {:?}: {:?}", r.id(), spec, ctx, s.payments);
                if s.meets_minimum && s.base_points > 0 {
                    prop_assert!(s.payments[seat.index()] > 0, "winner paid for {} {:?}", r.id(), spec);
                }
            }
        }
    }
}

/// A tile as its Unicode character, written from `docs/api.md`'s
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
        let want = faan_engine::core::tile::parse_tiles(&mpsz).unwrap();
        prop_assert_eq!(&want, &tiles);
        for text in [mixed(&tiles, &picks), mixed(&tiles, &[true])] {
            prop_assert_eq!(faan_engine::core::tile::parse_tiles(&text), Ok(want.clone()), "{:?} vs {}", text, mpsz);
        }
    }

    /// A hand written in Unicode (tiles, melds, winning tile) scores as its MPSZ text.
    #[test]
    fn a_hand_in_unicode_scores_as_in_mpsz(choices in draws(96), melds in 0usize..3, picks in proptest::collection::vec(any::<bool>(), 1..8)) {
        let registry = Registry::builtin().unwrap();
        let mut rng = Rng::new(choices);
        let (spec, _) = random_hand(&mut rng, &ALL_KINDS, melds).ok_or_else(no_hand)?;
        let unicode = |text: &str| mixed(&faan_engine::core::tile::parse_tiles(text).unwrap(), &picks);
        let written = HandSpec {
            tiles: unicode(&spec.tiles),
            melds: spec.melds.iter().map(|m| MeldSpec { tiles: unicode(&m.tiles), ..m.clone() }).collect(),
            winning_tile: spec.winning_tile.as_deref().map(|w| glyph(w.parse().unwrap()).to_string()),
            flowers: spec.flowers.clone(),
        };
        let ctx = ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, None);
        for r in registry.all() {
            prop_assert_eq!(score(r, &spec, &ctx), score(r, &written, &ctx), "{} {:?} vs {:?}", r.id(), spec, written);
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
        let counts = counts_of(&faan_engine::core::tile::parse_tiles(tiles).unwrap());
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
    use faan_engine::api::ScoreRequest;
    use faan_engine::core::evaluate::{score, MAX_LINES};
    use faan_engine::core::pattern::PatternId;
    use faan_engine::core::{HouseRuleFields, HouseRules, PatternOverride, Ruleset};

    let every_pattern_one_faan = HouseRules::try_from(HouseRuleFields {
        flowers: Some(true),
        patterns: PatternId::ALL
            .iter()
            .map(|id| (id.as_str().to_string(), PatternOverride::Faan(1)))
            .collect(),
        ..HouseRuleFields::default()
    })
    .expect("checked house rules");
    // Checked once above, applied here, then scored: the pipeline's stages.
    let scored = |r: &Ruleset, hand: &HandSpec, ctx: &ContextSpec| {
        let r = r
            .with_house_rules(&every_pattern_one_faan)
            .map_err(faan_engine::core::ScoreError::Invalid)?;
        score(&r, hand, ctx)
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
            ctx.replacement = faan_engine::core::hand::Replacement::Kong;
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
    let text = include_str!("../../bench/corpus.jsonl");
    for line in text.lines() {
        let r: ScoreRequest = serde_json::from_str(line).expect("corpus line");
        cases.push((r.hand.to_core().to_owned_spec(), r.context.to_core()));
    }
    let reg = Registry::builtin().unwrap();
    for (hand, ctx) in &cases[..3] {
        let r = reg.get("wisteria-court").unwrap();
        let s = scored(r, hand, ctx);
        assert!(s.is_ok(), "{:?}: {s:?}", hand.tiles);
    }
    let mut most = 0;
    for ruleset in reg.all() {
        for (hand, ctx) in &cases {
            let Ok(s) = scored(ruleset, hand, ctx) else {
                continue;
            };
            for r in &s.readings {
                assert_eq!(
                    r.raw_faan as usize,
                    r.lines.len(),
                    "{}: {:?}: a line was dropped",
                    ruleset.id(),
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

// ------------------------------------------------------------ matches

mod matches {
    use super::{draws, random_hand, Rng, ALL_KINDS};
    use faan_engine::core::evaluate::score;
    use faan_engine::core::ledger::{
        ledger, ledger_over, transfers, LedgerContext, LedgerHandSpec, LedgerSpec,
        LedgerWinnerSpec, Outcome, StartSpec,
    };
    use faan_engine::core::ruleset::{
        FalseWin, LiableDiscard, MultipleWinners, Number, PointsSpec,
    };
    use faan_engine::core::tile::{parse_tiles, Counts, Tile, KINDS};
    use faan_engine::core::winners::{settle_winners, WinnerSpec};
    use faan_engine::core::{
        ContextSpec, HandSpec, HouseRuleFields, HouseRules, Registry, Ruleset, WinBy, Wind,
    };
    use proptest::prelude::*;

    const NAMES: [&str; 4] = ["Ann", "Ben", "Cat", "Dan"];

    /// A random ruleset with random table rules, at a minimum of 0 (so every
    /// random winning hand may be declared).
    fn table_ruleset(registry: &Registry, rng: &mut Rng) -> Ruleset {
        let (base, house) = table_rules(registry, rng);
        apply(&base, &house).expect("sensible house rules")
    }

    /// House rules as the core's fields, checked then applied over `base`.
    fn apply(
        base: &Ruleset,
        fields: &HouseRuleFields,
    ) -> Result<Ruleset, Vec<faan_engine::core::FieldError>> {
        HouseRules::try_from(fields.clone()).and_then(|h| base.with_house_rules(&h))
    }

    /// A random built-in ruleset and random table rules over it, at a minimum of 0.
    fn table_rules(registry: &Registry, rng: &mut Rng) -> (Ruleset, HouseRuleFields) {
        let all = registry.all();
        let base = &all[rng.below(all.len())];
        let house = HouseRuleFields {
            min_faan: Some(0),
            multiple_winners: Some(if rng.below(2) == 0 {
                MultipleWinners::All
            } else {
                MultipleWinners::HeadBump
            }),
            dealer_multiplier: Some(Number([1.0, 1.5, 2.0, 3.0][rng.below(4)])),
            stake: (rng.below(2) == 0).then(|| Number([0.01, 0.333, 1.25, 0.000_5][rng.below(4)])),
            liable_discard: Some(if rng.below(2) == 0 {
                LiableDiscard::AsUsual
            } else {
                LiableDiscard::PaysAll
            }),
            dealer_keeps_on_win: Some(rng.below(2) == 0),
            dealer_keeps_on_draw: Some(rng.below(2) == 0),
            co_winners_pay: Some(rng.below(2) == 0),
            false_win: Some(
                [
                    FalseWin::Minimum,
                    FalseWin::Limit,
                    FalseWin::Faan(5),
                    FalseWin::Points(7),
                ][rng.below(4)],
            ),
            ..HouseRuleFields::default()
        };
        (Ruleset::clone(base), house)
    }

    /// A winning hand this ruleset scores won this way (a random hand may not rob a kong of a tile it holds three of).
    fn a_hand(rng: &mut Rng, r: &Ruleset, win_by: WinBy) -> (HandSpec, Counts) {
        let discarder = (win_by != WinBy::SelfDraw).then_some(Wind::East);
        loop {
            let melds = rng.below(3);
            if let Some((spec, _)) = random_hand(rng, &ALL_KINDS, melds) {
                let ctx = ContextSpec::new(win_by, Wind::South, Wind::East, discarder);
                if score(r, &spec, &ctx).is_ok() {
                    let counts = all_counts(&spec);
                    return (spec, counts);
                }
            }
        }
    }

    /// Every tile of a hand, concealed and in its melds.
    fn all_counts(spec: &HandSpec) -> Counts {
        let mut c = [0u8; KINDS];
        let melds = spec.melds.iter().map(|m| m.tiles.as_str());
        for text in std::iter::once(spec.tiles.as_str()).chain(melds) {
            for t in parse_tiles(text).unwrap_or_default() {
                c[t.index()] += 1;
            }
        }
        c
    }

    /// Another winner on the discard of `tile`: a winning hand holding it,
    /// whose tiles with those `held` by the winners before make at most four
    /// of each, the shared `tile` counted once; `None` when none turned up.
    fn a_co_winner(
        rng: &mut Rng,
        r: &Ruleset,
        win_by: WinBy,
        tile: &str,
        held: &Counts,
    ) -> Option<(HandSpec, Counts)> {
        let t = tile.parse::<Tile>().ok()?.index();
        let ctx = ContextSpec::new(win_by, Wind::South, Wind::East, Some(Wind::East));
        for _ in 0..400 {
            let melds = rng.below(3);
            let Some((mut spec, _)) = random_hand(rng, &ALL_KINDS, melds) else {
                continue;
            };
            let counts = all_counts(&spec);
            if counts[t] == 0 || (0..KINDS).any(|k| held[k] + counts[k] - u8::from(k == t) > 4) {
                continue;
            }
            spec.winning_tile = Some(tile.to_string());
            if score(r, &spec, &ctx).is_ok() {
                return Some((spec, counts));
            }
        }
        None
    }

    /// A random hand of a match: a win by one to three players, a draw or a false win.
    fn a_ledger_hand(rng: &mut Rng, r: &Ruleset) -> LedgerHandSpec {
        match rng.below(8) {
            0 => LedgerHandSpec::Draw,
            1 => LedgerHandSpec::FalseWin {
                offender: NAMES[rng.below(4)].into(),
            },
            _ => {
                // Players in a random order: the winners first, then the discarder and a possible liable.
                let mut order = [0, 1, 2, 3];
                for i in (1..4).rev() {
                    order.swap(i, rng.below(i + 1));
                }
                let n = 1 + rng.below(3);
                let win_by = match rng.below(4) {
                    0 if n == 1 => WinBy::SelfDraw,
                    1 => WinBy::RobbingKong,
                    _ => WinBy::Discard,
                };
                let discarder = (win_by != WinBy::SelfDraw).then(|| NAMES[order[3]].to_string());
                let liable =
                    (rng.below(3) == 0).then(|| NAMES[order[3 - rng.below(4 - n)]].to_string());
                // Several winners on one discard hold the same winning tile,
                // and at most four of any tile between them.
                let (first, mut held) = a_hand(rng, r, win_by);
                let tile = first.winning_tile.clone().unwrap_or_default();
                let mut hands = vec![first];
                while hands.len() < n {
                    let Some((h, c)) = a_co_winner(rng, r, win_by, &tile, &held) else {
                        break;
                    };
                    for (sum, x) in held.iter_mut().zip(c) {
                        *sum += x;
                    }
                    held[tile.parse::<Tile>().map_or(0, |t| t.index())] -= 1;
                    hands.push(h);
                }
                let winners = hands
                    .into_iter()
                    .enumerate()
                    .map(|(i, hand)| LedgerWinnerSpec {
                        player: NAMES[order[i]].into(),
                        claim: hand.into(),
                        context: LedgerContext {
                            rest: ContextSpec::new(win_by, Wind::East, Wind::East, None),
                            seat_wind: None,
                            round_wind: None,
                            discarder: discarder.clone(),
                            liable: liable.clone(),
                        },
                    })
                    .collect();
                LedgerHandSpec::Win { winners }
            }
        }
    }

    /// The fewest transfers that settle `b`, by brute force: the non-zero
    /// balances less the most zero-sum groups they split into.
    fn fewest(b: &[i64; 4]) -> usize {
        let nz: Vec<i128> = b
            .iter()
            .filter(|&&x| x != 0)
            .map(|&x| i128::from(x))
            .collect();
        let n = nz.len();
        // groups[mask]: the most zero-sum groups the members of mask split into (-inf: none).
        let mut groups = vec![i32::MIN; 1 << n];
        groups[0] = 0;
        for mask in 1usize..1 << n {
            let mut sub = mask;
            while sub > 0 {
                let sum: i128 = (0..n).filter(|i| sub >> i & 1 == 1).map(|i| nz[i]).sum();
                if sum == 0 && groups[mask ^ sub] >= 0 {
                    groups[mask] = groups[mask].max(groups[mask ^ sub] + 1);
                }
                sub = (sub - 1) & mask;
            }
        }
        n - groups[(1 << n) - 1].max(0) as usize
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        #[test]
        fn ledgers_sum_to_zero_and_settle_up(choices in draws(256), hands in 1usize..24, start in 0usize..16) {
            let registry = Registry::builtin().unwrap();
            let mut rng = Rng::new(choices);
            let r = table_ruleset(&registry, &mut rng);
            let spec = LedgerSpec {
                players: NAMES.iter().map(|n| n.to_string()).collect(),
                start: (start < 12).then(|| StartSpec {
                    round_wind: Some(Wind::ALL[start % 4]),
                    dealer: Some(NAMES[start / 4].to_string()),
                }),
                hands: (0..hands).map(|_| a_ledger_hand(&mut rng, &r)).collect(),
            };
            let got = match ledger(&r, &spec, 2000) {
                Ok(l) => l,
                // A random match may end (north round) before its last hand: the error names the next one.
                Err(e) => {
                    prop_assert!(e.to_string().contains("the match is complete"), "{} {:?}: {}", r.id(), spec, e);
                    return Ok(());
                }
            };
            let mut running = [0i64; 4];
            let mut money = [0i64; 4];
            for h in &got.hands {
                prop_assert_eq!(h.deltas.iter().sum::<i64>(), 0, "{} hand {}: deltas {:?}", r.id(), h.index, h.deltas);
                for (b, d) in running.iter_mut().zip(h.deltas) {
                    *b += d;
                }
                prop_assert_eq!(h.balances, running, "{} hand {}: balances are the running sum", r.id(), h.index);
                if let Some(m) = h.money_deltas {
                    prop_assert_eq!(m.iter().sum::<i64>(), 0, "{} hand {}: money {:?}", r.id(), h.index, m);
                    for (b, d) in money.iter_mut().zip(m) {
                        *b += d;
                    }
                }
                if let Outcome::Win(ws) = &h.outcome {
                    prop_assert!(ws.iter().any(|w| w.paid), "{} hand {}: someone is paid", r.id(), h.index);
                }
            }
            prop_assert_eq!(got.balances, running, "final balances");
            let check = |b: &[i64; 4], what: &str| -> Result<(), TestCaseError> {
                let ts = transfers(b);
                prop_assert!(ts.len() <= 3, "{}: {:?} takes {} transfers", what, b, ts.len());
                prop_assert_eq!(ts.len(), fewest(b), "{}: {:?} settles in {} transfers, not {:?}", what, b, fewest(b), ts);
                let mut left = *b;
                for t in &ts {
                    prop_assert!(t.amount > 0 && t.from != t.to, "{}: {:?}", what, t);
                    left[t.from] += t.amount;
                    left[t.to] -= t.amount;
                }
                prop_assert_eq!(left, [0; 4], "{}: {:?} after {:?}", what, b, ts);
                Ok(())
            };
            check(&got.balances, "points")?;
            prop_assert_eq!(&got.transfers, &transfers(&got.balances));
            if let Some(m) = &got.money {
                prop_assert_eq!(m.balances, money, "money balances are the running sum");
                check(&m.balances, "money")?;
            }
        }

        #[test]
        fn a_ledger_of_one_hand_is_settle_is_score(choices in draws(256)) {
            let registry = Registry::builtin().unwrap();
            let mut rng = Rng::new(choices);
            let r = table_ruleset(&registry, &mut rng);
            let LedgerHandSpec::Win { winners } = a_ledger_hand(&mut rng, &r) else {
                return Err(TestCaseError::reject("a draw or a false win: no winners to settle"));
            };
            // Players sit east, south, west, north: a player's index is its seat.
            let seat = |n: &str| Wind::ALL[NAMES.iter().position(|x| *x == n).unwrap()];
            let specs: Vec<WinnerSpec> = winners
                .iter()
                .map(|w| WinnerSpec {
                    claim: w.claim.clone(),
                    context: ContextSpec {
                        seat_wind: seat(&w.player),
                        round_wind: Wind::East,
                        discarder: w.context.discarder.as_deref().map(seat),
                        liable: w.context.liable.as_deref().map(seat),
                        ..w.context.rest
                    },
                })
                .collect();
            let settled = settle_winners(&r, &specs).expect("settles");
            let spec = LedgerSpec {
                players: NAMES.iter().map(|n| n.to_string()).collect(),
                start: None,
                hands: vec![LedgerHandSpec::Win { winners }],
            };
            let one = ledger(&r, &spec, 1).expect("one hand");
            let h = &one.hands[0];
            prop_assert_eq!(h.deltas, settled.payments, "{}: ledger deltas are settle's payments", r.id());
            prop_assert_eq!(h.money_deltas, settled.money_cents, "{}: money", r.id());
            let Outcome::Win(ws) = &h.outcome else { unreachable!() };
            for (i, (w, s)) in ws.iter().zip(&settled.results).enumerate() {
                prop_assert_eq!(&w.score, &s.score, "{}: winner {} as settled", r.id(), i);
                prop_assert_eq!(w.paid, s.paid, "{}: winner {} paid", r.id(), i);
                let hand = specs[i].claim.hand().expect("tiles");
                let mut alone = score(&r, hand, &specs[i].context).expect("scores");
                if s.paid && !r.table().co_winners_pay {
                    // A winner never pays in a hand it won: the shares of the other
                    // paid winners are not paid, and the winner receives that much less.
                    let me = specs[i].context.seat_wind.index();
                    for (k, o) in settled.results.iter().enumerate() {
                        let j = specs[k].context.seat_wind.index();
                        if k != i && o.paid {
                            alone.payments[me] += alone.payments[j];
                            alone.payments[j] = 0;
                            if let Some(m) = alone.money_cents.as_mut() {
                                m[me] += m[j];
                                m[j] = 0;
                            }
                        }
                    }
                }
                prop_assert_eq!(&s.score, &alone, "{}: winner {} as scored alone (co_winners_pay {})", r.id(), i, r.table().co_winners_pay);
                if s.paid && !r.table().co_winners_pay {
                    let me = specs[i].context.seat_wind.index();
                    prop_assert!(settled.payments[me] >= 0, "{}: winner {} pays nothing in all: {:?}", r.id(), i, settled.payments);
                }
            }
            prop_assert_eq!(settled.payments.iter().sum::<i64>(), 0, "{}: {} winner(s) sum to zero", r.id(), specs.len());
            if specs.len() == 1 {
                let alone = score(&r, specs[0].claim.hand().expect("tiles"), &specs[0].context).unwrap();
                prop_assert_eq!(settled.payments, alone.payments, "{}: one winner pays as one score", r.id());
                prop_assert_eq!(settled.money_cents, alone.money_cents, "{}: and its money", r.id());
            }
        }

        #[test]
        fn a_change_of_rules_never_changes_a_hand_before_it(choices in draws(256), before in 0usize..12, after in 0usize..12) {
            let registry = Registry::builtin().unwrap();
            let mut rng = Rng::new(choices);
            let (base, house) = table_rules(&registry, &mut rng);
            let night = apply(&base, &house).expect("sensible house rules");
            let players: Vec<String> = NAMES.iter().map(|n| n.to_string()).collect();
            let first: Vec<LedgerHandSpec> = (0..before).map(|_| a_ledger_hand(&mut rng, &night)).collect();
            // Rules in force after the change: the night's, some changed (a minimum of 0 kept).
            let mut in_force = house.clone();
            in_force.stake = [None, Some(Number(0.5)), Some(Number(2.0))][rng.below(3)];
            in_force.points = [None, Some(PointsSpec::FullSpicy), Some(PointsSpec::HalfSpicy)][rng.below(3)].clone();
            in_force.dealer_multiplier = Some(Number([1.0, 2.0][rng.below(2)]));
            in_force.dealer_keeps_on_win = Some(rng.below(2) == 0);
            in_force.false_win = Some([FalseWin::Minimum, FalseWin::Limit][rng.below(2)]);
            let changed = apply(&base, &in_force).expect("sensible rules in force");
            let later: Vec<LedgerHandSpec> = (0..after).map(|_| a_ledger_hand(&mut rng, &changed)).collect();
            let spec = |hands: Vec<LedgerHandSpec>| LedgerSpec { players: players.clone(), start: None, hands };
            let alone = match ledger_over(&base, &night, &spec(first.clone()), 2000) {
                Ok(l) => l,
                Err(e) => {
                    prop_assert!(e.to_string().contains("the match is complete"), "{}: {}", base.id(), e);
                    return Ok(());
                }
            };
            let mut all = first;
            all.push(LedgerHandSpec::Rules { in_force });
            all.extend(later);
            let n = alone.hands.len();
            let longer = match ledger_over(&base, &night, &spec(all), 2000) {
                Ok(l) => l,
                Err(e) => {
                    prop_assert!(e.to_string().contains("the match is complete"), "{}: {}", base.id(), e);
                    return Ok(());
                }
            };
            for (a, b) in alone.hands.iter().zip(&longer.hands[..n]) {
                prop_assert_eq!(a, b, "{}: hand {} as it was before the change", base.id(), a.index);
            }
            let rules = &longer.hands[n];
            prop_assert_eq!(&rules.outcome, &Outcome::Rules);
            prop_assert_eq!(rules.deltas, [0; 4], "a change of rules pays nothing");
            prop_assert_eq!((rules.dealer, rules.round_wind), (alone.next.dealer, alone.next.round_wind));
            if let Some(next) = longer.hands.get(n + 1) {
                prop_assert_eq!((next.dealer, next.round_wind), (alone.next.dealer, alone.next.round_wind), "{}: the change does not move the deal", base.id());
            }
        }
    }
}
