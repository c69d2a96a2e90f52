//! POST /v1/score/batch, POST /v1/compare and POST /v1/penalties/false-win.

use crate::helpers::{payments, spawn_app};
use serde_json::{json, Value};

fn quiet(ruleset: &str) -> Value {
    json!({"ruleset": ruleset,
        "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}})
}

#[tokio::test]
async fn batch_answers_in_order_with_problems_in_place() {
    let app = spawn_app().await;
    let mut bad_tiles = quiet("wisteria-court");
    bad_tiles["hand"]["tiles"] = json!("11111m456m789p234s");
    let mut bad_enum = quiet("wisteria-court");
    bad_enum["context"]["win_by"] = json!("tsumo");
    let body = json!({"requests": [quiet("wisteria-court"), quiet("riichi"), bad_tiles, bad_enum, quiet("hkma"), "nonsense"]});
    let r = app.post("/v1/score/batch", &body).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let results = r.json()["results"].as_array().unwrap().clone();
    assert_eq!(results.len(), 6);
    assert_eq!(results[0]["total_faan"], 4);
    assert_eq!(results[0]["ruleset"], "wisteria-court");
    assert_eq!(results[1]["type"], "/problems/unknown-ruleset");
    assert_eq!(results[1]["status"], 404);
    assert_eq!(results[1]["errors"][0]["pointer"], "/ruleset");
    assert_eq!(results[2]["type"], "/problems/invalid-request");
    assert_eq!(results[2]["errors"][0]["pointer"], "/hand/tiles");
    assert_eq!(results[3]["errors"][0]["pointer"], "/context/win_by");
    assert_eq!(results[4]["ruleset"], "hkma");
    assert!(results[4]["total_faan"].is_u64());
    assert_eq!(results[5]["status"], 422);
}

#[tokio::test]
async fn batch_must_be_a_list_of_requests() {
    let app = spawn_app().await;
    let r = app.post("/v1/score/batch", &json!({"requests": {}})).await;
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["errors"][0]["pointer"], "/requests");
    let r = app.post("/v1/score/batch", &json!({"request": []})).await;
    assert_eq!(r.status, 422);
    let r = app.post("/v1/score/batch", &json!({"requests": []})).await;
    assert_eq!(r.json(), json!({"results": []}));
    // An item is read as a POST /v1/score body: a repeated key is the same 422 in place.
    let item = r#"{"ruleset":"hkma","ruleset":"hkma","hand":{"tiles":"123456m789p23455s","winning_tile":"9p"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}"#;
    let single = app
        .post_raw("/v1/score", item, Some("application/json"))
        .await;
    assert_eq!(single.status, 422, "{}", single.text());
    let r = app
        .post_raw(
            "/v1/score/batch",
            format!("{{\"requests\":[{item}]}}"),
            Some("application/json"),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["results"][0], single.json());
}

#[tokio::test]
async fn compare_all_rulesets() {
    let app = spawn_app().await;
    let mut req = quiet("x");
    req.as_object_mut().unwrap().remove("ruleset");
    req["rulesets"] = json!("all");
    let r = app.post("/v1/compare", &req).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    let results = v["results"].as_object().unwrap();
    let ids: Vec<String> = app.get("/v1/rulesets").await.json()["rulesets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    let keys: Vec<String> = results.keys().cloned().collect();
    let mut sorted_ids = ids.clone();
    sorted_ids.sort();
    let mut sorted_keys = keys.clone();
    sorted_keys.sort();
    assert_eq!(sorted_keys, sorted_ids, "one result per ruleset");
    let builtin = faan::core::Registry::builtin().unwrap();
    assert_eq!(
        ids.len(),
        builtin.ids().count(),
        "every built-in ruleset: {ids:?}"
    );
    for (id, res) in results {
        assert!(
            res.get("total_faan").is_some() || res.get("type").is_some(),
            "{id}: {res}"
        );
        if res.get("total_faan").is_some() {
            assert_eq!(res["ruleset"], id.as_str());
            assert_eq!(payments(res).iter().sum::<i64>(), 0, "{id}");
        }
    }
    assert_eq!(results["wisteria-court"]["total_faan"], 4);
}

#[tokio::test]
async fn compare_a_list() {
    let app = spawn_app().await;
    let mut req = quiet("x");
    req.as_object_mut().unwrap().remove("ruleset");
    req["rulesets"] = json!(["hkma", "riichi", "wisteria-court"]);
    let v = app.post("/v1/compare", &req).await.json();
    let results = v["results"].as_object().unwrap();
    assert_eq!(results.len(), 3);
    assert_eq!(results["wisteria-court"]["total_faan"], 4);
    assert_eq!(results["riichi"]["status"], 404);
    assert_eq!(results["riichi"]["errors"][0]["pointer"], "/rulesets/1");
    assert_eq!(results["hkma"]["ruleset"], "hkma");

    for bad in [json!("some"), json!([]), json!(3)] {
        req["rulesets"] = bad.clone();
        let r = app.post("/v1/compare", &req).await;
        assert_eq!(r.status, 422, "{bad}");
        assert_eq!(r.json()["errors"][0]["pointer"], "/rulesets", "{bad}");
    }
    let mut with_ruleset = req.clone();
    with_ruleset["rulesets"] = json!("all");
    with_ruleset["ruleset"] = json!("hkma");
    let r = app.post("/v1/compare", &with_ruleset).await;
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["errors"][0]["pointer"], "/ruleset");
}

#[tokio::test]
async fn false_win_penalty() {
    let app = spawn_app().await;
    // Wisteria Court at its default minimum 0: base 1; a self-draw winner would collect 3 x 2B = 6.
    let r = app
        .post(
            "/v1/penalties/false-win",
            &json!({"ruleset": "wisteria-court", "offender": "north"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["base_points"], 1);
    assert_eq!(payments(&v), [6, 6, 6, -18]);
    // With the 3-faan minimum: base 8, each collects 48.
    let v = app
        .post("/v1/penalties/false-win", &json!({"ruleset": "wisteria-court", "offender": "east", "house_rules": {"min_faan": 3}}))
        .await
        .json();
    assert_eq!(v["min_faan"], 3);
    assert_eq!(v["base_points"], 8);
    assert_eq!(payments(&v), [-144, 48, 48, 48]);
}

#[tokio::test]
async fn waits_of_nine_gates() {
    let app = spawn_app().await;
    let r = app
        .post(
            "/v1/waits",
            &json!({"ruleset": "hkma", "hand": {"tiles": "1112345678999m"}, "context": {"seat_wind": "south", "round_wind": "east"}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    let waits = v["waits"].as_array().unwrap();
    let tiles: Vec<&str> = waits.iter().map(|w| w["tile"].as_str().unwrap()).collect();
    assert_eq!(
        tiles,
        ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"]
    );
    assert_eq!(waits[0]["unseen"], 1);
    assert_eq!(waits[4]["unseen"], 3);
    for w in waits {
        for how in ["discard", "self_draw"] {
            assert_eq!(w[how]["total_faan"], 10, "{w}");
            assert_eq!(w[how]["meets_minimum"], true);
            assert!(w[how]["base_points"].is_u64() && w[how]["lines"].is_array());
        }
    }
    // A winning tile, or win_by, is a 422 with its pointer.
    let r = app
        .post(
            "/v1/waits",
            &json!({"ruleset": "hkma", "hand": {"tiles": "1112345678999m", "winning_tile": "1m"}, "context": {"seat_wind": "south", "round_wind": "east"}}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["errors"][0]["pointer"], "/hand/winning_tile");
    let r = app
        .post(
            "/v1/waits",
            &json!({"ruleset": "hkma", "hand": {"tiles": "1112345678999m"}, "context": {"win_by": "discard", "seat_wind": "south", "round_wind": "east"}}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["errors"][0]["pointer"], "/context/win_by");
}
