//! Every error case: status, problem type and JSON pointer.

use crate::helpers::{spawn_app, spawn_with};
use faan::config::ServeArgs;
use serde_json::{json, Value};

fn good() -> Value {
    json!({"ruleset": "wisteria-court",
        "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}})
}

fn with(path: &[&str], value: Value) -> Value {
    let mut v = good();
    let mut at = &mut v;
    for p in &path[..path.len() - 1] {
        at = &mut at[*p];
    }
    at[path[path.len() - 1]] = value;
    v
}

fn without(path: &[&str]) -> Value {
    let mut v = good();
    let mut at = &mut v;
    for p in &path[..path.len() - 1] {
        at = &mut at[*p];
    }
    at.as_object_mut().unwrap().remove(path[path.len() - 1]);
    v
}

/// (name, body, status, problem type, pointer expected among the errors)
type ErrorCase = (
    &'static str,
    Vec<u8>,
    u16,
    &'static str,
    Option<&'static str>,
);

#[tokio::test]
async fn problems_have_status_type_and_pointer() {
    let app = spawn_app().await;
    let cases: Vec<ErrorCase> = vec![
        ("malformed JSON", b"{\"ruleset\": ".to_vec(), 400, "/problems/malformed-json", None),
        ("trailing characters", [serde_json::to_vec(&good()).unwrap(), b"x".to_vec()].concat(), 400, "/problems/malformed-json", None),
        ("empty body", Vec::new(), 400, "/problems/malformed-json", None),
        ("unknown top-level field", serde_json::to_vec(&with(&["bogus"], json!(1))).unwrap(), 422, "/problems/invalid-request", Some("/bogus")),
        ("unknown nested field", serde_json::to_vec(&with(&["hand", "colour"], json!("red"))).unwrap(), 422, "/problems/invalid-request", Some("/hand/colour")),
        ("wrong enum value", serde_json::to_vec(&with(&["context", "win_by"], json!("tsumo"))).unwrap(), 422, "/problems/invalid-request", Some("/context/win_by")),
        ("wrong type", serde_json::to_vec(&with(&["hand", "tiles"], json!(5))).unwrap(), 422, "/problems/invalid-request", Some("/hand/tiles")),
        ("missing required field", serde_json::to_vec(&without(&["context", "seat_wind"])).unwrap(), 422, "/problems/invalid-request", Some("/context/seat_wind")),
        ("missing hand", serde_json::to_vec(&without(&["hand"])).unwrap(), 422, "/problems/invalid-request", Some("/hand")),
        ("meld kind", serde_json::to_vec(&with(&["hand", "melds"], json!([{"kind": "sequence", "tiles": "123m"}]))).unwrap(), 422, "/problems/invalid-request", Some("/hand/melds/0/kind")),
        ("unknown ruleset", serde_json::to_vec(&with(&["ruleset"], json!("riichi"))).unwrap(), 404, "/problems/unknown-ruleset", Some("/ruleset")),
        ("five of one tile", serde_json::to_vec(&with(&["hand", "tiles"], json!("11111m456m789p234s"))).unwrap(), 422, "/problems/invalid-request", Some("/hand/tiles")),
        ("bad tile text", serde_json::to_vec(&with(&["hand", "tiles"], json!("123456m789p2345x5s"))).unwrap(), 422, "/problems/invalid-request", Some("/hand/tiles")),
        ("discarder on a self-draw", serde_json::to_vec(&with(&["context", "discarder"], json!("west"))).unwrap(), 422, "/problems/invalid-request", Some("/context/discarder")),
        ("meld that is not a chow", serde_json::to_vec(&json!({"ruleset": "wisteria-court",
            "hand": {"tiles": "456m789p23455s", "melds": [{"kind": "chow", "tiles": "135m"}], "winning_tile": "9p"},
            "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}})).unwrap(), 422, "/problems/invalid-request", Some("/hand/melds/0/tiles")),
        ("house rule minimum not offered", serde_json::to_vec(&with(&["house_rules"], json!({"min_faan": 2}))).unwrap(), 422, "/problems/invalid-request", Some("/house_rules/min_faan")),
        ("house rule unknown pattern", serde_json::to_vec(&with(&["house_rules"], json!({"patterns": {"riichi": 1}}))).unwrap(), 422, "/problems/invalid-request", Some("/house_rules/patterns/riichi")),
        ("house rule pattern value", serde_json::to_vec(&with(&["house_rules"], json!({"patterns": {"all_chows": "lots"}}))).unwrap(), 422, "/problems/invalid-request", Some("/house_rules/patterns/all_chows")),
        ("negative house minimum", serde_json::to_vec(&with(&["house_rules"], json!({"min_faan": -1}))).unwrap(), 422, "/problems/invalid-request", Some("/house_rules/min_faan")),
        ("not a winning hand", serde_json::to_vec(&with(&["hand", "tiles"], json!("123456m789p23459s"))).unwrap(), 422, "/problems/not-a-winning-hand", None),
    ];
    for (name, body, status, ty, pointer) in cases {
        let r = app
            .post_raw("/v1/score", body, Some("application/json"))
            .await;
        assert_eq!(r.status, status, "{name}: {}", r.text());
        assert_eq!(
            r.header("content-type").as_deref(),
            Some("application/problem+json"),
            "{name}"
        );
        let v = r.json();
        assert_eq!(v["type"], ty, "{name}: {v}");
        assert_eq!(v["status"], status, "{name}");
        assert!(
            v["title"].is_string() && v["detail"].is_string(),
            "{name}: {v}"
        );
        let errors = v["errors"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: errors is a list: {v}"));
        if let Some(p) = pointer {
            assert!(
                errors
                    .iter()
                    .any(|e| e["pointer"] == p && e["message"].is_string()),
                "{name}: want pointer {p}: {v}"
            );
        }
    }
}

#[tokio::test]
async fn not_a_winning_hand_says_what_was_found() {
    let app = spawn_app().await;
    let v = app
        .post(
            "/v1/score",
            &with(&["hand", "tiles"], json!("123456m789p23459s")),
        )
        .await
        .json();
    assert!(v["type"].as_str().unwrap().ends_with("not-a-winning-hand"));
    let detail = v["detail"].as_str().unwrap();
    assert!(
        detail.contains("14"),
        "detail names the tile count: {detail}"
    );
    assert!(
        detail.contains("pair"),
        "detail says what was found: {detail}"
    );
}

#[tokio::test]
async fn oversized_body_is_413() {
    let app = spawn_app().await;
    let mut req = good();
    req["hand"]["tiles"] = json!(" ".repeat(70 * 1024) + "123456m789p23455s");
    let r = app.post("/v1/score", &req).await;
    assert_eq!(r.status, 413, "{}", r.text());
    assert_eq!(r.json()["type"], "/problems/payload-too-large");
    // The same size is fine for a batch (1 MiB limit).
    let r = app
        .post("/v1/score/batch", &json!({"requests": [req]}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
}

#[tokio::test]
async fn wrong_content_type_is_415() {
    let app = spawn_app().await;
    let body = serde_json::to_vec(&good()).unwrap();
    for ct in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        None,
    ] {
        let r = app.post_raw("/v1/score", body.clone(), ct).await;
        assert_eq!(r.status, 415, "{ct:?}");
        assert_eq!(r.json()["type"], "/problems/unsupported-media-type");
    }
    let r = app
        .post_raw("/v1/score", body, Some("application/json; charset=utf-8"))
        .await;
    assert_eq!(r.status, 200, "charset parameter is fine");
}

#[tokio::test]
async fn unknown_path_is_404_and_wrong_method_is_405() {
    let app = spawn_app().await;
    let r = app.get("/v2/score").await;
    assert_eq!(r.status, 404);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
    assert_eq!(r.json()["type"], "/problems/not-found");

    let r = app.get("/v1/score").await;
    assert_eq!(r.status, 405);
    assert_eq!(r.json()["type"], "/problems/method-not-allowed");
    assert_eq!(r.header("allow").as_deref(), Some("POST"));

    let r = app.post("/v1/rulesets", &json!({})).await;
    assert_eq!(r.status, 405);
    assert_eq!(r.header("allow").as_deref(), Some("GET, HEAD"));

    // HEAD answers where GET does: the same status and length, no body.
    for path in [
        "/healthz",
        "/v1/rulesets",
        "/v1/rulesets/hkma",
        "/openapi.json",
        "/",
    ] {
        let get = app.get(path).await;
        let head = app
            .send(app.client.head(format!("{}{path}", app.base)))
            .await;
        assert_eq!((head.status, get.status), (200, 200), "HEAD {path}");
        assert!(head.bytes.is_empty(), "HEAD {path}: no body");
        assert_eq!(
            head.header("content-length"),
            Some(get.bytes.len().to_string()),
            "HEAD {path}: the GET body's length"
        );
    }
    let r = app
        .send(app.client.head(format!("{}/v1/score", app.base)))
        .await;
    assert_eq!(
        (r.status, r.header("allow").as_deref()),
        (405, Some("POST")),
        "HEAD on a POST route"
    );

    let r = app.get("/v1/rulesets/riichi").await;
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["type"], "/problems/unknown-ruleset");
}

#[tokio::test]
async fn batch_over_the_limit() {
    let app = spawn_with(ServeArgs {
        batch_limit: 2,
        ..ServeArgs::for_tests()
    })
    .await;
    let r = app
        .post(
            "/v1/score/batch",
            &json!({"requests": [good(), good(), good()]}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let v = r.json();
    assert_eq!(v["type"], "/problems/batch-too-large");
    assert_eq!(v["errors"][0]["pointer"], "/requests");
    let r = app
        .post("/v1/score/batch", &json!({"requests": [good(), good()]}))
        .await;
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn false_win_errors() {
    let app = spawn_app().await;
    let r = app
        .post(
            "/v1/penalties/false-win",
            &json!({"ruleset": "riichi", "offender": "east"}),
        )
        .await;
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["errors"][0]["pointer"], "/ruleset");
    let r = app
        .post(
            "/v1/penalties/false-win",
            &json!({"ruleset": "hkma", "offender": "centre"}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["errors"][0]["pointer"], "/offender");
}

/// Nothing a client sends produces a 500: a spread of hostile bodies.
#[tokio::test]
async fn hostile_bodies_never_500() {
    let app = spawn_app().await;
    let bodies: Vec<Value> = vec![
        json!(null),
        json!([]),
        json!("string"),
        with(&["hand", "tiles"], json!("")),
        with(&["hand", "tiles"], json!("0m")),
        with(&["hand", "tiles"], json!("8z9z")),
        with(&["hand", "tiles"], json!("1".repeat(5000))),
        with(
            &["hand", "melds"],
            json!(vec![json!({"kind": "kong", "tiles": "1111m"}); 6]),
        ),
        with(&["hand", "flowers"], json!(["F9", "X1", "F1", "F1"])),
        with(&["hand", "winning_tile"], json!("9z")),
        with(&["context", "flower_win"], json!(true)),
        with(
            &["house_rules"],
            json!({"limit": 0, "points": [1], "min_faan": 4000000000u64}),
        ),
        with(&["house_rules"], json!({"points": "quarter_spicy"})),
        with(
            &["house_rules"],
            json!({"limit": 64, "points": "full_spicy"}),
        ),
        with(
            &["house_rules"],
            json!({"patterns": {"all_chows": 99999999999i64}}),
        ),
        with(&["house_rules"], json!({"patterns": {"all_chows": -3}})),
        with(
            &["house_rules"],
            json!({"patterns": {"": 1, "a/b~c": null}}),
        ),
    ];
    for b in bodies {
        for path in [
            "/v1/score",
            "/v1/score/batch",
            "/v1/compare",
            "/v1/penalties/false-win",
        ] {
            let r = app.post(path, &b).await;
            assert!(r.status < 500, "{path} {b}: {} {}", r.status, r.text());
        }
    }
    let r = app.get("/healthz").await;
    assert_eq!(r.status, 200, "the server is still up");
}

/// `s`'s first 64 characters and an ellipsis: how a problem repeats a
/// client's text longer than 64 characters.
fn cut(s: &str) -> String {
    format!("{}\u{2026}", s.chars().take(64).collect::<String>())
}

/// A problem repeats at most 64 characters of what the client sent (then
/// an ellipsis), in its detail, its messages and its params, so an answer
/// stays small however long the id (bench/hostile.md has what repeating it
/// whole cost).
#[tokio::test]
async fn problems_cut_echoed_input_to_64_characters() {
    let app = spawn_app().await;
    let huge = "a".repeat(3_600_000);
    let ledger = json!({"ruleset": huge, "players": ["Ann", "Ben", "Cat", "Dan"],
        "hands": [{"result": "draw"}]});
    let r = app.post("/v1/ledger", &ledger).await;
    assert_eq!(r.status, 404, "case: ledger, 3.6 MB id");
    assert!(
        r.bytes.len() < 1_000,
        "case: ledger answer of {} bytes",
        r.bytes.len()
    );
    let p = r.json();
    let shown = format!("\"{}\"", cut(&huge));
    assert_eq!(
        p["detail"],
        format!("no ruleset {shown}; GET /v1/rulesets lists the ruleset ids"),
        "case: ledger detail"
    );
    assert_eq!(
        p["errors"][0]["params"]["id"],
        cut(&huge),
        "case: ledger params"
    );
    assert_eq!(
        p["errors"][0]["message"], p["detail"],
        "case: ledger message"
    );

    let id = "b".repeat(60_000);
    let r = app.get(&format!("/v1/rulesets/{id}")).await;
    assert_eq!(r.status, 404, "case: GET a 60 KB id");
    assert!(
        r.bytes.len() < 1_000,
        "case: GET answer of {} bytes",
        r.bytes.len()
    );
    assert_eq!(
        r.json()["errors"][0]["params"]["id"],
        cut(&id),
        "case: GET params"
    );

    let r = app.get(&format!("/{id}")).await;
    assert_eq!(r.status, 404, "case: no route");
    assert_eq!(
        r.json()["detail"],
        format!("no resource at {}", cut(&format!("/{id}")))
    );

    // A 60 KB unknown pattern id: cut in the message and the detail; the
    // pointer (the address of the field) is whole.
    let key = "c".repeat(60_000);
    let body = with(&["house_rules"], json!({"patterns": {key.as_str(): 1}}));
    let r = app.post("/v1/score", &body).await;
    assert_eq!(r.status, 422, "case: pattern id");
    let p = r.json();
    let e = &p["errors"][0];
    assert_eq!(
        e["message"],
        format!("unknown pattern id \"{}\"", cut(&key)),
        "case: pattern message"
    );
    assert_eq!(
        e["pointer"],
        format!("/house_rules/patterns/{key}"),
        "case: pattern pointer whole"
    );
    assert!(
        p["detail"].as_str().unwrap().len() < 300,
        "case: pattern detail {}",
        p["detail"]
    );

    // serde's own messages: an unknown field, an unknown word.
    let r = app
        .post("/v1/score", &with(&[key.as_str()], json!(1)))
        .await;
    assert_eq!(r.status, 422, "case: unknown field");
    let m = r.json()["errors"][0]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.starts_with(&format!("unknown field `{}`, expected", cut(&key))),
        "case: unknown field: {}",
        &m[..m.len().min(200)]
    );
    let r = app
        .post("/v1/score", &with(&["context", "win_by"], json!(key)))
        .await;
    assert_eq!(r.status, 422, "case: unknown variant");
    let m = r.json()["errors"][0]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.starts_with(&format!("unknown variant `{}`, expected", cut(&key))),
        "case: unknown variant: {}",
        &m[..m.len().min(200)]
    );

    // A bonus tile as written: message and params.
    let r = app
        .post("/v1/score", &with(&["hand", "flowers"], json!([key])))
        .await;
    assert_eq!(r.status, 422, "case: bonus tile");
    let e = &r.json()["errors"][0];
    assert_eq!(e["params"]["text"], cut(&key), "case: bonus params");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with(&format!("\"{}\" is not a bonus tile", cut(&key))),
        "case: bonus message {}",
        e["message"]
    );
    assert!(
        r.bytes.len() < 1_000,
        "case: bonus answer of {} bytes",
        r.bytes.len()
    );

    // 64 characters stay whole.
    let r = app.get(&format!("/v1/rulesets/{}", "d".repeat(64))).await;
    assert_eq!(
        r.json()["errors"][0]["params"]["id"],
        "d".repeat(64),
        "case: 64 whole"
    );
}
