//! Many clients at once: compression bounded in memory, a connection's
//! unread answers and stalled writes, the probes' own listener, and
//! `Expect: 100-continue` against the body limit. One named test per
//! finding; each figure is worked in its comment.

use crate::helpers::{spawn_app, spawn_with, Reply, TestApp};
use faan::config::ServeArgs;
use serde_json::json;
use std::io::Read;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

fn addr(base: &str) -> String {
    base.trim_start_matches("http://").to_string()
}

async fn get_coded(app: &TestApp, path: &str, accept: &str) -> Reply {
    app.send(
        app.client
            .get(format!("{}{path}", app.base))
            .header("accept-encoding", accept),
    )
    .await
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .expect("brotli decodes");
    out
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("gzip decodes");
    out
}

/// A socket that takes few bytes at a time: a 4 KiB receive buffer (and a
/// small send buffer), so the kernel holds little of what the server writes
/// to it or of what it sends.
async fn narrow(addr: &str) -> TcpStream {
    let s = TcpSocket::new_v4().unwrap();
    s.set_recv_buffer_size(4096).unwrap();
    s.set_send_buffer_size(16 * 1024).unwrap();
    s.connect(addr.parse().unwrap()).await.unwrap()
}

/// What a browser sends.
const BROWSER: &str = "gzip, deflate, br";

/// The files served as built come compressed once, from memory: each
/// answer has its own `Content-Length` (a compressor run for the request
/// streams its answer chunked, without one), the same bytes every time,
/// `Vary: Accept-Encoding`, and decodes to the file.
#[tokio::test]
async fn static_files_are_served_compressed_from_memory() {
    let app = spawn_app().await;
    for path in ["/openapi.json", "/docs", "/js/main.js", "/i18n/zh.js", "/"] {
        let plain = app.get(path).await;
        assert_eq!(plain.status, 200, "{path}");
        assert_eq!(plain.header("content-encoding"), None, "{path} unasked");
        assert_eq!(
            plain.header("vary").as_deref(),
            Some("accept-encoding"),
            "{path}"
        );
        let br = get_coded(&app, path, BROWSER).await;
        assert_eq!(
            br.header("content-encoding").as_deref(),
            Some("br"),
            "{path}"
        );
        assert_eq!(
            br.header("vary").as_deref(),
            Some("accept-encoding"),
            "{path}"
        );
        let length: usize = br
            .header("content-length")
            .unwrap_or_else(|| panic!("{path}: no Content-Length: compressed per request"))
            .parse()
            .unwrap();
        assert_eq!(length, br.bytes.len(), "{path}");
        assert_eq!(
            unbrotli(&br.bytes),
            plain.bytes,
            "{path}: brotli decodes to the file"
        );
        let again = get_coded(&app, path, BROWSER).await;
        assert_eq!(again.bytes, br.bytes, "{path}: the same bytes each time");
        let gz = get_coded(&app, path, "gzip").await;
        assert_eq!(
            gz.header("content-encoding").as_deref(),
            Some("gzip"),
            "{path}"
        );
        assert!(
            gz.header("content-length").is_some(),
            "{path}: gzip has a length"
        );
        assert_eq!(
            gunzip(&gz.bytes),
            plain.bytes,
            "{path}: gzip decodes to the file"
        );
        // `br;q=0` refuses brotli: gzip then.
        let refused = get_coded(&app, path, "br;q=0, gzip").await;
        assert_eq!(
            refused.header("content-encoding").as_deref(),
            Some("gzip"),
            "{path}"
        );
    }
}

/// Other answers are compressed as they go, by at most `--max-compressors`
/// at once: past the bound (here 0) an answer goes uncompressed, while the
/// files compressed once still go compressed (they need no compressor).
#[tokio::test]
async fn answers_past_the_compressor_bound_go_uncompressed() {
    let app = spawn_app().await;
    let plain = app.get("/v1/rulesets/hkma").await;
    assert_eq!(plain.status, 200);
    assert!(plain.bytes.len() > 1024, "a chart worth compressing");
    let br = get_coded(&app, "/v1/rulesets/hkma", BROWSER).await;
    assert_eq!(br.header("content-encoding").as_deref(), Some("br"));
    assert_eq!(br.header("vary").as_deref(), Some("accept-encoding"));
    assert_eq!(unbrotli(&br.bytes), plain.bytes);

    let none = spawn_with(ServeArgs {
        max_compressors: 0,
        ..ServeArgs::for_tests()
    })
    .await;
    let r = get_coded(&none, "/v1/rulesets/hkma", BROWSER).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-encoding"), None, "no compressor free");
    assert_eq!(r.header("vary").as_deref(), Some("accept-encoding"));
    assert_eq!(r.bytes, plain.bytes);
    let spec = get_coded(&none, "/openapi.json", BROWSER).await;
    assert_eq!(spec.header("content-encoding").as_deref(), Some("br"));
}

/// A client pipelines 100,000 `GET /healthz` (34 bytes each: 3.4 MB) and
/// reads no answer. The server stops reading once its answers wait: the
/// client gets at most what the kernel buffers hold beside the 2 KiB read
/// ahead and the few answers the server's socket takes (well under 1 MB)
/// into the connection in 3 s, where a server that read on would take all.
/// The answers then come, in order, once the client reads.
#[tokio::test]
async fn pipelined_requests_are_not_read_while_their_answers_wait() {
    let app = spawn_app().await;
    let mut s = narrow(&addr(&app.base)).await;
    let all = b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n".repeat(100_000);
    let mut sent = 0;
    let until = Instant::now() + Duration::from_secs(3);
    while sent < all.len() {
        let left = until.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, s.write(&all[sent..])).await {
            Ok(Ok(n)) if n > 0 => sent += n,
            _ => break,
        }
    }
    assert!(
        sent < 1_000_000,
        "the server took {sent} bytes of requests whose answers nobody read"
    );
    let mut head = [0u8; 17];
    tokio::time::timeout(Duration::from_secs(5), s.read_exact(&mut head))
        .await
        .expect("answers come once read")
        .unwrap();
    assert_eq!(&head, b"HTTP/1.1 200 OK\r\n");
}

/// 12 pipelined `GET /openapi.json` (uncompressed: 12 times the document)
/// on a connection that never reads: with `--write-timeout 1` the server
/// gives up on it after a second, so reading later gets what the kernel
/// had buffered and then the end, well short of the 12 answers.
#[tokio::test]
async fn a_connection_that_takes_no_answer_is_closed_after_the_write_timeout() {
    let app = spawn_with(ServeArgs {
        write_timeout: 1,
        ..ServeArgs::for_tests()
    })
    .await;
    let spec = app.get("/openapi.json").await.bytes.len();
    let mut s = narrow(&addr(&app.base)).await;
    s.write_all(&b"GET /openapi.json HTTP/1.1\r\nHost: t\r\n\r\n".repeat(12))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut got = Vec::new();
    let ended = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut got)).await;
    assert!(ended.is_ok(), "the connection was never closed");
    assert!(
        got.len() < 12 * spec,
        "{} bytes read of 12 answers of {spec}: the stalled connection was kept",
        got.len()
    );
}

/// Two batches' answers do not fit the byte budget: while a client that
/// never reads holds its answer's bytes (1,000 hands answer about 3.5 MB,
/// more than the kernel takes from a client with a 4 KiB window), the next
/// batch is a 503; after the write timeout (1 s) its connection is closed,
/// its bytes come back and the same batch answers 200.
#[tokio::test]
async fn an_unread_answer_gives_back_its_bytes_after_the_write_timeout() {
    let batch = json!({"requests": (0..1000).map(|i| json!({"ruleset": "hkma",
        "hand": {"tiles": "11122233344455m", "winning_tile": "5m"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"},
        "house_rules": {"min_faan": i % 5}})).collect::<Vec<_>>()});
    let body = serde_json::to_vec(&batch).unwrap();
    // The answer's size, from a server with room for it.
    let probe = spawn_app().await;
    let size = probe.post("/v1/score/batch", &batch).await.bytes.len();
    assert!(size > 3_000_000, "{size} bytes answer");
    // Room for one answer and one body being read, not for two answers.
    let app = spawn_with(ServeArgs {
        write_timeout: 1,
        max_buffered_bytes: size + body.len() + 4096,
        ..ServeArgs::for_tests()
    })
    .await;
    let mut stalled = narrow(&addr(&app.base)).await;
    stalled
        .write_all(
            format!(
                "POST /v1/score/batch HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                body.len()
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    stalled.write_all(&body).await.unwrap();
    // Its answer is worked out and held (the batch takes milliseconds).
    tokio::time::sleep(Duration::from_millis(700)).await;
    let held = app.post("/v1/score/batch", &batch).await;
    assert_eq!(held.status, 503, "the stalled answer holds the budget");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let after = app.post("/v1/score/batch", &batch).await;
    assert_eq!(after.status, 200, "{}", after.text());
    drop(stalled);
}

/// The probes have a listener of their own: with the API's connections
/// all taken (one worker, `--max-connections 2`, four idle clients), the
/// API address answers no probe, and the admin address answers each of
/// `/healthz`, `/readyz` and `/metrics` within 250 ms, and nothing else.
#[tokio::test]
async fn probes_answer_on_their_own_address_past_the_connection_limit() {
    let app = spawn_with(ServeArgs {
        admin_addr: "127.0.0.1:0".into(),
        max_connections: 2,
        ..ServeArgs::for_tests()
    })
    .await;
    let admin = app.admin.clone().expect("an admin listener");
    let healthy = app.get("/healthz").await;
    assert_eq!(healthy.status, 200, "the API address answers probes too");
    let mut idle = Vec::new();
    for _ in 0..4 {
        idle.push(TcpStream::connect(addr(&app.base)).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // A client of its own: the test's has a connection to the API already.
    let api = tokio::time::timeout(
        Duration::from_millis(500),
        reqwest::Client::new()
            .get(format!("{}/healthz", app.base))
            .send(),
    )
    .await;
    assert!(
        !matches!(api, Ok(Ok(_))),
        "the API's connections are all taken"
    );
    for path in ["/healthz", "/readyz", "/metrics"] {
        let t = Instant::now();
        let r = app
            .client
            .get(format!("{admin}{path}"))
            .send()
            .await
            .expect("the admin address answers");
        let ms = t.elapsed().as_millis();
        assert_eq!(r.status(), 200, "{path}");
        assert!(ms < 250, "{path} took {ms} ms");
    }
    let other = app
        .client
        .get(format!("{admin}/v1/rulesets"))
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 404, "only the probes");
    drop(idle);
}

/// Reads an answer's head (to the blank line), or what came in 5 s.
async fn head_of(s: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let until = Instant::now() + Duration::from_secs(5);
    while !got.windows(4).any(|w| w == b"\r\n\r\n") {
        let left = until.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, s.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => got.extend_from_slice(&buf[..n]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

/// `Expect: 100-continue` with a `Content-Length` over the path's limit
/// (70,000 bytes against 64 KiB for `/v1/score`; 5,000,000 against 4 MiB
/// for `/v1/ledger`) is answered 413 at once, never `100 Continue`, so the
/// client sends no body; within the limit it gets its `100 Continue`.
#[tokio::test]
async fn a_content_length_over_the_limit_gets_413_without_100_continue() {
    let app = spawn_app().await;
    for (path, length, limit) in [
        ("/v1/score", 70_000, 64 * 1024),
        ("/v1/ledger", 5_000_000, 4 * 1024 * 1024),
    ] {
        let mut s = TcpStream::connect(addr(&app.base)).await.unwrap();
        s.write_all(format!("POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {length}\r\nExpect: 100-continue\r\n\r\n").as_bytes())
            .await
            .unwrap();
        let head = head_of(&mut s).await;
        assert!(head.starts_with("HTTP/1.1 413"), "{path}: {head}");
        assert!(head.contains("application/problem+json"), "{path}: {head}");
        let mut rest = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut rest)).await;
        let text = head.clone() + &String::from_utf8_lossy(&rest);
        assert!(
            text.contains("/problems/payload-too-large"),
            "{path}: {text}"
        );
        assert!(
            text.contains(&limit.to_string()),
            "{path} names its limit: {text}"
        );
    }
    let body = br#"{"ruleset": "hkma"}"#;
    let mut s = TcpStream::connect(addr(&app.base)).await.unwrap();
    s.write_all(format!("POST /v1/score HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\r\n", body.len()).as_bytes())
        .await
        .unwrap();
    let head = head_of(&mut s).await;
    assert!(head.starts_with("HTTP/1.1 100 Continue"), "{head}");
}
