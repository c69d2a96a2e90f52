//! `/metrics`: a bounded number of series whatever clients send, and an
//! exposition `promtool` accepts.

use crate::helpers::{spawn_app, TestApp};
use serde_json::json;
use std::process::{Command, Stdio};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The series of an exposition: every sample line.
fn series(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// The value of one series, named exactly (labels included).
fn value(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// One HTTP/1.1 connection for hand-written requests (methods reqwest would not send).
struct Raw {
    addr: String,
    stream: Option<TcpStream>,
}

impl Raw {
    fn new(app: &TestApp) -> Raw {
        Raw {
            addr: app.base.trim_start_matches("http://").to_string(),
            stream: None,
        }
    }

    /// Sends `method path` and returns the status; reconnects if the server closed the connection.
    async fn status(&mut self, method: &str, path: &str) -> u16 {
        let req = format!("{method} {path} HTTP/1.1\r\nHost: t\r\n\r\n");
        for _ in 0..2 {
            if self.stream.is_none() {
                self.stream = Some(TcpStream::connect(&self.addr).await.expect("connect"));
            }
            let s = self.stream.as_mut().unwrap();
            if s.write_all(req.as_bytes()).await.is_err() {
                self.stream = None;
                continue;
            }
            match read_response(s).await {
                Some((status, close)) => {
                    if close {
                        self.stream = None;
                    }
                    return status;
                }
                None => self.stream = None,
            }
        }
        panic!("no answer to {method} {path}");
    }
}

/// Reads one response: its status and whether the server closes the connection.
async fn read_response(s: &mut TcpStream) -> Option<(u16, bool)> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = s.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_ascii_lowercase();
    let status = head.get(9..12)?.parse().ok()?;
    let len: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let close = head.contains("connection: close");
    while buf.len() < head_end + len {
        let n = s.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Some((status, close))
}

/// Every method token must not become a label value:
/// thousands of made-up methods and unknown paths leave the number of series
/// as it was, and are counted under `other` and `unmatched`.
#[tokio::test]
async fn made_up_methods_and_paths_add_no_series() {
    let app = spawn_app().await;
    let mut raw = Raw::new(&app);
    // Warm-up: one of each kind, and a scrape (a scrape counts itself once done).
    assert_eq!(
        raw.status("M0X", "/healthz").await,
        405,
        "made-up method on a route"
    );
    assert_eq!(raw.status("GET", "/nowhere/0").await, 404, "unknown path");
    assert_eq!(
        raw.status("M0Y", "/nowhere/0").await,
        404,
        "made-up method, unknown path"
    );
    app.get("/metrics").await;
    let before = app.get("/metrics").await.text();
    // Requests: 4 label sets ({/healthz, other, 405}, {unmatched, GET, 404},
    // {unmatched, other, 404}, {/metrics, GET, 200}); latency: 3 routes, each
    // 12 buckets, +Inf, sum and count; the cache: 4 series; dropped log lines: 1.
    let expected = 4 + 3 * (12 + 3) + 4 + 1;
    assert_eq!(
        series(&before).len(),
        expected,
        "series after warm-up:\n{before}"
    );

    const N: usize = 2000;
    for i in 1..=N {
        assert_eq!(
            raw.status(&format!("M{i}X{}", i * 7), "/healthz").await,
            405
        );
        assert_eq!(
            raw.status(&format!("Q{i}Z"), &format!("/nowhere/{i}"))
                .await,
            404
        );
        assert_eq!(raw.status("GET", &format!("/x{i}/y")).await, 404);
    }
    let after = app.get("/metrics").await.text();
    assert_eq!(
        series(&after).len(),
        expected,
        "series after {} requests with made-up methods and paths",
        3 * N
    );
    for (name, more) in [
        (
            r#"faan_http_requests_total{route="/healthz",method="other",status="405"}"#,
            N,
        ),
        (
            r#"faan_http_requests_total{route="unmatched",method="other",status="404"}"#,
            N,
        ),
        (
            r#"faan_http_requests_total{route="unmatched",method="GET",status="404"}"#,
            N,
        ),
        (
            r#"faan_http_request_duration_seconds_count{route="unmatched"}"#,
            2 * N,
        ),
    ] {
        assert_eq!(
            value(&after, name),
            value(&before, name) + more as u64,
            "{name}"
        );
    }
    assert!(
        !after.contains("M1X7") && !after.contains("/nowhere/1"),
        "no client text in labels"
    );
}

/// A real scrape after one request of each kind: what both tests below read.
async fn scrape_after_each_kind() -> String {
    let app = spawn_app().await;
    let req = json!({"ruleset": "wisteria-court",
        "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}});
    assert_eq!(app.post("/v1/score", &req).await.status, 200, "miss");
    assert_eq!(app.post("/v1/score", &req).await.status, 200, "hit");
    assert_eq!(app.get("/nowhere").await.status, 404);
    assert_eq!(app.get("/v1/rulesets/hkma").await.status, 200);
    assert_eq!(app.get("/v1/rulesets/schema").await.status, 200);
    assert_eq!(app.get("/v1/patterns").await.status, 200);
    let validate = json!({"ruleset": {"extends": "hkma", "id": "mine"}});
    assert_eq!(
        app.post("/v1/rulesets/validate", &validate).await.status,
        200
    );
    let mut raw = Raw::new(&app);
    assert_eq!(raw.status("BREW", "/v1/score").await, 405);
    app.get("/metrics").await;
    let text = app.get("/metrics").await.text();
    text
}

/// The scrape names each route by its pattern, the new endpoints included.
#[tokio::test]
async fn the_exposition_names_each_route_by_its_pattern() {
    let text = scrape_after_each_kind().await;
    assert!(text.contains(r#"route="/v1/rulesets/{id}""#), "{text}");
    // The new endpoints have routes of their own (not taken for an `{id}`).
    assert!(
        text.contains(
            r#"faan_http_requests_total{route="/v1/rulesets/schema",method="GET",status="200"} 1"#
        ),
        "{text}"
    );
    assert!(text.contains(r#"faan_http_requests_total{route="/v1/rulesets/validate",method="POST",status="200"} 1"#), "{text}");
    assert!(
        text.contains(
            r#"faan_http_requests_total{route="/v1/patterns",method="GET",status="200"} 1"#
        ),
        "{text}"
    );
}

/// `promtool check metrics` accepts a real scrape (Debian package `prometheus`).
#[tokio::test]
#[ignore = "needs promtool (apt-get install prometheus)"]
async fn promtool_accepts_the_exposition() {
    let text = scrape_after_each_kind().await;
    let mut child = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("promtool is missing ({e}): apt-get install prometheus (.ci/run does)")
        });
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "promtool check metrics: {report}\n{text}"
    );
    assert_eq!(report.trim(), "", "promtool has no lint findings");
}
