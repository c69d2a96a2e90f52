//! The response cache: keyed by the validated hand, so tile order does not matter.

use crate::helpers::{spawn_app, spawn_with};
use faan::config::ServeArgs;
use serde_json::{json, Value};

fn quiet(tiles: &str) -> Value {
    json!({"ruleset": "wisteria-court",
        "hand": {"tiles": tiles, "winning_tile": "9p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}})
}

#[tokio::test]
async fn same_hand_in_another_order_is_a_hit_with_identical_body() {
    let app = spawn_app().await;
    let miss = app.post("/v1/score", &quiet("123456m789p23455s")).await;
    assert_eq!(miss.status, 200);
    assert_eq!(miss.header("x-cache").as_deref(), Some("miss"));
    let hit = app.post("/v1/score", &quiet("55s987p234s654m321m")).await;
    assert_eq!(hit.header("x-cache").as_deref(), Some("hit"));
    assert_eq!(
        hit.bytes, miss.bytes,
        "a hit's body is byte-identical to the miss's"
    );
    assert_eq!(hit.json()["hand_hash"], miss.json()["hand_hash"]);
}

/// A repeat of the exact request bytes is answered from the cache before
/// parsing; the headers are still checked, and the body is the same.
#[tokio::test]
async fn the_same_bytes_again_are_a_hit_and_still_checked() {
    let app = spawn_app().await;
    let body = serde_json::to_vec(&quiet("123456m789p23455s")).unwrap();
    let first = app
        .post_raw("/v1/score", body.clone(), Some("application/json"))
        .await;
    assert_eq!(first.header("x-cache").as_deref(), Some("miss"));
    for i in 0..3 {
        let again = app
            .post_raw("/v1/score", body.clone(), Some("application/json"))
            .await;
        assert_eq!(again.status, 200, "repeat {i}");
        assert_eq!(
            again.header("x-cache").as_deref(),
            Some("hit"),
            "repeat {i}"
        );
        assert_eq!(again.bytes, first.bytes, "repeat {i}: identical body");
    }
    let wrong_type = app
        .post_raw("/v1/score", body.clone(), Some("text/plain"))
        .await;
    assert_eq!(wrong_type.status, 415, "{}", wrong_type.text());
    // Other bytes for the same hand (spaces, key order) miss the front but hit by hand.
    let spaced = format!(" {} ", String::from_utf8(body).unwrap());
    let r = app
        .post_raw("/v1/score", spaced, Some("application/json"))
        .await;
    assert_eq!(r.header("x-cache").as_deref(), Some("hit"));
    assert_eq!(r.bytes, first.bytes);
}

#[tokio::test]
async fn different_house_rules_or_context_is_a_miss() {
    let app = spawn_app().await;
    let base = quiet("123456m789p23455s");
    let first = app.post("/v1/score", &base).await;
    let hash = first.json()["hand_hash"].clone();

    let mut house = base.clone();
    house["house_rules"] = json!({"min_faan": 3});
    let mut seat = base.clone();
    seat["context"]["seat_wind"] = json!("north");
    let mut last = base.clone();
    last["context"]["last_tile"] = json!(true);
    let mut ruleset = base.clone();
    ruleset["ruleset"] = json!("hkma");
    for (name, req) in [
        ("house rules", house),
        ("seat", seat),
        ("last tile", last),
        ("ruleset", ruleset),
    ] {
        let r = app.post("/v1/score", &req).await;
        assert_eq!(r.status, 200, "{name}: {}", r.text());
        assert_eq!(r.header("x-cache").as_deref(), Some("miss"), "{name}");
        assert_ne!(r.json()["hand_hash"], hash, "{name}: another hash");
        let again = app.post("/v1/score", &req).await;
        assert_eq!(
            again.header("x-cache").as_deref(),
            Some("hit"),
            "{name}: second time"
        );
    }
}

#[tokio::test]
async fn hand_hash_is_stable_across_restarts_and_without_cache() {
    let a = spawn_app().await;
    let b = spawn_with(ServeArgs {
        cache_size: 0,
        ..ServeArgs::for_tests()
    })
    .await;
    let ra = a.post("/v1/score", &quiet("123456m789p23455s")).await;
    let rb = b.post("/v1/score", &quiet("123456m789p23455s")).await;
    assert_eq!(ra.json()["hand_hash"], rb.json()["hand_hash"]);
    let rb2 = b.post("/v1/score", &quiet("123456m789p23455s")).await;
    assert_eq!(
        rb2.header("x-cache").as_deref(),
        Some("miss"),
        "size 0 disables the cache"
    );
    assert_eq!(rb2.bytes, rb.bytes);
}

#[tokio::test]
async fn batch_and_compare_use_the_cache() {
    let app = spawn_app().await;
    let single = app.post("/v1/score", &quiet("123456m789p23455s")).await;
    let batch = app
        .post(
            "/v1/score/batch",
            &json!({"requests": [quiet("55s987p234s654m321m")]}),
        )
        .await;
    assert_eq!(batch.json()["results"][0], single.json());
    let metrics = app.get("/metrics").await.text();
    assert!(metrics.contains("faan_cache_hits_total 1\n"), "{metrics}");
}

/// A batch item is read as a `POST /v1/score` body: its result is that
/// body byte for byte, and repeated items are answered from the cache.
#[tokio::test]
async fn batch_items_are_score_bodies_and_repeats_hit() {
    let app = spawn_app().await;
    let item = serde_json::to_string(&quiet("123456m789p23455s")).unwrap();
    let other = serde_json::to_string(&quiet("55s987p234s654m321m")).unwrap();
    let body = format!("{{\"requests\": [{item}, {item},\n {other}, {item}]}}");
    let r = app
        .post_raw("/v1/score/batch", body, Some("application/json"))
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let single = app
        .post_raw("/v1/score", item.clone(), Some("application/json"))
        .await;
    assert_eq!(
        single.header("x-cache").as_deref(),
        Some("hit"),
        "scored in the batch"
    );
    let text = r.text();
    let want = format!(
        "{{\"results\":[{s},{s},{s},{s}]}}",
        s = String::from_utf8(single.bytes).unwrap()
    );
    assert_eq!(text, want, "every item is the single body, byte for byte");
    let metrics = app.get("/metrics").await.text();
    // Item 1 misses; items 2, 3 (same hand, other order) and 4 hit; then the single request.
    assert!(metrics.contains("faan_cache_misses_total 1\n"), "{metrics}");
    assert!(metrics.contains("faan_cache_hits_total 4\n"), "{metrics}");
}

/// The same house rules with their keys in another order are one request:
/// one `hand_hash`, one cache entry, one answer. hkma's 123m 456m 789p 234s
/// 55p won on 5p from West is all chows 1 + concealed hand 1; with the
/// overrides all chows 3 and concealed hand 2 it is 5 faan either way.
#[tokio::test]
async fn house_rule_maps_in_another_key_order_share_hand_hash() {
    let app = spawn_app().await;
    let body = |patterns: &str| {
        format!(
            r#"{{"ruleset":"hkma","house_rules":{{"patterns":{patterns},"conditions":{{"discard_only_in_pair":true,"four_as_two_pairs":true}}}},"hand":{{"tiles":"123m456m789p234s55p","winning_tile":"5p"}},"context":{{"win_by":"discard","seat_wind":"south","round_wind":"east","discarder":"west"}}}}"#
        )
    };
    let sorted = app
        .post_raw(
            "/v1/score",
            body(r#"{"all_chows":3,"concealed_hand":2}"#),
            Some("application/json"),
        )
        .await;
    assert_eq!(sorted.status, 200, "{}", sorted.text());
    assert_eq!(sorted.json()["total_faan"], 5, "case: 3 + 2 faan");
    // Keys sent in order give the pinned hash: ordering the keys leaves a
    // hand_hash stable across versions.
    assert_eq!(
        sorted.json()["hand_hash"],
        "7afcdb2b4167330ba37c32b8bc6ab90743b0aeeb2ee0161da9cc012d1326aa58",
        "case: the sorted request's hand_hash as it was"
    );
    let reversed = app
        .post_raw(
            "/v1/score",
            body(r#"{"concealed_hand":2,"all_chows":3}"#),
            Some("application/json"),
        )
        .await;
    assert_eq!(reversed.status, 200, "{}", reversed.text());
    assert_eq!(
        reversed.json()["hand_hash"],
        sorted.json()["hand_hash"],
        "case: {{\"a\":..,\"b\":..}} and {{\"b\":..,\"a\":..}}"
    );
    assert_eq!(
        reversed.header("x-cache").as_deref(),
        Some("hit"),
        "case: one cache entry"
    );
    assert_eq!(reversed.bytes, sorted.bytes, "case: one answer");
}
