//! Browser test of the calculator page: the real server on port 0, headless
//! Chromium driven through chromedriver with the W3C WebDriver protocol
//! spoken directly over HTTP (reqwest), clicking the page like a player.
//!
//! Needs `chromedriver` and Chromium (Debian: `apt-get install chromium
//! chromium-driver`). Without them the test says so and is skipped, unless
//! `FAAN_BROWSER_TEST=1`, when a missing browser is a failure (CI sets it).
//! `FAAN_CHROMEDRIVER` and `FAAN_CHROMIUM` override the binaries' paths.
//!
//! Screenshots go to `target/browser-*.png`.

use faan::config::ServeArgs;
use faan::startup::Application;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The W3C key of an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
/// How long to wait for the page to show something.
const WAIT: Duration = Duration::from_secs(20);

fn required() -> bool {
    std::env::var("FAAN_BROWSER_TEST").is_ok_and(|v| v == "1")
}

/// The first of `candidates` that is a file, else `name` found on PATH.
fn find_binary(env: &str, name: &str, candidates: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    candidates.iter().map(PathBuf::from).find(|p| p.is_file())
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

// ------------------------------------------------------------ WebDriver

/// A chromedriver process and one browser session; both end on drop.
struct Browser {
    http: reqwest::Client,
    driver: String,
    session: String,
    child: Child,
    profile: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Ask the driver to close the browser (killing the driver alone
        // leaves Chromium running), then stop the driver we started.
        // Blocking and bounded: `drop` also runs when the test panics.
        if !self.session.is_empty() {
            if let Some(addr) = self.driver.strip_prefix("http://") {
                let _ = delete_session(addr, &self.session);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// `DELETE /session/{id}` over a plain socket, waiting at most 10 s for the answer.
fn delete_session(addr: &str, session: &str) -> std::io::Result<()> {
    use std::io::{Read, Write};
    let addr: std::net::SocketAddr = addr
        .parse()
        .map_err(|_| std::io::Error::other("driver address"))?;
    let mut s = std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(2))?;
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        s,
        "DELETE /session/{session} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )?;
    let mut answer = Vec::new();
    s.read_to_end(&mut answer)?;
    Ok(())
}

/// Why a WebDriver command failed.
#[derive(Debug)]
struct WdError(String);

impl Browser {
    async fn start(chromedriver: &Path, chromium: Option<&Path>) -> Result<Browser, String> {
        let port = free_port();
        let log = std::fs::File::create(target_dir().join("browser-chromedriver.log")).ok();
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(
                log.as_ref()
                    .and_then(|f| f.try_clone().ok())
                    .map_or_else(Stdio::null, Stdio::from),
            )
            .stderr(log.map_or_else(Stdio::null, Stdio::from))
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", chromedriver.display()))?;
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let profile =
            std::env::temp_dir().join(format!("faan-browser-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&profile).map_err(|e| format!("profile dir: {e}"))?;
        let http = reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_secs(90))
            .build()
            .map_err(|e| e.to_string())?;
        let mut browser = Browser {
            http,
            driver: format!("http://127.0.0.1:{port}"),
            session: String::new(),
            child,
            profile,
        };

        // Wait for the driver to listen.
        let start = Instant::now();
        loop {
            let ready = browser
                .http
                .get(format!("{}/status", browser.driver))
                .send()
                .await
                .ok();
            if let Some(r) = ready {
                if let Ok(v) = r.json::<Value>().await {
                    if v["value"]["ready"].as_bool() == Some(true) {
                        break;
                    }
                }
            }
            if let Ok(Some(status)) = browser.child.try_wait() {
                return Err(format!("chromedriver exited at start: {status}"));
            }
            if start.elapsed() > WAIT {
                return Err("chromedriver did not become ready in 20 s".into());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }

        let mut options = json!({
            "args": [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-quic",
                "--no-first-run",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--window-size=1280,1000",
                format!("--user-data-dir={}", browser.profile.display()),
            ]
        });
        if let Some(bin) = chromium {
            options["binary"] = json!(bin.display().to_string());
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options,
        }}});
        let v = browser
            .raw("POST", "/session", Some(caps))
            .await
            .map_err(|e| format!("cannot start a browser session: {}", e.0))?;
        browser.session = v["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no sessionId in {v}"))?
            .to_string();
        Ok(browser)
    }

    /// One command; answers its `value`.
    async fn raw(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, WdError> {
        let url = format!("{}{path}", self.driver);
        let req = match method {
            "GET" => self.http.get(&url),
            "DELETE" => self.http.delete(&url),
            _ => self
                .http
                .post(&url)
                .json(&body.unwrap_or_else(|| json!({}))),
        };
        let res = req
            .send()
            .await
            .map_err(|e| WdError(format!("{method} {path}: {e}")))?;
        let status = res.status();
        let v: Value = res
            .json()
            .await
            .map_err(|e| WdError(format!("{method} {path}: body: {e}")))?;
        if !status.is_success() {
            return Err(WdError(format!(
                "{method} {path}: {status}: {} {}",
                v["value"]["error"], v["value"]["message"]
            )));
        }
        Ok(v["value"].clone())
    }

    async fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, WdError> {
        self.raw(method, &format!("/session/{}{path}", self.session), body)
            .await
    }

    async fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })))
            .await
            .expect("navigate");
    }

    async fn window(&self, width: u32, height: u32) {
        self.cmd(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        )
        .await
        .expect("resize the window");
    }

    /// Sizes the window so that the page itself (the viewport) is `width` x `height`.
    async fn viewport(&self, width: u32, height: u32) {
        self.window(width, height).await;
        let inner = self
            .js("return [window.innerWidth, window.innerHeight]")
            .await;
        let (iw, ih) = (
            inner[0].as_u64().unwrap_or(u64::from(width)) as u32,
            inner[1].as_u64().unwrap_or(u64::from(height)) as u32,
        );
        if (iw, ih) != (width, height) {
            self.window(
                2 * width - iw.min(2 * width),
                2 * height - ih.min(2 * height),
            )
            .await;
        }
    }

    async fn find(&self, css: &str) -> Result<String, WdError> {
        let v = self
            .cmd(
                "POST",
                "/element",
                Some(json!({"using": "css selector", "value": css})),
            )
            .await?;
        v[ELEMENT]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| WdError(format!("no element reference in {v}")))
    }

    async fn click(&self, css: &str) {
        let id = self
            .find(css)
            .await
            .unwrap_or_else(|e| panic!("find {css}: {}", e.0));
        self.cmd("POST", &format!("/element/{id}/click"), None)
            .await
            .unwrap_or_else(|e| panic!("click {css}: {}", e.0));
    }

    async fn text(&self, css: &str) -> Result<String, WdError> {
        let id = self.find(css).await?;
        let v = self
            .cmd("GET", &format!("/element/{id}/text"), None)
            .await?;
        Ok(v.as_str().unwrap_or_default().to_string())
    }

    async fn displayed(&self, css: &str) -> bool {
        match self.find(css).await {
            Ok(id) => self
                .cmd("GET", &format!("/element/{id}/displayed"), None)
                .await
                .is_ok_and(|v| v.as_bool() == Some(true)),
            Err(_) => false,
        }
    }

    async fn js(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
        .await
        .unwrap_or_else(|e| panic!("script {script}: {}", e.0))
    }

    async fn screenshot(&self, name: &str) -> PathBuf {
        let v = self
            .cmd("GET", "/screenshot", None)
            .await
            .expect("screenshot");
        let png = base64_decode(v.as_str().expect("base64 screenshot"));
        assert!(png.starts_with(b"\x89PNG"), "the screenshot is a PNG");
        let path = target_dir().join(name);
        std::fs::write(&path, png).expect("write the screenshot");
        println!("screenshot: {}", path.display());
        path
    }

    /// Waits until the element's visible text satisfies `ok`; answers it.
    async fn wait_text(&self, css: &str, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        let mut last = String::from("(no such element)");
        loop {
            if let Ok(t) = self.text(css).await {
                if ok(&t) {
                    return t;
                }
                last = t;
            }
            if start.elapsed() > WAIT {
                let status = self.text("#status").await.unwrap_or_default();
                self.screenshot("browser-failure.png").await;
                panic!("{css}: waited for {what}; last text {last:?}; page status {status:?} (see target/browser-failure.png)");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn click_tiles(&self, tiles: &[&str]) {
        for t in tiles {
            self.click(&format!("#palette [data-tile=\"{t}\"]")).await;
        }
    }
}

/// Standard base64 (the WebDriver screenshot encoding).
fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes().filter_map(val) {
        acc = (acc << 6) | c;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

// ------------------------------------------------------------------ test

/// Says why the test is skipped on the real stderr (cargo test's capture
/// would hide an `eprintln!` of a passing test).
fn skip(msg: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED {msg}");
}

#[tokio::test]
async fn calculator_page_in_a_real_browser() {
    let Some(chromedriver) = find_binary(
        "FAAN_CHROMEDRIVER",
        "chromedriver",
        &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"],
    ) else {
        let msg = "browser test: chromedriver not found (install Debian's `chromium` and \
                   `chromium-driver`, or set FAAN_CHROMEDRIVER)";
        if required() {
            panic!("{msg}; FAAN_BROWSER_TEST=1 makes this a failure");
        }
        skip(&format!(
            "{msg}; set FAAN_BROWSER_TEST=1 to make a missing browser fail"
        ));
        return;
    };
    let chromium = find_binary(
        "FAAN_CHROMIUM",
        "chromium",
        &["/usr/bin/chromium", "/usr/bin/chromium-browser"],
    );
    std::fs::create_dir_all(target_dir()).expect("target dir");

    let app = Application::build(&ServeArgs::for_tests()).expect("the server builds");
    let base = format!("http://127.0.0.1:{}", app.port());
    let handle = app.handle();
    tokio::spawn(app.run_until_stopped());

    let browser = match Browser::start(&chromedriver, chromium.as_deref()).await {
        Ok(b) => b,
        Err(e) if !required() && chromium.is_none() => {
            skip(&format!("browser test: {e} (no chromium binary found; set FAAN_BROWSER_TEST=1 to make this fail)"));
            return;
        }
        Err(e) => panic!("browser test: {e}"),
    };

    browser.viewport(1280, 1000).await;
    browser.goto(&format!("{base}/")).await;
    let start = Instant::now();
    while browser
        .js("return document.body.getAttribute('data-rulesets-loaded')")
        .await
        != json!("true")
    {
        assert!(start.elapsed() < WAIT, "the page did not load the rulesets");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // (a) The Wisteria Court guide's quiet hand: four chows and a pair, all
    // concealed, no flowers, self-drawn: 4 faan, each of the three others
    // pays 32 and the winner gains 96.
    browser
        .click("#ruleset option[value=\"wisteria-court\"]")
        .await;
    browser.click("#win-by option[value=\"self_draw\"]").await;
    browser
        .click_tiles(&[
            "1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "2s", "3s", "4s", "5s", "5s", "9p",
        ])
        .await;
    let mpsz = browser
        .js("return document.getElementById('hand-text').value")
        .await;
    assert_eq!(
        mpsz,
        json!("123456m789p23455s"),
        "the MPSZ text of the hand"
    );
    assert_eq!(
        browser
            .js("return document.querySelectorAll('#hand [data-tile]').length")
            .await,
        json!(14)
    );
    assert_eq!(
        browser
            .js("return document.querySelector('#hand [data-winning=\"true\"]').getAttribute('data-tile')")
            .await,
        json!("9p"),
        "the last tile picked is marked as the winning tile"
    );
    assert_eq!(
        browser
            .js("return document.querySelectorAll('#flowers [aria-pressed=\"true\"]').length")
            .await,
        json!(0)
    );
    browser.click("#btn-score").await;
    browser
        .wait_text("#total-faan", "4 faan", |t| t == "4")
        .await;
    for (seat, want) in [
        ("east", "-32"),
        ("south", "+96"),
        ("west", "-32"),
        ("north", "-32"),
    ] {
        assert_eq!(
            browser
                .text(&format!("#payment-{seat}"))
                .await
                .unwrap()
                .trim(),
            want,
            "payment of {seat}"
        );
    }
    assert_eq!(browser.text("#base-points").await.unwrap(), "16");
    assert_eq!(browser.text("#min-faan").await.unwrap(), "0");
    assert_eq!(browser.text("#limit").await.unwrap(), "10");
    let mut patterns: Vec<String> = serde_json::from_value(
        browser
            .js("return Array.from(document.querySelectorAll('#lines [data-pattern]')).map(function (r) { return r.getAttribute('data-pattern'); })")
            .await,
    )
    .unwrap();
    patterns.sort();
    assert_eq!(
        patterns,
        ["all_chows", "concealed_hand", "no_flowers", "self_draw"],
        "the quiet hand's lines"
    );
    assert!(
        browser.displayed("#readings [data-chosen=\"true\"]").await,
        "the chosen reading is shown"
    );
    assert!(!browser.displayed("#error-summary").await);
    browser.js("window.scrollTo(0, 0); return null").await;
    browser.screenshot("browser-quiet-hand.png").await;

    // The same result on a phone-width screen: nothing wider than the screen.
    browser.viewport(375, 800).await;
    let width = browser
        .js("return [window.innerWidth, document.documentElement.scrollWidth]")
        .await;
    assert!(
        width[1].as_u64() <= width[0].as_u64(),
        "the page scrolls sideways at phone width: {width}"
    );
    browser
        .js("document.getElementById('output').scrollIntoView({block: 'start'}); return null")
        .await;
    browser.screenshot("browser-quiet-hand-phone.png").await;
    browser.js("window.scrollTo(0, 0); return null").await;
    browser.screenshot("browser-phone-hand.png").await;
    browser.viewport(1280, 1000).await;

    // The compare view: every ruleset side by side, Wisteria Court at 4 faan.
    browser.click("#btn-compare").await;
    browser
        .wait_text("#compare-wisteria-court .cmp-faan", "4", |t| t == "4")
        .await;
    let cards = browser
        .js("return document.querySelectorAll('#compare-grid [data-ruleset]').length")
        .await;
    assert!(
        cards.as_u64().unwrap_or(0) >= 2,
        "several rulesets compared, got {cards}"
    );
    browser.js("window.scrollTo(0, 0); return null").await;
    browser.screenshot("browser-compare.png").await;

    // The waits view: take the winning 9p back out; 6p and 9p complete it.
    browser.click("#hand [data-winning=\"true\"]").await;
    browser.click("#btn-waits").await;
    browser
        .wait_text("#status", "the waits", |t| {
            t.starts_with("Waiting on")
                || t.contains("no waits endpoint")
                || t.starts_with("No tile")
        })
        .await;
    if browser.displayed("#waits").await {
        let waits = browser
            .js("return Array.from(document.querySelectorAll('#waits-body [data-wait]')).map(function (r) { return r.getAttribute('data-wait'); })")
            .await;
        assert_eq!(waits, json!(["6p", "9p"]), "the waits of 123456m78p23455s");
        browser.screenshot("browser-waits.png").await;
    } else {
        eprintln!("note: POST /v1/waits is not served; the page said so");
    }

    // (b) Five of one tile: the server's error appears beside the hand.
    browser.click("#btn-reset").await;
    browser
        .click_tiles(&[
            "1m", "1m", "1m", "1m", "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z",
        ])
        .await;
    browser.click("#btn-score").await;
    let msg = browser
        .wait_text(
            "[data-error-for=\"/hand/tiles\"]",
            "the five-tiles error",
            |t| t.contains("5 times"),
        )
        .await;
    assert!(msg.contains("1m"), "the error names the tile: {msg}");
    assert_eq!(
        browser
            .js("return document.querySelector('[data-error-for=\"/hand/tiles\"]').closest('[data-pointer]').getAttribute('data-pointer')")
            .await,
        json!("/hand/tiles"),
        "the error sits in the hand field"
    );
    assert!(
        browser
            .js("return document.querySelector('[data-pointer=\"/hand/tiles\"]').contains(document.getElementById('hand'))")
            .await
            == json!(true),
        "the hand area is in the same field as the error"
    );
    assert!(browser.displayed("#error-summary").await, "a summary too");
    let summary = browser.text("#error-list").await.unwrap();
    assert!(summary.contains("/hand/tiles"), "summary: {summary}");
    assert!(!browser.displayed("#result").await, "no stale result");
    browser.screenshot("browser-five-tiles-error.png").await;

    // A discard "from" the winner's own seat: the error sits by the discarder.
    browser.click("#win-by option[value=\"discard\"]").await;
    browser.click("#discarder option[value=\"south\"]").await;
    browser.click("#btn-score").await;
    browser
        .wait_text(
            "[data-error-for=\"/context/discarder\"]",
            "the discarder error",
            |t| t.contains("winner"),
        )
        .await;
    assert_eq!(
        browser
            .js("return document.querySelector('[data-error-for=\"/context/discarder\"]').closest('[data-pointer]').contains(document.getElementById('discarder'))")
            .await,
        json!(true),
        "the discarder error sits beside the discarder select"
    );

    drop(browser);
    handle.stop(false).await;
}
