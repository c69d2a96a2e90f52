//! A store lost under a running server: the SQLite folder removed, the
//! file replaced by another (a backup renamed over it). SQLite itself
//! notices neither (the open connections keep writing to the old file), so
//! the server must: every write 503 `store-unavailable` at once, `/readyz`
//! 503 within 5 s, a log line naming the path, and after a restart no hand
//! acknowledged after the loss is missing. The hands acknowledged before
//! it go with what the operator removed or replaced.

use super::durability::{hands_of, read_table, start};
use super::support::night;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub struct Reply {
    pub status: u16,
    pub retry_after: Option<String>,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("{}: not JSON ({e}): {}", self.status, self.body))
    }
}

async fn reply(r: reqwest::Response) -> Reply {
    Reply {
        status: r.status().as_u16(),
        retry_after: r
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string),
        body: r.text().await.unwrap_or_default(),
    }
}

/// A new table on the server at `base`: its id and key.
pub async fn create(base: &str) -> (String, String) {
    let r = reply(
        reqwest::Client::new()
            .post(format!("{base}/v1/tables"))
            .header("content-type", "application/json")
            .body(night(vec![]).to_string())
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let v = r.json();
    (
        v["id"].as_str().unwrap().to_string(),
        v["key"].as_str().unwrap().to_string(),
    )
}

/// Dan's false win (Dan -144) appended from `version`.
pub async fn append(base: &str, id: &str, key: &str, version: i64) -> Reply {
    reply(
        reqwest::Client::new()
            .post(format!("{base}/v1/tables/{id}/hands"))
            .header("content-type", "application/json")
            .bearer_auth(key)
            .header("if-match", format!("\"v{version}\""))
            .body(json!({"result": "false_win", "offender": "Dan"}).to_string())
            .send()
            .await
            .unwrap(),
    )
    .await
}

/// Appends from `version` for 5 s at most until one is refused (asserted a
/// 503 `store-unavailable` with `Retry-After: 5`): how many were
/// acknowledged first.
pub async fn appends_until_refused(base: &str, id: &str, key: &str, version: i64) -> i64 {
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut acked = 0;
    loop {
        let r = append(base, id, key, version + acked).await;
        match r.status {
            200 => acked += 1,
            503 => {
                assert_eq!(
                    (r.json()["type"].clone(), r.retry_after.as_deref()),
                    (json!("/problems/store-unavailable"), Some("5")),
                    "{}",
                    r.body
                );
                return acked;
            }
            s => panic!("append v{} answered {s}: {}", version + acked, r.body),
        }
        assert!(
            Instant::now() < deadline,
            "{acked} appends still acknowledged 5 s after the store was lost"
        );
    }
}

/// `/readyz`'s `status` once it answers 503, within `limit` (else a failure).
pub async fn not_ready_within(base: &str, limit: Duration) -> String {
    let client = reqwest::Client::new();
    let deadline = Instant::now() + limit;
    loop {
        let r = reply(client.get(format!("{base}/readyz")).send().await.unwrap()).await;
        if r.status == 503 {
            return r.json()["status"].as_str().unwrap_or_default().to_string();
        }
        assert!(
            Instant::now() < deadline,
            "/readyz still {} {} after {limit:?}",
            r.status,
            r.body
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The first line of `log` holding every one of `parts`, within 3 s (the
/// log is written by a thread of its own).
pub async fn log_line(log: &Path, parts: &[&str]) -> String {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        if let Some(l) = text.lines().find(|l| parts.iter().all(|p| l.contains(p))) {
            return l.to_string();
        }
        assert!(
            Instant::now() < deadline,
            "no log line with {parts:?} in:\n{text}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A folder of its own under the target directory (emptied), the store's
/// URL in it, and a log beside it (not in it: the folder is removed).
fn place(name: &str) -> (PathBuf, PathBuf, String, PathBuf) {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dir = tmp.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.join("tables.db");
    let log = tmp.join(format!("{name}.log"));
    let _ = std::fs::remove_file(&log);
    let url = format!("sqlite:{}", db.display());
    (dir, db, url, log)
}

#[tokio::test]
async fn a_removed_folder_is_refused_at_once_and_nothing_is_acknowledged_after_it() {
    let (dir, db, url, log) = place("lost-folder");
    let s = start(&url, &log).await;
    let (id, key) = create(&s.base).await;
    let r = append(&s.base, &id, &key, 1).await;
    assert_eq!(r.status, 200, "before the removal: {}", r.body);
    std::fs::remove_dir_all(&dir).unwrap();
    // Each commit is looked at before it is acknowledged: the very first
    // append after the removal is refused.
    assert_eq!(
        appends_until_refused(&s.base, &id, &key, 2).await,
        0,
        "appends acknowledged after the folder was removed"
    );
    assert_eq!(
        not_ready_within(&s.base, Duration::from_secs(5)).await,
        "store_lost"
    );
    let db = db.display().to_string();
    log_line(&log, &["ERROR", "not the one opened", "it is gone", &db]).await;
    // Nothing restored: the restart makes the folder and an empty store.
    // The table went with the folder the operator removed; what must hold
    // is that no hand was acknowledged after it, checked above.
    drop(s);
    let s = start(&url, &log).await;
    let r = reply(
        reqwest::get(format!("{}/v1/tables/{id}", s.base))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        (r.status, r.json()["type"].clone()),
        (404, json!("/problems/no-such-table")),
        "{}",
        r.body
    );
}

#[tokio::test]
async fn a_backup_renamed_over_the_file_is_found_within_5_s_and_kept_after_a_restart() {
    let (dir, db, url, log) = place("lost-replaced");
    let s = start(&url, &log).await;
    let (id, key) = create(&s.base).await;
    // Hand A (version 2), then a backup, then hand B (version 3).
    let r = append(&s.base, &id, &key, 1).await;
    assert_eq!(r.status, 200, "hand A: {}", r.body);
    let backup = dir.join("backup.db");
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    sqlx::query(&format!("VACUUM INTO '{}'", backup.display()))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let r = append(&s.base, &id, &key, 2).await;
    assert_eq!(r.status, 200, "hand B: {}", r.body);
    // The backup put back while the server runs.
    std::fs::rename(&backup, &db).unwrap();
    // No write meanwhile: the readiness loop finds it by itself.
    assert_eq!(
        not_ready_within(&s.base, Duration::from_secs(5)).await,
        "store_lost"
    );
    let db_name = db.display().to_string();
    log_line(
        &log,
        &["ERROR", "not the one opened", "another file", &db_name],
    )
    .await;
    // Hand C is refused.
    assert_eq!(
        appends_until_refused(&s.base, &id, &key, 3).await,
        0,
        "appends acknowledged after the file was replaced"
    );
    drop(s);
    // The operator's part of a restore (docs/operations.md): the replaced
    // file's WAL and its index go with it.
    for ext in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
    // After the restart the table is the backup's: hand A only (version 2,
    // Dan -144). Hand B was acknowledged before the restore took it back;
    // hand C never was.
    let s = start(&url, &log).await;
    let t = read_table(&reqwest::Client::new(), &s.base, &id).await;
    assert_eq!((hands_of(&t), t["version"].clone()), (1, json!(2)), "{t}");
    assert_eq!(t["ledger"]["balances"]["Dan"], -144, "{t}");
}
