//! The harness and page object of the browser tests: one server, one
//! chromedriver and one Chromium per flow, driven through `fantoccini`.
//!
//! [`run`] starts them, opens the page in the flow's language, runs the
//! flow, and on a failure keeps a screenshot in
//! `target/browser/<flow>-<lang>-failure.png` before it fails the test.

use crate::lang::Lang;
use faan::config::ServeArgs;
use faan::startup::Application;
use fantoccini::{elements::Element, Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::Semaphore;

/// How long to wait for the page to show something.
const WAIT: Duration = Duration::from_secs(20);
/// A flow still running after this is hung (a stuck driver answers nothing):
/// it fails with its screenshot rather than holding up the suite.
const HUNG: Duration = Duration::from_secs(300);

/// Browsers at once: two cores, and one Chromium keeps about one busy.
static SESSIONS: Semaphore = Semaphore::const_new(2);

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

pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

/// The chromedriver process (its own process group, with the Chromium it
/// starts) and the browser's profile; on drop, whatever is left of them.
pub struct Driver {
    child: Child,
    profile: PathBuf,
    /// chromedriver's address, for the commands fantoccini has no call for.
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // A flow that ended cleanly closed its session, so Chromium is gone;
        // after a panic it may not be: end the whole group we started.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Starts chromedriver on a free loopback port and one Chromium session on it.
async fn start_browser(flow: &str, lang: &str) -> (Driver, Client) {
    start_browser_named(flow, lang, "").await
}

async fn start_browser_named(flow: &str, lang: &str, second: &str) -> (Driver, Client) {
    let chromedriver = find_binary(
        "FAAN_CHROMEDRIVER",
        "chromedriver",
        &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"],
    )
    .expect(
        "chromedriver not found: install Debian's `chromium` and `chromium-driver`, \
         or set FAAN_CHROMEDRIVER",
    );
    let chromium = find_binary(
        "FAAN_CHROMIUM",
        "chromium",
        &["/usr/bin/chromium", "/usr/bin/chromium-browser"],
    );
    let port = free_port();
    let log = std::fs::File::create(
        target_dir()
            .join("browser")
            .join(format!("{flow}-{lang}{second}-chromedriver.log")),
    )
    .ok();
    let child = {
        use std::os::unix::process::CommandExt;
        Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(
                log.as_ref()
                    .and_then(|f| f.try_clone().ok())
                    .map_or_else(Stdio::null, Stdio::from),
            )
            .stderr(log.map_or_else(Stdio::null, Stdio::from))
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromedriver.display()))
    };
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let profile = std::env::temp_dir().join(format!(
        "faan-browser-{flow}-{lang}{second}-{}-{nanos}",
        std::process::id()
    ));
    std::fs::create_dir_all(&profile).expect("the profile dir");
    let mut driver = Driver {
        child,
        profile,
        url: format!("http://127.0.0.1:{port}"),
    };

    // Wait for the driver to listen.
    let start = Instant::now();
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    while std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
        if let Ok(Some(status)) = driver.child.try_wait() {
            panic!("chromedriver exited at start: {status}");
        }
        assert!(
            start.elapsed() < WAIT,
            "chromedriver did not listen on {addr} within 20 s"
        );
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
            // The page's language defaults from the browser's: English here.
            "--lang=en-US",
            format!("--user-data-dir={}", driver.profile.display()),
        ]
    });
    if let Some(bin) = chromium {
        options["binary"] = json!(bin.display().to_string());
    }
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("chrome"));
    caps.insert("goog:chromeOptions".into(), options);
    let client = ClientBuilder::new(HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://{addr}"))
        .await
        .unwrap_or_else(|e| panic!("cannot start a browser session: {e}"));
    (driver, client)
}

/// Runs one flow in `lang` with its own server and browser. A panic in the
/// flow keeps a screenshot of the page, then fails the test with it.
pub async fn run<F, Fut>(flow: &'static str, lang: &'static Lang, body: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    run_with(flow, lang, ServeArgs::for_tests(), body).await;
}

/// Runs one flow on a server that keeps shared tables, in a fresh SQLite
/// file of its own under `target/browser/`.
pub async fn run_with_tables<F, Fut>(flow: &'static str, lang: &'static Lang, body: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    std::fs::create_dir_all(target_dir().join("browser")).expect("target/browser");
    let db = target_dir()
        .join("browser")
        .join(format!("{flow}-{}.db", lang.code));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
    let mut config = ServeArgs::for_tests();
    config.tables.store = format!("sqlite:{}", db.display());
    run_with(flow, lang, config, body).await;
}

async fn run_with<F, Fut>(flow: &'static str, lang: &'static Lang, config: ServeArgs, body: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    run_server(flow, lang, config, move |p, _| body(p)).await;
}

/// The flow's server, which the flow may stop (the network gone, as a
/// phone sees it) and start again on the same port with the same store.
#[derive(Clone)]
pub struct Server {
    config: ServeArgs,
    running: std::sync::Arc<tokio::sync::Mutex<Option<Running>>>,
}

struct Running {
    handle: actix_web::dev::ServerHandle,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    fn start_on(config: &ServeArgs) -> (u16, Running) {
        let app = Application::build(config).expect("the server builds");
        let port = app.port();
        let handle = app.handle();
        let task = tokio::spawn(app.run_until_stopped());
        (port, Running { handle, task })
    }

    /// Stops the server: every request fails at the network until [`Server::start`].
    pub async fn stop(&self) {
        if let Some(r) = self.running.lock().await.take() {
            r.handle.stop(false).await;
            let _ = r.task.await;
        }
    }

    /// Starts it again on its port, with its store.
    pub async fn start(&self) {
        let mut running = self.running.lock().await;
        if running.is_none() {
            *running = Some(Self::start_on(&self.config).1);
        }
    }
}

/// Runs one flow with a server it may stop and start again (shared tables
/// in a fresh SQLite file of its own under `target/browser/`).
pub async fn run_restartable<F, Fut>(flow: &'static str, lang: &'static Lang, body: F)
where
    F: FnOnce(Page, Server) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    std::fs::create_dir_all(target_dir().join("browser")).expect("target/browser");
    let db = target_dir()
        .join("browser")
        .join(format!("{flow}-{}.db", lang.code));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
    let mut config = ServeArgs::for_tests();
    config.tables.store = format!("sqlite:{}", db.display());
    run_server(flow, lang, config, body).await;
}

async fn run_server<F, Fut>(flow: &'static str, lang: &'static Lang, mut config: ServeArgs, body: F)
where
    F: FnOnce(Page, Server) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let _permit = SESSIONS.acquire().await.expect("the sessions' semaphore");
    std::fs::create_dir_all(target_dir().join("browser")).expect("target/browser");

    let (port, running) = Server::start_on(&config);
    let base = format!("http://127.0.0.1:{port}");
    // Started again, it listens where the page knows it.
    config.addr = format!("127.0.0.1:{port}");
    let server = Server {
        config,
        running: std::sync::Arc::new(tokio::sync::Mutex::new(Some(running))),
    };

    let (driver, client) = start_browser(flow, lang.code).await;
    let page = Page {
        c: client.clone(),
        base,
        lang,
        flow,
        driver: driver.url.clone(),
    };
    page.viewport(1280, 1000).await;

    let mut task = tokio::spawn(body(page.clone(), server.clone()));
    let failure = match tokio::time::timeout(HUNG, &mut task).await {
        Ok(Ok(())) => None,
        Ok(Err(e)) if e.is_panic() => Some(e.into_panic()),
        Ok(Err(e)) => Some(Box::new(format!("the flow did not finish: {e}")) as _),
        Err(_) => {
            task.abort();
            Some(Box::new(format!("the flow hung: still running after {HUNG:?}")) as _)
        }
    };
    if let Some(panic) = failure {
        let shot = page.failure_shot().await;
        // A hang resumes no panic of its own, so its words are printed here.
        let why = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("(see the panic above)");
        eprintln!(
            "browser flow `{flow}` [{}] failed: {why}; its screenshot: {shot}",
            lang.code
        );
        let _ = client.close().await;
        drop(driver);
        server.stop().await;
        std::panic::resume_unwind(panic);
    }
    client.close().await.expect("close the browser session");
    drop(driver);
    server.stop().await;
}

/// The calculator page in one browser, in one language: what a player does
/// (open it, tap or type a hand, read the result, switch the language) and
/// the page's own state read back with scripts.
#[derive(Clone)]
pub struct Page {
    c: Client,
    pub base: String,
    pub lang: &'static Lang,
    flow: &'static str,
    driver: String,
}

impl Page {
    /// Another browser on the same server (another phone at the table), in
    /// English until it switches; `suffix` names its logs (`-2`, `-3`...).
    /// Keep the [`Driver`] while it is used, and [`Page::close`] it at the end.
    pub async fn another_browser(&self, suffix: &str) -> (Driver, Page) {
        let (driver, client) = start_browser_named(self.flow, self.lang.code, suffix).await;
        let page = Page {
            c: client,
            base: self.base.clone(),
            lang: self.lang,
            flow: self.flow,
            driver: driver.url.clone(),
        };
        page.viewport(1280, 1000).await;
        (driver, page)
    }

    pub async fn close(self) {
        let _ = self.c.close().await;
    }

    /// A DevTools command through chromedriver (`goog/cdp/execute`).
    pub async fn cdp(&self, cmd: &str, params: Value) -> Value {
        let sid = self
            .c
            .session_id()
            .await
            .expect("the session id")
            .expect("a session");
        let r = reqwest::Client::new()
            .post(format!("{}/session/{sid}/goog/cdp/execute", self.driver))
            .json(&json!({"cmd": cmd, "params": params}))
            .send()
            .await
            .unwrap_or_else(|e| panic!("{cmd}: {e}"));
        let status = r.status();
        let v: Value = r.json().await.unwrap_or(Value::Null);
        assert!(status.is_success(), "{cmd}: {status} {v}");
        v["value"].clone()
    }

    /// The browser off the network (every request fails at once), or back on it.
    pub async fn offline(&self, off: bool) {
        self.cdp("Network.enable", json!({})).await;
        self.cdp(
            "Network.emulateNetworkConditions",
            json!({"offline": off, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}),
        )
        .await;
    }

    /// The language's code, for the assertions' messages.
    pub fn l(&self) -> &'static str {
        self.lang.code
    }

    fn failure_path(&self) -> PathBuf {
        target_dir()
            .join("browser")
            .join(format!("{}-{}-failure.png", self.flow, self.lang.code))
    }

    /// The screenshot of a failure, written where the message says (best effort:
    /// a browser that is gone has no picture, and the failure stands).
    async fn failure_shot(&self) -> String {
        let path = self.failure_path();
        match self.c.screenshot().await {
            Ok(png) => match std::fs::write(&path, png) {
                Ok(()) => path.display().to_string(),
                Err(e) => format!("not written ({e})"),
            },
            Err(e) => format!("none taken ({e})"),
        }
    }

    /// Why the flow fails, naming it, with the page's status line.
    async fn failure(&self, what: String) -> String {
        let status = self.text("#status").await.unwrap_or_default();
        format!(
            "[{} {}] {what}; page status {status:?} (screenshot: {})",
            self.flow,
            self.lang.code,
            self.failure_path().display()
        )
    }

    pub async fn goto(&self, url: &str) {
        self.c
            .goto(url)
            .await
            .unwrap_or_else(|e| panic!("navigate to {url}: {e}"));
    }

    /// Opens `path` of the server and waits for the rulesets to load.
    pub async fn open(&self, path: &str) {
        self.goto(&format!("{}{path}", self.base)).await;
        self.wait_loaded().await;
    }

    /// axe-core's serious and critical violations on the page as it stands, each as
    /// "rule: target, ..." (axe.min.js from `FAAN_AXE`, else
    /// target/axe/node_modules/axe-core/axe.min.js: `npm install --prefix target/axe axe-core`).
    pub async fn axe_serious(&self) -> Value {
        let path = std::env::var_os("FAAN_AXE")
            .map(PathBuf::from)
            .unwrap_or_else(|| target_dir().join("axe/node_modules/axe-core/axe.min.js"));
        let src = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "axe-core at {}: {e} (npm install --prefix target/axe axe-core)",
                path.display()
            )
        });
        if self.js("return typeof window.axe").await != json!("object") {
            self.js(&format!("{src}\n;return null")).await;
        }
        self.js_async(
            r#"var done = arguments[0];
            window.axe.run(document, {resultTypes: ['violations']}).then(function (r) {
              done(r.violations.filter(function (v) { return v.impact === 'serious' || v.impact === 'critical'; })
                .map(function (v) { return v.id + ': ' + v.nodes.slice(0, 4).map(function (n) { return n.target.join(' '); }).join(', '); }));
            }, function (e) { done(['axe failed: ' + e]); });"#,
            vec![],
            "axe-core's run",
        )
        .await
    }

    /// The API docs at `/docs`, once they have drawn their operations from /openapi.json.
    pub async fn open_docs(&self) {
        self.goto(&format!("{}/docs", self.base)).await;
        self.wait_js(
            "return document.querySelectorAll('#ops .op').length > 10",
            json!(true),
            "the docs' operations",
        )
        .await;
    }

    pub async fn wait_loaded(&self) {
        self.wait_js(
            "return document.body.getAttribute('data-rulesets-loaded')",
            json!("true"),
            "the rulesets to load",
        )
        .await;
    }

    /// Chooses the flow's language with the page's switch, then reloads
    /// (the choice is remembered) and waits for the page to be in it.
    pub async fn switch_language(&self) {
        self.click(&format!("#lang-{}", self.lang.code)).await;
        self.open("/").await;
    }

    /// The calculator at `/` in the flow's language.
    pub async fn open_in_language(&self) {
        self.open("/").await;
        self.switch_language().await;
        self.wait_js(
            "return document.documentElement.lang",
            json!(self.lang.html_lang),
            "the page in the flow's language",
        )
        .await;
    }

    async fn window(&self, width: u32, height: u32) {
        self.c
            .set_window_size(width, height)
            .await
            .expect("resize the window");
    }

    /// Sizes the window so that the page itself (the viewport) is `width` x `height`.
    pub async fn viewport(&self, width: u32, height: u32) {
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

    async fn find(&self, css: &str) -> Result<Element, fantoccini::error::CmdError> {
        self.c.find(Locator::Css(css)).await
    }

    pub async fn click(&self, css: &str) {
        // In the middle of the screen first, as a player scrolls to what they
        // tap: at the bottom edge the phone's sticky bar would take the click.
        let _ = self
            .c
            .execute(
                "var e = document.querySelector(arguments[0]); if (e) e.scrollIntoView({block: 'center', inline: 'nearest'}); return null",
                vec![json!(css)],
            )
            .await;
        let mut tries = 0;
        loop {
            let e = self
                .find(css)
                .await
                .unwrap_or_else(|e| panic!("find {css}: {e}"));
            match e.click().await {
                Ok(()) => return,
                // The page redrew the element between finding and clicking
                // it (a panel drawn again from an answer): as a player's
                // tap would, take the element now there.
                Err(err) if tries < 20 && err.to_string().contains("stale element") => {
                    tries += 1;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(err) => panic!("click {css}: {err}"),
            }
        }
    }

    pub async fn text(&self, css: &str) -> Result<String, fantoccini::error::CmdError> {
        self.find(css).await?.text().await
    }

    pub async fn displayed(&self, css: &str) -> bool {
        match self.find(css).await {
            Ok(e) => e.is_displayed().await.unwrap_or(false),
            Err(_) => false,
        }
    }

    pub async fn js(&self, script: &str) -> Value {
        self.c
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("script {script}: {e}"))
    }

    /// An asynchronous script: its last argument is the callback that answers.
    pub async fn js_async(&self, script: &str, args: Vec<Value>, what: &str) -> Value {
        self.c
            .execute_async(script, args)
            .await
            .unwrap_or_else(|e| panic!("{what}: {e}"))
    }

    /// A string from the page (`script` must return one).
    pub async fn js_str(&self, script: &str) -> String {
        match self.js(script).await {
            Value::String(s) => s,
            other => panic!("{script}: expected a string, got {other}"),
        }
    }

    /// Writes `target/<name>`, a step's picture.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let png = self.c.screenshot().await.expect("screenshot");
        assert!(png.starts_with(b"\x89PNG"), "the screenshot is a PNG");
        let path = target_dir().join(name);
        std::fs::write(&path, png).expect("write the screenshot");
        println!("screenshot: {}", path.display());
        path
    }

    /// A step's picture, named by the language: `target/browser-{lang}-{step}.png`.
    pub async fn shot(&self, step: &str) {
        self.screenshot(&format!("browser-{}-{step}.png", self.lang.code))
            .await;
    }

    /// Waits until the element's visible text satisfies `ok`; answers it.
    pub async fn wait_text(&self, css: &str, what: &str, ok: impl Fn(&str) -> bool) -> String {
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
                let why = self
                    .failure(format!("{css}: waited for {what}; last text {last:?}"))
                    .await;
                panic!("{why}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until `script`'s value equals `want`; answers it.
    pub async fn wait_js(&self, script: &str, want: Value, what: &str) -> Value {
        let start = Instant::now();
        loop {
            let v = self.js(script).await;
            if v == want {
                return v;
            }
            if start.elapsed() > WAIT {
                let why = self
                    .failure(format!("waited for {what}: {script} is {v}, not {want}"))
                    .await;
                panic!("{why}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Forgets the night this browser kept, shared or not, as a new table would.
    pub async fn forget_night(&self) {
        self.js("window.localStorage.removeItem('faan.night'); window.localStorage.removeItem('faan.shared'); return null")
            .await;
    }

    /// Shares the night on the page (the share button, pressed by script: at
    /// 390 px the bottom bar may lie over it); answers the table's id once
    /// the server holds it at version 1.
    pub async fn share_night(&self) -> String {
        self.js("document.getElementById('btn-share').click(); return null")
            .await;
        self.wait_js(
            "return document.getElementById('share-box').getAttribute('data-version')",
            json!("1"),
            "the night shared",
        )
        .await;
        self.js_str("return document.getElementById('share-box').getAttribute('data-shared')")
            .await
    }

    /// Types the four players' names (Ann, Ben, Cat, Dan) into the night's seats.
    pub async fn seat_players(&self) {
        for (i, name) in ["Ann", "Ben", "Cat", "Dan"].iter().enumerate() {
            self.type_keys(&format!("#player-{i}"), name).await;
        }
    }

    /// Types `text` into the element, one key per WebDriver command (as a
    /// player types: the page's answers to the keys before can arrive
    /// between them; in one command they could not, and a flow raced).
    pub async fn type_keys(&self, css: &str, text: &str) {
        let e = self
            .find(css)
            .await
            .unwrap_or_else(|e| panic!("find {css}: {e}"));
        for c in text.chars() {
            e.send_keys(&c.to_string())
                .await
                .unwrap_or_else(|e| panic!("type {c:?} into {css}: {e}"));
        }
    }

    /// Taps the palette's tiles in order.
    pub async fn click_tiles(&self, tiles: &[&str]) {
        for t in tiles {
            self.click(&format!("#palette [data-tile=\"{t}\"]")).await;
        }
    }

    /// The Reset button, and the empty hand box it leaves.
    pub async fn reset(&self) {
        self.click("#btn-reset").await;
        self.wait_js(
            "return document.getElementById('hand-text').value",
            json!(""),
            "an empty hand box after reset",
        )
        .await;
    }

    /// The Wisteria Court guide's quiet hand tapped in, self-drawn:
    /// 123456m 78p 23455s then the winning 9p (4 faan).
    pub async fn tap_quiet_hand(&self) {
        self.click("#ruleset option[value=\"wisteria-court\"]")
            .await;
        self.click("#win-by option[value=\"self_draw\"]").await;
        self.click_tiles(&[
            "1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "2s", "3s", "4s", "5s", "5s", "9p",
        ])
        .await;
    }

    /// The total faan on screen, once it is `faan`.
    pub async fn wait_faan(&self, faan: &str, what: &str) {
        self.wait_text("#total-faan", what, |t| t == faan).await;
    }

    /// The faan lines on screen: pattern id and the name shown.
    pub async fn lines_shown(&self) -> Vec<(String, String)> {
        serde_json::from_value(
            self.js("return Array.from(document.querySelectorAll('#lines [data-pattern]')).map(function (r) { return [r.getAttribute('data-pattern'), r.cells[0].textContent]; })")
                .await,
        )
        .expect("lines")
    }

    /// The ids of the faan lines on screen.
    pub async fn line_ids(&self) -> Vec<String> {
        self.lines_shown()
            .await
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    }

    /// The payments on screen, east, south, west, north.
    pub async fn payments_shown(&self) -> Value {
        self.js("return ['east', 'south', 'west', 'north'].map(function (s) { return Number(document.getElementById('payment-' + s).getAttribute('data-value')); })")
            .await
    }

    /// Waits for the score on screen: total faan and base points.
    pub async fn wait_score(&self, faan: u32, base_points: u32, what: &str) {
        self.wait_js(
            "return [document.getElementById('total-faan').textContent, document.getElementById('base-points').textContent, document.getElementById('output').getAttribute('data-stale')]",
            json!([faan.to_string(), base_points.to_string(), "false"]),
            what,
        )
        .await;
    }

    /// The House rules panel's export: the ruleset document shown, parsed.
    pub async fn export_document(&self) -> Value {
        self.click("#btn-export").await;
        self.wait_js(
            "return !document.getElementById('hr-export-text').hidden",
            json!(true),
            "the document shown",
        )
        .await;
        serde_json::from_str(
            &self
                .js_str("return document.getElementById('hr-export-text').value")
                .await,
        )
        .expect("the export is JSON")
    }
}
