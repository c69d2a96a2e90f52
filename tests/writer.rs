//! The production writers (`service::wire::render`, hand-written for speed:
//! bench/load.md, bench/ledger.md) against serde's rendering of the schema
//! types, byte for byte, through the pipeline every entry point calls: a
//! score result (`api::ScoreResponse`) on every fixture request and every
//! corpus hand; a settlement (`api::SettleResponse`) on every settle fixture;
//! a ledger (`api::LedgerResponse`) on the hand-worked nights and the bench
//! night, with names that need escaping and with money.

mod common;

use faan::api::json::parse;
use faan::api::{LedgerRequest, ScoreRequest, SettleRequest};
use faan::core::Registry;
use faan::service::Service;
use serde_json::json;

fn check(service: &Service, case: &str, body: &[u8]) -> bool {
    let Ok(req) = parse::<ScoreRequest>(body) else {
        return false;
    };
    let scored = service.score_hand(
        &req.ruleset,
        &req.house_rules,
        &req.hand.to_core(),
        &req.context.to_core(),
    );
    let Ok(evaluated) = scored else {
        assert!(
            service.score_body(body).is_err(),
            "case {case}: evaluate refuses what the pipeline scores"
        );
        return false;
    };
    let (written, _) = service
        .score_body(body)
        .unwrap_or_else(|e| panic!("case {case}: the pipeline refuses what evaluate scores: {e}"));
    let schema = serde_json::to_string(&evaluated.response()).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&written),
        schema,
        "case {case}: body bytes"
    );
    true
}

#[test]
fn the_writer_writes_what_serde_writes_for_every_fixture_and_corpus_hand() {
    let service = Service::uncached(Registry::builtin().unwrap());
    let mut scored = 0;
    for (file, case) in common::fixture_cases() {
        let name = format!("{file}: {}", case["name"]);
        scored += usize::from(check(
            &service,
            &name,
            case["request"].to_string().as_bytes(),
        ));
    }
    assert!(scored >= 100, "only {scored} fixture requests scored");
    let corpus = include_str!("../bench/corpus.jsonl");
    let mut corpus_scored = 0;
    for (i, line) in corpus.lines().enumerate().filter(|(_, l)| !l.is_empty()) {
        corpus_scored += usize::from(check(
            &service,
            &format!("corpus line {}", i + 1),
            line.as_bytes(),
        ));
    }
    assert!(
        corpus_scored >= 2000,
        "only {corpus_scored} corpus hands scored"
    );
}

/// The table's fixtures (`tests/fixtures/table/NAME`), as (name, request) pairs
/// with whether each is expected to fail.
fn table_cases(name: &str) -> Vec<(String, serde_json::Value, bool)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/table")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                format!("{name}: {}", c["name"]),
                c["request"].clone(),
                c["expect"].get("error").is_some(),
            )
        })
        .collect()
}

#[test]
fn the_settle_writer_writes_what_serde_writes_for_every_settle_fixture() {
    let service = Service::uncached(Registry::builtin().unwrap());
    let (mut checked, mut refused) = (0, 0);
    for (case, request, fails) in table_cases("settle.json") {
        let body = request.to_string();
        let req: SettleRequest = parse(body.as_bytes()).unwrap();
        let written = service.settle(body.as_bytes());
        let Ok(parts) = service.settle_request(&req) else {
            assert!(fails, "case {case}: refused, and not expected to be");
            assert!(written.is_err(), "case {case}: the body written anyway");
            refused += 1;
            continue;
        };
        assert!(!fails, "case {case}: settled, and expected to fail");
        let written = written.unwrap_or_else(|e| panic!("case {case}: {e}"));
        let schema = serde_json::to_string(&parts.response()).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&written),
            schema,
            "case {case}: body bytes"
        );
        checked += 1;
    }
    assert!(
        checked >= 80 && refused >= 5,
        "only {checked} settle fixtures written and {refused} refused"
    );
}

/// A ledger body: `night` with its hands repeated up to `hands` (0: as is),
/// its players renamed, and house rules set.
fn variant(
    night: &serde_json::Value,
    hands: usize,
    rename: &[(&str, &str)],
    house: serde_json::Value,
) -> String {
    let mut v = night.clone();
    if hands > 0 {
        let cycle = v["hands"].as_array().unwrap().clone();
        v["hands"] = cycle.iter().cycle().take(hands).cloned().collect();
    }
    if !house.is_null() {
        v["house_rules"] = house;
    }
    let mut text = v.to_string();
    for (from, to) in rename {
        // Names are whole JSON strings in a request: `"Ann"`.
        text = text.replace(&format!("\"{from}\""), &serde_json::to_string(to).unwrap());
    }
    text
}

#[test]
fn the_ledger_writer_writes_what_serde_writes_for_the_nights() {
    let service = Service::uncached(Registry::builtin().unwrap());
    let bench: serde_json::Value = serde_json::from_str(include_str!("../bench/ledger-night.json"))
        .expect("bench/ledger-night.json");
    let mut nights: Vec<(String, serde_json::Value)> = table_cases("ledger.json")
        .into_iter()
        .map(|(case, request, _)| (case, request))
        .collect();
    nights.push(("the bench night".into(), bench));
    // Names that need escaping, and names that do not.
    let odd = [
        ("Ann", "Ann \"the dealer\""),
        ("Ben", "back\\slash"),
        ("Cat", "貓"),
        ("Dan", "tab\there"),
    ];
    let mut checked = 0;
    for (night, request) in &nights {
        let size = if night == "the bench night" { 1000 } else { 0 };
        let variants = [
            ("as written", variant(request, size, &[], json!(null))),
            ("names escaped", variant(request, size, &odd, json!(null))),
            (
                "a stake with cents",
                variant(request, size, &[], json!({"stake": 0.333})),
            ),
            (
                "a stake, names escaped",
                variant(request, size, &odd, json!({"stake": 1.25})),
            ),
        ];
        for (how, body) in variants {
            let case = format!("{night}, {how}");
            let req: LedgerRequest = parse(body.as_bytes()).unwrap();
            let parts = service
                .ledger_request(&req)
                .unwrap_or_else(|e| panic!("case {case}: {e}"));
            let written = service
                .ledger(body.as_bytes())
                .unwrap_or_else(|e| panic!("case {case}: {e}"));
            let schema = serde_json::to_string(&parts.response()).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&written),
                schema,
                "case {case}: body bytes"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 12, "nights written");
}

/// A night of two games (new seats and a first dealer named, a change of
/// rules between them, a stake from then on), with names that need
/// escaping: the writer against serde, row by row and whole.
#[test]
fn a_night_of_two_games_is_written_as_serde_writes_it() {
    let service = Service::uncached(Registry::builtin().unwrap());
    let dis = |d: &str| json!({"win_by": "discard", "discarder": d});
    let mut hands = vec![json!({"result": "draw"}); 15];
    hands.push(json!({"result": "win", "winners": [{"player": "Cat", "declared": {"faan": 3}, "context": dis("Dan")}]}));
    hands.push(json!({"result": "rules", "house_rules": {"stake": 2}}));
    hands.push(
        json!({"result": "new_game", "players": ["Ben", "Ann", "Dan", "Cat"], "dealer": "Dan"}),
    );
    hands.push(json!({"result": "win", "winners": [{"player": "Ben", "declared": {"faan": 4}, "context": {"win_by": "self_draw"}}]}));
    hands.push(json!({"result": "false_win", "offender": "Ann"}));
    hands.push(json!({"result": "draw"}));
    let night = json!({"ruleset": "hkma", "house_rules": {"dealer_keeps_on_draw": false},
        "players": ["Ann", "Ben", "Cat", "Dan"], "hands": hands});
    let odd = [
        ("Ann", "Ann \"the dealer\""),
        ("Ben", "back\\slash"),
        ("Cat", "貓"),
    ];
    for (how, body) in [
        ("as written", variant(&night, 0, &[], json!(null))),
        ("names escaped", variant(&night, 0, &odd, json!(null))),
        (
            "a second new game, seats kept",
            variant(
                &{
                    let mut n = night.clone();
                    let more = n["hands"].as_array_mut().unwrap();
                    more.truncate(16);
                    more.push(json!({"result": "new_game"}));
                    more.extend(vec![json!({"result": "draw"}); 16]);
                    more.push(json!({"result": "new_game", "dealer": "Cat"}));
                    n
                },
                0,
                &[],
                json!({"dealer_keeps_on_draw": false, "stake": 0.5}),
            ),
        ),
    ] {
        let req: LedgerRequest = parse(body.as_bytes()).unwrap();
        let parts = service
            .ledger_request(&req)
            .unwrap_or_else(|e| panic!("{how}: {e}"));
        let written = service.ledger(body.as_bytes()).unwrap();
        let schema = serde_json::to_string(&parts.response()).unwrap();
        assert!(
            schema.contains("\"result\":\"new_game\""),
            "{how}: {schema}"
        );
        assert_eq!(
            String::from_utf8_lossy(&written),
            schema,
            "{how}: body bytes"
        );
    }
}

#[test]
fn a_ledger_at_a_chip_rate_is_written_as_serde_writes_it() {
    // mjb has its own rate ($10 per 100 chips, a 20-chip bonus) and no stake:
    // money without `stake`.
    let service = Service::uncached(Registry::builtin().unwrap());
    let night = &table_cases("ledger.json")[0].1;
    let mut v = night.clone();
    v["ruleset"] = "mjb".into();
    let body = v.to_string();
    let req: LedgerRequest = parse(body.as_bytes()).unwrap();
    let parts = service
        .ledger_request(&req)
        .unwrap_or_else(|e| panic!("case mjb night: {e}"));
    let written = service.ledger(body.as_bytes()).unwrap();
    let schema = serde_json::to_string(&parts.response()).unwrap();
    assert!(
        schema.contains("\"money\":{\"balances\""),
        "case mjb night: money at the chip rate, no stake: {schema}"
    );
    assert_eq!(
        String::from_utf8_lossy(&written),
        schema,
        "case mjb night: body bytes"
    );
}

/// Declared winners (alone, beside a scored one, a limit, patterns) in a
/// settlement, and a night of declared wins and changes of rules (a stake
/// set mid-night, one restored with null): the writers against serde.
#[test]
fn declared_wins_and_changes_of_rules_are_written_as_serde_writes_them() {
    let service = Service::uncached(Registry::builtin().unwrap());
    let pungs = json!({"tiles": "77755p", "winning_tile": "5p",
        "melds": [{"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999s"}, {"kind": "pung", "tiles": "222p"}]});
    let ctx = |seat: &str| json!({"win_by": "discard", "seat_wind": seat, "round_wind": "east", "discarder": "east"});
    let settles = [
        json!({"ruleset": "hkma", "winners": [{"declared": {"faan": 13}, "context": ctx("south")}]}),
        json!({"ruleset": "mjb", "winners": [{"declared": {"limit": true}, "context": ctx("west")}]}),
        json!({"ruleset": "wisteria-court", "house_rules": {"stake": 0.333}, "winners": [
            {"hand": pungs, "context": ctx("south")},
            {"declared": {"patterns": ["small_three_dragons", "dragon_pung", "dragon_pung"]}, "context": ctx("north")}]}),
    ];
    for (i, body) in settles.iter().enumerate() {
        let body = body.to_string();
        let req: SettleRequest = parse(body.as_bytes()).unwrap();
        let parts = service
            .settle_request(&req)
            .unwrap_or_else(|e| panic!("settle {i}: {e}"));
        let written = service.settle(body.as_bytes()).unwrap();
        let schema = serde_json::to_string(&parts.response()).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&written),
            schema,
            "settle {i}: body bytes"
        );
    }
    let dis = |d: &str| json!({"win_by": "discard", "discarder": d});
    let night = json!({"ruleset": "hkma", "players": ["阿美", "家豪", "Grandma", "Ka-ho"], "hands": [
        {"result": "win", "winners": [{"player": "家豪", "declared": {"faan": 5}, "context": dis("Grandma")}]},
        {"result": "rules", "house_rules": {"stake": 0.5, "false_win": {"faan": 5}}},
        {"result": "false_win", "offender": "Ka-ho"},
        {"result": "win", "winners": [
            {"player": "阿美", "declared": {"faan": 4}, "context": dis("Ka-ho")},
            {"player": "Grandma", "declared": {"patterns": ["mixed_one_suit", "dragon_pung"]}, "context": dis("Ka-ho")}]},
        {"result": "rules", "house_rules": {"stake": null}},
        {"result": "draw"}
    ]});
    for (how, body) in [
        ("a stake set then restored", night.to_string()),
        ("a stake all night", {
            let mut n = night.clone();
            n["house_rules"] = json!({"stake": 1.25});
            n.to_string()
        }),
    ] {
        let req: LedgerRequest = parse(body.as_bytes()).unwrap();
        let parts = service
            .ledger_request(&req)
            .unwrap_or_else(|e| panic!("{how}: {e}"));
        let written = service.ledger(body.as_bytes()).unwrap();
        let schema = serde_json::to_string(&parts.response()).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&written),
            schema,
            "{how}: body bytes"
        );
    }
}
