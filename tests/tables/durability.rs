//! A 2xx that says stored means committed: the server is killed (SIGKILL)
//! while a client appends as fast as it can, then restarted on the same
//! store; every acknowledged hand is there exactly once.

use super::support::sqlite_url;
use serde_json::{json, Value};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub struct Server {
    child: Child,
    pub base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The port in the `listening` line a server wrote to its log from `from`.
fn listening_port(log: &std::path::Path, from: u64) -> Option<u16> {
    let text = std::fs::read(log).ok()?;
    let text = String::from_utf8_lossy(text.get(from as usize..)?).into_owned();
    let line = text
        .lines()
        .find(|l| l.contains("faan::startup: listening"))?;
    let rest = &line[line.find(" port=")? + 6..];
    rest.split(' ').next()?.parse().ok()
}

/// The log written from `from`, for a failure's message.
fn log_since(log: &std::path::Path, from: u64) -> String {
    let text = std::fs::read(log).unwrap_or_default();
    String::from_utf8_lossy(text.get(from as usize..).unwrap_or_default()).into_owned()
}

/// The binary on `store`, logging to `log` (appended), once it answers.
/// It binds a port of the kernel's choosing and the port is read from its
/// own log: a port picked here and freed before the child binds it could
/// be taken meanwhile by another test's server, whose answers would then
/// pass for this one's.
pub async fn start(store: &str, log: &std::path::Path) -> Server {
    let from = std::fs::metadata(log).map_or(0, |m| m.len());
    let out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_faan"))
        .args([
            "--addr",
            "127.0.0.1:0",
            "--admin-addr",
            "none",
            "--workers",
            "1",
        ])
        .args(["--store", store])
        .stdout(Stdio::null())
        .stderr(out)
        .spawn()
        .unwrap();
    let mut server = Server {
        child,
        base: String::new(),
    };
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if let Ok(Some(status)) = server.child.try_wait() {
            panic!(
                "the server exited ({status}) before it was ready:\n{}",
                log_since(log, from)
            );
        }
        if server.base.is_empty() {
            if let Some(port) = listening_port(log, from) {
                server.base = format!("http://127.0.0.1:{port}");
            }
        } else if let Ok(r) = client.get(format!("{}/readyz", server.base)).send().await {
            if r.status().as_u16() == 200 {
                return server;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "the server did not become ready within 30 s:\n{}",
        log_since(log, from)
    );
}

/// Seconds to wait after a 503, from its `Retry-After` (1 if none).
fn retry_after(r: &reqwest::Response) -> u64 {
    r.headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

/// A table as a client reads it: a 503 is retried after its `Retry-After`
/// until 30 s have passed; any other answer than a 200 (a 404 above all:
/// the table lost) fails with its status and body.
pub async fn read_table(client: &reqwest::Client, base: &str, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let r = client
            .get(format!("{base}/v1/tables/{id}"))
            .send()
            .await
            .unwrap_or_else(|e| panic!("GET /v1/tables/{id}: {e}"));
        let status = r.status().as_u16();
        let wait = retry_after(&r);
        let body = r.text().await.unwrap_or_default();
        match status {
            200 => {
                return serde_json::from_str(&body)
                    .unwrap_or_else(|e| panic!("GET /v1/tables/{id}: 200, not JSON ({e}): {body}"))
            }
            503 if Instant::now() + Duration::from_secs(wait) < deadline => {
                tokio::time::sleep(Duration::from_secs(wait)).await;
            }
            _ => panic!("GET /v1/tables/{id} answered {status}: {body}"),
        }
    }
}

/// How many hands a table holds, or a failure that shows the table.
pub fn hands_of(t: &Value) -> i64 {
    t["request"]["hands"]
        .as_array()
        .unwrap_or_else(|| panic!("a table without request.hands: {t}"))
        .len() as i64
}

/// A pseudo-random number from the clock (no generator needed for this).
fn jitter(n: u64) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    nanos.wrapping_mul(6364136223846793005) % n
}

/// Dan's false win: Dan pays 48 to each of the three (-144).
fn false_win() -> Value {
    json!({"result": "false_win", "offender": "Dan"})
}

/// `rounds` times: start, append until killed at a random moment, restart
/// and check. Returns the key (for the log check) and the log's path.
pub async fn kill_rounds(store: &str, name: &str, rounds: usize) -> (String, std::path::PathBuf) {
    let log = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.log"));
    let _ = std::fs::remove_file(&log);
    let client = reqwest::Client::new();
    let server = start(store, &log).await;
    let r = client
        .post(format!("{}/v1/tables", server.base))
        .header("content-type", "application/json")
        .body(super::support::night(vec![]).to_string())
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let body = r.text().await.unwrap();
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let key = created["key"].as_str().unwrap().to_string();
    let mut server = Some(server);
    // Hands acknowledged so far, over every round.
    let acked = Arc::new(AtomicI64::new(0));
    for round in 0..rounds {
        let s = match server.take() {
            Some(s) => s,
            None => start(store, &log).await,
        };
        // Where the table is now: every acknowledged hand exactly once, and
        // at most one more (committed, its answer lost to the kill).
        let t = read_table(&client, &s.base, &id).await;
        let hands = hands_of(&t);
        let a = acked.load(Ordering::SeqCst);
        assert!(
            hands == a || hands == a + 1,
            "round {round}: {a} hands acknowledged, {hands} stored: {t}"
        );
        assert_eq!(t["version"], 1 + hands, "one version per hand: {t}");
        assert_eq!(t["ledger"]["balances"]["Dan"], -144 * hands, "{t}");
        acked.store(hands, Ordering::SeqCst);
        let (base, id2, key2, acked2) = (s.base.clone(), id.clone(), key.clone(), acked.clone());
        let appender = tokio::spawn(async move {
            let client = reqwest::Client::new();
            let mut version = 1 + acked2.load(Ordering::SeqCst);
            loop {
                let r = client
                    .post(format!("{base}/v1/tables/{id2}/hands"))
                    .header("content-type", "application/json")
                    .bearer_auth(&key2)
                    .header("if-match", format!("\"v{version}\""))
                    .body(false_win().to_string())
                    .send()
                    .await;
                match r {
                    Ok(r) if r.status().as_u16() == 200 => {
                        // Counted only once the answer has been read whole.
                        if r.bytes().await.is_err() {
                            return;
                        }
                        acked2.fetch_add(1, Ordering::SeqCst);
                        version += 1;
                    }
                    // The store did not answer: nothing was acknowledged,
                    // the same hand is sent again, as a client would.
                    Ok(r) if r.status().as_u16() == 503 => {
                        let wait = retry_after(&r);
                        tokio::time::sleep(Duration::from_secs(wait)).await;
                    }
                    Ok(r) => {
                        let status = r.status();
                        let body = r.text().await.unwrap_or_default();
                        panic!("append v{version} answered {status}: {body}");
                    }
                    Err(_) => return,
                }
            }
        });
        tokio::time::sleep(Duration::from_millis(100 + jitter(300))).await;
        drop(s); // SIGKILL, then reaped
        appender.await.unwrap();
    }
    let s = start(store, &log).await;
    let t = read_table(&client, &s.base, &id).await;
    let hands = hands_of(&t);
    let a = acked.load(Ordering::SeqCst);
    assert!(
        hands == a || hands == a + 1,
        "{a} acknowledged, {hands} stored: {t}"
    );
    assert!(a > 0, "some hands were acknowledged");
    (key, log)
}

#[tokio::test]
async fn no_acknowledged_hand_is_lost_to_sigkill_on_sqlite() {
    let url = sqlite_url("durability");
    let (key, log) = kill_rounds(&url, "durability-sqlite", 10).await;
    // The file is whole after ten kills.
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let check: (String,) = sqlx::query_as("PRAGMA integrity_check")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(check.0, "ok");
    // The key went in every Authorization header, and never into the log.
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("request done"), "the access log was written");
    assert!(!text.contains(&key), "the key is in the log");
}
