//! The HTTP layer's bounds: a coded body is a 415, the bytes held
//! across connections and the blocking pool's queue answer 503 with
//! `Retry-After`, and what actix answers itself before the app runs.

use crate::helpers::spawn_with;
use faan::config::ServeArgs;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn score_body() -> Vec<u8> {
    serde_json::to_vec(&json!({"ruleset": "wisteria-court",
        "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}}))
    .unwrap()
}

/// A ledger of `n` hands, each a win of the bench's night.
fn ledger(n: usize) -> Value {
    let win = json!({"result": "win", "winners": [{"player": "Ann",
        "hand": {"tiles": "77755p", "winning_tile": "5p", "melds": [{"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999s"}, {"kind": "pung", "tiles": "222p"}]},
        "context": {"win_by": "discard", "discarder": "Ben"}}]});
    json!({"ruleset": "hkma", "players": ["Ann", "Ben", "Cat", "Dan"], "hands": vec![win; n]})
}

/// Writes `bytes` on a new connection and reads until the server closes it
/// (or 5 s pass).
async fn raw(addr: &str, bytes: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    // The server may close before all is written (a head too large).
    let _ = s.write_all(bytes).await;
    let mut got = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut got)).await;
    String::from_utf8_lossy(&got).into_owned()
}

fn addr(base: &str) -> String {
    base.trim_start_matches("http://").to_string()
}

/// A gzip body is refused as such (a 415), not read as raw JSON, which
/// would make it a 400 for malformed JSON and hide the cause.
#[tokio::test]
async fn a_gzip_body_is_a_415_problem() {
    let app = spawn_with(ServeArgs::for_tests()).await;
    // The gzip magic bytes: what the body would start with.
    let mut body = vec![0x1f, 0x8b, 0x08, 0x00];
    body.extend_from_slice(&score_body());
    for coding in ["gzip", "br", "identity, gzip"] {
        let r = app
            .send(
                app.client
                    .post(format!("{}/v1/score", app.base))
                    .header("content-type", "application/json")
                    .header("content-encoding", coding)
                    .body(body.clone()),
            )
            .await;
        assert_eq!(r.status, 415, "{coding}: {}", r.text());
        assert_eq!(
            r.header("content-type").as_deref(),
            Some("application/problem+json")
        );
        assert_eq!(r.header("accept-encoding").as_deref(), Some("identity"));
        let p = r.json();
        assert_eq!(p["type"], "/problems/unsupported-content-encoding", "{p}");
        assert_eq!(p["status"], 415);
    }
    // `identity` is no coding at all: the body is read.
    let r = app
        .send(
            app.client
                .post(format!("{}/v1/score", app.base))
                .header("content-type", "application/json")
                .header("content-encoding", "identity")
                .body(score_body()),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
}

/// Stalled bodies hold their bytes against the shared budget: past it a new
/// body is a 503 `/problems/overloaded` with `Retry-After`, and the bytes
/// come back when the stalled connection goes.
#[tokio::test]
async fn bodies_past_the_buffered_bytes_cap_are_503() {
    let app = spawn_with(ServeArgs {
        max_buffered_bytes: 100_000,
        ..ServeArgs::for_tests()
    })
    .await;
    let at = addr(&app.base);
    // Declares 80,000 bytes, sends 10 and stalls: 80,000 held.
    let mut stalled = TcpStream::connect(&at).await.unwrap();
    stalled
        .write_all(b"POST /v1/ledger HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 80000\r\n\r\n{\"ruleset\"")
        .await
        .unwrap();
    // Another 80,000 does not fit (the stalled one's handler may take a moment to start).
    let second = || async {
        app.send(
            app.client
                .post(format!("{}/v1/ledger", app.base))
                .header("content-type", "application/json")
                .header("content-length", "80000")
                .body(vec![b' '; 80_000]),
        )
        .await
    };
    let mut r = second().await;
    for _ in 0..50 {
        if r.status == 503 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        r = second().await;
    }
    assert_eq!(r.status, 503, "{}", r.text());
    assert_eq!(r.header("retry-after").as_deref(), Some("1"));
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json")
    );
    let p = r.json();
    assert_eq!(p["type"], "/problems/overloaded", "{p}");
    assert_eq!(p["status"], 503);
    // A small body still fits beside the stalled one.
    let r = app
        .post_raw("/v1/score", score_body(), Some("application/json"))
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    // The stalled connection goes: its bytes are free again (the second body is
    // 80,000 spaces, not JSON: a 400 once read).
    drop(stalled);
    let mut r = second().await;
    for _ in 0..50 {
        if r.status != 503 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        r = second().await;
    }
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(app.get("/healthz").await.status, 200);
}

/// An answer larger than the whole budget is a 503, not a body the server
/// cannot afford.
#[tokio::test]
async fn an_answer_past_the_buffered_bytes_cap_is_503() {
    let app = spawn_with(ServeArgs {
        max_buffered_bytes: 50_000,
        ..ServeArgs::for_tests()
    })
    .await;
    // 300 hands: a body of about 90 KB would not fit either, so 100 hands
    // (30 KB) with an answer of about 150 KB.
    let r = app.post("/v1/ledger", &ledger(100)).await;
    assert_eq!(r.status, 503, "{}", &r.text()[..r.text().len().min(300)]);
    assert_eq!(r.header("retry-after").as_deref(), Some("1"));
    assert_eq!(r.json()["type"], "/problems/overloaded");
    // A small answer goes through.
    let r = app.post("/v1/ledger", &ledger(1)).await;
    assert_eq!(r.status, 200, "{}", r.text());
}

/// One blocking thread and no queue: of many ledgers at once, those that
/// find the thread busy are 503 with `Retry-After`, the others answered;
/// `/healthz` answers throughout (it never waits for the pool).
#[tokio::test]
async fn heavy_requests_past_the_blocking_queue_are_503() {
    let app = spawn_with(ServeArgs {
        blocking_threads: Some(1),
        blocking_queue: 0,
        ..ServeArgs::for_tests()
    })
    .await;
    let body = serde_json::to_vec(&ledger(2000)).unwrap();
    let sends = (0..12).map(|_| app.post_raw("/v1/ledger", body.clone(), Some("application/json")));
    let replies = futures_util::future::join_all(sends).await;
    let mut ok = 0;
    let mut busy = 0;
    for r in &replies {
        match r.status {
            200 => ok += 1,
            503 => {
                busy += 1;
                assert_eq!(r.header("retry-after").as_deref(), Some("1"));
                let p = r.json();
                assert_eq!(p["type"], "/problems/overloaded", "{p}");
                assert!(p["detail"].as_str().unwrap().contains("waiting"), "{p}");
            }
            s => panic!("status {s}: {}", r.text()),
        }
    }
    assert!(ok >= 1, "{ok} answered, {busy} busy");
    assert!(busy >= 1, "{ok} answered, {busy} busy");
    assert_eq!(app.get("/healthz").await.status, 200);
}

/// What actix-http answers itself, before any of the app's code runs (no
/// hook lets the app write these bodies; README, "Limits"): the statuses are
/// pinned here so a change of actix is noticed.
#[tokio::test]
async fn low_level_http_errors_answer_as_actix_does() {
    let app = spawn_with(ServeArgs::for_tests()).await;
    let at = addr(&app.base);
    let status = |text: &str| text.get(..12).unwrap_or(text).to_string();
    let empty = |text: &str| text.contains("content-length: 0\r\n") && text.ends_with("\r\n\r\n");

    // A URI of 70,000 bytes: over the 65,534 the `http` crate takes, a bare 400.
    let long = format!("GET /{} HTTP/1.1\r\nHost: t\r\n\r\n", "a".repeat(70_000));
    let t = raw(&at, long.as_bytes()).await;
    assert_eq!(status(&t), "HTTP/1.1 400", "{t:.200}");
    assert!(empty(&t), "{t:.300}");

    // A head past 128 KiB (a longer URI, or large headers): a bare 431, never a 414.
    let huge = format!("GET /{} HTTP/1.1\r\nHost: t\r\n\r\n", "a".repeat(140_000));
    let t = raw(&at, huge.as_bytes()).await;
    assert_eq!(status(&t), "HTTP/1.1 431", "{t:.200}");
    let big = format!(
        "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: {}\r\n\r\n",
        "b".repeat(140_000)
    );
    let t = raw(&at, big.as_bytes()).await;
    assert_eq!(status(&t), "HTTP/1.1 431", "{t:.200}");

    // More than 96 headers: a bare 431.
    let many: String = (0..100).map(|i| format!("X-H{i}: v\r\n")).collect();
    let t = raw(
        &at,
        format!("GET /healthz HTTP/1.1\r\nHost: t\r\n{many}\r\n").as_bytes(),
    )
    .await;
    assert_eq!(status(&t), "HTTP/1.1 431", "{t:.200}");

    // Content-Length beside chunked: a bare 400 (request smuggling refused).
    let t = raw(&at, b"POST /v1/score HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").await;
    assert_eq!(status(&t), "HTTP/1.1 400", "{t:.200}");
    assert!(empty(&t), "{t:.300}");

    // Two different Content-Lengths: a bare 400.
    let t = raw(&at, b"POST /v1/score HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}").await;
    assert_eq!(status(&t), "HTTP/1.1 400", "{t:.200}");
    assert!(empty(&t), "{t:.300}");

    // A Content-Length that is not a number: a bare 400.
    let t = raw(&at, b"POST /v1/score HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}").await;
    assert_eq!(status(&t), "HTTP/1.1 400", "{t:.200}");
    assert!(empty(&t), "{t:.300}");

    assert_eq!(app.get("/healthz").await.status, 200);

    // Headers not complete within the client request timeout: a bare 408.
    let app = spawn_with(ServeArgs {
        client_request_timeout_ms: 200,
        ..ServeArgs::for_tests()
    })
    .await;
    let t = raw(
        &addr(&app.base),
        b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: ",
    )
    .await;
    assert_eq!(status(&t), "HTTP/1.1 408", "{t:.200}");
    assert!(empty(&t), "{t:.300}");
}
