//! A night at a real table, through the service's wire entry points (the
//! bodies `POST /v1/settle` and `POST /v1/ledger` take and answer): wins
//! declared without tiles, a change of rules from a hand on, the false
//! win's penalty, the night's statistics and its CSV. Each figure is worked
//! by hand from the rulesets' charts (`rulesets/*.toml`):
//!
//! - hkma: minimum 3, limit 10, half spicy (B = 1, 2, 4, 8, 16, 24, 32, 48,
//!   64, 96, 128 for 0 to 10 faan); the discarder pays 4B alone, a
//!   self-draw 2B from each; no contains for small three dragons.
//! - wisteria-court: minimum 0, limit 10, half spicy; the discarder pays 2B
//!   and the others B each; a self-draw 2B each; small three dragons (5)
//!   contains its dragon pungs.
//! - mjb: minimum 3, limit 10, B = 8, 16, 16, 16, 32, 32, 64, 128 for 3 to
//!   10 faan; discard 2B and B, self-draw 2B each, 20 bonus chips on every
//!   payment, 10 cents a point.

mod bad;
mod games;

use faan::core::Registry;
use faan::service::Service;
use serde_json::{json, Value};

fn service() -> Service {
    Service::uncached(Registry::builtin().expect("the built-in rulesets"))
}

/// A body's answer: 200 and its JSON, or the problem's status and body.
fn post(s: &Service, path: &str, body: &Value) -> (u16, Value) {
    let bytes = serde_json::to_vec(body).unwrap();
    let out = match path {
        "/v1/settle" => s.settle(&bytes),
        "/v1/ledger" => s.ledger(&bytes),
        "/v1/penalties/false-win" => s.false_win(&bytes),
        _ => unreachable!("{path}"),
    };
    match out {
        Ok(b) => (200, serde_json::from_slice(&b).expect("JSON")),
        Err(e) => (e.status(), serde_json::to_value(e.problem()).unwrap()),
    }
}

fn ok(s: &Service, path: &str, body: &Value, case: &str) -> Value {
    let (status, v) = post(s, path, body);
    assert_eq!(status, 200, "{case}: {v}");
    v
}

/// The first error of a 422 as (pointer, code).
fn refused(s: &Service, path: &str, body: &Value, case: &str) -> (String, String) {
    let (status, v) = post(s, path, body);
    assert_eq!(status, 422, "{case}: {v}");
    let e = &v["errors"][0];
    (
        e["pointer"].as_str().unwrap_or_default().to_string(),
        e["code"].as_str().unwrap_or_default().to_string(),
    )
}

fn payments(v: &Value) -> [i64; 4] {
    ["east", "south", "west", "north"].map(|s| v[s].as_i64().unwrap())
}

fn settle(ruleset: &str, house: Value, winners: Value) -> Value {
    json!({"ruleset": ruleset, "house_rules": house, "winners": winners})
}

fn declared(declared: Value, ctx: Value) -> Value {
    json!({"declared": declared, "context": ctx})
}

fn on_discard(seat: &str, discarder: &str) -> Value {
    json!({"win_by": "discard", "seat_wind": seat, "round_wind": "east", "discarder": discarder})
}

fn self_drawn(seat: &str) -> Value {
    json!({"win_by": "self_draw", "seat_wind": seat, "round_wind": "east"})
}

/// All pungs waiting on 5p (3 faan under hkma: its all-pungs line alone).
fn all_pungs() -> Value {
    json!({"tiles": "77755p", "winning_tile": "5p",
        "melds": [{"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999s"}, {"kind": "pung", "tiles": "222p"}]})
}

#[test]
fn a_declared_five_faan_on_a_discard() {
    let s = service();
    // hkma: 5 faan, B 24; West pays 4B = 96 alone.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "hkma",
            json!({}),
            json!([declared(json!({"faan": 5}), on_discard("south", "west"))]),
        ),
        "hkma 5 faan",
    );
    assert_eq!(
        payments(&v["payments"]),
        [0, 96, -96, 0],
        "hkma: West pays 4B"
    );
    let r = &v["results"][0];
    assert_eq!(
        (
            &r["source"],
            &r["declared_faan"],
            &r["total_faan"],
            &r["base_points"]
        ),
        (&json!("declared"), &json!(5), &json!(5), &json!(24)),
        "hkma: the declared result"
    );
    assert!(
        r.get("hand_hash").is_none() && r.get("decompositions").is_none(),
        "no tiles: {r}"
    );
    // wisteria-court: B 24; West 2B = 48, East and North B = 24 each.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "wisteria-court",
            json!({}),
            json!([declared(json!({"faan": 5}), on_discard("south", "west"))]),
        ),
        "wisteria 5 faan",
    );
    assert_eq!(
        payments(&v["payments"]),
        [-24, 96, -48, -24],
        "wisteria-court: classical"
    );
    // mjb: B(5) 16; West 32 + 20, East and North 16 + 20 each: South +124.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "mjb",
            json!({}),
            json!([declared(json!({"faan": 5}), on_discard("south", "west"))]),
        ),
        "mjb 5 faan",
    );
    assert_eq!(
        payments(&v["payments"]),
        [-36, 124, -52, -36],
        "mjb: with its bonus"
    );
    assert_eq!(
        v["money"]["payments"]["south"],
        json!(12.4),
        "mjb: 10 cents a point"
    );
}

#[test]
fn a_declared_self_draw_by_the_dealer_under_a_dealer_multiplier() {
    let s = service();
    // hkma x2: 4 faan, B 16; each pays 2B = 32, doubled with the dealer: 64.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "hkma",
            json!({"dealer_multiplier": 2}),
            json!([declared(json!({"faan": 4}), self_drawn("east"))]),
        ),
        "hkma dealer x2",
    );
    assert_eq!(payments(&v["payments"]), [192, -64, -64, -64]);
    // wisteria-court x2, the same: 4 faan, B 16, 2B = 32 each, doubled.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "wisteria-court",
            json!({"dealer_multiplier": 2}),
            json!([declared(json!({"faan": 4}), self_drawn("east"))]),
        ),
        "wisteria dealer x2",
    );
    assert_eq!(payments(&v["payments"]), [192, -64, -64, -64]);
    // mjb x1.5: 4 faan, B 16; (32 + 20) x 1.5 = 78 each.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "mjb",
            json!({"dealer_multiplier": 1.5}),
            json!([declared(json!({"faan": 4}), self_drawn("east"))]),
        ),
        "mjb dealer x1.5",
    );
    assert_eq!(payments(&v["payments"]), [234, -78, -78, -78]);
}

#[test]
fn a_declared_limit_and_a_faan_over_the_limit() {
    let s = service();
    // hkma: a limit hand self-drawn by North: B(10) 128, 2B = 256 each.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "hkma",
            json!({}),
            json!([declared(json!({"limit": true}), self_drawn("north"))]),
        ),
        "hkma limit",
    );
    assert_eq!(payments(&v["payments"]), [-256, -256, -256, 768]);
    let r = &v["results"][0];
    assert_eq!(
        (&r["total_faan"], &r["limit_hand"]),
        (&json!(10), &json!(true))
    );
    // 13 declared under a limit of 10: paid at 10, 4B = 512 from East.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "hkma",
            json!({}),
            json!([declared(json!({"faan": 13}), on_discard("south", "east"))]),
        ),
        "hkma 13 faan",
    );
    assert_eq!(payments(&v["payments"]), [-512, 512, 0, 0]);
    let r = &v["results"][0];
    assert_eq!(
        (&r["declared_faan"], &r["total_faan"]),
        (&json!(13), &json!(10))
    );
    // wisteria-court: the limit on West's discard: 2 x 128 and 128 each.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "wisteria-court",
            json!({}),
            json!([declared(json!({"faan": 200}), on_discard("south", "west"))]),
        ),
        "wisteria 200 faan",
    );
    assert_eq!(payments(&v["payments"]), [-128, 512, -256, -128]);
    // mjb: the limit self-drawn by South: 256 + 20 each.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "mjb",
            json!({}),
            json!([declared(json!({"limit": true}), self_drawn("south"))]),
        ),
        "mjb limit",
    );
    assert_eq!(payments(&v["payments"]), [-276, 828, -276, -276]);
    // wisteria-court: a limit hand self-drawn by West: 2B = 256 from each.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "wisteria-court",
            json!({}),
            json!([declared(json!({"limit": true}), self_drawn("west"))]),
        ),
        "wisteria limit",
    );
    assert_eq!(payments(&v["payments"]), [-256, -256, 768, -256]);
    // mjb: 13 declared, paid at 10 (B 128): West 2B + 20 = 276, East and
    // North B + 20 = 148 each.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "mjb",
            json!({}),
            json!([declared(json!({"faan": 13}), on_discard("south", "west"))]),
        ),
        "mjb 13 faan",
    );
    assert_eq!(payments(&v["payments"]), [-148, 572, -276, -148]);
    let r = &v["results"][0];
    assert_eq!(
        (&r["declared_faan"], &r["total_faan"], &r["base_points"]),
        (&json!(13), &json!(10), &json!(128))
    );
}

#[test]
fn a_declared_faan_under_the_minimum_is_refused_at_its_pointer() {
    let s = service();
    // hkma's minimum is 3; mjb's too.
    for r in ["hkma", "mjb"] {
        let body = settle(
            r,
            json!({}),
            json!([declared(json!({"faan": 2}), on_discard("south", "west"))]),
        );
        assert_eq!(
            refused(&s, "/v1/settle", &body, r),
            ("/winners/0/declared/faan".into(), "below_minimum".into()),
            "{r}: 2 faan"
        );
    }
    // In a ledger, at the hand's winner.
    let body = json!({"ruleset": "hkma", "players": ["Ann", "Ben", "Cat", "Dan"], "hands": [
        {"result": "draw"},
        {"result": "win", "winners": [{"player": "Ben", "declared": {"patterns": ["dragon_pung"]}, "context": {"win_by": "self_draw"}}]}
    ]});
    assert_eq!(
        refused(&s, "/v1/ledger", &body, "ledger"),
        (
            "/hands/1/winners/0/declared/patterns".into(),
            "below_minimum".into()
        )
    );
    // wisteria-court's minimum is 0: a declared 0 is a win (2B of 1 each).
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "wisteria-court",
            json!({}),
            json!([declared(json!({"faan": 0}), self_drawn("south"))]),
        ),
        "wisteria 0",
    );
    assert_eq!(payments(&v["payments"]), [-2, 6, -2, -2]);
}

#[test]
fn declared_patterns_are_combined_as_a_scored_hands_lines() {
    let s = service();
    let three = json!({"patterns": ["small_three_dragons", "dragon_pung", "dragon_pung"]});
    let lines = |v: &Value| -> Vec<(String, i64)> {
        v["results"][0]["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                (
                    l["pattern"].as_str().unwrap().to_string(),
                    l["faan"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    // wisteria-court: small three dragons (5) contains its dragon pungs: 5.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "wisteria-court",
            json!({}),
            json!([declared(three.clone(), on_discard("south", "west"))]),
        ),
        "wisteria small dragons",
    );
    assert_eq!(lines(&v), vec![("small_three_dragons".into(), 5)]);
    assert_eq!(v["results"][0]["total_faan"], 5);
    assert_eq!(v["results"][0]["lines"][0]["name_zh"], "小三元");
    // hkma: no contains, 1 + 1 + 3 = 5, in pattern order.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "hkma",
            json!({}),
            json!([declared(three.clone(), on_discard("south", "west"))]),
        ),
        "hkma small dragons",
    );
    assert_eq!(
        lines(&v),
        vec![
            ("dragon_pung".into(), 1),
            ("dragon_pung".into(), 1),
            ("small_three_dragons".into(), 3)
        ]
    );
    assert_eq!(
        payments(&v["payments"]),
        [0, 96, -96, 0],
        "hkma: 5 faan, 4B = 96"
    );
    // An exclusive pair by house rule keeps the higher: mixed one suit (3)
    // over all pungs (3 in hkma) on a tie keeps the first of the pair.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "hkma",
            json!({"exclusive": [["all_pungs", "mixed_one_suit"]]}),
            json!([declared(
                json!({"patterns": ["mixed_one_suit", "all_pungs"]}),
                self_drawn("south")
            )]),
        ),
        "hkma exclusive",
    );
    assert_eq!(lines(&v), vec![("all_pungs".into(), 3)]);
    // mjb: big three dragons (a limit) contains its dragon pungs: one
    // line, the limit; on West's discard 2B + 20 = 276, the others 148.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "mjb",
            json!({}),
            json!([declared(
                json!({"patterns": ["dragon_pung", "big_three_dragons", "dragon_pung", "dragon_pung"]}),
                on_discard("south", "west")
            )]),
        ),
        "mjb big dragons",
    );
    assert_eq!(lines(&v), vec![("big_three_dragons".into(), 10)]);
    assert_eq!(payments(&v["payments"]), [-148, 572, -276, -148]);
    // A limit pattern (all honours in hkma) sets the total: the limit, nothing added.
    let v = ok(
        &s,
        "/v1/settle",
        &settle(
            "hkma",
            json!({}),
            json!([declared(
                json!({"patterns": ["all_honors", "dragon_pung"]}),
                self_drawn("south")
            )]),
        ),
        "hkma all honours",
    );
    assert_eq!(v["results"][0]["total_faan"], 10);
    assert_eq!(v["results"][0]["limit_hand"], true);
}

#[test]
fn a_double_win_with_one_declared_and_one_scored_winner() {
    let s = service();
    // East discards; South shows all pungs (3 faan, 4B = 32), North declares 4 (4B = 64).
    let winners = json!([
        {"hand": all_pungs(), "context": on_discard("south", "east")},
        declared(json!({"faan": 4}), on_discard("north", "east")),
    ]);
    let v = ok(
        &s,
        "/v1/settle",
        &settle("hkma", json!({"multiple_winners": "all"}), winners.clone()),
        "all",
    );
    assert_eq!(payments(&v["payments"]), [-96, 32, 0, 64], "all: each paid");
    assert_eq!(
        (&v["results"][0]["source"], &v["results"][1]["source"]),
        (&json!("tiles"), &json!("declared"))
    );
    // head_bump: South comes first after East: North is not paid.
    let v = ok(
        &s,
        "/v1/settle",
        &settle("hkma", json!({"multiple_winners": "head_bump"}), winners),
        "head_bump",
    );
    assert_eq!(
        payments(&v["payments"]),
        [-32, 32, 0, 0],
        "head_bump: South only"
    );
    assert_eq!(
        (&v["results"][0]["paid"], &v["results"][1]["paid"]),
        (&json!(true), &json!(false))
    );
    // wisteria-court, all, without co-winners paying: South (all pungs 3
    // and no flowers 1 there, B 16) collects East 32 + West 16 (North, a
    // winner, pays none); North (4 declared, B 16) the same.
    let winners = json!([
        {"hand": all_pungs(), "context": on_discard("south", "east")},
        declared(json!({"faan": 4}), on_discard("north", "east")),
    ]);
    let v = ok(
        &s,
        "/v1/settle",
        &settle("wisteria-court", json!({}), winners),
        "wisteria all",
    );
    assert_eq!(payments(&v["payments"]), [-64, 48, -32, 48]);
}

const PLAYERS: [&str; 4] = ["阿美", "家豪", "Grandma", "Ka-ho, Jr."];

fn night(ruleset: &str, house: Value, hands: Vec<Value>) -> Value {
    json!({"ruleset": ruleset, "house_rules": house, "players": PLAYERS, "hands": hands})
}

fn win(player: &str, declared: Value, ctx: Value) -> Value {
    json!({"result": "win", "winners": [{"player": player, "declared": declared, "context": ctx}]})
}

fn by_player(v: &Value) -> [i64; 4] {
    PLAYERS.map(|p| v[p].as_i64().unwrap())
}

#[test]
fn a_change_of_stake_and_points_at_hand_four_changes_no_earlier_hand() {
    let s = service();
    let dis = |d: &str| json!({"win_by": "discard", "discarder": d});
    let first = vec![
        // 0: 阿美 deals; 家豪 (South) 5 faan on Grandma: 4B = 96, HK$48.
        win("家豪", json!({"faan": 5}), dis("Grandma")),
        // 1: the deal passed to 家豪; a draw, 家豪 keeps it.
        json!({"result": "draw"}),
        // 2: 家豪 (East) self-draws 3: 2B = 16 from each.
        win("家豪", json!({"faan": 3}), json!({"win_by": "self_draw"})),
    ];
    let change = json!({"result": "rules", "house_rules": {"stake": 1, "points": "full_spicy"}});
    let later = vec![
        // 4: 阿美 (North) 5 faan on 家豪's discard: full spicy B 32, 4B = 128, HK$128.
        win("阿美", json!({"faan": 5}), dis("家豪")),
    ];
    let before = ok(
        &s,
        "/v1/ledger",
        &night("hkma", json!({"stake": 0.5}), first.clone()),
        "before",
    );
    let mut all = first.clone();
    all.push(change.clone());
    all.extend(later);
    let after = ok(
        &s,
        "/v1/ledger",
        &night("hkma", json!({"stake": 0.5}), all),
        "after",
    );
    for h in 0..3 {
        assert_eq!(
            serde_json::to_string(&before["hands"][h]).unwrap(),
            serde_json::to_string(&after["hands"][h]).unwrap(),
            "hand {h} byte for byte"
        );
    }
    assert_eq!(by_player(&after["hands"][0]["deltas"]), [0, 96, -96, 0]);
    assert_eq!(after["hands"][0]["money"]["家豪"], json!(48.0));
    let rules = &after["hands"][3];
    assert_eq!(rules["result"], "rules");
    assert!(
        rules.get("deltas").is_none(),
        "a change has no deltas: {rules}"
    );
    assert_eq!(
        rules["house_rules"],
        json!({"stake": 1, "points": "full_spicy"})
    );
    // The night's stake 0.5, replaced by the change's 1 as sent.
    assert_eq!(
        rules["in_force"],
        json!({"stake": 1, "points": "full_spicy"})
    );
    assert_eq!(rules["dealer"], "家豪");
    let h4 = &after["hands"][4];
    assert_eq!(h4["dealer"], "家豪", "the change does not move the deal");
    assert_eq!(
        by_player(&h4["deltas"]),
        [128, -128, 0, 0],
        "full spicy: B(5) 32"
    );
    assert_eq!(h4["money"]["阿美"], json!(128.0), "a dollar a point");
    assert_eq!(
        after["money"]["stake"],
        json!(1.0),
        "the stake in force at the end"
    );
    // null restores the ruleset's own value: half spicy again, B(5) 24.
    let mut again = first;
    again.push(change);
    again.push(json!({"result": "rules", "house_rules": {"points": null}}));
    again.push(win("阿美", json!({"faan": 5}), dis("家豪")));
    let v = ok(
        &s,
        "/v1/ledger",
        &night("hkma", json!({"stake": 0.5}), again),
        "restored",
    );
    assert_eq!(v["hands"][4]["in_force"], json!({"stake": 1}));
    assert_eq!(by_player(&v["hands"][5]["deltas"]), [96, -96, 0, 0]);
}

#[test]
fn each_false_win_option_under_two_rulesets() {
    let s = service();
    // South offends; (ruleset, false_win, payments) worked from the charts.
    let cases = [
        // hkma: minimum 3, B 8: 3 x 2B = 48 to each.
        ("hkma", json!("minimum"), [48, -144, 48, 48]),
        // the limit, B 128: 3 x 256 = 768 each.
        ("hkma", json!("limit"), [768, -2304, 768, 768]),
        // 5 faan, B 24: 3 x 48 = 144 each.
        ("hkma", json!({"faan": 5}), [144, -432, 144, 144]),
        ("hkma", json!({"points": 10}), [10, -30, 10, 10]),
        // wisteria-court: minimum 0, B 1: 3 x 2 = 6 each.
        ("wisteria-court", json!("minimum"), [6, -18, 6, 6]),
        ("wisteria-court", json!("limit"), [768, -2304, 768, 768]),
        ("wisteria-court", json!({"faan": 5}), [144, -432, 144, 144]),
        ("wisteria-court", json!({"points": 10}), [10, -30, 10, 10]),
        // mjb: minimum 3, B 8: 3 x (16 + 20) = 108; the limit 3 x (256 + 20) = 828.
        ("mjb", json!("minimum"), [108, -324, 108, 108]),
        ("mjb", json!("limit"), [828, -2484, 828, 828]),
    ];
    for (r, option, want) in cases {
        let case = format!("{r} {option}");
        let v = ok(
            &s,
            "/v1/penalties/false-win",
            &json!({"ruleset": r, "offender": "south", "house_rules": {"false_win": option}}),
            &case,
        );
        assert_eq!(payments(&v["payments"]), want, "{case}");
        // The same in a ledger (player 1 sits South when player 0 deals).
        let l = ok(
            &s,
            "/v1/ledger",
            &night(
                r,
                json!({"false_win": option}),
                vec![json!({"result": "false_win", "offender": PLAYERS[1]})],
            ),
            &case,
        );
        assert_eq!(by_player(&l["hands"][0]["deltas"]), want, "{case}: ledger");
    }
    // Under the dealer multiplier (hkma x2, East deals, South offends): each
    // is paid the limit self-draw's 768 in all (3 x 2B, B 128), doubled only
    // between the dealer and the offender: East 1536, West 768, North 768,
    // South -3072 (docs/rules.md, "The false win under the dealer multiplier").
    let v = ok(
        &s,
        "/v1/penalties/false-win",
        &json!({"ruleset": "hkma", "offender": "south", "house_rules": {"false_win": "limit", "dealer_multiplier": 2}}),
        "x2",
    );
    assert_eq!(
        payments(&v["payments"]),
        [1536, -3072, 768, 768],
        "x2: East, South, West, North"
    );
    // The chart states each ruleset's default.
    let registry = Registry::builtin().unwrap();
    for r in registry.all() {
        let chart = serde_json::to_value(faan::api::RulesetDetail::from(r.as_ref())).unwrap();
        assert_eq!(
            chart["table"]["false_win"],
            "minimum",
            "{}: its chart",
            r.id()
        );
        let says = |notes: &Value, words: &str| {
            notes
                .as_array()
                .is_some_and(|n| n.iter().any(|x| x.as_str().unwrap().contains(words)))
        };
        assert!(
            says(&chart["notes"], "false_win: minimum"),
            "{}: its notes",
            r.id()
        );
        assert!(
            says(&chart["notes_zh"], "詐糊"),
            "{}: its Chinese notes",
            r.id()
        );
    }
}

/// The worked night of ten hands under hkma at HK$0.50 a point (dealer
/// keeps the deal on a win and a draw), every win declared. Seats move as
/// the deal passes: 阿美 deals hands 0; 家豪 1-4; Grandma 5; Ka-ho 6-8;
/// 阿美 9 (the south round, after four passes).
fn ten_hands() -> Vec<Value> {
    let dis = |d: &str| json!({"win_by": "discard", "discarder": d});
    let own = || json!({"win_by": "self_draw"});
    vec![
        // 0: 家豪 5 on Grandma: B 24, 4B = 96.
        win("家豪", json!({"faan": 5}), dis("Grandma")),
        // 1: a draw; 家豪 deals again.
        json!({"result": "draw"}),
        // 2: 家豪, the dealer, self-draws 3: 2B = 16 from each.
        win("家豪", json!({"faan": 3}), own()),
        // 3: Ka-ho's false win: 3 x 2B = 48 to each of the three.
        json!({"result": "false_win", "offender": "Ka-ho, Jr."}),
        // 4: Grandma's limit on 阿美: 4 x 128 = 512.
        win("Grandma", json!({"limit": true}), dis("阿美")),
        // 5: 阿美 (4, 64) and Ka-ho (3, 32) on 家豪's discard.
        json!({"result": "win", "winners": [
            {"player": "阿美", "declared": {"faan": 4}, "context": dis("家豪")},
            {"player": "Ka-ho, Jr.", "declared": {"faan": 3}, "context": dis("家豪")}
        ]}),
        // 6: Ka-ho, the dealer, self-draws 6: B 32, 64 from each.
        win("Ka-ho, Jr.", json!({"faan": 6}), own()),
        // 7: a draw.
        json!({"result": "draw"}),
        // 8: 阿美: mixed one suit 3 + two dragon pungs = 5 on Ka-ho: 96.
        win(
            "阿美",
            json!({"patterns": ["mixed_one_suit", "dragon_pung", "dragon_pung"]}),
            dis("Ka-ho, Jr."),
        ),
        // 9: 家豪 7 on Grandma: B 48, 4B = 192.
        win("家豪", json!({"faan": 7}), dis("Grandma")),
    ]
}

#[test]
fn the_statistics_of_a_worked_night() {
    let s = service();
    let v = ok(
        &s,
        "/v1/ledger",
        &night("hkma", json!({"stake": 0.5}), ten_hands()),
        "ten hands",
    );
    // Balances: 阿美 -16 +48 -512 +64 -64 +96 = -384; 家豪 96 +48 +48 -96
    // -64 +192 = 224; Grandma -96 -16 +48 +512 -64 -192 = 192; Ka-ho -16
    // -144 +32 +192 -96 = -32.
    assert_eq!(by_player(&v["balances"]), [-384, 224, 192, -32]);
    assert_eq!(v["hands"][9]["round_wind"], "south");
    assert_eq!(v["hands"][9]["dealer"], "阿美");
    let want = json!([
        {"player": "阿美", "hands_won": 2, "self_draws": 0, "wins_on_discard": 2, "dealt_in": 1,
         "false_wins": 0, "biggest": {"hand": 8, "faan": 5}, "points": -384, "money": -192.0},
        {"player": "家豪", "hands_won": 3, "self_draws": 1, "wins_on_discard": 2, "dealt_in": 1,
         "false_wins": 0, "biggest": {"hand": 9, "faan": 7}, "points": 224, "money": 112.0},
        {"player": "Grandma", "hands_won": 1, "self_draws": 0, "wins_on_discard": 1, "dealt_in": 2,
         "false_wins": 0, "biggest": {"hand": 4, "faan": 10}, "points": 192, "money": 96.0},
        {"player": "Ka-ho, Jr.", "hands_won": 2, "self_draws": 1, "wins_on_discard": 1, "dealt_in": 1,
         "false_wins": 1, "biggest": {"hand": 6, "faan": 6}, "points": -32, "money": -16.0}
    ]);
    assert_eq!(
        v["stats"], want,
        "家豪 dealt in once at hand 5, two winners on one discard"
    );
    // Without a stake there is no money; a player who never won has no biggest.
    let v = ok(
        &s,
        "/v1/ledger",
        &night("hkma", json!({}), vec![json!({"result": "draw"})]),
        "a draw",
    );
    assert_eq!(
        v["stats"][0],
        json!({"player": "阿美", "hands_won": 0, "self_draws": 0, "wins_on_discard": 0, "dealt_in": 0,
               "false_wins": 0, "biggest": null, "points": 0})
    );
}

#[test]
fn a_ten_hand_night_declared_gives_what_it_gives_from_tiles() {
    let s = service();
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/table/ledger.json");
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let hkma_night = &fixture["cases"][0]["request"];
    for (case, request) in [
        ("hkma", hkma_night.clone()),
        ("wisteria-court", fixture["cases"][1]["request"].clone()),
        // The hkma night's tiles under mjb (each of its wins reaches mjb's minimum of 3).
        ("mjb", {
            let mut r = hkma_night.clone();
            r["ruleset"] = json!("mjb");
            r
        }),
    ] {
        let mut request = request;
        let hands: Vec<Value> = request["hands"].as_array().unwrap()[..10].to_vec();
        request["hands"] = json!(hands);
        let tiles = ok(&s, "/v1/ledger", &request, case);
        // The same night, each winner declaring the faan its tiles scored.
        let mut declared_night = request.clone();
        for (h, hand) in declared_night["hands"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .enumerate()
        {
            let Some(ws) = hand.get_mut("winners").and_then(Value::as_array_mut) else {
                continue;
            };
            for (i, w) in ws.iter_mut().enumerate() {
                let faan = tiles["hands"][h]["winners"][i]["total_faan"].clone();
                let ctx = w["context"].as_object().unwrap();
                let kept: serde_json::Map<String, Value> = ctx
                    .iter()
                    .filter(|(k, _)| ["win_by", "discarder", "liable"].contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                *w = json!({"player": w["player"], "declared": {"faan": faan}, "context": kept});
            }
        }
        let declared = ok(&s, "/v1/ledger", &declared_night, case);
        for h in 0..10 {
            assert_eq!(
                declared["hands"][h]["deltas"], tiles["hands"][h]["deltas"],
                "{case}: hand {h}"
            );
            assert_eq!(
                declared["hands"][h]["dealer"], tiles["hands"][h]["dealer"],
                "{case}: hand {h}'s dealer"
            );
        }
        assert_eq!(
            declared["balances"], tiles["balances"],
            "{case}: the balances"
        );
        assert_eq!(declared["next"], tiles["next"], "{case}: the next deal");
    }
}

/// hkma keeps the deal on a dealer's win; a change to `dealer_keeps_on_win:
/// false` after 阿美's first win does not pass the deal for that win (the
/// change row and hand 2 are still 阿美's), and passes it after the next.
#[test]
fn a_change_of_rotation_governs_the_deal_after_the_next_hand() {
    let s = service();
    let own = || json!({"win_by": "self_draw"});
    let hands = vec![
        // 0: 阿美, the dealer, self-draws 3: 2B = 16 from each; she keeps the deal.
        win("阿美", json!({"faan": 3}), own()),
        json!({"result": "rules", "house_rules": {"dealer_keeps_on_win": false}}),
        // 2: 阿美 again, the same 16 from each; now the deal passes to 家豪.
        win("阿美", json!({"faan": 3}), own()),
        json!({"result": "draw"}),
    ];
    let v = ok(
        &s,
        "/v1/ledger",
        &night("hkma", json!({}), hands),
        "rotation",
    );
    let dealers: Vec<&Value> = (0..4).map(|h| &v["hands"][h]["dealer"]).collect();
    assert_eq!(
        dealers,
        [
            &json!("阿美"),
            &json!("阿美"),
            &json!("阿美"),
            &json!("家豪")
        ],
        "{v}"
    );
    assert_eq!(by_player(&v["hands"][2]["deltas"]), [48, -16, -16, -16]);
    assert_eq!(v["next"]["dealer"], "家豪", "a draw keeps the deal (hkma)");
}

/// The statistics' readings, hkma with head_bump, every win declared:
/// a robbed kong counts against the player robbed, a liable seat (包) that
/// pays is not dealt in, and a bumped winner has no win.
#[test]
fn the_statistics_of_a_robbed_kong_a_liable_seat_and_a_bumped_winner() {
    let s = service();
    let hands = vec![
        // 0: 阿美 deals; 家豪 robs Grandma's kong for 4: the adder pays 6B = 96 alone.
        win(
            "家豪",
            json!({"faan": 4}),
            json!({"win_by": "robbing_kong", "discarder": "Grandma"}),
        ),
        // 1: 家豪 deals; Grandma self-draws 3 with Ka-ho liable: 6B = 48 from Ka-ho.
        win(
            "Grandma",
            json!({"faan": 3}),
            json!({"win_by": "self_draw", "liable": "Ka-ho, Jr."}),
        ),
        // 2: Grandma deals and discards; Ka-ho (South, 3) and 阿美 (West, 5)
        // both win on it: head bump pays Ka-ho alone, 4B = 32.
        json!({"result": "win", "winners": [
            {"player": "阿美", "declared": {"faan": 5}, "context": {"win_by": "discard", "discarder": "Grandma"}},
            {"player": "Ka-ho, Jr.", "declared": {"faan": 3}, "context": {"win_by": "discard", "discarder": "Grandma"}}
        ]}),
    ];
    let v = ok(
        &s,
        "/v1/ledger",
        &night("hkma", json!({"multiple_winners": "head_bump"}), hands),
        "stats readings",
    );
    assert_eq!(by_player(&v["hands"][0]["deltas"]), [0, 96, -96, 0]);
    assert_eq!(by_player(&v["hands"][1]["deltas"]), [0, 0, 48, -48]);
    assert_eq!(by_player(&v["hands"][2]["deltas"]), [0, 0, -32, 32]);
    let want = json!([
        {"player": "阿美", "hands_won": 0, "self_draws": 0, "wins_on_discard": 0, "dealt_in": 0,
         "false_wins": 0, "biggest": null, "points": 0},
        {"player": "家豪", "hands_won": 1, "self_draws": 0, "wins_on_discard": 1, "dealt_in": 0,
         "false_wins": 0, "biggest": {"hand": 0, "faan": 4}, "points": 96},
        {"player": "Grandma", "hands_won": 1, "self_draws": 1, "wins_on_discard": 0, "dealt_in": 2,
         "false_wins": 0, "biggest": {"hand": 1, "faan": 3}, "points": -80},
        {"player": "Ka-ho, Jr.", "hands_won": 1, "self_draws": 0, "wins_on_discard": 1, "dealt_in": 0,
         "false_wins": 0, "biggest": {"hand": 2, "faan": 3}, "points": -16}
    ]);
    assert_eq!(v["stats"], want);
}

#[test]
fn the_pattern_table_says_which_patterns_may_repeat() {
    let table = faan::api::PatternTable::build();
    let repeat: Vec<(String, u8)> = table
        .patterns
        .iter()
        .filter(|p| p.max_count > 1)
        .map(|p| (p.id.clone(), p.max_count))
        .collect();
    assert_eq!(
        repeat,
        vec![
            ("dragon_pung".into(), 3),
            ("seat_flower".into(), 2),
            ("flower_set".into(), 2)
        ],
        "three dragon pungs, two seat flowers, two sets of flowers"
    );
}
