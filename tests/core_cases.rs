//! Named cases on the core's stable entry points (`settle`, `false_win`,
//! `money`, `stake`, `ledger`, scoring), each figure worked out by
//! hand from the rulesets' payment rules (`rulesets/*.toml`, the guides'
//! tables). They pin the branches a mutation check found
//! untested (`bench/mutants.md`): the liable seat, the dealer multiplier,
//! the per-payment bonus, rounding money, the deal after a false win, the
//! ledger's own checks, the choice between readings and the lines of limits.

mod common;

use faan::api::{HouseRulesDto, LedgerRequest};
use faan::core::hand::{validate, Allowances, Context, FlowerWins, HandSpec};
use faan::core::ledger::{ledger, Ledger};
use faan::core::settle::{false_win, money, settle, stake, Overflow};
use faan::core::winners::TableError;
use faan::core::{
    ContextSpec, HouseRules, PatternId, Registry, Ruleset, Score, ScoreError, WinBy, Wind,
};
use serde_json::{json, Value};

/// A built-in ruleset with house rules (read by the API's own DTO).
fn ruleset(id: &str, house: Value) -> Ruleset {
    let registry = Registry::builtin().unwrap();
    let base = registry.get(id).expect("a built-in ruleset");
    let house: HouseRulesDto = serde_json::from_value(house).expect("house rules parse");
    let house = HouseRules::try_from(&house).expect("house rules check");
    base.with_house_rules(&house).expect("house rules apply")
}

/// South's win: by `win_by`, `discarder` and `liable` as given.
fn south(win_by: WinBy, discarder: Option<Wind>, liable: Option<Wind>) -> ContextSpec {
    let mut c = ContextSpec::new(win_by, Wind::South, Wind::East, discarder);
    c.liable = liable;
    c
}

/// A context checked as the service checks one (payments read only checked
/// contexts), with a plain hand that wins on its one 2s by any means,
/// robbing a kong too: 123m 456m 789m 55p 234s.
fn plain_hand() -> HandSpec<&'static str> {
    HandSpec {
        tiles: "123m456m789m55p234s",
        melds: vec![],
        winning_tile: Some("2s"),
        flowers: vec![],
    }
}

fn checked(spec: &ContextSpec) -> Context {
    let hand = plain_hand();
    let allow = Allowances {
        ruleset_id: "hkma",
        bonus_tiles: true,
        flower_wins: FlowerWins::NONE,
        waiting: false,
    };
    match validate(&hand, spec, allow) {
        Ok((_, ctx)) => ctx,
        Err(e) => panic!("{spec:?} is not a valid context: {e:?}"),
    }
}

// ------------------------------------------------------------ settle

/// Wisteria Court pays a discard 2B by the discarder and B by the others,
/// a self-draw 2B each (rulesets/wisteria-court.toml, [payment]); B = 16
/// (4 faan). Payments by seat: east, south (the winner), west, north.
#[test]
fn the_liable_seat_pays_as_the_rules_say() {
    use WinBy::*;
    use Wind::*;
    let usual = ruleset("wisteria-court", json!({}));
    let pays_all = ruleset("wisteria-court", json!({"liable_discard": "pays_all"}));
    let cases: &[(&str, &Ruleset, ContextSpec, [i64; 4])] = &[
        (
            "discard by west: 2B = 32 from west, B = 16 from east and north",
            &usual,
            south(Discard, Some(West), None),
            [-16, 64, -32, -16],
        ),
        (
            "west liable and discarding, as_usual: paid as any discard",
            &usual,
            south(Discard, Some(West), Some(West)),
            [-16, 64, -32, -16],
        ),
        (
            "west liable and discarding, pays_all: 2B + B + B = 64 from west alone",
            &pays_all,
            south(Discard, Some(West), Some(West)),
            [0, 64, -64, 0],
        ),
        (
            "north liable, west discarding, pays_all: the discarder is not liable, as usual",
            &pays_all,
            south(Discard, Some(West), Some(North)),
            [-16, 64, -32, -16],
        ),
        (
            "self-draw, east liable: east pays all three 2B, 96",
            &usual,
            south(SelfDraw, None, Some(East)),
            [-96, 96, 0, 0],
        ),
        (
            "robbing west's kong, as_discard: west pays as the discarder",
            &usual,
            south(RobbingKong, Some(West), None),
            [-16, 64, -32, -16],
        ),
    ];
    for (case, r, ctx, want) in cases {
        assert_eq!(settle(r, &checked(ctx), 16), *want, "{case}");
    }
    // The winner named liable never reaches the payments: a Context is
    // made only by validation, which refuses it at /context/liable.
    let hand = plain_hand();
    let refused = validate(
        &hand,
        &south(SelfDraw, None, Some(South)),
        faan::core::evaluate::allowances(&usual),
    )
    .map(|_| ())
    .unwrap_err();
    assert_eq!(
        refused[0].pointer.as_str(),
        "/context/liable",
        "the winner named liable"
    );
    // HKMA: a robbed kong is paid by the adder alone, what all three pay on
    // a self-draw (3 x 2B); B = 8 (3 faan): 48.
    let hkma = ruleset("hkma", json!({}));
    assert_eq!(
        settle(&hkma, &checked(&south(RobbingKong, Some(West), None)), 8),
        [0, 48, -48, 0],
        "hkma: robbing west's kong, adder_pays_all"
    );
}

/// Every payment between the dealer (East) and another seat is multiplied
/// (wisteria-court, B = 16); payments between two other seats are not.
#[test]
fn the_dealer_multiplier_touches_only_the_dealers_payments() {
    let x2 = ruleset("wisteria-court", json!({"dealer_multiplier": 2}));
    assert_eq!(
        settle(
            &x2,
            &checked(&south(WinBy::Discard, Some(Wind::West), None)),
            16
        ),
        [-32, 80, -32, -16],
        "x2, south wins on west's discard: east's B doubles to 32, west 32 and north 16 do not"
    );
    let east = ContextSpec::new(WinBy::SelfDraw, Wind::East, Wind::East, None);
    assert_eq!(
        settle(&x2, &checked(&east), 16),
        [192, -64, -64, -64],
        "x2, the dealer self-draws: each 2B = 32, doubled to 64"
    );
    let x1_5 = ruleset("wisteria-court", json!({"dealer_multiplier": 1.5}));
    assert_eq!(
        settle(
            &x1_5,
            &checked(&south(WinBy::Discard, Some(Wind::West), None)),
            16
        ),
        [-24, 72, -32, -16],
        "x1.5: east's 16 becomes 24"
    );
}

/// MJB (rulesets/mjb.toml): classical payment, 2B by the discarder and B by
/// the others, a self-draw 2B each, and 20 chips added to every payment
/// made; $10 per 100 chips, so 10 cents a point. B = 8 (3 faan).
#[test]
fn mjb_adds_its_bonus_to_each_payment_made() {
    let mjb = ruleset("mjb", json!({}));
    let discard = settle(
        &mjb,
        &checked(&south(WinBy::Discard, Some(Wind::West), None)),
        8,
    );
    assert_eq!(
        discard,
        [-28, 92, -36, -28],
        "west 16 + 20, east and north 8 + 20 each"
    );
    assert_eq!(
        settle(&mjb, &checked(&south(WinBy::SelfDraw, None, Some(Wind::West))), 8),
        [0, 68, -68, 0],
        "west liable on a self-draw: one payment of 3 x 16 + 20; the others pay nothing and no bonus"
    );
    assert_eq!(
        stake(&mjb).map(|s| s.0),
        Some(100_000),
        "mjb's rate: 10 cents a point, in millionths of a dollar"
    );
    assert_eq!(
        money(&mjb, &discard),
        Ok(Some([-280, 920, -360, -280])),
        "the discard in cents"
    );
    let staked = ruleset("mjb", json!({"stake": 0.05}));
    assert_eq!(
        stake(&staked).map(|s| s.0),
        Some(50_000),
        "a stake overrides the ruleset's rate"
    );
    // The false win: the offender pays each other player a self-draw at the
    // minimum (3 faan, B 8): 2B + 20 = 36 from each of three, 108 each.
    assert_eq!(
        false_win(&mjb, Wind::South),
        [108, -324, 108, 108],
        "mjb: south's false win"
    );
    assert_eq!(
        stake(&ruleset("hkma", json!({}))),
        None,
        "hkma has no money rate"
    );
}

/// A stake of 0.333 on wisteria-court's discard (B 16): 16 points are
/// 5.328, so 533 cents; 32 are 10.656, 1066; the winner takes the others'
/// sum, 2132 (not 64 x 0.333 = 21.312 rounded, 2131), so the money sums to zero.
#[test]
fn money_rounds_each_loser_and_the_winner_balances() {
    let r = ruleset("wisteria-court", json!({"stake": 0.333}));
    assert_eq!(
        money(&r, &[-16, 64, -32, -16]),
        Ok(Some([-533, 2132, -1066, -533])),
        "stake 0.333"
    );
    assert_eq!(
        money(&r, &[-96, 96, 0, 0]),
        Ok(Some([-3197, 3197, 0, 0])),
        "96 x 0.333 = 31.968: 3197 cents, the winner the same"
    );
}

#[test]
fn overflow_codes_and_sentences() {
    let cases = [
        (
            Overflow::Money,
            "money_unrepresentable",
            "an amount of money would exceed 90071992547409.91 (9007199254740991 cents, 2^53 - 1: the most a JSON number holds exactly): lower the stake",
        ),
        (
            Overflow::Faan(PatternId::AllChows),
            "faan_overflow",
            "the faan total outgrows 4294967295 (its lines no longer add up exactly): lower all_chows's value",
        ),
        (
            Overflow::BasePoints(PatternId::AllChows),
            "base_points_overflow",
            "the base points of this total exceed 2^40 (1099511627776), the most a settlement supports: lower all_chows's value, the limit or the points table",
        ),
    ];
    for (o, code, sentence) in cases {
        assert_eq!(o.code(), code, "{o:?}: code");
        assert_eq!(o.explain(), sentence, "{o:?}: sentence");
    }
}

// ------------------------------------------------------------ ledger

fn night(ruleset: &str, hands: Vec<Value>) -> Value {
    json!({"ruleset": ruleset, "players": ["Ann", "Ben", "Cat", "Dan"], "hands": hands})
}

fn play(r: &Ruleset, req: &Value, max_hands: usize) -> Result<Ledger, TableError> {
    let text = req.to_string();
    let dto: LedgerRequest = serde_json::from_str(&text).expect("parses");
    ledger(
        r,
        &dto.to_core().expect("each hand fits its result"),
        max_hands,
    )
}

/// HKMA's all-pungs hand (all pungs 3 + self-draw 1 = 4 faan, B 16): a
/// self-draw pays 2B = 32 each.
fn pungs(player: &str, context: Value) -> Value {
    json!({"result": "win", "winners": [{"player": player, "context": context,
        "hand": {"tiles": "77755p", "winning_tile": "5p",
                 "melds": [{"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999s"}, {"kind": "pung", "tiles": "222p"}]}}]})
}

fn invalid(e: &TableError) -> Vec<(String, String)> {
    match e {
        TableError::Invalid(errs) => errs
            .iter()
            .map(|e| (e.pointer.to_string(), e.message.clone()))
            .collect(),
        other => panic!("want an invalid request, got {other:?}"),
    }
}

/// A false win voids the hand: the penalty is paid (hkma: B 8 at the
/// minimum, 2B = 16 x 3 = 48 to each other player, 144 from the offender)
/// and the same dealer deals again, the streak unchanged (not a kept deal).
#[test]
fn a_false_win_keeps_the_deal_as_it_was() {
    let r = ruleset("hkma", json!({}));
    let req = night(
        "hkma",
        vec![json!({"result": "false_win", "offender": "Cat"})],
    );
    let got = play(&r, &req, 10).unwrap();
    assert_eq!(
        got.hands[0].deltas,
        [48, 48, -144, 48],
        "cat pays 48 to each"
    );
    assert_eq!(
        (got.next.dealer, got.next.dealer_streak, got.next.passes),
        (0, 0, 0),
        "Ann deals again, streak 0, no pass"
    );
    assert_eq!(got.money, None, "hkma: no money");
    assert_eq!(
        got.hands[0].outcome.name(),
        "false_win",
        "the result's name"
    );
    // The dealer's own win keeps the deal (streak 1); another's passes it.
    let got = play(
        &r,
        &night("hkma", vec![pungs("Ann", json!({"win_by": "self_draw"}))]),
        10,
    )
    .unwrap();
    assert_eq!(
        got.hands[0].deltas,
        [96, -32, -32, -32],
        "Ann self-draws 4 faan"
    );
    assert_eq!(got.hands[0].outcome.name(), "win", "the result's name");
    assert_eq!(
        (got.next.dealer, got.next.dealer_streak),
        (0, 1),
        "hkma: the dealer's win keeps the deal"
    );
    let got = play(
        &r,
        &night("hkma", vec![pungs("Cat", json!({"win_by": "self_draw"}))]),
        10,
    )
    .unwrap();
    assert_eq!(
        (got.next.dealer, got.next.dealer_streak, got.next.passes),
        (1, 0, 1),
        "hkma: Cat's win passes the deal to Ben"
    );
}

/// A seat or round wind given in a ledger context must be what the ledger
/// derives: Ann deals, so Ben sits south in the east round.
#[test]
fn ledger_contexts_may_repeat_the_derived_winds() {
    let r = ruleset("hkma", json!({}));
    let right = pungs(
        "Ben",
        json!({"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}),
    );
    let got = play(&r, &night("hkma", vec![right]), 10).expect("the derived winds");
    assert_eq!(got.hands[0].deltas, [-32, 96, -32, -32], "Ben self-draws");
    let wrong = pungs(
        "Ben",
        json!({"win_by": "self_draw", "seat_wind": "west", "round_wind": "south"}),
    );
    let err = play(&r, &night("hkma", vec![wrong]), 10).unwrap_err();
    assert_eq!(
        invalid(&err),
        [
            (
                "/hands/0/winners/0/context/seat_wind".to_string(),
                "Ben sits south in this hand, not west (the ledger seats the players; seat_wind may be left out)".to_string()
            ),
            (
                "/hands/0/winners/0/context/round_wind".to_string(),
                "this hand is in the east round, not south (round_wind may be left out)".to_string()
            ),
        ],
        "the wrong winds"
    );
}

/// The winner may not be the discarder; naming the winner liable is the
/// hand's own rule to refuse, at `liable`.
#[test]
fn the_winner_is_neither_discarder_nor_liable() {
    let r = ruleset("hkma", json!({}));
    let err = play(
        &r,
        &night(
            "hkma",
            vec![pungs(
                "Ben",
                json!({"win_by": "discard", "discarder": "Ben"}),
            )],
        ),
        10,
    )
    .unwrap_err();
    assert_eq!(
        invalid(&err),
        [(
            "/hands/0/winners/0/context/discarder".to_string(),
            "Ben is the winner and cannot be the discarder".to_string()
        )],
        "Ben discards to himself"
    );
    let err = play(
        &r,
        &night(
            "hkma",
            vec![pungs(
                "Ben",
                json!({"win_by": "self_draw", "liable": "Ben"}),
            )],
        ),
        10,
    )
    .unwrap_err();
    let errs = invalid(&err);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(
        errs[0].0, "/hands/0/winners/0/context/liable",
        "Ben liable for his own win: {errs:?}"
    );
}

/// Names are 1 to 32 characters; an unknown name is echoed back only when
/// it could be a player's.
#[test]
fn names_up_to_thirty_two_characters() {
    let r = ruleset("hkma", json!({}));
    let n32 = "n".repeat(32);
    let n33 = "n".repeat(33);
    let mut req = night("hkma", vec![json!({"result": "draw"})]);
    req["players"] = json!([n32, "Ben", "Cat", "Dan"]);
    assert!(play(&r, &req, 10).is_ok(), "a 32-character name");
    req["players"] = json!([n33, "Ben", "Cat", "Dan"]);
    assert_eq!(
        invalid(&play(&r, &req, 10).unwrap_err()),
        [(
            "/players/0".to_string(),
            "a player's name is 1 to 32 characters, got 33".to_string()
        )],
        "a 33-character name"
    );
    for (name, message) in [
        (
            n32.clone(),
            format!("{n32:?} is not one of the four players"),
        ),
        (
            n33.clone(),
            "a name of 33 characters is not one of the four players (a name is at most 32)"
                .to_string(),
        ),
    ] {
        let req = night(
            "hkma",
            vec![json!({"result": "false_win", "offender": name})],
        );
        assert_eq!(
            invalid(&play(&r, &req, 10).unwrap_err()),
            [("/hands/0/offender".to_string(), message)],
            "an unknown offender of {} characters",
            name.len()
        );
    }
}

/// At most `max_hands` hands; after the north round nothing may follow
/// (wisteria-court passes the deal on every draw: 16 draws end the match).
#[test]
fn the_ledger_counts_its_hands() {
    let r = ruleset("wisteria-court", json!({}));
    let draws = |n| night("wisteria-court", vec![json!({"result": "draw"}); n]);
    assert_eq!(play(&r, &draws(3), 3).unwrap().hands.len(), 3, "3 of 3");
    assert_eq!(
        invalid(&play(&r, &draws(4), 3).unwrap_err()),
        [(
            "/hands".to_string(),
            "a ledger holds at most 3 hands, got 4".to_string()
        )],
        "4 of 3"
    );
    let whole = play(&r, &draws(16), 100).unwrap();
    assert_eq!(whole.hands[0].outcome.name(), "draw", "the result's name");
    assert_eq!(
        (
            whole.next.round_wind,
            whole.next.dealer,
            whole.next.complete
        ),
        (Wind::North, 0, true),
        "16 passes: the north round is over"
    );
    assert_eq!(
        (whole.hands[4].round_wind, whole.hands[4].dealer),
        (Wind::South, 0),
        "hand 4: four passes moved the round to south, Ann deals again"
    );
    assert_eq!(
        invalid(&play(&r, &draws(17), 100).unwrap_err()),
        [(
            "/hands/16".to_string(),
            "the match is complete: the north round ended with hand 15; no hand may follow"
                .to_string()
        )],
        "a 17th hand"
    );
}

/// Two winners on one discard whose winning tiles differ: the problem names
/// the winner at fault and the first winner (wisteria-court).
#[test]
fn co_winner_problems_name_the_players() {
    let r = ruleset("wisteria-court", json!({}));
    let winner = |player: &str, tiles: &str, tile: &str| {
        json!({"player": player, "hand": {"tiles": tiles, "winning_tile": tile},
               "context": {"win_by": "discard", "discarder": "Dan"}})
    };
    let req = night(
        "wisteria-court",
        vec![json!({"result": "win", "winners": [
            winner("Ben", "123456m789p23455s", "5s"),
            winner("Cat", "123456789s111z99s", "9s")]})],
    );
    let TableError::Invalid(errs) = play(&r, &req, 10).unwrap_err() else {
        panic!("want an invalid request");
    };
    assert_eq!(errs[0].pointer, "/hands/0/winners/1/hand/winning_tile");
    let params = errs[0].params().expect("a coded rule");
    assert_eq!(params["player"], "Cat", "{params:?}");
    assert_eq!(params["first_player"], "Ben", "{params:?}");
}

/// Money through a ledger (mjb, 10 cents a point): Ben self-draws the
/// all-pungs hand. mjb: all pungs 3 + self-draw 1 = 4 faan, B 16; each pays
/// 2B + 20 = 52, Ben +156; in cents 520 each, 1560.
#[test]
fn a_ledger_with_money_sums_its_cents() {
    let r = ruleset("mjb", json!({}));
    let got = play(
        &r,
        &night("mjb", vec![pungs("Ben", json!({"win_by": "self_draw"}))]),
        10,
    )
    .unwrap();
    assert_eq!(got.hands[0].deltas, [-52, 156, -52, -52], "points");
    assert_eq!(
        got.hands[0].money_deltas,
        Some([-520, 1560, -520, -520]),
        "cents"
    );
    let m = got.money.expect("mjb has a money rate");
    assert_eq!(m.balances, [-520, 1560, -520, -520], "money balances");
    assert_eq!(m.transfers.len(), 3, "three pay Ben: {:?}", m.transfers);
}

// ------------------------------------------------------------ scoring

fn scored(req: Value) -> Result<Score, ScoreError> {
    let req = common::request(&req);
    let registry = Registry::builtin().unwrap();
    let r = registry.get(&req.ruleset).unwrap();
    req.score(r)
}

fn lines(s: &Score) -> Vec<(String, u32, bool)> {
    s.best()
        .lines
        .iter()
        .map(|l| (l.pattern.as_str().to_string(), l.faan, l.limit))
        .collect()
}

/// F1 then F3 drawn, the second replacement wins (wisteria-court, the
/// double flower replacement at 2 by a house rule): two readings of the
/// same sets (the 9s won in 789s or in the pair 99s), both 5 faan (all
/// chows 1 + self-draw 1 + concealed 1 + double flower replacement 2); the
/// first is chosen.
#[test]
fn equal_readings_keep_the_first() {
    let s = scored(json!({"ruleset": "wisteria-court",
        "hand": {"tiles": "123m456p789s345m99s", "winning_tile": "9s", "flowers": ["F1", "F3"]},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east",
                    "replacement": "flower", "first_replacement": "flower"},
        "house_rules": {"patterns": {"double_flower_replacement": 2}}}))
    .unwrap();
    assert_eq!(s.readings.len(), 2, "two readings");
    assert_eq!(
        s.readings.iter().map(|r| r.total_faan).collect::<Vec<_>>(),
        [5, 5],
        "both 5 faan"
    );
    assert_eq!(s.chosen, 0, "the first of equal readings");
}

/// Not a winning hand: the sentence counts the concealed tiles, the sets
/// still needed, the possible pairs and all the tiles (hkma).
#[test]
fn not_winning_says_what_is_missing() {
    let hand = |tiles: &str, melds: Value| {
        let win = &tiles[tiles.len() - 2..];
        json!({"ruleset": "hkma", "hand": {"tiles": tiles, "melds": melds, "winning_tile": win},
               "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}})
    };
    let cases = [
        (
            "no pair",
            hand("147m258p369s12357z", json!([])),
            14,
            "not a winning hand: the 14 concealed tiles hold no pair, so they cannot form 4 set(s) and a pair (14 tiles in all)",
        ),
        (
            "two pairs, a kong declared",
            hand("11m22m468m1357p", json!([{"kind": "kong", "tiles": "7777z"}])),
            15,
            "not a winning hand: the 11 concealed tiles cannot be split into 3 set(s) and a pair with any of the 2 possible pair(s), and they form no special hand this ruleset scores (15 tiles in all)",
        ),
    ];
    for (case, req, tiles, detail) in cases {
        match scored(req) {
            Err(ScoreError::NotWinning {
                tiles: t,
                detail: d,
            }) => {
                assert_eq!((t, d.as_str()), (tiles, detail), "{case}")
            }
            other => panic!("{case}: want not winning, got {other:?}"),
        }
    }
}

/// Robbing a concealed kong completes only thirteen orphans (wisteria-court
/// with the robbed_kong context): an ordinary hand is no win, and says so.
#[test]
fn a_robbed_concealed_kong_is_thirteen_orphans_or_nothing() {
    let req = |tiles: &str| {
        json!({"ruleset": "wisteria-court",
            "hand": {"tiles": tiles, "winning_tile": "1m", "flowers": ["F1"]},
            "context": {"win_by": "robbing_kong", "seat_wind": "south", "round_wind": "east",
                        "discarder": "west", "robbed_kong": "concealed"}})
    };
    let s = scored(req("199m19p19s1234567z")).unwrap();
    assert_eq!(
        (s.total_faan(), s.payments),
        (10, [-128, 512, -256, -128]),
        "thirteen orphans: the limit, 128, paid as a discard by west"
    );
    match scored(req("123m456p789s345m99s")) {
        Err(ScoreError::NotWinning { tiles, detail }) => assert_eq!(
            (tiles, detail.as_str()),
            (14, "not a winning hand: a concealed kong may be robbed only to complete thirteen orphans, and these tiles do not form thirteen orphans under this ruleset"),
            "an ordinary hand"
        ),
        other => panic!("want not winning, got {other:?}"),
    }
    // With a declared pung the tiles in all still count it: 11 + 3 = 14.
    let mut with_meld = req("123m456p345m99s");
    with_meld["hand"]["melds"] = json!([{"kind": "pung", "tiles": "777s"}]);
    match scored(with_meld) {
        Err(ScoreError::NotWinning { tiles, .. }) => {
            assert_eq!(tiles, 14, "11 concealed and a pung")
        }
        other => panic!("want not winning, got {other:?}"),
    }
}

/// limits_add (a house rule on wisteria-court, thirteen-sided orphans made
/// a limit): the limit lines say so and add up; an ordinary hand under it
/// is no limit hand. Without limits_add, two limits settle once at 10.
#[test]
fn limit_lines_are_marked_and_add_only_under_limits_add() {
    let orphans = |house: Value| {
        json!({"ruleset": "wisteria-court",
            "hand": {"tiles": "119m19p19s1234567z", "winning_tile": "1m", "flowers": ["F1"]},
            "context": {"win_by": "discard", "seat_wind": "south", "round_wind": "east", "discarder": "west"},
            "house_rules": house})
    };
    let adding = json!({"limits_add": true, "patterns": {"thirteen_sided_orphans": "limit"}});
    let s = scored(orphans(adding.clone())).unwrap();
    let l = |p: &str, f, limit| (p.to_string(), f, limit);
    assert_eq!(
        lines(&s),
        [
            l("concealed_hand", 1, false),
            l("thirteen_orphans", 10, true),
            l("thirteen_sided_orphans", 10, true)
        ],
        "limits_add: 1 + 10 + 10"
    );
    assert_eq!(
        (s.total_faan(), s.best().raw_faan, s.best().limit_hand),
        (21, 21, true),
        "limits_add: 21, uncapped, a limit hand"
    );
    let s = scored(orphans(
        json!({"patterns": {"thirteen_sided_orphans": "limit"}}),
    ))
    .unwrap();
    assert_eq!(
        lines(&s),
        [
            l("thirteen_orphans", 10, true),
            l("thirteen_sided_orphans", 10, true)
        ],
        "two limits, no other line"
    );
    assert_eq!(
        (s.total_faan(), s.best().limit_hand),
        (10, true),
        "two limits settle once"
    );
    // The quiet hand (all chows, self-draw, concealed, no flowers: 4) under limits_add.
    let s = scored(json!({"ruleset": "wisteria-court",
        "hand": {"tiles": "234m567m345p789s22s", "winning_tile": "2s"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"},
        "house_rules": adding}))
    .unwrap();
    assert_eq!(
        (s.total_faan(), s.best().limit_hand),
        (4, false),
        "limits_add, no limit: an ordinary hand"
    );
    assert!(
        lines(&s).iter().all(|(_, _, limit)| !limit),
        "{:?}",
        lines(&s)
    );
}

/// Exclusive pairs keep the higher line, the first of the pair on a tie
/// (wisteria-court). The quiet hand: all chows 1, self-draw 1, concealed 1,
/// no flowers 1.
#[test]
fn exclusive_pairs_keep_the_higher_line() {
    let quiet = |house: Value| {
        scored(json!({"ruleset": "wisteria-court",
            "hand": {"tiles": "234m567m345p789s22s", "winning_tile": "2s"},
            "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"},
            "house_rules": house}))
        .unwrap()
    };
    let names = |s: &Score| -> Vec<String> { lines(s).into_iter().map(|l| l.0).collect() };
    let s = quiet(json!({"exclusive": [["concealed_hand", "all_chows"]]}));
    assert_eq!(
        (names(&s), s.total_faan()),
        (
            vec![
                "self_draw".to_string(),
                "concealed_hand".to_string(),
                "no_flowers".to_string()
            ],
            3
        ),
        "a tie at 1: the first of the pair, concealed hand, stays"
    );
    // A pair only one of which holds takes nothing away, even a line of 0
    // faan (no flowers made 0; all pungs does not hold).
    let s =
        quiet(json!({"exclusive": [["all_pungs", "no_flowers"]], "patterns": {"no_flowers": 0}}));
    assert_eq!(
        (names(&s), s.total_faan()),
        (
            vec![
                "all_chows".to_string(),
                "self_draw".to_string(),
                "concealed_hand".to_string(),
                "no_flowers".to_string()
            ],
            3
        ),
        "all pungs absent: no flowers stays, at 0"
    );
    // Two dragon pungs at 2 each (4) against all pungs 3: the dragons stay,
    // 2 + 2 + self-draw 1 + no flowers 1 = 6 (all pungs would make 5).
    let s = scored(json!({"ruleset": "wisteria-court",
        "hand": {"tiles": "222m888p11s", "winning_tile": "1s",
                 "melds": [{"kind": "pung", "tiles": "555z"}, {"kind": "pung", "tiles": "666z"}]},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"},
        "house_rules": {"exclusive": [["all_pungs", "dragon_pung"]], "patterns": {"dragon_pung": 2}}}))
    .unwrap();
    assert_eq!(
        (
            lines(&s)
                .iter()
                .filter(|l| l.0 == "dragon_pung")
                .map(|l| l.1)
                .collect::<Vec<_>>(),
            lines(&s).iter().any(|l| l.0 == "all_pungs"),
            s.total_faan()
        ),
        (vec![2, 2], false, 6),
        "two dragon pungs worth 4 beat all pungs' 3: {:?}",
        lines(&s)
    );
}

/// A total past u32 is refused, naming the first of the largest lines
/// (hkma under limits_add: the quiet hand's all chows, self-draw and
/// concealed hand at 2^31 - 1 each make 6,442,450,941); the error's
/// sentence is what the user reads.
#[test]
fn a_faan_overflow_names_the_first_largest_line() {
    let big = 2_147_483_647u32;
    let quiet = |patterns: Value| {
        scored(json!({"ruleset": "hkma",
            "hand": {"tiles": "234m567m345p789s22s", "winning_tile": "2s"},
            "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"},
            "house_rules": {"limits_add": true, "patterns": patterns}}))
    };
    let err =
        quiet(json!({"all_chows": big, "concealed_hand": big, "self_draw": big})).unwrap_err();
    assert_eq!(
        err,
        ScoreError::Overflow(Overflow::Faan(PatternId::AllChows)),
        "three equal lines: the first"
    );
    assert_eq!(
        err.to_string(),
        "the faan total outgrows 4294967295 (its lines no longer add up exactly): lower all_chows's value"
    );
    let err = quiet(json!({"all_chows": 2, "concealed_hand": big, "self_draw": big})).unwrap_err();
    assert_eq!(
        err,
        ScoreError::Overflow(Overflow::Faan(PatternId::SelfDraw)),
        "2 + 2 x (2^31 - 1) = 2^32: self-draw and concealed hand the largest, the first of them in line order"
    );
    let err = scored(
        json!({"ruleset": "hkma", "hand": {"tiles": "234m567m345p789s22"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}}),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid request: /hand/tiles: character 17 ('2') is a digit with no suit letter after it; /hand/winning_tile: required: the tile that completed the hand",
        "each problem, at its pointer"
    );
}

/// The ledger's round wind reaches the score: a match started in the south
/// round, Ann dealing, so Ben sits south. Ben's pung of south wind is his
/// seat wind and the round's: hkma, all pungs 3 + self-draw 1 + seat wind 1
/// + round wind 1 = 6 faan, B 32 (half-spicy), 2B = 64 from each.
#[test]
fn the_ledger_scores_in_its_own_round() {
    let r = ruleset("hkma", json!({}));
    let mut req = night(
        "hkma",
        vec![
            json!({"result": "win", "winners": [{"player": "Ben", "context": {"win_by": "self_draw"},
            "hand": {"tiles": "77755p", "winning_tile": "5p",
                     "melds": [{"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999s"}, {"kind": "pung", "tiles": "222z"}]}}]}),
        ],
    );
    req["start"] = json!({"round_wind": "south"});
    let got = play(&r, &req, 10).unwrap();
    let faan::core::ledger::Outcome::Win(ws) = &got.hands[0].outcome else {
        panic!("a win");
    };
    assert_eq!(ws[0].score.total_faan(), 6, "{:?}", lines(&ws[0].score));
    assert_eq!(got.hands[0].deltas, [-64, 192, -64, -64], "B 32, 64 each");
}

/// An exclusive pair one of whose lines is held but contained by another
/// takes nothing away (wisteria-court): small three dragons 5 contains its
/// two dragon pungs, so dragon pung (2 x 1, more than no flowers' 1) is no
/// line and the pair [no flowers, dragon pung] leaves no flowers standing:
/// small three dragons 5 + self-draw 1 + no flowers 1 = 7.
#[test]
fn an_exclusive_pair_ignores_a_contained_line() {
    let s = scored(json!({"ruleset": "wisteria-court",
        "hand": {"tiles": "123m456p77z", "winning_tile": "7z",
                 "melds": [{"kind": "pung", "tiles": "555z"}, {"kind": "pung", "tiles": "666z"}]},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"},
        "house_rules": {"exclusive": [["no_flowers", "dragon_pung"]]}}))
    .unwrap();
    let l = |p: &str, f| (p.to_string(), f, false);
    assert_eq!(
        (lines(&s), s.total_faan()),
        (
            vec![
                l("self_draw", 1),
                l("no_flowers", 1),
                l("small_three_dragons", 5)
            ],
            7
        ),
        "the contained dragon pungs do not beat no flowers"
    );
}
