//! The page with no signal. After one visit the service worker keeps the
//! page, its assets and the scoring module; then the flow stops the server
//! (every request fails at the network, as with no signal) and the page
//! reloads and scores a hand, a night of three hands and an analysis, each
//! answered by the module on this device. A shared night scored offline
//! reaches the server once it is started again on the same port and store.
//!
//! They need the module built (`web/pkg/build.sh`, which `.ci/run` runs
//! first): without `web/pkg/faan.wasm` they fail saying so.

use crate::page::{self, Page, Server};
use crate::{table_row_count, tap};
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

macro_rules! offline_flow {
    ($name:ident, $body:path) => {
        mod $name {
            use super::*;

            #[tokio::test]
            #[ignore = "needs chromium and chromium-driver (apt-get install chromium chromium-driver) and the module (web/pkg/build.sh)"]
            async fn en() {
                page::run_restartable(stringify!($name), &crate::lang::EN, $body).await;
            }

            #[tokio::test]
            #[ignore = "needs chromium and chromium-driver (apt-get install chromium chromium-driver) and the module (web/pkg/build.sh)"]
            async fn zh() {
                page::run_restartable(stringify!($name), &crate::lang::ZH, $body).await;
            }
        }
    };
}

offline_flow!(offline_scoring, offline_flow);
offline_flow!(offline_shared_sync, shared_sync_flow);

fn module_built() {
    let wasm = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/pkg/faan.wasm");
    assert!(
        wasm.is_file(),
        "{} is missing: build the module first (web/pkg/build.sh)",
        wasm.display()
    );
}

/// The offline note as web/i18n/*.js words it.
fn offline_note(lang: &str) -> &'static str {
    if lang == "zh" {
        "離線中：喺呢部機度計番。計番、記低今晚牌局同分析都照用得；分享咗嘅牌局會等返到線上先自動同步。"
    } else {
        "Offline: scoring on this device. Hands, the night and analysis still work; a shared night sends its hands when you are back online."
    }
}

/// Waits until a service worker controls the page and its cache holds the module.
///
/// A navigation that starts while the worker installs (the flows open the
/// page twice) can stay uncontrolled after the worker claims the open pages;
/// the next load is the worker's, so then the page is opened once more, as a
/// player's next visit would.
async fn kept_for_offline(p: &Page) {
    let start = Instant::now();
    let mut reopened = false;
    loop {
        let v = p
            .js_async(
                "var done = arguments[0], sw = navigator.serviceWorker;
                 Promise.all([caches.keys().then(function (ks) {
                   return Promise.all(ks.map(function (k) { return caches.open(k).then(function (c) { return Promise.all([c.match('/pkg/faan.wasm'), c.match('/')]); }); }));
                 }), sw.getRegistration('/')]).then(function (r) {
                   var active = r[1] && r[1].active ? r[1].active.state : null;
                   done([!!sw.controller, r[0].some(function (m) { return !!m[0] && !!m[1]; }), active]);
                 }, function (e) { done(String(e)); });",
                vec![],
                "the worker's cache",
            )
            .await;
        if v == json!([true, true, "activated"]) {
            return;
        }
        if !reopened && v == json!([false, true, "activated"]) {
            reopened = true;
            let here = p.js_str("return location.pathname + location.search").await;
            p.open(&here).await;
            continue;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "[{}] the worker did not take the page and keep the module (controls, keeps, state): {v}",
            p.l()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Reloads with the server stopped: the page comes from the worker's cache.
async fn reload_offline(p: &Page, server: &Server) {
    server.stop().await;
    p.open("/").await;
    p.wait_js(
        "return document.documentElement.lang",
        json!(p.lang.html_lang),
        "the page offline in the flow's language",
    )
    .await;
    let l = p.l();
    p.wait_text("#offline-note", "the offline note", |t| {
        t == offline_note(l)
    })
    .await;
}

async fn engine(p: &Page) -> Value {
    p.js("return document.getElementById('offline-note').getAttribute('data-engine')")
        .await
}

/// The players' (delta, balance) of each hand on screen, by hand.
async fn night_rows(p: &Page) -> Value {
    p.js("return Array.from(document.querySelectorAll('#table-body tr')).map(function (r) { return [r.getAttribute('data-result')].concat(Array.from(r.querySelectorAll('td.points-col')).map(function (c) { return c.getAttribute('data-player') + ' ' + c.getAttribute('data-delta') + ' ' + c.getAttribute('data-balance'); })); })")
        .await
}

async fn seat_players(p: &Page) {
    for (i, name) in ["Ann", "Ben", "Cat", "Dan"].iter().enumerate() {
        p.type_keys(&format!("#player-{i}"), name).await;
    }
}

/// Ben wins on Cat's discard with 3 faan, by taps.
async fn ben_on_cat(p: &Page) {
    p.click("#btn-quick-win").await;
    tap(p, "data-quick-player", "Ben").await;
    tap(p, "data-quick-how", "Cat").await;
    tap(p, "data-quick-faan", "3").await;
}

/// One visit, then no server: a hand, a night of three hands and an
/// analysis, each answered on this device, with the values the server's
/// own flows assert (worked by hand there: hand.rs, taps.rs, analysis.rs).
async fn offline_flow(p: Page, server: Server) {
    module_built();
    let l = p.l();
    p.open_in_language().await;
    p.js("window.localStorage.removeItem('faan.night'); window.localStorage.removeItem('faan.shared'); return null")
        .await;
    kept_for_offline(&p).await;
    assert_eq!(
        p.text("#offline-note").await.unwrap(),
        "",
        "[{l}] online: no note"
    );

    reload_offline(&p, &server).await;
    p.viewport(390, 844).await;
    // The Wisteria Court guide's quiet hand, self-drawn: 4 faan, each of
    // the three others pays 2 x 16 = 32 and the winner gains 96.
    p.tap_quiet_hand().await;
    p.wait_faan("4", "the quiet hand scored offline").await;
    assert_eq!(
        p.payments_shown().await,
        json!([-32, 96, -32, -32]),
        "[{l}] the quiet hand's payments, east south west north"
    );
    assert_eq!(
        engine(&p).await,
        json!("local"),
        "[{l}] answered on this device"
    );
    p.shot("offline-score-390").await;

    // A night of three hands under HKMA, by taps (half-spicy B = 8 at 3
    // faan, 24 at 5, 128 at the limit): Ben on Cat's discard 3 faan (Cat
    // pays 4B = 32), Ann self-draws 5 faan (2B = 48 from each), Dan's limit
    // on Ben's discard (Ben pays 512).
    p.reset().await;
    p.open("/?rules=hkma").await;
    seat_players(&p).await;
    ben_on_cat(&p).await;
    table_row_count(&p, 1, "hand 1 offline").await;
    p.click("#btn-quick-win").await;
    tap(&p, "data-quick-player", "Ann").await;
    tap(&p, "data-quick-how", "").await;
    tap(&p, "data-quick-faan", "5").await;
    table_row_count(&p, 2, "hand 2 offline").await;
    p.click("#btn-quick-win").await;
    tap(&p, "data-quick-player", "Dan").await;
    tap(&p, "data-quick-how", "Ben").await;
    tap(&p, "data-quick-limit", "").await;
    table_row_count(&p, 3, "hand 3 offline").await;
    assert_eq!(
        night_rows(&p).await,
        json!([
            ["win", "Ann 0 0", "Ben 32 32", "Cat -32 -32", "Dan 0 0"],
            [
                "win",
                "Ann 144 144",
                "Ben -48 -16",
                "Cat -48 -80",
                "Dan -48 -48"
            ],
            [
                "win",
                "Ann 0 144",
                "Ben -512 -528",
                "Cat 0 -80",
                "Dan 512 464"
            ]
        ]),
        "[{l}] the night of three hands, offline, as worked"
    );
    assert_eq!(
        p.js("return JSON.parse(window.localStorage.getItem('faan.night')).hands.length")
            .await,
        json!(3),
        "[{l}] the night is kept in the browser"
    );
    p.js("document.getElementById('table').scrollIntoView(); return null")
        .await;
    p.shot("offline-night-390").await;

    // Which tile to discard: 123m 456m 78p 55s 222z 9s, south seat, HKMA,
    // 1z1z9s seen: throwing 9s leaves it ready on 6p/9p, 4 unseen each.
    p.js("document.getElementById('mode-calc').click(); return null")
        .await;
    p.reset().await;
    p.click("#ruleset option[value=\"hkma\"]").await;
    p.type_keys("#hand-text", "123m456m78p55s222z9s").await;
    p.type_keys("#seen-text", "1z1z9s").await;
    p.click("#btn-discard").await;
    p.wait_js(
        "return document.getElementById('discard-best-title').getAttribute('data-best')",
        json!("9s"),
        "the best discard, offline",
    )
    .await;
    assert_eq!(
        p.js("var q = function (s) { return Array.from(document.querySelectorAll(s)); };
              return [q('#discard-body tr').slice(0, 2).map(function (r) { return [r.getAttribute('data-discard'), r.getAttribute('data-shanten'), r.getAttribute('data-acceptance')]; }),
                      q('#discard-acceptance [data-accept]').map(function (a) { return a.getAttribute('data-accept') + 'x' + a.getAttribute('data-unseen'); })];")
            .await,
        json!([[["9s", "0", "8"], ["1m", "1", "18"]], ["6px4", "9px4"]]),
        "[{l}] the analysis offline"
    );
    assert_eq!(engine(&p).await, json!("local"));
    p.js("document.getElementById('discard').scrollIntoView(); return null")
        .await;
    p.shot("offline-discard-390").await;

    // The server back: the page is the server's again, and says nothing.
    server.start().await;
    p.open("/").await;
    p.wait_text("#offline-note", "no note once the server answers", |t| {
        t.is_empty()
    })
    .await;
    assert_eq!(engine(&p).await, json!("server"));
}

/// A shared night: shared while online, then a hand scored with no server
/// waits on this phone, and reaches the server (same port, same store)
/// once it is started again.
async fn shared_sync_flow(p: Page, server: Server) {
    module_built();
    let l = p.l();
    p.open_in_language().await;
    p.js("window.localStorage.removeItem('faan.night'); window.localStorage.removeItem('faan.shared'); return null")
        .await;
    p.open("/?rules=hkma").await;
    seat_players(&p).await;
    let id = p.share_night().await;
    kept_for_offline(&p).await;

    reload_offline(&p, &server).await;
    p.viewport(390, 844).await;
    ben_on_cat(&p).await;
    p.wait_js(
        "return [document.getElementById('share-box').getAttribute('data-waiting'), document.getElementById('share-box').getAttribute('data-offline')]",
        json!(["1", "true"]),
        "the hand waiting on this phone",
    )
    .await;
    p.shot("offline-shared-waiting-390").await;

    server.start().await;
    p.wait_js(
        "return [document.getElementById('share-box').getAttribute('data-waiting'), document.getElementById('share-box').getAttribute('data-version')]",
        json!(["0", "2"]),
        "the hand sent once the server is back",
    )
    .await;
    let table: Value = reqwest::get(format!("{}/v1/tables/{id}", p.base))
        .await
        .expect("the server answers")
        .json()
        .await
        .expect("JSON");
    assert_eq!(
        table["request"]["hands"][0]["winners"][0]["player"],
        json!("Ben"),
        "[{l}] the server holds Ben's win"
    );
    // Ben on Cat's discard, 3 faan under HKMA: B = 8, Cat pays 4B = 32.
    assert_eq!(
        table["ledger"]["balances"],
        json!({"Ann": 0, "Ben": 32, "Cat": -32, "Dan": 0}),
        "[{l}] the server's balances after the hand"
    );
}
