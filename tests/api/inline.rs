//! Whole rulesets sent with a request: a full document, the same
//! via `extends`, the built-in with house rules; `ruleset_hash`, the cache,
//! compare, settle, the schema and the validate endpoint.

use crate::helpers::{lines, payments, spawn_app};
use serde_json::{json, Value};

/// Worked by hand: 234m 567m 345p 678s and the pair 22s, self-drawn on 5p by
/// South in the East round, no flowers. Under HKMA: all chows 1, self-draw 1,
/// concealed hand 1 (flowers are off by default); with all simples added at
/// 1 (no terminal, no honour anywhere) 4 faan. Half-spicy B(4) = 16, each
/// of the three pays 2B = 32, South +96.
fn simples_hand(ruleset: Value) -> Value {
    json!({"ruleset": ruleset,
        "hand": {"tiles": "234m567m345p678s22s", "winning_tile": "5p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}})
}

/// HKMA's ruleset file as a JSON document, with its id changed and all
/// simples added at 1 faan: what the `extends` document below says.
fn full_document() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/hkma.toml"))
        .expect("hkma.toml");
    let mut doc = faan::core::ruleset::toml_document(&text).expect("hkma.toml is a document");
    doc["id"] = json!("hkma-simples");
    doc["patterns"]["all_simples"] = json!({"faan": 1});
    doc
}

fn extends_document() -> Value {
    json!({"extends": "hkma", "id": "hkma-simples", "patterns": {"all_simples": {"faan": 1}}})
}

fn sorted(mut v: Vec<(String, u64)>) -> Vec<(String, u64)> {
    v.sort();
    v
}

#[tokio::test]
async fn a_full_document_extends_and_house_rules_agree() {
    let app = spawn_app().await;
    let hkma_hash = app.get("/v1/rulesets/hkma").await.json()["ruleset_hash"].clone();
    let full = app.post("/v1/score", &simples_hand(full_document())).await;
    assert_eq!(full.status, 200, "full document: {}", full.text());
    assert_eq!(
        full.header("x-cache").as_deref(),
        Some("miss"),
        "full document"
    );
    let ext = app
        .post("/v1/score", &simples_hand(extends_document()))
        .await;
    assert_eq!(ext.status, 200, "extends: {}", ext.text());
    let house = app
        .post("/v1/score", &{
            let mut r = simples_hand(json!("hkma"));
            r["house_rules"] = json!({"patterns": {"all_simples": 1}});
            r
        })
        .await;
    assert_eq!(house.status, 200, "house rules: {}", house.text());
    let (full, ext, house) = (full.json(), ext.json(), house.json());
    let want = sorted(vec![
        ("all_chows".into(), 1),
        ("self_draw".into(), 1),
        ("concealed_hand".into(), 1),
        ("all_simples".into(), 1),
    ]);
    for (case, v) in [
        ("full document", &full),
        ("extends", &ext),
        ("house rules", &house),
    ] {
        assert_eq!(sorted(lines(v)), want, "{case}: lines");
        assert_eq!(v["total_faan"], 4, "{case}: total");
        assert_eq!(payments(v), [-32, 96, -32, -32], "{case}: payments");
    }
    assert_eq!(
        lines(&full),
        lines(&house),
        "full document and house rules: the same lines in order"
    );
    assert_eq!(full["ruleset"], "hkma-simples", "full document: its own id");
    assert_eq!(ext["ruleset"], "hkma-simples", "extends: its own id");
    assert_eq!(house["ruleset"], "hkma", "house rules: the built-in");
    assert_eq!(
        full["ruleset_hash"], ext["ruleset_hash"],
        "full document and extends resolve to one ruleset"
    );
    assert_ne!(full["ruleset_hash"], hkma_hash, "another ruleset than hkma");
    assert_eq!(
        house["ruleset_hash"], hkma_hash,
        "house rules: hkma's hash (before house rules)"
    );
    assert_eq!(full["hand_hash"], ext["hand_hash"], "one ruleset, one key");
    assert_ne!(
        full["hand_hash"], house["hand_hash"],
        "keyed by hash, not by id"
    );
    assert!(
        full["ruleset_hash"].as_str().is_some_and(|h| h.len() == 64
            && h.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())),
        "lower-case hex SHA-256: {}",
        full["ruleset_hash"]
    );
}

#[tokio::test]
async fn identical_documents_share_cache_entries() {
    let app = spawn_app().await;
    let first = app
        .post("/v1/score", &simples_hand(extends_document()))
        .await;
    assert_eq!(
        first.header("x-cache").as_deref(),
        Some("miss"),
        "first: {}",
        first.text()
    );
    // The same document written with other spacing and the hand's tiles in
    // another order: new request bytes, the same ruleset and hand.
    let mut again = simples_hand(extends_document());
    again["hand"]["tiles"] = json!("22s678s345p567m234m");
    let text = serde_json::to_string_pretty(&again).unwrap();
    let second = app
        .post_raw("/v1/score", text, Some("application/json"))
        .await;
    assert_eq!(
        second.header("x-cache").as_deref(),
        Some("hit"),
        "second: {}",
        second.text()
    );
    assert_eq!(second.bytes, first.bytes, "the cached body");
    // The full document resolving to the same ruleset shares them too.
    let full = app.post("/v1/score", &simples_hand(full_document())).await;
    assert_eq!(
        full.header("x-cache").as_deref(),
        Some("hit"),
        "full document"
    );
}

#[tokio::test]
async fn a_document_that_is_a_built_in_is_keyed_as_the_built_in() {
    let app = spawn_app().await;
    let by_id = app
        .post("/v1/score", &simples_hand(json!("hkma")))
        .await
        .json();
    let same = app
        .post("/v1/score", &simples_hand(json!({"extends": "hkma"})))
        .await;
    assert_eq!(
        same.header("x-cache").as_deref(),
        Some("hit"),
        "extends alone is hkma"
    );
    let same = same.json();
    for k in ["ruleset", "ruleset_hash", "hand_hash", "total_faan"] {
        assert_eq!(same[k], by_id[k], "{k}");
    }
    assert_eq!(by_id["total_faan"], 3, "hkma without all simples: 3 faan");
}

#[tokio::test]
async fn batch_compare_and_settle_take_documents() {
    let app = spawn_app().await;
    let items: Vec<Value> = (0..3).map(|_| simples_hand(extends_document())).collect();
    let r = app
        .post("/v1/score/batch", &json!({"requests": items}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let results = r.json()["results"].as_array().unwrap().clone();
    assert!(
        results
            .iter()
            .all(|v| v["total_faan"] == 4 && v["ruleset"] == "hkma-simples"),
        "batch: {results:?}"
    );

    // One custom ruleset beside a built-in; a document whose id a built-in
    // in the list already has is keyed by its pointer; a broken one too.
    let mut req = simples_hand(json!(null));
    req.as_object_mut().unwrap().remove("ruleset");
    req["rulesets"] = json!(["hkma", extends_document(), {"extends": "hkma", "limit": 13}, {"extends": "riichi"}]);
    let r = app.post("/v1/compare", &req).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let results = r.json()["results"].clone();
    // (serde_json's map here sorts the keys; the answer has them in list order.)
    let keys: Vec<&String> = results.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["/rulesets/2", "/rulesets/3", "hkma", "hkma-simples"],
        "compare keys"
    );
    let text = r.text();
    let at = |k: &str| text.find(&format!("\"{k}\":{{")).unwrap_or(usize::MAX);
    assert!(
        at("hkma") < at("hkma-simples")
            && at("hkma-simples") < at("/rulesets/2")
            && at("/rulesets/2") < at("/rulesets/3"),
        "list order"
    );
    assert_eq!(results["hkma"]["total_faan"], 3, "hkma");
    assert_eq!(results["hkma-simples"]["total_faan"], 4, "custom");
    // It inherits hkma's id with other rules: refused.
    assert_eq!(
        results["/rulesets/2"]["errors"][0]["pointer"], "/rulesets/2/id",
        "a document with hkma's id and its own limit"
    );
    assert_eq!(
        results["/rulesets/3"]["errors"][0]["pointer"], "/rulesets/3/extends",
        "a broken document"
    );

    // Settle: one winner under a document answers what score does.
    let score = app
        .post("/v1/score", &simples_hand(extends_document()))
        .await
        .json();
    let settle = json!({"ruleset": extends_document(), "winners": [{"hand": simples_hand(json!(null))["hand"], "context": simples_hand(json!(null))["context"]}]});
    let r = app.post("/v1/settle", &settle).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["ruleset"], "hkma-simples", "settle");
    assert_eq!(
        v["results"][0]["ruleset_hash"], score["ruleset_hash"],
        "settle: ruleset_hash"
    );
    assert_eq!(
        v["results"][0]["hand_hash"], score["hand_hash"],
        "settle: hand_hash"
    );
}

#[tokio::test]
async fn validate_answers_the_chart_or_every_problem() {
    let app = spawn_app().await;
    let r = app
        .post(
            "/v1/rulesets/validate",
            &json!({"ruleset": extends_document()}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let chart = r.json();
    let score = app
        .post("/v1/score", &simples_hand(extends_document()))
        .await
        .json();
    assert_eq!(chart["id"], "hkma-simples");
    assert_eq!(
        chart["ruleset_hash"], score["ruleset_hash"],
        "the hash scores carry"
    );
    let hkma = app.get("/v1/rulesets/hkma").await.json();
    let ids = |c: &Value| -> Vec<String> {
        c["patterns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_string())
            .collect()
    };
    let mut want = ids(&hkma);
    want.push("all_simples".into());
    want.sort();
    let mut got = ids(&chart);
    got.sort();
    assert_eq!(got, want, "hkma's patterns and all simples");
    // House rules are applied to the chart; the hash stays the ruleset's.
    let r = app
        .post(
            "/v1/rulesets/validate",
            &json!({"ruleset": "hkma", "house_rules": {"min_faan": 0}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        (
            r.json()["min_faan"].clone(),
            r.json()["ruleset_hash"].clone()
        ),
        (json!(0), hkma["ruleset_hash"].clone()),
        "house rules"
    );
    // Every problem of a document whose shape is right.
    let r = app
        .post("/v1/rulesets/validate", &json!({"ruleset": {"extends": "hkma", "version": -1, "patterns": {"all_chows": {"faan": "lots"}, "ping_wu": {"faan": 1}}, "table": {"liable_discard": "never"}}}))
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    let mut pointers: Vec<String> = r.json()["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap().to_string())
        .collect();
    pointers.sort();
    assert_eq!(
        pointers,
        [
            "/ruleset/patterns/all_chows/faan",
            "/ruleset/patterns/ping_wu",
            "/ruleset/table/liable_discard",
            "/ruleset/version"
        ],
        "every problem"
    );
    // An unknown id is the usual 404.
    let r = app
        .post("/v1/rulesets/validate", &json!({"ruleset": "riichi"}))
        .await;
    assert_eq!(
        (r.status, r.json()["errors"][0]["pointer"].clone()),
        (404, json!("/ruleset")),
        "unknown id"
    );
}

#[tokio::test]
async fn the_schema_is_the_openapi_component_and_lists_each_patterns_conditions() {
    let app = spawn_app().await;
    let r = app.get("/v1/rulesets/schema").await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/json")
    );
    let mut schema = r.json();
    let spec = app.get("/openapi.json").await.json();
    let components = &spec["components"]["schemas"];
    assert_eq!(
        schema["$defs"]["PatternId"], components["PatternId"],
        "PatternId"
    );
    let obj = schema.as_object_mut().unwrap();
    assert_eq!(
        obj.remove("$schema"),
        Some(json!("https://json-schema.org/draft/2020-12/schema"))
    );
    obj.remove("$defs");
    let standalone = schema
        .to_string()
        .replace("#/$defs/", "#/components/schemas/");
    assert_eq!(
        serde_json::from_str::<Value>(&standalone).unwrap(),
        components["RulesetDocument"],
        "the component"
    );
    let props = |id: &str| -> Vec<String> {
        schema["properties"]["patterns"]["properties"][id]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    assert!(
        props("nine_gates").contains(&"pure_only".to_string())
            && props("nine_gates").contains(&"with_kong".to_string()),
        "nine gates' conditions"
    );
    assert!(
        !props("all_chows").contains(&"pure_only".to_string()),
        "pure_only is nine gates' only"
    );
    assert!(
        props("all_chows").contains(&"pair_may_be_value_tile".to_string()),
        "all chows' condition"
    );
    // Every key of every built-in ruleset's document is in the schema.
    let list = app.get("/v1/rulesets").await.json();
    for r in list["rulesets"].as_array().unwrap() {
        let id = r["id"].as_str().unwrap();
        let text =
            std::fs::read_to_string(format!("{}/rulesets/{id}.toml", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        let doc = faan::core::ruleset::toml_document(&text).unwrap();
        for (k, v) in doc.as_object().unwrap() {
            assert!(schema["properties"][k].is_object(), "{id}: {k}");
            if k == "patterns" {
                for (p, entry) in v.as_object().unwrap() {
                    for key in entry.as_object().unwrap().keys() {
                        assert!(props(p).contains(key), "{id}: patterns.{p}.{key}");
                    }
                }
            }
        }
    }
}

/// The OpenAPI examples of inline rulesets are real: every validate example
/// answers 200 and the documented chart is the real answer to `pub_rules`;
/// the score examples with a document score what their summaries say.
#[tokio::test]
async fn openapi_examples_of_inline_rulesets_are_real() {
    let app = spawn_app().await;
    let spec: Value = serde_json::from_str(&faan::http::openapi::spec_json()).unwrap();
    let op = &spec["paths"]["/v1/rulesets/validate"]["post"];
    let examples = op["requestBody"]["content"]["application/json"]["examples"]
        .as_object()
        .unwrap();
    assert_eq!(examples.len(), 3, "validate examples");
    for (name, ex) in examples {
        let r = app.post("/v1/rulesets/validate", &ex["value"]).await;
        assert_eq!(r.status, 200, "validate example {name}: {}", r.text());
    }
    let real = app
        .post("/v1/rulesets/validate", &examples["pub_rules"]["value"])
        .await
        .json();
    assert_eq!(
        &real, &op["responses"]["200"]["content"]["application/json"]["example"],
        "the documented chart"
    );
    let score = &spec["paths"]["/v1/score"]["post"]["requestBody"]["content"]["application/json"]
        ["examples"];
    // pub rules: all chows, self-draw, concealed hand, all simples 1 each; full spicy B(4) = 16, each pays 2B.
    let v = app
        .post("/v1/score", &score["inline_ruleset"]["value"])
        .await
        .json();
    assert_eq!(
        (v["ruleset"].clone(), v["total_faan"].clone(), payments(&v)),
        (json!("pub-rules"), json!(4), [-32, 96, -32, -32]),
        "inline_ruleset"
    );
    let v = app
        .post("/v1/score", &score["extends"]["value"])
        .await
        .json();
    assert_eq!(
        (v["ruleset"].clone(), v["total_faan"].clone(), payments(&v)),
        (json!("hkma-simples"), json!(4), [-32, 96, -32, -32]),
        "extends"
    );
}

/// A pattern added under `extends` without `contains` takes the pattern
/// table's house-rule containment, so it scores as `house_rules.patterns`
/// does; an explicit `"contains": []` makes it stack. Worked by hand on the
/// simples hand (234m 567m 345p 678s 22s, self-drawn on 5p by South) under
/// HKMA with fully concealed at 3 (it contains self-draw and the concealed
/// hand): all chows 1 + fully concealed 3 = 4 faan, B(4) = 16, each of the
/// three pays 2B = 32. With `contains: []`: all chows 1 + self-draw 1 +
/// concealed hand 1 + fully concealed 3 = 6 faan, half-spicy B(6) = 32,
/// each pays 64, South +192.
#[tokio::test]
async fn a_pattern_added_under_extends_scores_as_the_house_rule() {
    let app = spawn_app().await;
    let ext = app
        .post(
            "/v1/score",
            &simples_hand(json!({"extends": "hkma", "id": "hkma-fc", "patterns": {"fully_concealed": {"faan": 3}}})),
        )
        .await;
    assert_eq!(ext.status, 200, "extends: {}", ext.text());
    let house = app
        .post("/v1/score", &{
            let mut r = simples_hand(json!("hkma"));
            r["house_rules"] = json!({"patterns": {"fully_concealed": 3}});
            r
        })
        .await;
    assert_eq!(house.status, 200, "house rules: {}", house.text());
    let stacked = app
        .post(
            "/v1/score",
            &simples_hand(json!({"extends": "hkma", "id": "hkma-fc",
                "patterns": {"fully_concealed": {"faan": 3, "contains": []}}})),
        )
        .await;
    assert_eq!(stacked.status, 200, "contains []: {}", stacked.text());
    let (ext, house, stacked) = (ext.json(), house.json(), stacked.json());
    for (case, v) in [("extends", &ext), ("house rules", &house)] {
        assert_eq!(
            sorted(lines(v)),
            sorted(vec![("all_chows".into(), 1), ("fully_concealed".into(), 3)]),
            "{case}: all chows 1 + fully concealed 3 (it contains self-draw and the concealed hand)"
        );
        assert_eq!(v["total_faan"], 4, "{case}: 1 + 3 = 4 faan");
        assert_eq!(v["base_points"], 16, "{case}: half-spicy B(4)");
        assert_eq!(payments(v), [-32, 96, -32, -32], "{case}: 2B = 32 each");
    }
    assert_eq!(
        lines(&ext),
        lines(&house),
        "extends and house rules: the same lines in order"
    );
    assert_eq!(
        sorted(lines(&stacked)),
        sorted(vec![
            ("all_chows".into(), 1),
            ("self_draw".into(), 1),
            ("concealed_hand".into(), 1),
            ("fully_concealed".into(), 3),
        ]),
        "contains []: fully concealed stacks with self-draw and the concealed hand"
    );
    assert_eq!(
        stacked["total_faan"], 6,
        "contains []: 1 + 1 + 1 + 3 = 6 faan"
    );
    assert_eq!(stacked["base_points"], 32, "contains []: half-spicy B(6)");
    assert_eq!(
        payments(&stacked),
        [-64, 192, -64, -64],
        "contains []: 2B = 64 each"
    );
    assert_ne!(
        ext["ruleset_hash"], stacked["ruleset_hash"],
        "the resolved contains is part of the ruleset"
    );
}

/// The chart shows `exclusive` (the pairs), `limits_add` and `limits_pay`:
/// a built-in has no pair, does not add and pays per limit (the default); a
/// document's pair and its keys show, and a house rule's pair follows the
/// document's.
#[tokio::test]
async fn the_chart_shows_exclusive_and_limits_add() {
    let app = spawn_app().await;
    let hkma = app.get("/v1/rulesets/hkma").await.json();
    assert_eq!(hkma["exclusive"], json!([]), "hkma: no exclusive pair");
    assert_eq!(hkma["limits_add"], false, "hkma: limits cap");
    assert_eq!(hkma["limits_pay"], "per_limit", "hkma: the default");
    let doc = json!({"extends": "hkma", "id": "hkma-x", "exclusive": [["all_chows", "concealed_hand"]], "limits_add": true, "limits_pay": "once"});
    let chart = app
        .post("/v1/rulesets/validate", &json!({"ruleset": doc}))
        .await;
    assert_eq!(chart.status, 200, "validate: {}", chart.text());
    let chart = chart.json();
    assert_eq!(
        chart["exclusive"],
        json!([["all_chows", "concealed_hand"]]),
        "document: its pair"
    );
    assert_eq!(chart["limits_add"], true, "document: limits add");
    assert_eq!(chart["limits_pay"], "once", "document: paid once");
    let with_house = app
        .post(
            "/v1/rulesets/validate",
            &json!({"ruleset": doc, "house_rules": {"exclusive": [["self_draw", "no_flowers"]]}}),
        )
        .await
        .json();
    assert_eq!(
        with_house["exclusive"],
        json!([["all_chows", "concealed_hand"], ["self_draw", "no_flowers"]]),
        "house rules: the document's pair, then the house rule's"
    );
}
