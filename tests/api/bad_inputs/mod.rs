//! The bad-input catalogue: malformed and hostile requests, each answered
//! quickly with the right status, problem type and JSON pointer, and the
//! server still healthy afterwards.

mod fields;
mod framing;
mod rulesets;

use crate::helpers::spawn_app;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn good() -> Value {
    json!({"ruleset": "wisteria-court",
        "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}})
}

/// `good()` with the value at `path` replaced.
fn with(path: &[&str], value: Value) -> Vec<u8> {
    let mut v = good();
    let mut at = &mut v;
    for p in &path[..path.len() - 1] {
        at = &mut at[*p];
    }
    at[path[path.len() - 1]] = value;
    serde_json::to_vec(&v).unwrap()
}

/// `good()` without the field at `path`.
fn without(path: &[&str]) -> Vec<u8> {
    let mut v = good();
    let mut at = &mut v;
    for p in &path[..path.len() - 1] {
        at = &mut at[*p];
    }
    at.as_object_mut().unwrap().remove(path[path.len() - 1]);
    serde_json::to_vec(&v).unwrap()
}

fn bytes(v: Value) -> Vec<u8> {
    serde_json::to_vec(&v).unwrap()
}

fn nested(open: &str, close: &str, n: usize) -> Vec<u8> {
    format!("{}{}", open.repeat(n), close.repeat(n)).into_bytes()
}

struct Case {
    name: &'static str,
    path: &'static str,
    body: Vec<u8>,
    content_type: Option<&'static str>,
    status: u16,
    ty: &'static str,
    pointer: Option<&'static str>,
}

const JSON: Option<&str> = Some("application/json");
const MALFORMED: &str = "/problems/malformed-json";
const INVALID: &str = "/problems/invalid-request";

fn case(
    name: &'static str,
    path: &'static str,
    body: Vec<u8>,
    status: u16,
    ty: &'static str,
    pointer: Option<&'static str>,
) -> Case {
    Case {
        name,
        path,
        body,
        content_type: JSON,
        status,
        ty,
        pointer,
    }
}

fn catalogue() -> Vec<Case> {
    let mut all = framing::cases();
    all.extend(fields::cases());
    all.extend(rulesets::cases());
    all
}

fn case_ct(
    name: &'static str,
    path: &'static str,
    body: Vec<u8>,
    content_type: Option<&'static str>,
    status: u16,
    ty: &'static str,
) -> Case {
    Case {
        name,
        path,
        body,
        content_type,
        status,
        ty,
        pointer: None,
    }
}

/// The request as text for assert messages (long bodies shortened).
fn shown(c: &Case) -> String {
    let text = String::from_utf8_lossy(&c.body);
    let short: String = text.chars().take(160).collect();
    format!(
        "[{}] POST {} ({:?}, {} bytes): {short}{}",
        c.name,
        c.path,
        c.content_type,
        c.body.len(),
        if text.chars().count() > 160 {
            "…"
        } else {
            ""
        }
    )
}

#[tokio::test]
async fn bad_inputs_get_precise_problems() {
    let app = spawn_app().await;
    let cases = catalogue();
    assert!(cases.len() >= 40, "catalogue has {} cases", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let input = shown(c);
        let r = app.post_raw(c.path, c.body.clone(), c.content_type).await;
        let v: Value = serde_json::from_slice(&r.bytes).unwrap_or(Value::Null);
        let mut wrong = Vec::new();
        if r.status != c.status {
            wrong.push(format!("status {} (want {})", r.status, c.status));
        }
        if r.header("content-type").as_deref() != Some("application/problem+json") {
            wrong.push(format!("content type {:?}", r.header("content-type")));
        }
        if v["type"] != c.ty {
            wrong.push(format!("type {} (want {})", v["type"], c.ty));
        }
        if v["status"] != c.status {
            wrong.push(format!("problem status {}", v["status"]));
        }
        match (v["errors"].as_array(), c.pointer) {
            (None, _) => wrong.push("no errors list".into()),
            (Some(errors), Some(p)) if !errors.iter().any(|e| e["pointer"] == p) => {
                wrong.push(format!("no pointer {p}"))
            }
            _ => {}
        }
        if !wrong.is_empty() {
            failures.push(format!(
                "{input}\n    {}\n    answer: {}",
                wrong.join("; "),
                r.text()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases wrong:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    let r = app.get("/healthz").await;
    assert_eq!(r.status, 200, "the server is still up after the catalogue");
    // And it still scores.
    let r = app.post("/v1/score", &good()).await;
    assert_eq!(r.status, 200, "{}", r.text());
}

/// With a depth limit above serde_json's own (128), deep nesting still ends
/// in a 400 or 422 problem, not a stack overflow.
#[tokio::test]
async fn serde_recursion_limit_still_answers_400() {
    let app = crate::helpers::spawn_with(faan::config::ServeArgs {
        json_depth_limit: 1_000_000,
        ..faan::config::ServeArgs::for_tests()
    })
    .await;
    for (path, body) in [
        ("/v1/score", nested("[", "]", 30_000)),
        ("/v1/score/batch", nested("[", "]", 100_000)),
        (
            "/v1/score/batch",
            [
                b"{\"requests\": [".to_vec(),
                "[".repeat(200_000).into_bytes(),
                "]".repeat(200_000).into_bytes(),
                b"]}".to_vec(),
            ]
            .concat(),
        ),
        (
            "/v1/compare",
            [b"{\"rulesets\": ".to_vec(), nested("{\"a\":", "}", 50_000)].concat(),
        ),
    ] {
        let r = app
            .post_raw(path, body.clone(), Some("application/json"))
            .await;
        // A batch whose item is deep: the batch is well formed, so the item
        // gets its problem in place (an array where a request belongs).
        if r.status == 200 && path == "/v1/score/batch" {
            let results = r.json()["results"].clone();
            assert_eq!(
                results.as_array().map(Vec::len),
                Some(1),
                "{path}: {results}"
            );
            let item = results[0].clone();
            assert!(
                item["status"] == 400 || item["status"] == 422,
                "{path} ({} bytes): item {item}",
                body.len()
            );
            continue;
        }
        // 400 from serde_json's recursion limit, or 422 where the typed
        // parse stops first (an array where a string belongs): a problem either way.
        assert!(
            r.status == 400 || r.status == 422,
            "{path} ({} bytes): {} {}",
            body.len(),
            r.status,
            r.text()
        );
        assert_eq!(
            r.header("content-type").as_deref(),
            Some("application/problem+json"),
            "{path}"
        );
    }
    assert_eq!(app.get("/healthz").await.status, 200);
}

/// Pipelined requests (sent in one write, answered in turn) are read whole,
/// and a pipelined body that stalls still gets its 408: it is read after the
/// request before it, not when its head arrives, and the body timer
/// (`http::body::read_json_body`) runs from when its handler first waits.
#[tokio::test]
async fn pipelined_bodies_are_read_and_a_stalled_one_times_out() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = crate::helpers::spawn_with(faan::config::ServeArgs {
        body_timeout_ms: 300,
        ..faan::config::ServeArgs::for_tests()
    })
    .await;
    let addr = app.base.trim_start_matches("http://").to_string();
    let body = r#"{"ruleset":"wisteria-court","hand":{"tiles":"123456m789p23455s","winning_tile":"9p"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}"#;
    let request = |close: bool| {
        format!(
            "POST /v1/score HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{}\r\n{body}",
            body.len(),
            if close { "Connection: close\r\n" } else { "" }
        )
    };
    let read_all = |mut s: tokio::net::TcpStream| async move {
        let mut got = Vec::new();
        tokio::time::timeout(Duration::from_secs(6), s.read_to_end(&mut got))
            .await
            .expect("the server answers and closes")
            .ok();
        String::from_utf8_lossy(&got).into_owned()
    };

    // Three whole requests in one write.
    let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let three = format!("{}{}{}", request(false), request(false), request(true));
    s.write_all(three.as_bytes()).await.unwrap();
    let text = read_all(s).await;
    assert_eq!(text.matches("HTTP/1.1 200 OK").count(), 3, "{text}");
    assert_eq!(
        text.matches("\"payments\":{\"east\":-32,").count(),
        3,
        "{text}"
    );

    // A whole request, then one whose body stops after 20 bytes.
    let started = Instant::now();
    let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let stalled = request(true);
    let cut = stalled.len() - body.len() + 20;
    let two = format!("{}{}", request(false), &stalled[..cut]);
    s.write_all(two.as_bytes()).await.unwrap();
    let text = read_all(s).await;
    assert!(text.starts_with("HTTP/1.1 200 OK"), "first: {text}");
    assert_eq!(
        text.matches("HTTP/1.1 408").count(),
        1,
        "stalled second: {text}"
    );
    assert!(text.contains("/problems/request-timeout"), "{text}");
    // Body timeout (0.3 s) after one to two ticks of 1 s.
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "answered after {:?}",
        started.elapsed()
    );
    assert_eq!(app.get("/healthz").await.status, 200);
}

/// Slow clients are cut off: headers that never finish (slowloris) get a
/// 408 and a closed connection; a body that stalls gets a 408 problem.
#[tokio::test]
async fn slow_clients_get_408() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = crate::helpers::spawn_with(faan::config::ServeArgs {
        client_request_timeout_ms: 300,
        body_timeout_ms: 300,
        ..faan::config::ServeArgs::for_tests()
    })
    .await;
    let addr = app.base.trim_start_matches("http://").to_string();

    // Headers that never end.
    let started = Instant::now();
    let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
    s.write_all(b"POST /v1/score HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        .await
        .unwrap();
    let mut got = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut got))
        .await
        .expect("the server closes a slowloris connection")
        .ok();
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 408"), "slow headers: {text:?}");
    assert!(started.elapsed() < Duration::from_secs(3));

    // A body that stalls halfway.
    let app = crate::helpers::spawn_with(faan::config::ServeArgs {
        client_request_timeout_ms: 5000,
        body_timeout_ms: 300,
        ..faan::config::ServeArgs::for_tests()
    })
    .await;
    let addr = app.base.trim_start_matches("http://").to_string();
    let started = Instant::now();
    let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
    s.write_all(
        b"POST /v1/score HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{\"ruleset\":",
    )
    .await
    .unwrap();
    let mut got = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut got))
        .await
        .expect("the server answers a stalled body")
        .ok();
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 408"), "stalled body: {text:?}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "stalled body answered in time"
    );
    assert!(
        text.contains("/problems/request-timeout") && text.contains("application/problem+json"),
        "stalled body: {text:?}"
    );
    assert_eq!(app.get("/healthz").await.status, 200);
}
