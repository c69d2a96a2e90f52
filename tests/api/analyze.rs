//! `POST /v1/analyze` over HTTP: the discard table worked out by hand, the
//! waits identical to `POST /v1/waits`, and each bad input a 422 at its
//! pointer (docs/api.md, "Hand analysis: POST /v1/analyze").

use crate::helpers::spawn_app;
use serde_json::{json, Value};

fn body(tiles: &str, extra: Value) -> Value {
    let mut v = json!({"ruleset": "wisteria-court",
        "hand": {"tiles": tiles},
        "context": {"seat_wind": "south", "round_wind": "east"}});
    json_patch::merge(&mut v, &extra);
    v
}

/// 123m 456m 789m 11p 5s 7z 9s, about to discard. Each hand left is worked
/// out by hand:
/// - throw 7z: 11p 5s 9s beside three sets, one from ready, helped by 1p
///   (2 left), 3s..9s (5s and 9s 3 left, the rest 4): 28 tiles;
/// - throw 9s: helped by 1p, 3s..7s and 7z: 2 + 4 + 4 + 3 + 4 + 4 + 3 = 24;
/// - throw 5s: helped by 1p, 7s, 8s, 9s, 7z: 2 + 4 + 4 + 3 + 3 = 16;
/// - throw 1p or a tile of a set: two from ready.
///
/// With 8s seen, 7z's count falls by one (8s is among its tiles), 9s's not.
#[tokio::test]
async fn the_discard_table_is_the_one_worked_by_hand() {
    let app = spawn_app().await;
    let r = app
        .post("/v1/analyze", &body("123m456m789m11p5s7z9s", json!({})))
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["shanten"]["best"], 1);
    assert_eq!(v["shanten"]["standard"], 1);
    let rows: Vec<(String, i64, i64)> = v["discards"]
        .as_array()
        .expect("discards")
        .iter()
        .map(|d| {
            (
                d["tile"].as_str().unwrap().to_string(),
                d["shanten"].as_i64().unwrap(),
                d["acceptance_count"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows[..3],
        [
            ("7z".to_string(), 1, 28),
            ("9s".to_string(), 1, 24),
            ("5s".to_string(), 1, 16)
        ]
    );
    assert!(rows[3..].iter().all(|r| r.1 == 2), "{rows:?}");
    assert_eq!(rows.len(), 13, "one row per distinct kind held");

    let seen = app
        .post(
            "/v1/analyze",
            &body("123m456m789m11p5s7z9s", json!({"seen": "8s"})),
        )
        .await
        .json();
    assert_eq!(seen["discards"][0]["tile"], "7z");
    assert_eq!(seen["discards"][0]["acceptance_count"], 27);
    let eight = seen["discards"][0]["acceptance"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["tile"] == "8s")
        .cloned();
    assert_eq!(eight, Some(json!({"tile": "8s", "unseen": 3})));
    assert_eq!(seen["discards"][1]["acceptance_count"], 24);
}

/// A ready hand's waits are exactly what `POST /v1/waits` answers.
#[tokio::test]
async fn a_ready_hands_waits_are_the_waits_endpoints() {
    let app = spawn_app().await;
    for tiles in ["1112345678999m", "234m567m345p678s2s", "19m19p19s1234567z"] {
        let a = app
            .post("/v1/analyze", &body(tiles, json!({})))
            .await
            .json();
        let w = app.post("/v1/waits", &body(tiles, json!({}))).await.json();
        assert_eq!(a["shanten"]["best"], 0, "{tiles}");
        assert_eq!(a["waits"], w["waits"], "{tiles}");
        let accepted: Vec<&Value> = a["acceptance"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| &x["tile"])
            .collect();
        let waits: Vec<&Value> = w["waits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| &x["tile"])
            .collect();
        assert_eq!(accepted, waits, "{tiles}: a ready hand accepts its waits");
    }
}

/// Every bad input of an analysis: a 422 at its pointer.
#[tokio::test]
async fn bad_inputs_are_422_at_their_pointers() {
    let app = spawn_app().await;
    let cases: &[(&str, Value, &str, &str)] = &[
        (
            "12 tiles",
            body("234m567m345p678s", json!({})),
            "/hand/tiles",
            "analysis_tile_count",
        ),
        (
            "15 tiles",
            body("234m567m345p678s22s9p", json!({})),
            "/hand/tiles",
            "analysis_tile_count",
        ),
        (
            "a winning tile",
            body(
                "234m567m345p678s2s",
                json!({"hand": {"winning_tile": "2s"}}),
            ),
            "/hand/winning_tile",
            "winning_tile_while_waiting",
        ),
        (
            "five in sight",
            body("234m567m345p678s2s", json!({"seen": "2s2s2s2s"})),
            "/seen",
            "seen_over_four",
        ),
        (
            "draws 0",
            body("234m567m345p678s2s", json!({"chances": {"draws": 0}})),
            "/chances/draws",
            "",
        ),
        (
            "draws 31",
            body("234m567m345p678s2s", json!({"chances": {"draws": 31}})),
            "/chances/draws",
            "",
        ),
        (
            "a far hand with chances",
            body("147m258p369s1357z", json!({"chances": {"draws": 10}})),
            "/chances",
            "chances_too_far",
        ),
        (
            "a bad seen tile",
            body("234m567m345p678s2s", json!({"seen": "2x"})),
            "/seen",
            "tile_notation",
        ),
    ];
    for (name, b, pointer, code) in cases {
        let r = app.post("/v1/analyze", b).await;
        assert_eq!(r.status, 422, "{name}: {}", r.text());
        let v = r.json();
        let e = &v["errors"][0];
        assert_eq!(e["pointer"], *pointer, "{name}: {v}");
        if !code.is_empty() {
            assert_eq!(e["code"], *code, "{name}: {v}");
        }
    }
    // The same far hand without chances is answered.
    let r = app
        .post("/v1/analyze", &body("147m258p369s1357z", json!({})))
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json()["shanten"]["best"],
        7,
        "thirteen orphans: seven from ready"
    );
}

/// `hand_changes` and `shanten_down` false are the request without them,
/// byte for byte; with `hand_changes` the 13-tile hand's points expected do
/// not fall (every draw may still be thrown back, as without).
#[tokio::test]
async fn hand_changes_off_is_todays_answer() {
    let app = spawn_app().await;
    let plain = app
        .post(
            "/v1/analyze",
            &body("123m456m789m11p5s7z", json!({"chances": {"draws": 8}})),
        )
        .await;
    let off = app
        .post(
            "/v1/analyze",
            &body(
                "123m456m789m11p5s7z",
                json!({"chances": {"draws": 8, "hand_changes": false, "shanten_down": false}}),
            ),
        )
        .await;
    assert_eq!(plain.status, 200, "{}", plain.text());
    assert_eq!(plain.text(), off.text());
    let on = app
        .post(
            "/v1/analyze",
            &body(
                "123m456m789m11p5s7z",
                json!({"chances": {"draws": 8, "hand_changes": true}}),
            ),
        )
        .await;
    assert_eq!(on.status, 200, "{}", on.text());
    let e = |v: &Value| v["chances"]["expected_points"].as_f64().unwrap();
    assert!(e(&on.json()) >= e(&plain.json()), "{}", on.text());
}

/// `every_discard: false` leaves out the chances of the discards that
/// raise shanten and answers the others' as with it true. 123m 456m 789m
/// 11p 5s 7z 9s: 7z, 9s and 5s keep one from ready, the rest raise it.
#[tokio::test]
async fn every_discard_false_leaves_out_the_raising_discards() {
    let app = spawn_app().await;
    let ask = |every: bool| {
        body(
            "123m456m789m11p5s7z9s",
            json!({"chances": {"draws": 6, "discards": false, "every_discard": every}}),
        )
    };
    let all = app.post("/v1/analyze", &ask(true)).await.json();
    let some = app.post("/v1/analyze", &ask(false)).await.json();
    let (all, some) = (
        all["discards"].as_array().unwrap(),
        some["discards"].as_array().unwrap(),
    );
    assert_eq!(all.len(), 13);
    for d in some {
        let same = all.iter().find(|a| a["tile"] == d["tile"]).unwrap();
        if d["shanten"] == 1 {
            assert_eq!(d["chances"], same["chances"], "{}", d["tile"]);
        } else {
            assert!(d.get("chances").is_none(), "{d}");
            assert!(same.get("chances").is_some(), "{same}");
        }
    }
    let keeping: Vec<&str> = some[..3]
        .iter()
        .map(|d| d["tile"].as_str().unwrap())
        .collect();
    let mut sorted = keeping.clone();
    sorted.sort();
    assert_eq!(sorted, ["5s", "7z", "9s"]);
}
