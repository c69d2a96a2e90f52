//! Tried as an attacker would: one named case per finding of
//! input bounds and consistent validation (docs/api.md, "Bounds on what
//! one request may cost"), each with its status, problem type and pointer,
//! and the bound's edge still accepted.

use crate::helpers::{spawn_app, Reply, TestApp};
use serde_json::{json, Value};

/// South's quiet hand 234m 567m 345p 678s 22s, self-drawn on 5p.
fn score_body() -> Value {
    json!({"ruleset": "wisteria-court",
        "hand": {"tiles": "234m567m345p678s22s", "winning_tile": "5p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}})
}

/// Four players and one hand: Ben's all pungs on Cat's discard.
fn ledger(players: Value) -> Value {
    json!({"ruleset": "hkma", "players": players, "hands": [
        {"result": "win", "winners": [{"player": players[1], "context": {"win_by": "discard", "discarder": players[2]},
            "hand": {"tiles": "77755p", "winning_tile": "5p",
                "melds": [{"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999s"}, {"kind": "pung", "tiles": "222p"}]}}]}]})
}

/// The reply's status and problem type, and its errors.
fn problem(r: &Reply, status: u16, slug: &str) -> Vec<Value> {
    assert_eq!(r.status, status, "{}", r.text());
    let v = r.json();
    assert_eq!(v["type"], format!("/problems/{slug}"), "{v}");
    v["errors"].as_array().cloned().unwrap_or_default()
}

fn pointers(errors: &[Value]) -> Vec<&str> {
    errors
        .iter()
        .map(|e| e["pointer"].as_str().unwrap_or_default())
        .collect()
}

async fn post_text(app: &TestApp, path: &str, body: &str) -> Reply {
    app.post_raw(path, body.as_bytes().to_vec(), Some("application/json"))
        .await
}

#[tokio::test]
async fn long_player_name_is_422_at_players_0() {
    let app = spawn_app().await;
    let long = "x".repeat(33);
    let r = app
        .post("/v1/ledger", &ledger(json!([long, "Ben", "Cat", "Dan"])))
        .await;
    let errors = problem(&r, 422, "invalid-request");
    assert_eq!(pointers(&errors), ["/players/0"]);
    assert_eq!(
        errors[0]["message"],
        "a player's name is 1 to 32 characters, got 33"
    );
}

#[tokio::test]
async fn names_of_32_characters_are_counted_in_characters() {
    let app = spawn_app().await;
    // 32 characters of three bytes each: 96 bytes, still a name.
    let names: Vec<String> = ["東", "南", "西", "北"]
        .iter()
        .map(|c| c.repeat(32))
        .collect();
    let r = app.post("/v1/ledger", &ledger(json!(names))).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["hands"][0]["winners"][0]["player"], names[1]);
}

#[tokio::test]
async fn an_unknown_long_name_is_not_echoed() {
    let app = spawn_app().await;
    let mut body = ledger(json!(["Ann", "Ben", "Cat", "Dan"]));
    body["hands"][0]["winners"][0]["player"] = json!("y".repeat(5000));
    let r = app.post("/v1/ledger", &body).await;
    let errors = problem(&r, 422, "invalid-request");
    assert_eq!(pointers(&errors), ["/hands/0/winners/0/player"]);
    assert!(r.bytes.len() < 1000, "answer of {} bytes", r.bytes.len());
}

#[tokio::test]
async fn compare_of_33_rulesets_is_422() {
    let app = spawn_app().await;
    let mut body = score_body();
    body["rulesets"] = json!(vec![json!({"extends": "hkma", "id": "mine"}); 33]);
    body.as_object_mut().unwrap().remove("ruleset");
    let r = app.post("/v1/compare", &body).await;
    let errors = problem(&r, 422, "invalid-request");
    assert_eq!(pointers(&errors), ["/rulesets"]);
    assert_eq!(
        errors[0]["message"],
        "a compare names at most 32 rulesets, got 33"
    );
}

#[tokio::test]
async fn compare_of_32_rulesets_answers_each_key_once() {
    let app = spawn_app().await;
    let mut body = score_body();
    body.as_object_mut().unwrap().remove("ruleset");
    // 30 copies of one document, then two ids: the document keyed by its
    // id once, each later copy by its pointer (the id is taken).
    let mut list = vec![json!({"extends": "hkma", "id": "mine"}); 30];
    list.extend([json!("hkma"), json!("wisteria-court")]);
    body["rulesets"] = json!(list);
    let r = app.post("/v1/compare", &body).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let results = r.json()["results"].as_object().unwrap().clone();
    assert_eq!(results.len(), 32, "keys: {:?}", results.keys());
    assert!(results.contains_key("mine") && results.contains_key("/rulesets/29"));
    assert_eq!(results["mine"]["ruleset"], "mine");
    assert_eq!(results["wisteria-court"]["ruleset"], "wisteria-court");
}

#[tokio::test]
async fn ten_thousand_flowers_answer_at_most_32_errors() {
    let app = spawn_app().await;
    let mut body = score_body();
    body["hand"]["flowers"] = json!(vec!["F1"; 10_000]);
    let r = app.post("/v1/score", &body).await;
    let errors = problem(&r, 422, "invalid-request");
    // F1 twice at 1 to 7, then the ninth bonus tile is one too many.
    let want: Vec<String> = (1..=8).map(|i| format!("/hand/flowers/{i}")).collect();
    assert_eq!(pointers(&errors), want);
    assert_eq!(errors[7]["code"], "too_many_bonus_tiles");
    assert_eq!(errors[7]["params"], json!({"max": 8, "count": 10_000}));
    assert!(r.bytes.len() < 4000, "answer of {} bytes", r.bytes.len());
}

#[tokio::test]
async fn a_problem_lists_32_errors_and_counts_the_rest() {
    let app = spawn_app().await;
    let mut body = score_body();
    let unknown: serde_json::Map<String, Value> =
        (0..4000).map(|i| (format!("p{i:04}"), json!(1))).collect();
    body["house_rules"] = json!({"patterns": unknown});
    let r = app.post("/v1/score", &body).await;
    let errors = problem(&r, 422, "invalid-request");
    assert_eq!(errors.len(), 32);
    assert_eq!(errors[0]["pointer"], "/house_rules/patterns/p0000");
    let detail = r.json()["detail"].as_str().unwrap().to_string();
    assert!(
        detail.ends_with("; ... and 3,968 more errors"),
        "detail: {detail}"
    );
    // A batch item's problem is built the same way.
    let batch = app
        .post(
            "/v1/score/batch",
            &json!({"requests": [body, score_body()]}),
        )
        .await;
    assert_eq!(batch.status, 200, "{}", batch.text());
    let items = batch.json()["results"].clone();
    assert_eq!(items[0]["errors"].as_array().unwrap().len(), 32);
    let alone = app.post("/v1/score", &score_body()).await.json();
    assert_eq!(items[1], alone, "the good item is its score");
}

/// Three winners on East's discard of 5p, each `tiles` with 5p in it.
fn three_winners(tiles: [&str; 3]) -> Value {
    let seats = ["south", "west", "north"];
    let winners: Vec<Value> = tiles
        .iter()
        .zip(seats)
        .map(|(t, s)| {
            json!({"hand": {"tiles": t, "winning_tile": "5p"},
                "context": {"win_by": "discard", "discarder": "east", "seat_wind": s, "round_wind": "east"}})
        })
        .collect();
    json!({"ruleset": "hkma", "winners": winners})
}

#[tokio::test]
async fn three_winners_holding_nine_1m_is_422() {
    let app = spawn_app().await;
    let body = three_winners([
        "111m234s678s99p345p",
        "111m567m789p11s345p",
        "111m678m123s55s345p",
    ]);
    let r = app.post("/v1/settle", &body).await;
    let errors = problem(&r, 422, "invalid-request");
    // Winner 1 brings the fourth to sixth 1m.
    assert_eq!(pointers(&errors), ["/winners/1/hand/tiles"]);
    assert_eq!(errors[0]["code"], "winners_tile_over_four");
    assert_eq!(errors[0]["params"], json!({"tile": "1m", "count": 6}));
    // The same winners in a ledger hand.
    let winners: Vec<Value> = ["Ben", "Cat", "Dan"]
        .iter()
        .zip(body["winners"].as_array().unwrap())
        .map(|(p, w)| json!({"player": p, "hand": w["hand"], "context": {"win_by": "discard", "discarder": "Ann"}}))
        .collect();
    let hand = json!({"result": "win", "winners": winners});
    let night =
        json!({"ruleset": "hkma", "players": ["Ann", "Ben", "Cat", "Dan"], "hands": [hand]});
    let r = app.post("/v1/ledger", &night).await;
    let errors = problem(&r, 422, "invalid-request");
    assert_eq!(pointers(&errors), ["/hands/0/winners/1/hand/tiles"]);
}

#[tokio::test]
async fn the_shared_winning_tile_counts_once() {
    let app = spawn_app().await;
    // 5p: three in winner 0's pung, two in winner 1's pair, one of them
    // the shared discard: four in all.
    let mut body = three_winners(["111m234s678s99p555p", "234m567m789p123s55p", ""]);
    body["winners"].as_array_mut().unwrap().pop();
    let r = app.post("/v1/settle", &body).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["results"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn duplicate_key_in_house_rules_patterns_is_422_at_its_pointer() {
    let app = spawn_app().await;
    let body = r#"{"ruleset": "hkma", "house_rules": {"patterns": {"all_chows": 1, "all_chows": null}},
        "hand": {"tiles": "234m567m345p678s22s", "winning_tile": "5p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}}"#;
    let r = post_text(&app, "/v1/score", body).await;
    let errors = problem(&r, 422, "invalid-request");
    assert_eq!(pointers(&errors), ["/house_rules/patterns/all_chows"]);
    let conditions = body.replace(
        r#""patterns": {"all_chows": 1, "all_chows": null}"#,
        r#""conditions": {"four_as_two_pairs": true, "four_as_two_pairs": false}"#,
    );
    let r = post_text(&app, "/v1/score", &conditions).await;
    let errors = problem(&r, 422, "invalid-request");
    assert_eq!(
        pointers(&errors),
        ["/house_rules/conditions/four_as_two_pairs"]
    );
}

#[tokio::test]
async fn duplicate_top_level_field_is_422_at_its_pointer() {
    let app = spawn_app().await;
    let body = r#"{"ruleset": "hkma", "ruleset": "wisteria-court",
        "hand": {"tiles": "234m567m345p678s22s", "winning_tile": "5p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east", "seat_wind": "west"}}"#;
    let r = post_text(&app, "/v1/score", body).await;
    let errors = problem(&r, 422, "invalid-request");
    assert_eq!(pointers(&errors), ["/ruleset"]);
    let nested = body.replace(r#""ruleset": "wisteria-court","#, "");
    let r = post_text(&app, "/v1/score", &nested).await;
    let errors = problem(&r, 422, "invalid-request");
    assert_eq!(pointers(&errors), ["/context/seat_wind"]);
}

#[tokio::test]
async fn duplicate_key_in_an_inline_document_is_422_at_its_pointer() {
    let app = spawn_app().await;
    let body = r#"{"ruleset": {"extends": "hkma", "id": "mine",
            "patterns": {"all_simples": {"faan": 1}, "all_simples": {"faan": 2}}},
        "hand": {"tiles": "234m567m345p678s22s", "winning_tile": "5p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}}"#;
    let r = post_text(&app, "/v1/score", body).await;
    let errors = problem(&r, 422, "invalid-request");
    assert_eq!(pointers(&errors), ["/ruleset/patterns/all_simples"]);
    // In a list, at its index.
    let listed = body.replace(
        r#""id": "mine","#,
        r#""id": "mine", "notes": ["a", {"k": 1, "k": 2}],"#,
    );
    let listed = listed.replace(r#", "all_simples": {"faan": 2}"#, "");
    let r = post_text(&app, "/v1/score", &listed).await;
    let errors = problem(&r, 422, "invalid-request");
    assert_eq!(pointers(&errors), ["/ruleset/notes/1/k"]);
}

#[tokio::test]
async fn document_claiming_hkma_id_is_422_at_ruleset_id() {
    let app = spawn_app().await;
    for (case, doc) in [
        (
            "its id given",
            json!({"extends": "hkma", "id": "hkma", "min_faan": 0}),
        ),
        (
            "its id inherited",
            json!({"extends": "hkma", "min_faan": 0}),
        ),
    ] {
        let mut body = score_body();
        body["ruleset"] = doc;
        let r = app.post("/v1/score", &body).await;
        let errors = problem(&r, 422, "invalid-request");
        assert_eq!(pointers(&errors), ["/ruleset/id"], "case {case}");
    }
}

#[tokio::test]
async fn a_document_that_is_exactly_hkma_may_say_so() {
    let app = spawn_app().await;
    let by_id = app
        .post(
            "/v1/score",
            &json!({"ruleset": "hkma", "hand": score_body()["hand"], "context": score_body()["context"]}),
        )
        .await
        .json();
    for doc in [
        json!({"extends": "hkma", "id": "hkma"}),
        json!({"extends": "hkma"}),
    ] {
        let mut body = score_body();
        body["ruleset"] = doc.clone();
        let r = app.post("/v1/score", &body).await;
        assert_eq!(r.status, 200, "{doc}: {}", r.text());
        let v = r.json();
        assert_eq!(v["ruleset"], "hkma", "{doc}");
        assert_eq!(v["ruleset_hash"], by_id["ruleset_hash"], "{doc}");
    }
}

#[tokio::test]
async fn limit_faan_above_the_limit_is_422_at_its_pointer() {
    let app = spawn_app().await;
    let mut body = score_body();
    body["ruleset"] = json!({"extends": "hkma", "id": "mine", "limit_faan": 13});
    let r = app.post("/v1/score", &body).await;
    let errors = problem(&r, 422, "invalid-request");
    assert_eq!(pointers(&errors), ["/ruleset/limit_faan"]);
    assert_eq!(
        errors[0]["message"],
        "limit_faan (13) is above the limit (10 faan)"
    );
    // At the limit it is what a limit pattern scores.
    body["ruleset"]["limit_faan"] = json!(10);
    let r = app.post("/v1/score", &body).await;
    assert_eq!(r.status, 200, "{}", r.text());
}
