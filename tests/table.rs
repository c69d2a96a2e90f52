//! Several winners, the table's house rules and whole matches, run through
//! the core: the hand-worked cases of `tests/fixtures/table/` (settle.json:
//! per ruleset family, two winners under `all` and `head_bump` for each
//! discarder seat, a robbed kong, the dealer multiplier, a stake, a liable
//! discarder; ledger.json: a night of thirteen hands under hkma and
//! wisteria-court), then bad input, standings and transfers. Requests are
//! read by the API's own request types (`SettleRequest`, `LedgerRequest`),
//! the one parser of each endpoint.

mod common;

use faan::api::{HouseRulesDto, LedgerRequest, SettleRequest};
use faan::core::ledger::{ledger, standings, transfers, Ledger, Outcome, Transfer};
use faan::core::winners::{settle_winners, TableError, WinnerSpec};
use faan::core::{HouseRules, Registry, Ruleset, Wind};
use serde_json::{json, Value};
use std::sync::Arc;

const SEATS: [&str; 4] = ["east", "south", "west", "north"];

fn fixture(name: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/table")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    v["cases"].as_array().expect("cases").clone()
}

/// The ruleset of a request with its house rules applied (through the API's own house-rule DTO).
fn ruleset(registry: &Registry, req: &Value) -> Result<Ruleset, TableError> {
    let base: &Arc<Ruleset> = registry
        .get(req["ruleset"].as_str().unwrap())
        .expect("a built-in ruleset");
    let house = match req.get("house_rules") {
        None => Ok(HouseRules::default()),
        Some(h) => HouseRules::try_from(
            &serde_json::from_value::<HouseRulesDto>(h.clone()).expect("house rules parse"),
        ),
    };
    house
        .and_then(|h| base.with_house_rules(&h))
        .map_err(TableError::Invalid)
}

fn by_seat(v: &Value) -> [i64; 4] {
    SEATS.map(|s| v[s].as_i64().unwrap_or(0))
}

/// Checks an error against `{"error": "invalid" | "not-a-winning-hand", "pointer": ...}`.
fn check_error(name: &str, expect: &Value, got: &TableError) {
    let want = expect["pointer"].as_str().unwrap();
    match (expect["error"].as_str().unwrap(), got) {
        ("invalid", TableError::Invalid(errs)) => assert!(
            errs.iter().any(|e| e.pointer == want),
            "{name}: want an error at {want}, got {errs:?}"
        ),
        ("not-a-winning-hand", TableError::NotWinning { pointer, .. }) => {
            assert_eq!(pointer, want, "{name}")
        }
        (kind, _) => panic!("{name}: want {kind} at {want}, got {got:?}"),
    }
}

#[test]
fn settle_cases_pay_as_worked_out() {
    let registry = Registry::builtin().unwrap();
    let cases = fixture("settle.json");
    assert!(cases.len() >= 80, "settle cases: {}", cases.len());
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let req = &case["request"];
        let expect = &case["expect"];
        let r = ruleset(&registry, req).unwrap_or_else(|e| panic!("{name}: {e}"));
        let winners = winners_of(req);
        let got = settle_winners(&r, &winners);
        if expect.get("error").is_some() {
            check_error(name, expect, got.as_ref().expect_err(name));
            continue;
        }
        let got = got.unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = expect["results"].as_array().unwrap();
        assert_eq!(got.results.len(), want.len(), "{name}: results");
        for (i, (g, w)) in got.results.iter().zip(want).enumerate() {
            assert_eq!(
                u64::from(g.score.total_faan()),
                w["total_faan"].as_u64().unwrap(),
                "{name}: winner {i} total_faan (lines {:?})",
                g.score.best().lines
            );
            assert_eq!(
                g.paid,
                w["paid"].as_bool().unwrap(),
                "{name}: winner {i} paid"
            );
            assert_eq!(
                g.score.payments,
                by_seat(&w["payments"]),
                "{name}: winner {i} payments"
            );
        }
        assert_eq!(
            got.payments,
            by_seat(&expect["payments"]),
            "{name}: payments"
        );
        assert_eq!(got.payments.iter().sum::<i64>(), 0, "{name}: payments sum");
        if let Some(m) = expect.get("money_cents") {
            assert_eq!(got.money_cents, Some(by_seat(m)), "{name}: money in cents");
        }
    }
}

#[test]
fn one_winner_settles_as_one_score() {
    // The single-winner cases of settle.json, against score itself.
    let registry = Registry::builtin().unwrap();
    let mut n = 0;
    for case in fixture("settle.json") {
        let req = &case["request"];
        let ws = req["winners"].as_array().unwrap();
        if ws.len() != 1 || case["expect"].get("error").is_some() {
            continue;
        }
        let r = ruleset(&registry, req).unwrap();
        let winners = winners_of(req);
        let w = &winners[0];
        let score = faan::core::score(&r, w.claim.hand().expect("tiles"), &w.context).unwrap();
        let s = settle_winners(&r, &winners).unwrap();
        assert_eq!(s.results[0].score, score, "{}", case["name"]);
        assert_eq!(
            (s.payments, s.money_cents),
            (score.payments, score.money_cents),
            "{}",
            case["name"]
        );
        n += 1;
    }
    assert!(n >= 20, "single-winner cases: {n}");
}

/// A ledger request in the contract's JSON shape, played through the API's
/// own reader (`LedgerRequest`, the one parser of the endpoint).
fn play(r: &Ruleset, req: &Value, max_hands: usize) -> Result<Ledger, TableError> {
    let text = req.to_string();
    let dto: LedgerRequest = serde_json::from_str(&text).expect("a ledger request parses");
    let spec = dto.to_core().expect("each hand fits its result");
    ledger(r, &spec, max_hands)
}

/// The players of a ledger request, in order.
fn players_of(req: &Value) -> Vec<String> {
    serde_json::from_value(req["players"].clone()).expect("players")
}

/// The winners of a settle request, read by the API's `SettleRequest`.
fn winners_of(req: &Value) -> Vec<WinnerSpec> {
    let text = req.to_string();
    let dto: SettleRequest = serde_json::from_str(&text).expect("a settle request parses");
    dto.winners
        .iter()
        .map(|w| WinnerSpec {
            claim: w
                .hand
                .as_ref()
                .expect("a hand")
                .to_core()
                .to_owned_spec()
                .into(),
            context: w.context.to_core(),
        })
        .collect()
}

fn by_player(players: &[String], v: &Value) -> [i64; 4] {
    std::array::from_fn(|p| v[&players[p]].as_i64().unwrap())
}

#[test]
fn ledger_cases_play_as_worked_out() {
    let registry = Registry::builtin().unwrap();
    let cases = fixture("ledger.json");
    assert!(cases.len() >= 2, "ledger cases: {}", cases.len());
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let req = &case["request"];
        let expect = &case["expect"];
        let r = ruleset(&registry, req).unwrap();
        let got = play(&r, req, 2000).unwrap_or_else(|e| panic!("{name}: {e}"));
        let players = &players_of(req);
        let name_of = |p: usize| players[p].as_str();
        let want_hands = expect["hands"].as_array().unwrap();
        assert!(
            want_hands.len() >= 12,
            "{name}: a night of at least twelve hands"
        );
        assert_eq!(got.hands.len(), want_hands.len(), "{name}: hands");
        for (g, w) in got.hands.iter().zip(want_hands) {
            let at = format!("{name}, hand {}", g.index);
            assert_eq!(g.round_wind.name(), w["round_wind"], "{at}: round wind");
            assert_eq!(name_of(g.dealer), w["dealer"], "{at}: dealer");
            assert_eq!(
                u64::from(g.dealer_streak),
                w["dealer_streak"].as_u64().unwrap(),
                "{at}: dealer streak"
            );
            assert_eq!(g.outcome.name(), w["result"], "{at}: result");
            if let Some(seats) = w.get("seats") {
                for (p, n) in players.iter().enumerate() {
                    assert_eq!(g.seats[p].name(), seats[n], "{at}: {n}'s seat");
                }
            }
            let got_winners: Vec<Value> = match &g.outcome {
                Outcome::Win(ws) => ws
                    .iter()
                    .map(|x| json!([name_of(x.player), x.paid, x.score.total_faan()]))
                    .collect(),
                _ => vec![],
            };
            assert_eq!(
                Value::from(got_winners),
                w["winners"],
                "{at}: winners (player, paid, total faan)"
            );
            assert_eq!(g.deltas, by_player(players, &w["deltas"]), "{at}: deltas");
            assert_eq!(
                g.balances,
                by_player(players, &w["balances"]),
                "{at}: balances"
            );
        }
        let n = &expect["next"];
        assert_eq!(
            (
                g_name(got.next.round_wind),
                name_of(got.next.dealer),
                u64::from(got.next.dealer_streak),
                got.next.complete
            ),
            (
                n["round_wind"].as_str().unwrap(),
                n["dealer"].as_str().unwrap(),
                n["dealer_streak"].as_u64().unwrap(),
                n["complete"].as_bool().unwrap()
            ),
            "{name}: next"
        );
        assert_eq!(
            got.balances,
            by_player(players, &expect["balances"]),
            "{name}: final balances"
        );
        let st: Vec<Value> = got
            .standings
            .iter()
            .map(|s| json!([name_of(s.player), s.balance, s.rank]))
            .collect();
        assert_eq!(Value::from(st), expect["standings"], "{name}: standings");
        let tr: Vec<Value> = got
            .transfers
            .iter()
            .map(|t| json!([name_of(t.from), name_of(t.to), t.amount]))
            .collect();
        assert_eq!(Value::from(tr), expect["transfers"], "{name}: transfers");
    }
}

fn g_name(w: Wind) -> &'static str {
    w.name()
}

// ------------------------------------------------------------ bad input

fn night(ruleset: &str, hands: Vec<Value>) -> Value {
    json!({"ruleset": ruleset, "players": ["Ann", "Ben", "Cat", "Dan"], "hands": hands})
}

fn a_win(player: &str, discarder: Option<&str>) -> Value {
    let mut ctx = json!({"win_by": if discarder.is_some() { "discard" } else { "self_draw" }});
    if let Some(d) = discarder {
        ctx["discarder"] = json!(d);
    }
    json!({"result": "win", "winners": [{"player": player, "context": ctx,
        "hand": {"tiles": "77755p", "winning_tile": "5p",
                 "melds": [{"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999s"}, {"kind": "pung", "tiles": "222p"}]}}]})
}

#[test]
fn a_bad_ledger_fails_whole_at_its_pointer() {
    let registry = Registry::builtin().unwrap();
    let draw = || json!({"result": "draw"});
    let cases = common::bad_ledgers();
    let core: Vec<&(Value, Value)> = cases.iter().filter(|(c, _)| c["core"] == true).collect();
    assert_eq!(
        core.len(),
        16,
        "the cases the core sees (the rest fail when read)"
    );
    for (case, req) in core {
        let (name, pointer) = (&case["name"], case["pointer"].as_str().unwrap());
        let r = ruleset(&registry, req).unwrap();
        match play(&r, req, 2000) {
            Err(TableError::Invalid(errs)) => assert!(
                errs.iter().any(|e| e.pointer == pointer),
                "{name}: want an error at {pointer}, got {errs:?}"
            ),
            other => panic!("{name}: want an error at {pointer}, got {other:?}"),
        }
    }
    // Sixteen hands of the same night are a whole match: nothing is wrong before the 17th.
    let req = night("wisteria-court", vec![draw(); 16]);
    let r = ruleset(&registry, &req).unwrap();
    let whole = play(&r, &req, 2000).expect("sixteen hands");
    assert!(
        whole.next.complete,
        "wisteria-court: 16 passed deals end the north round"
    );
    assert_eq!(
        whole.hands[15].round_wind,
        Wind::North,
        "hand 15 is in the north round"
    );
    // 2,000 hands are allowed (hkma keeps the deal on a draw, so the match never ends).
    let req = night("hkma", vec![draw(); 2000]);
    let r = ruleset(&registry, &req).unwrap();
    let long = play(&r, &req, 2000).expect("2,000 hands");
    assert_eq!(
        (long.hands.len(), long.next.dealer_streak),
        (2000, 2000),
        "2,000 draws: the dealer keeps the deal"
    );
}

#[test]
fn a_win_below_the_minimum_is_no_win_in_a_match() {
    // hkma, a 1-faan hand: all chows and concealed (discard), 2 faan, under the minimum of 3.
    let registry = Registry::builtin().unwrap();
    let req = night(
        "hkma",
        vec![
            json!({"result": "win", "winners": [{"player": "Cat", "context": {"win_by": "discard", "discarder": "Ann"},
            "hand": {"tiles": "234m567m345p22s789s", "winning_tile": "2s"}}]}),
        ],
    );
    let r = ruleset(&registry, &req).unwrap();
    let err = play(&r, &req, 2000).expect_err("below the minimum");
    assert_eq!(err.pointer(), "/hands/0/winners/0/hand", "{err}");
    assert!(err.to_string().contains("below the minimum of 3"), "{err}");
}

#[test]
fn a_ledger_may_start_anywhere() {
    // South round, Cat deals: Cat sits East, Dan South, Ann West, Ben North.
    // Dan self-draws hand A (hkma: all pungs 3 + self-draw 1 = 4, B 16, 2B = 32 each)
    // and the deal passes to Dan; the round moves to west after four passes.
    let registry = Registry::builtin().unwrap();
    let mut req = night("hkma", vec![a_win("Dan", None)]);
    req["start"] = json!({"round_wind": "south", "dealer": "Cat"});
    let r = ruleset(&registry, &req).unwrap();
    let got = play(&r, &req, 2000).unwrap();
    let h = &got.hands[0];
    assert_eq!(
        h.seats,
        [Wind::West, Wind::North, Wind::East, Wind::South],
        "seats with Cat dealing"
    );
    assert_eq!(h.round_wind, Wind::South, "start round");
    assert_eq!(h.deltas, [-32, -32, -32, 96], "Dan self-draws 4 faan");
    assert_eq!(
        (got.next.round_wind, got.next.dealer, got.next.passes),
        (Wind::South, 3, 1),
        "the deal passes to Dan"
    );
}

// ------------------------------------------------------ standings, transfers

#[test]
fn standings_share_ranks_on_ties() {
    // (balances, then (player, rank) best first)
    type Case = ([i64; 4], [(usize, usize); 4]);
    let cases: [Case; 3] = [
        ([10, -30, 10, 10], [(0, 1), (2, 1), (3, 1), (1, 4)]),
        ([-5, 20, -5, -10], [(1, 1), (0, 2), (2, 2), (3, 4)]),
        ([0, 0, 0, 0], [(0, 1), (1, 1), (2, 1), (3, 1)]),
    ];
    for (balances, want) in cases {
        let got: Vec<(usize, usize)> = standings(&balances)
            .iter()
            .map(|s| (s.player, s.rank))
            .collect();
        assert_eq!(got, want, "standings of {balances:?}");
    }
}

#[test]
fn transfers_are_the_fewest() {
    let t = |from, to, amount| Transfer { from, to, amount };
    let cases: Vec<([i64; 4], Vec<Transfer>)> = vec![
        ([0, 0, 0, 0], vec![]),
        ([50, -50, 0, 0], vec![t(1, 0, 50)]),
        // Two pairs cancel: two transfers, not three.
        ([30, 70, -70, -30], vec![t(3, 0, 30), t(2, 1, 70)]),
        // One debtor: three.
        (
            [112, 16, 48, -176],
            vec![t(3, 0, 112), t(3, 2, 48), t(3, 1, 16)],
        ),
        // No pair cancels: three.
        (
            [118, 14, -50, -82],
            vec![t(3, 0, 82), t(2, 0, 36), t(2, 1, 14)],
        ),
        // Three players in play.
        ([40, -10, 0, -30], vec![t(3, 0, 30), t(1, 0, 10)]),
    ];
    for (balances, want) in cases {
        assert_eq!(transfers(&balances), want, "transfers of {balances:?}");
    }
}
