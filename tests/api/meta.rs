//! Rulesets, OpenAPI, docs, health, metrics and request ids.

use crate::helpers::spawn_app;
use serde_json::{json, Value};

#[tokio::test]
async fn rulesets_list_and_detail() {
    let app = spawn_app().await;
    let v = app.get("/v1/rulesets").await.json();
    let list = v["rulesets"].as_array().unwrap();
    for id in ["wisteria-court", "hkma", "sc-hk13"] {
        let r = list
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("{id} listed: {v}"));
        for key in ["name", "source", "summary", "min_faan", "limit"] {
            assert!(r.get(key).is_some(), "{id}: {key}");
        }
    }

    let r = app.get("/v1/rulesets/wisteria-court").await;
    assert_eq!(r.status, 200);
    let d = r.json();
    assert_eq!(
        d["points"]["table"],
        json!([1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128])
    );
    assert_eq!(
        d["payment"],
        json!({"discarder": 2.0, "others": 1.0, "self_draw": 2.0, "robbing_kong": "as_discard"})
    );
    assert_eq!(d["min_faan"], 0);
    assert_eq!(d["min_faan_settings"], json!([0, 1, 3]));
    assert_eq!(d["limit"], 10);
    assert!(!d["notes"].as_array().unwrap().is_empty());
    let patterns = d["patterns"].as_array().unwrap();
    let find = |id: &str| {
        patterns
            .iter()
            .find(|p| p["id"] == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    assert_eq!(find("all_pungs")["value"], 3);
    assert_eq!(find("thirteen_orphans")["value"], "limit");
    assert_eq!(find("thirteen_orphans")["faan"], 10);
    assert_eq!(
        find("small_three_dragons")["contains"],
        json!(["dragon_pung"])
    );
    assert_eq!(
        find("concealed_hand")["conditions"]["allow_concealed_kong"],
        true
    );

    // Every listed ruleset has a detail page whose table runs from 0 to the limit.
    for r in list {
        let id = r["id"].as_str().unwrap();
        let d = app.get(&format!("/v1/rulesets/{id}")).await.json();
        let limit = d["limit"].as_u64().unwrap() as usize;
        assert_eq!(
            d["points"]["table"].as_array().unwrap().len(),
            limit + 1,
            "{id}"
        );
    }
    let hkma = app.get("/v1/rulesets/hkma").await.json();
    assert_eq!(hkma["payment"]["discarder"], 4.0);
    assert_eq!(hkma["payment"]["others"], 0.0);
}

#[tokio::test]
async fn openapi_is_served_and_matches_the_committed_file() {
    let app = spawn_app().await;
    let generated = faan::http::openapi::spec_json();
    let served = app.get("/openapi.json").await;
    assert_eq!(served.status, 200);
    assert_eq!(served.text(), generated);
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json"))
            .unwrap_or_default();
    assert!(
        committed.trim_end() == generated.trim_end(),
        "openapi/openapi.json is out of date; regenerate it with `cargo run -- openapi > openapi/openapi.json`"
    );
    let spec = served.json();
    for path in [
        "/v1/score",
        "/v1/score/batch",
        "/v1/compare",
        "/v1/rulesets",
        "/v1/rulesets/{id}",
        "/v1/penalties/false-win",
        "/healthz",
        "/readyz",
        "/metrics",
        "/openapi.json",
        "/docs",
    ] {
        assert!(spec["paths"].get(path).is_some(), "{path} documented");
    }
    let score = &spec["paths"]["/v1/score"]["post"];
    for status in ["200", "400", "404", "413", "415", "422"] {
        assert!(
            score["responses"].get(status).is_some(),
            "/v1/score documents {status}"
        );
    }
    let examples = score["requestBody"]["content"]["application/json"]["examples"]
        .as_object()
        .unwrap();
    assert!(examples.contains_key("wisteria_quiet_hand"));
    for schema in [
        "ScoreRequest",
        "ScoreResponse",
        "Problem",
        "RulesetDetail",
        "BatchRequest",
        "CompareRequest",
    ] {
        assert!(
            spec["components"]["schemas"].get(schema).is_some(),
            "schema {schema}"
        );
    }
}

/// The examples in the OpenAPI document are real requests: each scores (or fails) as it says.
#[tokio::test]
async fn openapi_request_examples_are_accepted() {
    let app = spawn_app().await;
    let spec: serde_json::Value = serde_json::from_str(&faan::http::openapi::spec_json()).unwrap();
    let examples = spec["paths"]["/v1/score"]["post"]["requestBody"]["content"]["application/json"]
        ["examples"]
        .as_object()
        .unwrap();
    for (name, ex) in examples {
        let r = app.post("/v1/score", &ex["value"]).await;
        assert_eq!(r.status, 200, "example {name}: {}", r.text());
    }
}

#[tokio::test]
async fn docs_page_is_served_and_self_contained() {
    let app = spawn_app().await;
    let r = app.get("/docs").await;
    assert_eq!(r.status, 200);
    assert!(r.header("content-type").unwrap().starts_with("text/html"));
    let html = r.text();
    assert!(html.contains("/openapi.json"));
    assert!(
        !html.contains("https://") && !html.contains("http://"),
        "no external resources"
    );
}

#[tokio::test]
async fn health_and_readiness() {
    let app = spawn_app().await;
    for path in ["/healthz", "/readyz"] {
        let r = app.get(path).await;
        assert_eq!(r.status, 200, "{path}");
        assert!(r.json()["rulesets"].as_u64().unwrap() >= 1);
    }
}

fn counter(text: &str, prefix: &str) -> u64 {
    text.lines()
        .find(|l| l.starts_with(prefix))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[tokio::test]
async fn metrics_counters_move() {
    let app = spawn_app().await;
    let req = json!({"ruleset": "wisteria-court",
        "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}});
    let ok = "faan_http_requests_total{route=\"/v1/score\",method=\"POST\",status=\"200\"}";
    let before = app.get("/metrics").await.text();
    assert_eq!(counter(&before, "faan_cache_bytes"), 0, "{before}");
    let body_len = app.post("/v1/score", &req).await.bytes.len() as u64;
    app.post("/v1/score", &req).await;
    app.get("/nowhere").await;
    let r = app.get("/metrics").await;
    assert!(r.header("content-type").unwrap().starts_with("text/plain"));
    let after = r.text();
    assert_eq!(counter(&after, ok), counter(&before, ok) + 2, "{after}");
    assert_eq!(counter(&after, "faan_cache_misses_total"), 1);
    assert_eq!(counter(&after, "faan_cache_hits_total"), 1);
    assert_eq!(counter(&after, "faan_cache_entries"), 1);
    // One body plus its overhead (96 bytes), or the floor of 64 MiB / 100,000 entries.
    assert_eq!(
        counter(&after, "faan_cache_bytes"),
        (body_len + 96).max(64 * 1024 * 1024 / 100_000),
        "{after}"
    );
    assert!(after.contains("route=\"unmatched\",method=\"GET\",status=\"404\""));
    assert!(
        after.contains(
            "faan_http_request_duration_seconds_bucket{route=\"/v1/score\",le=\"+Inf\"} 2"
        ),
        "{after}"
    );
    assert!(after.contains("# TYPE faan_http_request_duration_seconds histogram"));
}

#[tokio::test]
async fn request_id_is_echoed_or_generated() {
    let app = spawn_app().await;
    let r = app
        .send(
            app.client
                .get(format!("{}/healthz", app.base))
                .header("x-request-id", "abc-123"),
        )
        .await;
    assert_eq!(r.header("x-request-id").as_deref(), Some("abc-123"));
    let a = app.get("/healthz").await.header("x-request-id").unwrap();
    let b = app.get("/nowhere").await.header("x-request-id").unwrap();
    assert!(!a.is_empty() && a != b, "generated ids differ: {a} {b}");
}

#[tokio::test]
async fn rulesets_dir_replaces_the_builtin_rulesets() {
    let dir = std::env::temp_dir().join(format!("faan-rulesets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/rulesets/wisteria-court.toml"
    ))
    .unwrap();
    std::fs::write(dir.join("only.toml"), &text).unwrap();
    std::fs::write(dir.join("ignored.txt"), "not a ruleset").unwrap();
    let config = faan::config::ServeArgs {
        rulesets_dir: Some(dir.clone()),
        ..faan::config::ServeArgs::for_tests()
    };
    let app = crate::helpers::spawn_with(config.clone()).await;
    let v = app.get("/v1/rulesets").await.json();
    assert_eq!(v["rulesets"].as_array().unwrap().len(), 1);

    std::fs::write(dir.join("broken.toml"), "id = 3").unwrap();
    let err = faan::startup::Application::build(&config)
        .err()
        .expect("a broken file stops start-up");
    assert!(err.to_string().contains("broken.toml"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The documented 200 example of POST /v1/score is the real answer to the quiet-hand example request.
#[tokio::test]
async fn openapi_response_example_is_the_real_response() {
    let app = spawn_app().await;
    let spec: serde_json::Value = serde_json::from_str(&faan::http::openapi::spec_json()).unwrap();
    let op = &spec["paths"]["/v1/score"]["post"];
    let request = &op["requestBody"]["content"]["application/json"]["examples"]
        ["wisteria_quiet_hand"]["value"];
    let documented = &op["responses"]["200"]["content"]["application/json"]["example"];
    let real = app.post("/v1/score", request).await.json();
    assert_eq!(
        &real, documented,
        "update the 200 example of handlers::score, then `cargo run -- openapi > openapi/openapi.json`"
    );
}

/// `GET /v1/patterns`: the engine's tables, with entries checked against
/// the pattern table's own lines (`core::pattern::PATTERNS`) and the charts.
#[tokio::test]
async fn patterns_table() {
    let app = spawn_app().await;
    let r = app.get("/v1/patterns").await;
    assert_eq!(r.status, 200);
    let v = r.json();
    let patterns = v["patterns"].as_array().unwrap();
    assert_eq!(
        patterns.len(),
        faan::core::pattern::PatternId::ALL.len(),
        "one entry per pattern id"
    );
    assert_eq!(patterns[0]["id"], "chicken_hand", "contract order");
    let find = |id: &str| {
        patterns
            .iter()
            .find(|p| p["id"] == id)
            .unwrap_or_else(|| panic!("{id} listed"))
    };
    let fc = find("fully_concealed");
    assert_eq!(fc["name"], "Fully concealed hand", "fully_concealed name");
    assert_eq!(fc["name_zh"], "門前清自摸", "fully_concealed name_zh");
    assert_eq!(
        fc["contains_when_added"],
        json!(["self_draw", "concealed_hand"]),
        "fully_concealed contains the self-draw and the concealed hand when added (contract order, as a chart's contains)"
    );
    assert_eq!(fc["optional"], true, "fully_concealed is optional");
    let sp = find("seven_pairs");
    assert_eq!(
        sp["conditions"],
        json!(["four_as_two_pairs"]),
        "seven_pairs' switch"
    );
    assert_eq!(
        sp["contains_when_added"],
        json!(["concealed_hand"]),
        "seven_pairs"
    );
    assert_eq!(sp["optional"], false, "seven_pairs is scored by built-ins");
    assert_eq!(
        find("common_hand")["contains_when_added"],
        json!(["all_chows", "self_draw", "no_flowers"]),
        "common_hand, in contract order"
    );
    let cond = v["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["key"] == "four_as_two_pairs")
        .unwrap_or_else(|| panic!("four_as_two_pairs listed: {v}"));
    assert_eq!(
        cond["patterns"],
        json!(["seven_pairs"]),
        "four_as_two_pairs"
    );
    assert_eq!(cond["default"], false, "four_as_two_pairs default");
    let pmv = v["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["key"] == "pair_may_be_value_tile")
        .unwrap();
    assert_eq!(pmv["default"], true, "pair_may_be_value_tile default");

    // Every optional id is off in all eleven built-ins; every other id is
    // scored by at least one of them.
    let list = app.get("/v1/rulesets").await.json();
    let ids: Vec<String> = list["rulesets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 11, "eleven built-in rulesets");
    let mut scored = std::collections::BTreeSet::new();
    for id in &ids {
        let chart = app.get(&format!("/v1/rulesets/{id}")).await.json();
        for p in chart["patterns"].as_array().unwrap() {
            scored.insert(p["id"].as_str().unwrap().to_string());
        }
    }
    let optional: Vec<&str> = patterns
        .iter()
        .filter(|p| p["optional"] == true)
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        optional.len(),
        13,
        "thirteen optional patterns: {optional:?}"
    );
    for p in patterns {
        let id = p["id"].as_str().unwrap();
        assert_eq!(
            p["optional"] == true,
            !scored.contains(id),
            "{id}: optional exactly when no built-in scores it"
        );
    }
}

/// The page's files (loading): compressed when the browser asks,
/// and a reload revalidates to 304 with no body; the favicon is served.
#[tokio::test]
async fn page_files_compress_and_revalidate() {
    use std::io::Read;
    let app = spawn_app().await;
    for path in ["/", "/js/main.js"] {
        let plain = app.get(path).await;
        assert_eq!(plain.status, 200, "{path}");
        assert_eq!(plain.header("content-encoding"), None, "{path} unasked");
        let tag = plain.header("etag").expect("an ETag");

        let gz = app
            .client
            .get(format!("{}{path}", app.base))
            .header("accept-encoding", "gzip")
            .send()
            .await
            .expect("GET gzip");
        assert_eq!(gz.headers()["content-encoding"], "gzip", "{path}");
        let packed = gz.bytes().await.expect("body");
        let mut text = Vec::new();
        flate2::read::GzDecoder::new(&packed[..])
            .read_to_end(&mut text)
            .expect("gunzip");
        assert_eq!(text, plain.bytes, "{path}: gzip decodes to the file");
        assert!(
            packed.len() * 2 < plain.bytes.len(),
            "{path}: {} bytes gzip of {}",
            packed.len(),
            plain.bytes.len()
        );

        let br = app
            .client
            .get(format!("{}{path}", app.base))
            .header("accept-encoding", "br")
            .send()
            .await
            .expect("GET br");
        assert_eq!(br.headers()["content-encoding"], "br", "{path}");

        let again = app
            .client
            .get(format!("{}{path}", app.base))
            .header("if-none-match", &tag)
            .header("accept-encoding", "gzip, br")
            .send()
            .await
            .expect("GET If-None-Match");
        assert_eq!(again.status(), 304, "{path} unchanged");
        assert_eq!(again.headers()["etag"], tag.as_str(), "{path}");
        assert!(
            again.bytes().await.expect("body").is_empty(),
            "{path}: no body"
        );
    }
    let icon = app.get("/favicon.ico").await;
    assert_eq!(icon.status, 200);
    assert_eq!(icon.header("content-type").as_deref(), Some("image/x-icon"));
    assert_eq!(&icon.bytes[..4], &[0, 0, 1, 0], "an ICO header");
}

/// `GET /v1/patterns` says which win a pattern needs and whether it counts
/// bonus tiles, as the context's checks and the recognisers read them: a
/// replacement draw, double kong and the heavenly hand are self-drawn
/// (`replacement_not_self_draw`, `heavenly_not_self_draw`), the earthly
/// and human hands on a discard (`earthly_not_discard`,
/// `first_go_around_not_discard`).
#[tokio::test]
async fn patterns_say_which_win_they_fit() {
    let app = spawn_app().await;
    let v = app.get("/v1/patterns").await.json();
    let patterns = v["patterns"].as_array().unwrap();
    let with = |key: &str, value: Value| -> Vec<String> {
        patterns
            .iter()
            .filter(|p| p[key] == value)
            .map(|p| p["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        with("only_on", json!("self_draw")),
        [
            "self_draw",
            "replacement_tile",
            "double_kong",
            "heavenly_hand",
            "fully_concealed",
            "moon_from_the_bottom",
            "plum_blossom_on_the_roof",
            "double_flower_replacement",
            "kong_flower_replacement",
            "common_hand"
        ],
        "self-drawn only, in contract order"
    );
    assert_eq!(
        with("only_on", json!("discard")),
        ["earthly_hand", "human_hand"],
        "on a discard only"
    );
    assert_eq!(
        with("only_on", json!("robbing_kong")),
        ["robbing_kong"],
        "robbing a kong"
    );
    assert_eq!(
        with("bonus_tiles", json!(true)),
        [
            "no_flowers",
            "seat_flower",
            "flower_set",
            "seven_flowers",
            "eight_flowers",
            "prevailing_flower",
            "double_flower_replacement",
            "kong_flower_replacement"
        ],
        "the patterns that count bonus tiles"
    );
    let all_pungs = patterns.iter().find(|p| p["id"] == "all_pungs").unwrap();
    assert_eq!(all_pungs["only_on"], Value::Null, "all pungs: any win");
    assert_eq!(
        all_pungs["bonus_tiles"], false,
        "all pungs: no flowers counted"
    );
}
