//! POST /v1/settle and POST /v1/ledger through HTTP: the hand-worked cases
//! of `tests/fixtures/table/` answered by the server, one winner answering
//! what score answers, bad input at its pointer, the ledger's own limits,
//! money at a stake, the rulesets' `[table]`, metrics and the OpenAPI
//! examples.

use crate::helpers::{payments, spawn_app, spawn_with, TestApp};
use serde_json::{json, Value};

const SEATS: [&str; 4] = ["east", "south", "west", "north"];
const PLAYERS: [&str; 4] = ["Ann", "Ben", "Cat", "Dan"];

fn fixture(name: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/table")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    v["cases"].as_array().expect("cases").clone()
}

/// All pungs (3 faan in hkma) waiting on 5p: the hand of most cases here.
fn all_pungs() -> Value {
    json!({"tiles": "77755p", "winning_tile": "5p",
        "melds": [{"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999s"}, {"kind": "pung", "tiles": "222p"}]})
}

fn night(ruleset: &str, hands: Vec<Value>) -> Value {
    json!({"ruleset": ruleset, "players": PLAYERS, "hands": hands})
}

fn a_win(player: &str, discarder: Option<&str>) -> Value {
    let mut ctx = json!({"win_by": if discarder.is_some() { "discard" } else { "self_draw" }});
    if let Some(d) = discarder {
        ctx["discarder"] = json!(d);
    }
    json!({"result": "win", "winners": [{"player": player, "context": ctx, "hand": all_pungs()}]})
}

fn draw() -> Value {
    json!({"result": "draw"})
}

/// The first error pointer of a problem, after checking its status and type.
async fn problem_at(
    app: &TestApp,
    path: &str,
    body: &Value,
    status: u16,
    slug: &str,
) -> Vec<String> {
    let r = app.post(path, body).await;
    assert_eq!(r.status, status, "{path}: {}", r.text());
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json"),
        "{path}"
    );
    let p = r.json();
    assert_eq!(p["type"], format!("/problems/{slug}"), "{p}");
    p["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn settle_cases_pay_as_worked_out() {
    let app = spawn_app().await;
    let cases = fixture("settle.json");
    assert!(cases.len() >= 80, "settle cases: {}", cases.len());
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let expect = &case["expect"];
        let r = app.post("/v1/settle", &case["request"]).await;
        if let Some(kind) = expect["error"].as_str() {
            // The core names a hand that does not win; the API names its tiles, as score does.
            let (slug, pointer) = match kind {
                "invalid" => (
                    "invalid-request",
                    expect["pointer"].as_str().unwrap().to_string(),
                ),
                _ => (
                    "not-a-winning-hand",
                    format!("{}/tiles", expect["pointer"].as_str().unwrap()),
                ),
            };
            assert_eq!(r.status, 422, "{name}: {}", r.text());
            let p = r.json();
            assert_eq!(p["type"], format!("/problems/{slug}"), "{name}: {p}");
            assert!(
                p["errors"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e["pointer"] == pointer),
                "{name}: want an error at {pointer}, got {p}"
            );
            continue;
        }
        assert_eq!(r.status, 200, "{name}: {}", r.text());
        let v = r.json();
        let want = expect["results"].as_array().unwrap();
        let got = v["results"].as_array().unwrap();
        assert_eq!(got.len(), want.len(), "{name}: results");
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            assert_eq!(
                g["total_faan"], w["total_faan"],
                "{name}: winner {i} total_faan"
            );
            assert_eq!(g["paid"], w["paid"], "{name}: winner {i} paid");
            assert_eq!(g["payments"], w["payments"], "{name}: winner {i} payments");
        }
        assert_eq!(v["payments"], expect["payments"], "{name}: payments");
        if let Some(m) = expect.get("money_cents") {
            let cents: Vec<i64> = SEATS
                .iter()
                .map(|s| (v["money"]["payments"][s].as_f64().unwrap() * 100.0).round() as i64)
                .collect();
            let want: Vec<i64> = SEATS.iter().map(|s| m[s].as_i64().unwrap()).collect();
            assert_eq!(cents, want, "{name}: money in cents");
        }
    }
}

#[tokio::test]
async fn one_winner_settles_as_one_score() {
    // Each single-winner case of settle.json: `results[0]` without `paid`, and
    // `payments` (and money), are the body POST /v1/score answers.
    let app = spawn_app().await;
    let mut n = 0;
    for case in fixture("settle.json") {
        let req = &case["request"];
        if req["winners"].as_array().unwrap().len() != 1 || case["expect"].get("error").is_some() {
            continue;
        }
        let name = case["name"].as_str().unwrap();
        let mut score_req = json!({"ruleset": req["ruleset"], "hand": req["winners"][0]["hand"],
            "context": req["winners"][0]["context"]});
        if let Some(h) = req.get("house_rules") {
            score_req["house_rules"] = h.clone();
        }
        let score = app.post("/v1/score", &score_req).await;
        assert_eq!(score.status, 200, "{name}: {}", score.text());
        let score = score.json();
        let settled = app.post("/v1/settle", req).await.json();
        let mut first = settled["results"][0].clone();
        assert_eq!(first["paid"], score["meets_minimum"], "{name}: paid");
        assert_eq!(first["source"], "tiles", "{name}: scored from its tiles");
        first.as_object_mut().unwrap().remove("paid");
        first.as_object_mut().unwrap().remove("source");
        assert_eq!(first, score, "{name}: results[0] is the score");
        assert_eq!(settled["payments"], score["payments"], "{name}: payments");
        assert_eq!(settled.get("money"), score.get("money"), "{name}: money");
        n += 1;
    }
    assert!(n >= 20, "single-winner cases: {n}");
}

#[tokio::test]
async fn ledger_cases_play_as_worked_out() {
    let app = spawn_app().await;
    let cases = fixture("ledger.json");
    assert!(cases.len() >= 2, "ledger cases: {}", cases.len());
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let expect = &case["expect"];
        let r = app.post("/v1/ledger", &case["request"]).await;
        assert_eq!(r.status, 200, "{name}: {}", r.text());
        let v = r.json();
        let want = expect["hands"].as_array().unwrap();
        let got = v["hands"].as_array().unwrap();
        assert_eq!(got.len(), want.len(), "{name}: hands");
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            let at = format!("{name}, hand {i}");
            assert_eq!(g["index"], i, "{at}: index");
            for k in [
                "round_wind",
                "dealer",
                "dealer_streak",
                "result",
                "deltas",
                "balances",
            ] {
                assert_eq!(g[k], w[k], "{at}: {k}");
            }
            if let Some(seats) = w.get("seats") {
                assert_eq!(&g["seats"], seats, "{at}: seats");
            }
            let winners: Vec<Value> = g["winners"]
                .as_array()
                .map(|ws| {
                    ws.iter()
                        .map(|x| json!([x["player"], x["paid"], x["total_faan"]]))
                        .collect()
                })
                .unwrap_or_default();
            assert_eq!(Value::from(winners), w["winners"], "{at}: winners");
        }
        assert_eq!(v["next"], expect["next"], "{name}: next");
        assert_eq!(v["balances"], expect["balances"], "{name}: balances");
        let st: Vec<Value> = v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| json!([s["player"], s["balance"], s["rank"]]))
            .collect();
        assert_eq!(Value::from(st), expect["standings"], "{name}: standings");
        let tr: Vec<Value> = v["transfers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| json!([t["from"], t["to"], t["amount"]]))
            .collect();
        assert_eq!(Value::from(tr), expect["transfers"], "{name}: transfers");
        // Balances are objects in player order (the request's), not sorted.
        let keys: Vec<&String> = v["balances"].as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 4, "{name}: four balances");
    }
}

#[tokio::test]
async fn a_ledger_of_one_hand_is_settle_is_score() {
    // Cat (West with Ann dealing) wins all pungs on Dan's (North's) discard,
    // hkma at a stake of 0.05: 3 faan, B 8, Dan pays 4B = 32 points, $1.60.
    let app = spawn_app().await;
    let house = json!({"stake": 0.05});
    let mut ledger = night("hkma", vec![a_win("Cat", Some("Dan"))]);
    ledger["house_rules"] = house.clone();
    let ctx = json!({"win_by": "discard", "seat_wind": "west", "round_wind": "east", "discarder": "north"});
    let score_req =
        json!({"ruleset": "hkma", "hand": all_pungs(), "context": ctx, "house_rules": house});
    let settle_req = json!({"ruleset": "hkma", "winners": [{"hand": all_pungs(), "context": ctx}], "house_rules": house});
    let score = app.post("/v1/score", &score_req).await.json();
    let settled = app.post("/v1/settle", &settle_req).await.json();
    let played = app.post("/v1/ledger", &ledger).await.json();
    assert_eq!(payments(&score), [0, 0, 32, -32], "score: Dan pays Cat 32");
    assert_eq!(
        score["money"],
        json!({"stake": 0.05, "payments": {"east": 0.0, "south": 0.0, "west": 1.6, "north": -1.6}}),
        "score: money at the stake"
    );
    let mut first = settled["results"][0].clone();
    first.as_object_mut().unwrap().remove("paid");
    assert_eq!(
        first.as_object_mut().unwrap().remove("source"),
        Some(json!("tiles"))
    );
    assert_eq!(first, score, "settle results[0] is the score");
    assert_eq!(settled["payments"], score["payments"], "settle payments");
    assert_eq!(settled["money"], score["money"], "settle money");
    let hand = &played["hands"][0];
    let by_player = |p: &Value| json!({"Ann": p["east"], "Ben": p["south"], "Cat": p["west"], "Dan": p["north"]});
    assert_eq!(
        hand["deltas"],
        by_player(&settled["payments"]),
        "ledger deltas are the settlement"
    );
    assert_eq!(
        hand["money"],
        by_player(&settled["money"]["payments"]),
        "ledger money"
    );
    let w = &hand["winners"][0];
    assert_eq!(
        (
            &w["player"],
            &w["seat"],
            &w["paid"],
            &w["lines"],
            &w["total_faan"],
            &w["base_points"]
        ),
        (
            &json!("Cat"),
            &score["winner"],
            &json!(true),
            &score["lines"],
            &score["total_faan"],
            &score["base_points"]
        ),
        "ledger winner is the score"
    );
    assert_eq!(
        w["ruleset_hash"], score["ruleset_hash"],
        "ledger winner: the ruleset's hash, as the score's"
    );
    assert_eq!(
        played["transfers"],
        json!([{"from": "Dan", "to": "Cat", "amount": 32}]),
        "one transfer"
    );
    assert_eq!(
        played["money"],
        json!({"stake": 0.05, "balances": {"Ann": 0.0, "Ben": 0.0, "Cat": 1.6, "Dan": -1.6},
               "transfers": [{"from": "Dan", "to": "Cat", "amount": 1.6}]}),
        "money at the end"
    );
}

#[tokio::test]
async fn bad_ledgers_and_settlements_are_422_at_their_pointer() {
    let app = spawn_app().await;
    let cases = crate::common::bad_ledgers();
    assert_eq!(cases.len(), 20, "every bad ledger of the shared table");
    for (case, body) in &cases {
        let (name, pointer) = (&case["name"], case["pointer"].as_str().unwrap());
        let at = problem_at(&app, "/v1/ledger", body, 422, "invalid-request").await;
        assert!(
            at.iter().any(|p| p == pointer),
            "{name}: want {pointer}, got {at:?}"
        );
    }
    // 2,000 hands are allowed.
    let r = app
        .post("/v1/ledger", &night("hkma", vec![draw(); 2000]))
        .await;
    assert_eq!(r.status, 200, "2,000 hands: {}", r.text());
    assert_eq!(
        r.json()["next"]["dealer_streak"],
        2000,
        "hkma keeps the deal on 2,000 draws"
    );

    let ctx = |seat: &str, discarder: &str| json!({"win_by": "discard", "seat_wind": seat, "round_wind": "east", "discarder": discarder});
    let settle = |ws: Vec<Value>| json!({"ruleset": "hkma", "winners": ws});
    let winner = |seat, discarder| json!({"hand": all_pungs(), "context": ctx(seat, discarder)});
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "winners who disagree on the discarder",
            settle(vec![winner("west", "east"), winner("south", "north")]),
            "invalid-request",
            "/winners/1/context/discarder",
        ),
        (
            "a repeated seat",
            settle(vec![winner("west", "east"), winner("west", "east")]),
            "invalid-request",
            "/winners/1/context/seat_wind",
        ),
        ("no winner", settle(vec![]), "invalid-request", "/winners"),
        (
            "four winners",
            settle(vec![winner("west", "east"); 4]),
            "invalid-request",
            "/winners",
        ),
        (
            "a second winner's tiles that do not win",
            settle(vec![
                winner("west", "east"),
                // Other tiles than the first winner's: no tile five times between them.
                json!({"hand": {"tiles": "88859p", "winning_tile": "5p",
                    "melds": [{"kind": "pung", "tiles": "444m"}, {"kind": "pung", "tiles": "666s"}, {"kind": "pung", "tiles": "333p"}]},
                    "context": ctx("south", "east")}),
            ]),
            "not-a-winning-hand",
            "/winners/1/hand/tiles",
        ),
        (
            "a bad tile",
            settle(vec![
                json!({"hand": {"tiles": "77755q", "winning_tile": "5p"}, "context": ctx("west", "east")}),
            ]),
            "invalid-request",
            "/winners/0/hand/tiles",
        ),
    ];
    for (name, body, slug, pointer) in cases {
        let at = problem_at(&app, "/v1/settle", &body, 422, slug).await;
        assert!(
            at.iter().any(|p| p == pointer),
            "{name}: want {pointer}, got {at:?}"
        );
    }
    let at = problem_at(
        &app,
        "/v1/settle",
        &json!({"ruleset": "nope", "winners": [winner("west", "east")]}),
        404,
        "unknown-ruleset",
    )
    .await;
    assert_eq!(at, ["/ruleset"], "an unknown ruleset");
}

#[tokio::test]
async fn the_ledger_has_its_own_limits() {
    let config = faan::config::ServeArgs {
        ledger_hands: 3,
        ledger_body_limit: 100 * 1024,
        ..faan::config::ServeArgs::for_tests()
    };
    let app = spawn_with(config).await;
    let at = problem_at(
        &app,
        "/v1/ledger",
        &night("hkma", vec![draw(); 4]),
        422,
        "invalid-request",
    )
    .await;
    assert_eq!(at, ["/hands"], "--ledger-hands 3, four hands");
    let r = app
        .post("/v1/ledger", &night("hkma", vec![draw(); 3]))
        .await;
    assert_eq!(r.status, 200, "three hands: {}", r.text());
    // Over the ledger's limit: 413 before parsing, whatever the hands.
    let big = night("hkma", vec![a_win("Ben", None); 600]);
    assert!(serde_json::to_vec(&big).unwrap().len() > 100 * 1024);
    let r = app.post("/v1/ledger", &big).await;
    assert_eq!(r.status, 413, "{}", r.text());
    assert_eq!(r.json()["type"], "/problems/payload-too-large");

    // The default limit (4 MiB) takes a ledger far over the score body limit (64 KiB).
    let app = spawn_app().await;
    let long = night("hkma", vec![a_win("Ben", Some("Ann")); 400]);
    assert!(serde_json::to_vec(&long).unwrap().len() > 64 * 1024);
    let r = app.post("/v1/ledger", &long).await;
    assert_eq!(r.status, 200, "{}", r.text());
    // Ben wins 400 times on Ann's discard: 3 faan, B 8, Ann pays 32 each time.
    assert_eq!(
        r.json()["balances"],
        json!({"Ann": -12800, "Ben": 12800, "Cat": 0, "Dan": 0})
    );
}

#[tokio::test]
async fn money_at_a_stake_under_any_ruleset() {
    // Wisteria Court has no money rate of its own. Its quiet hand (4 faan,
    // B 16, self-drawn: each pays 32) at 0.25 a point: $8.00 each, $24.00 won.
    let app = spawn_app().await;
    let req = |house: Value| {
        json!({"ruleset": "wisteria-court", "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
            "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}, "house_rules": house})
    };
    let v = app
        .post("/v1/score", &req(json!({"stake": 0.25})))
        .await
        .json();
    assert_eq!(
        v["money"],
        json!({"stake": 0.25, "payments": {"east": -8.0, "south": 24.0, "west": -8.0, "north": -8.0}}),
        "{v}"
    );
    let v = app.post("/v1/score", &req(json!({}))).await.json();
    assert!(v.get("money").is_none(), "no stake, no rate: no money: {v}");
}

#[tokio::test]
async fn rulesets_show_their_table_defaults() {
    let app = spawn_app().await;
    let hkma = app.get("/v1/rulesets/hkma").await.json();
    assert_eq!(
        hkma["table"],
        json!({"multiple_winners": "all", "dealer_multiplier": 1.0, "liable_discard": "as_usual",
            "dealer_keeps_on_win": true, "dealer_keeps_on_draw": true, "co_winners_pay": false,
            "false_win": "minimum"}),
        "hkma's [table]"
    );
    let wisteria = app.get("/v1/rulesets/wisteria-court").await.json();
    assert_eq!(
        (
            &wisteria["table"]["dealer_keeps_on_win"],
            &wisteria["table"]["dealer_keeps_on_draw"]
        ),
        (&json!(false), &json!(false)),
        "Wisteria Court passes the deal after every hand"
    );
}

#[tokio::test]
async fn metrics_name_the_new_routes() {
    let app = spawn_app().await;
    app.post("/v1/ledger", &night("hkma", vec![draw()])).await;
    app.post("/v1/settle", &json!({"ruleset": "hkma", "winners": []}))
        .await;
    let m = app.get("/metrics").await.text();
    for line in [
        "faan_http_requests_total{route=\"/v1/ledger\",method=\"POST\",status=\"200\"} 1",
        "faan_http_requests_total{route=\"/v1/settle\",method=\"POST\",status=\"422\"} 1",
    ] {
        assert!(m.contains(line), "want {line} in {m}");
    }
}

/// The OpenAPI examples of settle and ledger are real: each request answers
/// 200, and the documented 200 example is its real answer.
#[tokio::test]
async fn openapi_examples_of_settle_and_ledger_are_real() {
    let app = spawn_app().await;
    let spec: Value = serde_json::from_str(&faan::http::openapi::spec_json()).unwrap();
    for (path, example) in [("/v1/settle", "head_bump"), ("/v1/ledger", "four_hands")] {
        let op = &spec["paths"][path]["post"];
        let examples = op["requestBody"]["content"]["application/json"]["examples"]
            .as_object()
            .unwrap_or_else(|| panic!("{path}: request examples"));
        for (name, ex) in examples {
            let r = app.post(path, &ex["value"]).await;
            assert_eq!(r.status, 200, "{path} example {name}: {}", r.text());
        }
        let real = app.post(path, &examples[example]["value"]).await.json();
        let documented = &op["responses"]["200"]["content"]["application/json"]["example"];
        assert_eq!(
            &real, documented,
            "{path}: update the 200 example in http::scoring, then `cargo run -- openapi > openapi/openapi.json`"
        );
    }
}

/// Every ledger winner carries the `ruleset_hash` of the ruleset the hand
/// was scored under: under an inline document, that document's hash (the
/// one `POST /v1/rulesets/validate` answers for it), not hkma's.
#[tokio::test]
async fn ledger_winners_carry_the_documents_hash() {
    let app = spawn_app().await;
    let doc =
        json!({"extends": "hkma", "id": "hkma-simples", "patterns": {"all_simples": {"faan": 1}}});
    let validated = app
        .post("/v1/rulesets/validate", &json!({"ruleset": doc}))
        .await
        .json();
    let hash = validated["ruleset_hash"].clone();
    let hkma = app.get("/v1/rulesets/hkma").await.json()["ruleset_hash"].clone();
    assert!(
        hash.is_string() && hash != hkma,
        "the document's own hash: {hash}"
    );
    let mut body = night(
        "hkma",
        vec![a_win("Cat", Some("Dan")), draw(), a_win("Ben", None)],
    );
    body["ruleset"] = doc;
    let r = app.post("/v1/ledger", &body).await;
    assert_eq!(r.status, 200, "ledger under a document: {}", r.text());
    let played = r.json();
    assert_eq!(played["ruleset"], "hkma-simples", "the document's id");
    let winners: Vec<&Value> = played["hands"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|h| h["winners"].as_array())
        .flatten()
        .collect();
    assert_eq!(winners.len(), 2, "two wins, one draw");
    for w in winners {
        assert_eq!(
            w["ruleset_hash"], hash,
            "{}: the document's hash",
            w["player"]
        );
    }
}

/// A double win whose second hand does not end on the shared discard
///: coded, with the players' names for the page to word it.
/// Ann deals; Dan discards; Ben wins on 5s, Cat's hand ends on 9s.
#[tokio::test]
async fn co_winner_problems_name_the_players() {
    let app = spawn_app().await;
    let winner = |player: &str, tiles: &str, tile: &str| {
        json!({"player": player, "hand": {"tiles": tiles, "winning_tile": tile},
               "context": {"win_by": "discard", "discarder": "Dan"}})
    };
    let body = night(
        "wisteria-court",
        vec![json!({"result": "win", "winners": [
            winner("Ben", "123456m789p23455s", "5s"),
            winner("Cat", "123456789s111z99s", "9s")]})],
    );
    let r = app.post("/v1/ledger", &body).await;
    assert_eq!(r.status, 422);
    let e = &r.json()["errors"][0];
    assert_eq!(e["pointer"], "/hands/0/winners/1/hand/winning_tile");
    assert_eq!(e["code"], "co_winner_winning_tile");
    assert_eq!(
        e["params"],
        json!({"tile": "9s", "first": "5s", "player": "Cat", "first_player": "Ben"})
    );
}

/// A ledger hand that does not win names its winner, as every ledger
/// problem names players: Ben's 13 lone tiles and a 9s.
#[tokio::test]
async fn a_ledger_hand_that_does_not_win_names_its_winner() {
    let app = spawn_app().await;
    let body = night(
        "wisteria-court",
        vec![json!({"result": "win", "winners": [{"player": "Ben",
            "hand": {"tiles": "147m258p369s1357z9s", "winning_tile": "9s"},
            "context": {"win_by": "self_draw"}}]})],
    );
    let r = app.post("/v1/ledger", &body).await;
    assert_eq!(r.status, 422);
    let e = &r.json()["errors"][0];
    assert_eq!(e["pointer"], "/hands/0/winners/0/hand/tiles");
    assert_eq!(e["code"], "not_winning");
    assert_eq!(e["params"], json!({"tiles": 14, "player": "Ben"}));
    // POST /v1/settle has no names: the same hand's problem has none.
    let r = app
        .post(
            "/v1/settle",
            &json!({"ruleset": "wisteria-court", "winners": [{
                "hand": {"tiles": "147m258p369s1357z9s", "winning_tile": "9s"},
                "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}}]}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["errors"][0]["params"], json!({"tiles": 14}));
}

/// `Accept: text/csv`: the night as CSV (UTF-8 with its byte order mark);
/// without it, JSON as before. hkma: Ben's all pungs self-drawn (all
/// pungs 3 + self-draw 1 = 4 faan, B 16: 2B = 32 from each), then a draw.
#[tokio::test]
async fn a_ledger_answers_csv_when_asked() {
    let app = spawn_app().await;
    let body = night("hkma", vec![a_win("Ben", None), draw()]);
    let r = app
        .send(
            app.client
                .post(format!("{}/v1/ledger", app.base))
                .header("content-type", "application/json")
                .header("accept", "text/csv, application/json;q=0.5")
                .body(serde_json::to_vec(&body).unwrap()),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("text/csv; charset=utf-8")
    );
    assert_eq!(
        r.bytes,
        "\u{feff}hand,game,round,dealer,result,winners,win_by,discarder,faan,Ann,Ben,Cat,Dan\r\n\
         1,1,east,Ann,win,Ben,self draw,,4,-32,96,-32,-32\r\n\
         2,1,east,Ben,draw,,,,,0,0,0,0\r\n\
         total,,,,,,,,,-32,96,-32,-32\r\n\
         settle up,from,to,amount,,,,,,,,,\r\n\
         ,Ann,Ben,32,,,,,,,,,\r\n\
         ,Cat,Ben,32,,,,,,,,,\r\n\
         ,Dan,Ben,32,,,,,,,,,\r\n"
            .as_bytes()
    );
    // With `Accept-Language: zh-HK`, the header and the words in Chinese.
    let zh = app
        .send(
            app.client
                .post(format!("{}/v1/ledger", app.base))
                .header("content-type", "application/json")
                .header("accept", "text/csv")
                .header("accept-language", "zh-HK, en;q=0.8")
                .body(serde_json::to_vec(&body).unwrap()),
        )
        .await;
    assert_eq!(
        zh.text(),
        "\u{feff}局,場,圈,莊家,結果,食糊者,食糊方式,出銃者,番,Ann,Ben,Cat,Dan\r\n\
         1,1,東,Ann,食糊,Ben,自摸,,4,-32,96,-32,-32\r\n\
         2,1,東,Ben,流局,,,,,0,0,0,0\r\n\
         累計,,,,,,,,,-32,96,-32,-32\r\n\
         找數,付,收,金額,,,,,,,,,\r\n\
         ,Ann,Ben,32,,,,,,,,,\r\n\
         ,Cat,Ben,32,,,,,,,,,\r\n\
         ,Dan,Ben,32,,,,,,,,,\r\n"
    );
    let json = app.post("/v1/ledger", &body).await;
    assert_eq!(
        json.header("content-type").as_deref(),
        Some("application/json")
    );
    assert_eq!(json.json()["stats"][1]["self_draws"], 1);
}

/// Names a spreadsheet would read as formulas are written as text: a
/// leading `'` on each cell holding one (OWASP's CSV injection advice),
/// and the points and money, negative ones too, stay numbers. hkma at a
/// stake of 0.5: `-Dan`'s all pungs self-drawn (3 + 1 = 4 faan, B 16: 2B =
/// 32 points from each, 96 to Dan; $16.00 from each at 0.5 a point, $48.0
/// to Dan), then a draw dealt by Ben.
#[tokio::test]
async fn csv_names_that_read_as_formulas_start_with_a_quote() {
    let app = spawn_app().await;
    let link = r#"=HYPERLINK("http://x.io","Ann")"#;
    let body = json!({"ruleset": "hkma", "house_rules": {"stake": 0.5},
        "players": [link, "Ben", "Cat", "-Dan"],
        "hands": [a_win("-Dan", None), draw()]});
    let r = app
        .send(
            app.client
                .post(format!("{}/v1/ledger", app.base))
                .header("content-type", "application/json")
                .header("accept", "text/csv")
                .body(serde_json::to_vec(&body).unwrap()),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let quoted = r#""'=HYPERLINK(""http://x.io"",""Ann"")""#;
    let money = r#""'=HYPERLINK(""http://x.io"",""Ann"") money""#;
    let want = format!(
        "\u{feff}hand,game,round,dealer,result,winners,win_by,discarder,faan,{quoted},Ben,Cat,'-Dan,\
         {money},Ben money,Cat money,'-Dan money\r\n\
         1,1,east,{quoted},win,'-Dan,self draw,,4,-32,-32,-32,96,-16.0,-16.0,-16.0,48.0\r\n\
         2,1,east,Ben,draw,,,,,0,0,0,0,0.0,0.0,0.0,0.0\r\n\
         total,,,,,,,,,-32,-32,-32,96,-16.0,-16.0,-16.0,48.0\r\n\
         settle up,from,to,amount,,,,,,,,,,,,,\r\n\
         ,{quoted},'-Dan,16.0,,,,,,,,,,,,,\r\n\
         ,Ben,'-Dan,16.0,,,,,,,,,,,,,\r\n\
         ,Cat,'-Dan,16.0,,,,,,,,,,,,,\r\n"
    );
    assert_eq!(r.text(), want);
}
