//! The server in process (or as a child, `durability`), a client for its
//! table endpoints, and an event stream reader.

use faan::config::ServeArgs;
use faan::startup::Application;
use faan::tables::TablesArgs;
use serde_json::{json, Value};
use std::time::Duration;

pub struct App {
    pub base: String,
    pub client: reqwest::Client,
    handle: actix_web::dev::ServerHandle,
}

impl Drop for App {
    fn drop(&mut self) {
        drop(self.handle.stop(false));
    }
}

pub struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub bytes: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.bytes)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// A fresh SQLite file under the target directory, for one test.
pub fn sqlite_url(name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tables");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.db"));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
    format!("sqlite:{}", path.display())
}

pub async fn spawn_with(config: ServeArgs) -> App {
    let app = Application::build(&config).expect("the server builds");
    let base = format!("http://127.0.0.1:{}", app.port());
    let handle = app.handle();
    tokio::spawn(app.run_until_stopped());
    App {
        base,
        client: reqwest::Client::new(),
        handle,
    }
}

/// A server on its own SQLite file, its table flags changed by `f`.
pub async fn spawn_sqlite(name: &str, f: impl FnOnce(&mut TablesArgs)) -> App {
    spawn_sqlite_args(name, |a| f(&mut a.tables)).await
}

/// A server on the SQLite store at `url` as it is.
pub async fn spawn_sqlite_url(url: &str) -> App {
    let mut config = ServeArgs::for_tests();
    config.tables.store = url.to_string();
    spawn_with(config).await
}

/// A server on its own SQLite file, its flags changed by `f`.
pub async fn spawn_sqlite_args(name: &str, f: impl FnOnce(&mut ServeArgs)) -> App {
    let mut config = ServeArgs::for_tests();
    config.tables.store = sqlite_url(name);
    f(&mut config);
    spawn_with(config).await
}

/// The contract's night: Ann, Ben, Cat and Dan under HKMA, Ann dealing.
pub fn night(hands: Vec<Value>) -> Value {
    json!({"ruleset": "hkma", "title": "Thursday", "players": ["Ann", "Ben", "Cat", "Dan"],
        "start": {"round_wind": "east", "dealer": "Ann"}, "hands": hands})
}

/// Hand 0 of the contract's example: Ben self-draws all pungs, 32 from each.
pub fn ben_self_draw() -> Value {
    json!({"result": "win", "winners": [{"player": "Ben", "hand": {"tiles": "77755p", "melds": [{"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999s"}, {"kind": "pung", "tiles": "222p"}], "winning_tile": "5p"}, "context": {"win_by": "self_draw"}}]})
}

impl App {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn send(&self, req: reqwest::RequestBuilder) -> Reply {
        let res = req.send().await.expect("request sent");
        Reply {
            status: res.status().as_u16(),
            headers: res.headers().clone(),
            bytes: res.bytes().await.expect("body read").to_vec(),
        }
    }

    pub async fn get(&self, path: &str, headers: &[(&str, &str)]) -> Reply {
        let mut req = self.client.get(self.url(path));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        self.send(req).await
    }

    pub async fn post(&self, path: &str, body: &Value, headers: &[(&str, &str)]) -> Reply {
        let mut req = self
            .client
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body.to_string());
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        self.send(req).await
    }

    /// A new table: its id, key and the 201's body (its ledger checked
    /// against `POST /v1/ledger`).
    pub async fn create(&self, body: Value) -> (String, String, Value) {
        let r = self.post("/v1/tables", &body, &[]).await;
        assert_eq!(r.status, 201, "{}", r.text());
        let v = r.json();
        let id = v["id"].as_str().unwrap().to_string();
        assert_eq!(r.header("location"), Some(format!("/v1/tables/{id}")));
        self.check_ledger(&id).await;
        (id, v["key"].as_str().unwrap().to_string(), v)
    }

    /// Appends a hand; after a 200 the table's ledger is checked against
    /// `POST /v1/ledger`.
    pub async fn append(&self, id: &str, key: &str, version: i64, hand: Value) -> Reply {
        self.append_with(id, key, version, hand, &[]).await
    }

    /// [`App::append`] with more headers (`Prefer`).
    pub async fn append_with(
        &self,
        id: &str,
        key: &str,
        version: i64,
        hand: Value,
        more: &[(&str, &str)],
    ) -> Reply {
        let auth = format!("Bearer {key}");
        let tag = format!("\"v{version}\"");
        let mut headers = vec![("authorization", auth.as_str()), ("if-match", tag.as_str())];
        headers.extend_from_slice(more);
        let r = self
            .post(&format!("/v1/tables/{id}/hands"), &hand, &headers)
            .await;
        if r.status == 200 {
            self.check_ledger(id).await;
        }
        r
    }

    /// Takes back the last hand; after a 200 the ledger is checked.
    pub async fn undo(&self, id: &str, key: &str, version: i64) -> Reply {
        self.undo_with(id, key, version, &[]).await
    }

    /// [`App::undo`] with more headers (`Prefer`).
    pub async fn undo_with(
        &self,
        id: &str,
        key: &str,
        version: i64,
        more: &[(&str, &str)],
    ) -> Reply {
        let mut req = self
            .client
            .delete(self.url(&format!("/v1/tables/{id}/hands/last")))
            .bearer_auth(key)
            .header("if-match", format!("\"v{version}\""));
        for (k, v) in more {
            req = req.header(*k, *v);
        }
        let r = self.send(req).await;
        if r.status == 200 {
            self.check_ledger(id).await;
        }
        r
    }

    /// The table's `ledger` is byte for byte what `POST /v1/ledger`
    /// answers for its `request`.
    pub async fn check_ledger(&self, id: &str) {
        #[derive(serde::Deserialize)]
        struct Parts {
            request: Box<serde_json::value::RawValue>,
            ledger: Box<serde_json::value::RawValue>,
        }
        let t = self.get(&format!("/v1/tables/{id}"), &[]).await;
        assert_eq!(t.status, 200, "{}", t.text());
        let parts: Parts = serde_json::from_slice(&t.bytes).expect("a table");
        let r = self
            .send(
                self.client
                    .post(self.url("/v1/ledger"))
                    .header("content-type", "application/json")
                    .body(parts.request.get().to_string()),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
        assert!(
            r.bytes == parts.ledger.get().as_bytes(),
            "the table's ledger differs from POST /v1/ledger's:\n{}\n{}",
            parts.ledger.get(),
            r.text()
        );
    }

    pub async fn delete_table(&self, id: &str, key: Option<&str>) -> Reply {
        let mut req = self.client.delete(self.url(&format!("/v1/tables/{id}")));
        if let Some(k) = key {
            req = req.bearer_auth(k);
        }
        self.send(req).await
    }

    /// An open event stream (asserts the 200).
    pub async fn stream(&self, id: &str, last: Option<i64>) -> Events {
        events(
            &self.client,
            &self.url(&format!("/v1/tables/{id}/events")),
            last,
        )
        .await
    }
}

/// Opens an event stream at `url`.
pub async fn events(client: &reqwest::Client, url: &str, last: Option<i64>) -> Events {
    let mut req = client.get(url);
    if let Some(v) = last {
        req = req.header("last-event-id", v.to_string());
    }
    let res = req.send().await.expect("stream opened");
    assert_eq!(res.status().as_u16(), 200);
    assert_eq!(
        res.headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("text/event-stream")
    );
    Events {
        res,
        buf: String::new(),
        data: Value::Null,
    }
}

pub struct Events {
    res: reqwest::Response,
    buf: String,
    data: Value,
}

impl Events {
    /// The next event's name and id (comments skipped), within 5 s.
    pub async fn next_event(&mut self) -> (String, Option<i64>) {
        self.next_within(Duration::from_secs(5))
            .await
            .expect("an event within the time")
    }

    /// The next event within `limit`, or `None`.
    pub async fn next_within(&mut self, limit: Duration) -> Option<(String, Option<i64>)> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            if let Some(end) = self.buf.find("\n\n") {
                let frame: String = self.buf.drain(..end + 2).collect();
                let (mut name, mut id) = (None, None);
                for line in frame.lines() {
                    if let Some(v) = line.strip_prefix("event: ") {
                        name = Some(v.to_string());
                    } else if let Some(v) = line.strip_prefix("id: ") {
                        id = v.parse().ok();
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        self.data = serde_json::from_str(v).expect("data is JSON");
                    }
                }
                match name {
                    Some(n) => return Some((n, id)),
                    None => continue, // a comment
                }
            }
            let chunk = tokio::time::timeout_at(deadline, self.res.chunk())
                .await
                .ok()?;
            match chunk.expect("stream read") {
                Some(bytes) => self.buf.push_str(&String::from_utf8_lossy(&bytes)),
                None => return None,
            }
        }
    }

    /// The next event with its data, within 5 s.
    pub async fn next_with_data(&mut self) -> (String, Option<i64>, Value) {
        let (kind, id) = self.next_event().await;
        (kind, id, self.data.clone())
    }

    /// The data of the last event read.
    pub fn last_data(&self) -> &Value {
        &self.data
    }

    /// Whether the server ends the stream within 5 s.
    pub async fn ended(&mut self) -> bool {
        matches!(
            tokio::time::timeout(Duration::from_secs(5), self.res.chunk()).await,
            Ok(Ok(None))
        )
    }
}
