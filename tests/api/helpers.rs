//! Starts the real server on port 0 and talks to it with reqwest.

use faan::config::ServeArgs;
use faan::startup::Application;
use serde_json::Value;

pub struct TestApp {
    pub base: String,
    /// The probes' listener, when the configuration gives it an address.
    pub admin: Option<String>,
    pub client: reqwest::Client,
    handle: actix_web::dev::ServerHandle,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let h = self.handle.clone();
        // Stop without waiting; the runtime ends with the test anyway.
        drop(h.stop(false));
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
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.bytes)))
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

pub async fn spawn_app() -> TestApp {
    spawn_with(ServeArgs::for_tests()).await
}

pub async fn spawn_with(config: ServeArgs) -> TestApp {
    let app = Application::build(&config).expect("the server builds");
    let base = format!("http://127.0.0.1:{}", app.port());
    let admin = app.admin_port().map(|p| format!("http://127.0.0.1:{p}"));
    let handle = app.handle();
    tokio::spawn(app.run_until_stopped());
    TestApp {
        base,
        admin,
        client: reqwest::Client::new(),
        handle,
    }
}

impl TestApp {
    pub async fn send(&self, req: reqwest::RequestBuilder) -> Reply {
        let res = req.send().await.expect("request sent");
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        let bytes = res.bytes().await.expect("body read").to_vec();
        Reply {
            status,
            headers,
            bytes,
        }
    }

    pub async fn post_raw(
        &self,
        path: &str,
        body: impl Into<Vec<u8>>,
        content_type: Option<&str>,
    ) -> Reply {
        let mut req = self
            .client
            .post(format!("{}{path}", self.base))
            .body(body.into());
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        self.send(req).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> Reply {
        self.post_raw(
            path,
            serde_json::to_vec(body).unwrap(),
            Some("application/json"),
        )
        .await
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.send(self.client.get(format!("{}{path}", self.base)))
            .await
    }
}

/// The lines of a score as (pattern, faan) pairs.
pub fn lines(v: &Value) -> Vec<(String, u64)> {
    v["lines"]
        .as_array()
        .unwrap_or_else(|| panic!("no lines in {v}"))
        .iter()
        .map(|l| {
            (
                l["pattern"].as_str().unwrap().to_string(),
                l["faan"].as_u64().unwrap(),
            )
        })
        .collect()
}

pub fn payments(v: &Value) -> [i64; 4] {
    let p = &v["payments"];
    ["east", "south", "west", "north"].map(|s| {
        p[s].as_i64()
            .unwrap_or_else(|| panic!("no payment {s} in {v}"))
    })
}
