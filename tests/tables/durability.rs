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

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The binary on `store`, logging to `log` (appended), once it answers.
pub async fn start(store: &str, log: &std::path::Path) -> Server {
    let port = free_port();
    let out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_faan"))
        .args([
            "--addr",
            &format!("127.0.0.1:{port}"),
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
    let server = Server {
        child,
        base: format!("http://127.0.0.1:{port}"),
    };
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if let Ok(r) = client.get(format!("{}/readyz", server.base)).send().await {
            if r.status().as_u16() == 200 {
                return server;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server did not become ready");
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
    assert_eq!(r.status().as_u16(), 201);
    let created: Value = r.json().await.unwrap();
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
        let t: Value = client
            .get(format!("{}/v1/tables/{id}", s.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let hands = t["request"]["hands"].as_array().unwrap().len() as i64;
        let a = acked.load(Ordering::SeqCst);
        assert!(
            hands == a || hands == a + 1,
            "round {round}: {a} hands acknowledged, {hands} stored"
        );
        assert_eq!(t["version"], 1 + hands, "one version per hand");
        assert_eq!(t["ledger"]["balances"]["Dan"], -144 * hands);
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
                    Ok(r) => panic!("append answered {}", r.status()),
                    Err(_) => return,
                }
            }
        });
        tokio::time::sleep(Duration::from_millis(100 + jitter(300))).await;
        drop(s); // SIGKILL, then reaped
        appender.await.unwrap();
    }
    let s = start(store, &log).await;
    let t: Value = client
        .get(format!("{}/v1/tables/{id}", s.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let hands = t["request"]["hands"].as_array().unwrap().len() as i64;
    let a = acked.load(Ordering::SeqCst);
    assert!(
        hands == a || hands == a + 1,
        "{a} acknowledged, {hands} stored"
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
