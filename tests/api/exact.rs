//! Exact or refused: money is whole cents up to
//! 2^53 - 1 written as an exact decimal, faan totals and base points are
//! checked; beyond either bound the request is a 422 with a code at what set
//! it, never a clamped or saturated figure.
//!
//! The hand of every case: 123m 456m 789p 234s 55p won on 5p, concealed, all
//! chows (hkma: all chows 1 + concealed hand 1 = 2 faan). hkma's discarder
//! pays 4B alone, its dealer multiplier is x1 and the dealer keeps the deal
//! on a win.

use crate::helpers::{spawn_app, TestApp};
use serde_json::{json, Value};

/// 2^53 - 1, the most cents answered.
const MAX_CENTS: i64 = (1 << 53) - 1;

fn hand() -> Value {
    json!({"tiles": "123m456m789p234s55p", "winning_tile": "5p"})
}

/// South wins on West's discard.
fn score(ruleset: Value, house: Value) -> Value {
    json!({"ruleset": ruleset, "house_rules": house, "hand": hand(),
        "context": {"win_by": "discard", "seat_wind": "south", "round_wind": "east", "discarder": "west"}})
}

/// House rules of a huge hand: all chows a 40-faan line, base points 2^40 at
/// the limit of 40, a stake of 1,000,000 a point (10^8 cents).
fn huge_house() -> Value {
    json!({"limit": 40, "points": "full_spicy", "stake": 1000000, "patterns": {"all_chows": 40}})
}

/// Base points `b` at every faan of hkma's table (limit 10), the minimum
/// lowered to 1 so that the 2-faan hand pays, at `stake`.
fn flat_house(b: u64, stake: f64) -> Value {
    json!({"min_faan": 1, "stake": stake, "points": vec![b; 11]})
}

/// A stake of 173.5775 is 173,577,500 millionths: 4B points x 173,577,500 /
/// 10,000 = B x 69,431 cents. 2^53 - 1 = 6361 x 69431 x 20394401, so at
/// B = 6361 x 20394401 = 129,728,784,761 (below 2^40) the discarder pays
/// exactly 2^53 - 1 cents: $90,071,992,547,409.91.
const STAKE: f64 = 173.5775;
const B_AT_THE_BOUND: u64 = 129_728_784_761;

/// The single 422 error of a problem: (pointer, code), after its status and type.
async fn refused(app: &TestApp, path: &str, body: &Value) -> (String, String, Value) {
    let r = app.post(path, body).await;
    assert_eq!(r.status, 422, "{path}: {}", r.text());
    let p = r.json();
    assert_eq!(p["type"], "/problems/invalid-request", "{p}");
    let errors = p["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), 1, "{p}");
    let e = &errors[0];
    (
        e["pointer"].as_str().unwrap_or_default().to_string(),
        e["code"].as_str().unwrap_or_default().to_string(),
        e["params"].clone(),
    )
}

#[tokio::test]
async fn unrepresentable_money_is_422_at_house_rules_stake() {
    let app = spawn_app().await;
    // West pays 4 x 2^40 = 4,398,046,511,104 points, x 10^8 cents: 4.4e20
    // cents, far past 2^53: refused, not clamped.
    let (pointer, code, params) =
        refused(&app, "/v1/score", &score(json!("hkma"), huge_house())).await;
    assert_eq!(
        (pointer.as_str(), code.as_str()),
        ("/house_rules/stake", "money_unrepresentable"),
        "case: all chows at 40 faan, a stake of 1,000,000"
    );
    assert_eq!(params, json!({"max_cents": MAX_CENTS}), "case: params");
    // The same stake set by the ruleset document: refused at its own field.
    let doc = json!({"extends": "hkma", "id": "big", "limit": 40,
        "points": {"curve": "full_spicy"}, "table": {"stake": 1000000},
        "patterns": {"all_chows": {"faan": 40}}});
    let (pointer, code, _) = refused(&app, "/v1/score", &score(doc, json!({}))).await;
    assert_eq!(
        (pointer.as_str(), code.as_str()),
        ("/ruleset/table/stake", "money_unrepresentable"),
        "case: the document's stake"
    );
    // One point more than the bound: B + 1 makes 2^53 - 1 + 69,431 cents.
    let (pointer, code, _) = refused(
        &app,
        "/v1/score",
        &score(json!("hkma"), flat_house(B_AT_THE_BOUND + 1, STAKE)),
    )
    .await;
    assert_eq!(
        (pointer.as_str(), code.as_str()),
        ("/house_rules/stake", "money_unrepresentable"),
        "case: one base point past the bound"
    );
}

#[tokio::test]
async fn money_at_2_53_minus_1_cents_is_written_exactly() {
    let app = spawn_app().await;
    let r = app
        .post(
            "/v1/score",
            &score(json!("hkma"), flat_house(B_AT_THE_BOUND, STAKE)),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["base_points"], B_AT_THE_BOUND, "case: the flat table");
    assert_eq!(
        v["payments"]["west"],
        -4 * B_AT_THE_BOUND as i64,
        "case: West pays 4B"
    );
    // The text itself: exact digits, where a float would print 90071992547409.9.
    let body = r.text();
    assert!(
        body.contains(r#""money":{"stake":173.5775,"payments":{"east":0.0,"south":90071992547409.91,"west":-90071992547409.91,"north":0.0}}"#),
        "case: to the cent: {body}"
    );
    // Settle writes the same money (one winner is its score).
    let settle = json!({"ruleset": "hkma", "house_rules": flat_house(B_AT_THE_BOUND, STAKE),
        "winners": [{"hand": hand(), "context": {"win_by": "discard", "seat_wind": "south", "round_wind": "east", "discarder": "west"}}]});
    let r = app.post("/v1/settle", &settle).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(
        r.text().ends_with(r#""money":{"stake":173.5775,"payments":{"east":0.0,"south":90071992547409.91,"west":-90071992547409.91,"north":0.0}}}"#),
        "case: settle to the cent: {}",
        r.text()
    );
}

#[tokio::test]
async fn two_winners_summing_past_the_bound_are_422_at_house_rules_stake() {
    // North and South each win exactly 2^53 - 1 cents on West's discard:
    // West would pay twice that.
    let app = spawn_app().await;
    let ctx = |seat: &str| json!({"win_by": "discard", "seat_wind": seat, "round_wind": "east", "discarder": "west"});
    let body = json!({"ruleset": "hkma", "house_rules": flat_house(B_AT_THE_BOUND, STAKE),
        "winners": [{"hand": hand(), "context": ctx("south")}, {"hand": hand(), "context": ctx("north")}]});
    let (pointer, code, _) = refused(&app, "/v1/settle", &body).await;
    assert_eq!(
        (pointer.as_str(), code.as_str()),
        ("/house_rules/stake", "money_unrepresentable"),
        "case: two winners"
    );
}

/// A night of `n` hands at `house`: Ann deals and wins every hand on Ben's
/// discard, so she keeps the deal (40 hands fit in one match).
fn ann_wins(n: usize, house: Value) -> Value {
    let win = json!({"result": "win", "winners": [{"player": "Ann", "hand": hand(),
        "context": {"win_by": "discard", "discarder": "Ben"}}]});
    json!({"ruleset": "hkma", "house_rules": house, "players": ["Ann", "Ben", "Cat", "Dan"],
        "hands": vec![win; n]})
}

#[tokio::test]
async fn ledger_money_overflow_is_422_at_the_hand() {
    let app = spawn_app().await;
    // 40 such hands at that stake: the first hand is already past the
    // bound (refused, not balances that saturate and no longer sum to zero).
    let (pointer, code, _) = refused(&app, "/v1/ledger", &ann_wins(40, huge_house())).await;
    assert_eq!(
        (pointer.as_str(), code.as_str()),
        ("/hands/0", "money_unrepresentable"),
        "case: 40 hands of all chows at 40 faan"
    );
    // Each hand within the bound, the running balance past it: B = 13e9
    // pays Ann 13e9 x 69,431 = 902,603,000,000,000 cents a hand; nine
    // hands make 8,123,427,000,000,000 (below 2^53 - 1 =
    // 9,007,199,254,740,991), the tenth 9,026,030,000,000,000.
    let house = flat_house(13_000_000_000, STAKE);
    let (pointer, code, _) = refused(&app, "/v1/ledger", &ann_wins(40, house.clone())).await;
    assert_eq!(
        (pointer.as_str(), code.as_str()),
        ("/hands/9", "money_unrepresentable"),
        "case: the running balance of the tenth hand"
    );
    // Nine hands are answered, to the cent.
    let r = app.post("/v1/ledger", &ann_wins(9, house)).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let body = r.text();
    assert!(
        body.contains(r#""money":{"stake":173.5775,"balances":{"Ann":81234270000000.0,"Ben":-81234270000000.0,"Cat":0.0,"Dan":0.0},"transfers":[{"from":"Ben","to":"Ann","amount":81234270000000.0}]}"#),
        "case: nine hands: {body}"
    );
}

#[tokio::test]
async fn raw_faan_overflow_is_refused() {
    // Self-drawn: all chows, self draw and concealed hand, each
    // 2,147,483,647 under limits_add: 6,442,450,941 faan, past u32: refused,
    // as a saturated raw_faan (4,294,967,295) would not be the sum of its lines.
    let app = spawn_app().await;
    let big = 2_147_483_647u32;
    let body = json!({"ruleset": "hkma",
        "house_rules": {"limits_add": true, "patterns": {"all_chows": big, "concealed_hand": big, "self_draw": big}},
        "hand": hand(), "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}});
    let (pointer, code, params) = refused(&app, "/v1/score", &body).await;
    assert_eq!(
        (pointer.as_str(), code.as_str()),
        ("/house_rules/patterns/all_chows", "faan_overflow"),
        "case: three lines of 2^31 - 1 (the first of the largest lines)"
    );
    assert_eq!(params, json!({"pattern": "all_chows"}), "case: params");
    // Two such lines (4,294,967,294) still add up exactly.
    let two = json!({"ruleset": "hkma",
        "house_rules": {"limits_add": true, "limits_pay": "once", "patterns": {"all_chows": big, "concealed_hand": big}},
        "hand": hand(), "context": {"win_by": "discard", "seat_wind": "south", "round_wind": "east", "discarder": "west"}});
    let r = app.post("/v1/score", &two).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["raw_faan"], 4_294_967_294u64, "case: two lines");
    // A pattern value past u32 is refused, not clamped to 4,294,967,295.
    let over = json!({"ruleset": "hkma", "house_rules": {"patterns": {"all_chows": 4_294_967_296u64}},
        "hand": hand(), "context": {"win_by": "discard", "seat_wind": "south", "round_wind": "east", "discarder": "west"}});
    let (pointer, _, _) = refused(&app, "/v1/score", &over).await;
    assert_eq!(
        pointer, "/house_rules/patterns/all_chows",
        "case: a value of 2^32"
    );
}

#[tokio::test]
async fn base_points_past_2_40_are_refused_not_capped() {
    // limits_add at a limit of 40 under full_spicy: all chows 40 + concealed
    // hand 40 = 80 faan, two limits of 2^40 each (per_limit): 2^41 base
    // points, past the 2^40 a settlement supports: refused, not capped at 2^40.
    let app = spawn_app().await;
    let body = score(
        json!("hkma"),
        json!({"limit": 40, "points": "full_spicy", "limits_add": true,
            "patterns": {"all_chows": 40, "concealed_hand": 40}}),
    );
    let (pointer, code, _) = refused(&app, "/v1/score", &body).await;
    assert_eq!(
        (pointer.as_str(), code.as_str()),
        ("/house_rules/patterns/all_chows", "base_points_overflow"),
        "case: two limits of 2^40"
    );
    // One limit of 2^40 is answered as it is.
    let one = score(
        json!("hkma"),
        json!({"limit": 40, "points": "full_spicy", "limits_add": true,
            "patterns": {"all_chows": 39}}),
    );
    let r = app.post("/v1/score", &one).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json()["base_points"],
        1u64 << 40,
        "case: 39 + 1 = 40 faan"
    );
}

/// A stake is a whole number of millionths or a 422 at its pointer, decided
/// on the digits sent (an absolute test): `1.0000004` with base points of
/// 1,000,000,000 is refused, not paid at a stake of 1.0 (money
/// 4,000,000,008.00 where the stake sent makes 4,000,001,608.00). The accepted
/// stakes pay exactly 4B x stake at B = 1,000,000,000: 0.5 is 2,000,000,000;
/// 0.05 is 200,000,000; 1.25 is 5,000,000,000; 123.456789 is 493,827,156,000.
#[tokio::test]
async fn a_stake_past_six_decimals_is_refused_at_its_pointer() {
    let app = spawn_app().await;
    let b = 1_000_000_000;
    for stake in [1.000_000_4, 0.050_000_01, 0.500_000_4, 123.456_789_4] {
        let (pointer, _, _) = refused(
            &app,
            "/v1/score",
            &score(json!("hkma"), flat_house(b, stake)),
        )
        .await;
        assert_eq!(
            pointer, "/house_rules/stake",
            "case: house rule stake {stake}"
        );
        let doc = json!({"extends": "hkma", "id": "stake-doc", "table": {"stake": stake}});
        let (pointer, _, _) = refused(&app, "/v1/score", &score(doc, json!({}))).await;
        assert_eq!(
            pointer, "/ruleset/table/stake",
            "case: document stake {stake}"
        );
    }
    // Digits a double cannot hold: read as a double this is 0.1 exactly.
    let text = serde_json::to_string(&score(json!("hkma"), flat_house(b, 0.25)))
        .unwrap()
        .replace("0.25", "0.1000000000000000000001");
    let r = app
        .post_raw("/v1/score", text, Some("application/json"))
        .await;
    assert_eq!(
        r.status,
        422,
        "case: 0.1000000000000000000001: {}",
        r.text()
    );
    assert_eq!(r.json()["errors"][0]["pointer"], "/house_rules/stake");
    for (stake, south) in [
        (0.5, 2_000_000_000.0),
        (0.05, 200_000_000.0),
        (1.25, 5_000_000_000.0),
        (123.456_789, 493_827_156_000.0),
    ] {
        let r = app
            .post("/v1/score", &score(json!("hkma"), flat_house(b, stake)))
            .await;
        assert_eq!(r.status, 200, "case: stake {stake}: {}", r.text());
        let v = r.json();
        assert_eq!(
            v["money"]["stake"],
            json!(stake),
            "case: stake {stake} as sent"
        );
        assert_eq!(
            v["money"]["payments"]["south"],
            json!(south),
            "case: stake {stake}: 4B x stake"
        );
    }
}
