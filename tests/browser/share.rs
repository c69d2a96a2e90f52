//! The shared night in two browsers: the sharer's QR code and links, a
//! viewer on `/t/{id}` following live, a scorer offline for two hands whose
//! hands arrive in order, a conflict between two scorers shown and settled
//! by the player, and axe-core on the viewer's and the group's pages.
//!
//! Each flow's server keeps tables in a SQLite file of its own.

use crate::page::Page;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The server's table, read by the page itself.
async fn server_table(p: &Page, id: &str) -> Value {
    p.js_async(
        "var done = arguments[1]; window.fetch('/v1/tables/' + arguments[0]).then(function (r) { return r.json(); }).then(done, function (e) { done(String(e)); });",
        vec![json!(id)],
        "GET the table",
    )
    .await
}

fn results(table: &Value) -> Vec<String> {
    table["request"]["hands"]
        .as_array()
        .expect("hands")
        .iter()
        .map(|h| match h["result"].as_str().unwrap() {
            "false_win" => format!("false_win {}", h["offender"].as_str().unwrap()),
            r => r.to_string(),
        })
        .collect()
}

async fn share_attr(p: &Page, name: &str) -> Value {
    p.js(&format!(
        "return document.getElementById('share-box').getAttribute('{name}')"
    ))
    .await
}

async fn false_win(p: &Page, who: &str) {
    p.click(&format!("#table-offender option[value=\"{who}\"]"))
        .await;
    p.click("#btn-add-false-win").await;
}

/// Share, follow, offline, conflict. The hands are draws and false wins
/// (whose rows need no scoring) so the flow is about the sharing; the
/// ledger's own arithmetic is tested elsewhere.
pub(crate) async fn share_flow(p: Page) {
    let l = p.l();
    p.open_in_language().await;
    p.forget_night().await;
    p.open("/").await;
    p.seat_players().await;
    // Share: the table is made from the local night (no hands yet, version 1).
    p.click("#btn-share").await;
    p.wait_js(
        "return document.getElementById('share-box').getAttribute('data-version')",
        json!("1"),
        "the night shared",
    )
    .await;
    let id = share_attr(&p, "data-shared")
        .await
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(id.len(), 22, "[{l}] a 128-bit id in base64url");
    let view_url = p
        .js_str("return document.getElementById('share-url').value")
        .await;
    assert_eq!(
        view_url,
        format!("{}/t/{id}", p.base),
        "[{l}] the link to watch"
    );
    // The QR code: a version-3 symbol at least (29 modules) for a 60-odd character link.
    // The encoder is imported once the night is shared: wait for its drawing.
    p.wait_js(
        "return !!document.querySelector('#share-qr svg')",
        json!(true),
        "the QR code drawn",
    )
    .await;
    let modules = p
        .js("return Number(document.querySelector('#share-qr svg').getAttribute('data-modules'))")
        .await;
    assert!(
        modules.as_u64().unwrap() >= 29,
        "[{l}] the link as a QR code: {modules} modules"
    );
    p.js("document.getElementById('share-box').scrollIntoView(); return null")
        .await;
    p.shot("share-qr").await;

    // A second phone on the view link sees the night live.
    let (driver2, v) = p.another_browser("-2").await;
    v.goto(&view_url).await;
    v.wait_js(
        "return [document.getElementById('v-connection').getAttribute('data-state'), document.getElementById('v-last').getAttribute('data-hands')]",
        json!(["live", "0"]),
        "the viewer connected, no hands",
    )
    .await;
    // A draw on the scorer's phone shows on the viewer's within two seconds.
    let start = Instant::now();
    p.click("#btn-add-draw").await;
    v.wait_js(
        "return document.getElementById('v-last').getAttribute('data-hands')",
        json!("1"),
        "the new hand on the viewer's page",
    )
    .await;
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(2),
        "[{l}] the viewer saw the hand in {took:?}"
    );
    println!("share: the viewer saw the new hand {took:?} after the click");
    p.wait_js(
        "return document.getElementById('share-box').getAttribute('data-version')",
        json!("2"),
        "hand 1 sent",
    )
    .await;

    // Offline for two hands: they wait here, in order, kept in local storage.
    p.offline(true).await;
    false_win(&p, "Ben").await;
    p.wait_js(
        "return [document.getElementById('share-box').getAttribute('data-waiting'), document.getElementById('share-box').getAttribute('data-offline')]",
        json!(["1", "true"]),
        "the first offline hand waiting",
    )
    .await;
    p.click("#btn-add-draw").await;
    p.wait_js(
        "return document.getElementById('share-box').getAttribute('data-waiting')",
        json!("2"),
        "two hands waiting",
    )
    .await;
    let state = p.text("#share-state").await.unwrap();
    let want = if l == "en" {
        "Offline: 2 hands wait here"
    } else {
        "離線：2 局留喺呢度"
    };
    assert!(
        state.starts_with(want),
        "[{l}] the page says it is offline: {state:?}"
    );
    assert_eq!(
        p.js("return JSON.parse(window.localStorage.getItem('faan.shared')).queue.map(function (h) { return h.result; })")
            .await,
        json!(["false_win", "draw"]),
        "[{l}] the waiting hands are kept in local storage, in order"
    );
    assert_eq!(
        v.js("return document.getElementById('v-last').getAttribute('data-hands')")
            .await,
        json!("1"),
        "[{l}] the viewer has not seen them"
    );
    p.js("document.getElementById('share-state').scrollIntoView(); return null")
        .await;
    p.shot("share-offline").await;
    // Back online: both arrive, in the order entered.
    p.offline(false).await;
    p.wait_js(
        "return [document.getElementById('share-box').getAttribute('data-waiting'), document.getElementById('share-box').getAttribute('data-version')]",
        json!(["0", "4"]),
        "both hands sent",
    )
    .await;
    v.wait_js(
        "return document.getElementById('v-last').getAttribute('data-hands')",
        json!("3"),
        "the viewer sees both",
    )
    .await;
    assert_eq!(
        results(&server_table(&p, &id).await),
        ["draw", "false_win Ben", "draw"],
        "[{l}] the server holds the hands in the order entered"
    );
    assert_eq!(
        v.js("return Array.from(document.querySelectorAll('#v-body tr')).map(function (r) { return r.getAttribute('data-result'); })").await,
        json!(["draw", "false_win", "draw"]),
        "[{l}] the viewer's table, in order"
    );

    // The viewer offline: it says so, and catches up by itself once back.
    v.offline(true).await;
    v.wait_js(
        "return document.getElementById('v-connection').getAttribute('data-state')",
        json!("offline"),
        "the viewer saying it is offline",
    )
    .await;
    let said = v.text("#v-connection").await.unwrap();
    assert!(
        said.starts_with("Offline"),
        "[{l}] the viewer (in English) says it is offline: {said:?}"
    );
    v.shot("viewer-offline").await;
    p.click("#btn-add-draw").await;
    p.wait_js(
        "return document.getElementById('share-box').getAttribute('data-version')",
        json!("5"),
        "hand 4 sent",
    )
    .await;
    v.offline(false).await;
    v.wait_js(
        "return [document.getElementById('v-connection').getAttribute('data-state'), document.getElementById('v-last').getAttribute('data-hands')]",
        json!(["live", "4"]),
        "the viewer back, with the hand it missed",
    )
    .await;

    // The scorer's link on the second phone: it scores too.
    p.click("#btn-share-score").await;
    let score_url = p
        .js_str("return document.getElementById('share-url').value")
        .await;
    assert!(
        score_url.starts_with(&format!("{view_url}#key=")),
        "[{l}] the scorer's link carries the key in its fragment"
    );
    v.goto(&score_url).await;
    v.wait_js(
        "var b = document.getElementById('share-box'); return b ? b.getAttribute('data-version') : null",
        json!("5"),
        "the second phone scoring the shared night",
    )
    .await;
    assert!(
        !v.js_str("return location.href").await.contains("key="),
        "[{l}] the key leaves the address bar"
    );
    // Both scorers follow the table live: the second phone's draw reaches
    // this one with no reload, and a hand added here then follows it.
    v.click("#btn-add-draw").await;
    p.wait_js(
        "return document.getElementById('share-box').getAttribute('data-version')",
        json!("6"),
        "the other scorer's draw, live",
    )
    .await;
    p.click("#btn-add-draw").await;
    v.wait_js(
        "return document.getElementById('share-box').getAttribute('data-version')",
        json!("7"),
        "this scorer's draw on the other phone",
    )
    .await;
    // A conflict: both add from version 7: this phone offline, the other's hand first on the server.
    p.offline(true).await;
    false_win(&p, "Dan").await;
    p.wait_js(
        "return document.getElementById('share-box').getAttribute('data-waiting')",
        json!("1"),
        "mine waiting offline",
    )
    .await;
    v.click("#btn-add-draw").await;
    v.wait_js(
        "return document.getElementById('share-box').getAttribute('data-version')",
        json!("8"),
        "the other scorer's draw",
    )
    .await;
    p.offline(false).await;
    p.wait_js(
        "return document.getElementById('share-box').getAttribute('data-conflict')",
        json!("true"),
        "the conflict shown",
    )
    .await;
    assert_eq!(
        p.js("return Array.from(document.querySelectorAll('#share-conflict-theirs li')).map(function (li) { return li.getAttribute('data-hand'); })").await,
        json!(["6"]),
        "[{l}] the other scorer's hand (hand 7) is shown"
    );
    let mine = p.text("#share-conflict-mine").await.unwrap();
    assert!(
        mine.contains('1'),
        "[{l}] mine, one hand, is kept: {mine:?}"
    );
    assert_eq!(
        results(&server_table(&p, &id).await).len(),
        7,
        "[{l}] nothing of mine was sent meanwhile"
    );
    p.js("document.getElementById('share-conflict').scrollIntoView(); return null")
        .await;
    p.shot("share-conflict").await;
    p.click("#btn-conflict-keep").await;
    p.wait_js(
        "return [document.getElementById('share-box').getAttribute('data-conflict'), document.getElementById('share-box').getAttribute('data-waiting'), document.getElementById('share-box').getAttribute('data-version')]",
        json!(["false", "0", "9"]),
        "mine sent after theirs",
    )
    .await;
    assert_eq!(
        results(&server_table(&p, &id).await),
        [
            "draw",
            "false_win Ben",
            "draw",
            "draw",
            "draw",
            "draw",
            "draw",
            "false_win Dan"
        ],
        "[{l}] theirs, then mine"
    );
    v.close().await;
    drop(driver2);
    p.forget_night().await;
}

/// The viewer's page of a night and a group's page: axe-core finds no
/// serious or critical violation at 390 and 1366 px.
pub(crate) async fn shared_pages_axe_flow(p: Page) {
    let l = p.l();
    p.open_in_language().await;
    let made = p
        .js_async(
            r#"var done = arguments[0];
            var post = function (path, body) { return window.fetch(path, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)}).then(function (r) { return r.json(); }); };
            post('/v1/groups', {name: 'Thursday club'}).then(function (g) {
              return post('/v1/tables', {ruleset: 'hkma', title: 'Night one', players: ['Ann', 'Ben', 'Cat', 'Dan'],
                hands: [{result: 'draw'}, {result: 'false_win', offender: 'Ben'}], group: {id: g.id, key: g.key}})
                .then(function (t) { done([g.id, t.id]); });
            }).catch(function (e) { done(String(e)); });"#,
            vec![],
            "a group and a night in it",
        )
        .await;
    let (gid, tid) = (
        made[0].as_str().unwrap().to_string(),
        made[1].as_str().unwrap().to_string(),
    );
    for (w, h) in [(390, 844), (1366, 768)] {
        p.viewport(w, h).await;
        p.goto(&format!("{}/t/{tid}", p.base)).await;
        p.wait_js(
            "return [document.getElementById('v-connection').getAttribute('data-state'), document.getElementById('v-last').getAttribute('data-hands'), document.documentElement.lang]",
            json!(["live", "2", p.lang.html_lang]),
            "the night on the viewer's page",
        )
        .await;
        assert_eq!(
            p.js("return document.querySelectorAll('#v-stats-body tr').length")
                .await,
            json!(4),
            "[{l}] the night's statistics, a row per player"
        );
        assert_eq!(
            p.axe_serious().await,
            json!([]),
            "[{l}] axe-core on /t/ at {w} px"
        );
        p.shot(&format!("viewer-{w}")).await;
        p.goto(&format!("{}/g/{gid}", p.base)).await;
        p.wait_js(
            "return document.querySelectorAll('#v-nights li').length",
            json!(1),
            "the group's night",
        )
        .await;
        assert_eq!(
            p.js("return document.querySelector('#v-nights a').getAttribute('href')")
                .await,
            json!(format!("/t/{tid}")),
            "[{l}] the night links to its page"
        );
        assert_eq!(
            p.axe_serious().await,
            json!([]),
            "[{l}] axe-core on /g/ at {w} px"
        );
        p.shot(&format!("group-{w}")).await;
    }
}
