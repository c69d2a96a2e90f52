//! Two scorers on one shared night, each phone at 390 px: each sees the
//! other's hand live, with no reload; the same hand added on both counts
//! once; hands added offline show in the table, marked unsent and
//! numbered after the server's, and are then sent; a scorer who joins
//! sees the rules in force.
//!
//! Each flow's server keeps tables in a SQLite file of its own.

use crate::page::Page;
use crate::tap;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Brings a control to the middle of the screen, clear of the bottom bar at 390 px.
pub(crate) async fn centre(p: &Page, id: &str) {
    p.js(&format!(
        "document.getElementById('{id}').scrollIntoView({{block: 'center'}}); return null"
    ))
    .await;
}

/// A win by taps; answers when its last tap (the one that sends it) was made.
pub(crate) async fn win(p: &Page, winner: &str, discarder: &str, faan: &str) -> Instant {
    centre(p, "btn-quick-win").await;
    p.click("#btn-quick-win").await;
    tap(p, "data-quick-player", winner).await;
    tap(p, "data-quick-how", discarder).await;
    let sent = Instant::now();
    tap(p, "data-quick-faan", faan).await;
    sent
}

/// The hands the server holds, each as "result player faan" (or the offender).
async fn server_hands(p: &Page, id: &str) -> Value {
    p.js_async(
        r#"var done = arguments[1];
        window.fetch('/v1/tables/' + arguments[0]).then(function (r) { return r.json(); }).then(function (t) {
          done(t.request.hands.map(function (h) {
            if (h.result !== 'win') return h.result;
            return h.winners.map(function (w) { return w.player + ' ' + w.declared.faan + ' ' + (w.context.discarder || 'self'); }).join(' + ');
          }));
        }, function (e) { done(String(e)); });"#,
        vec![json!(id)],
        "GET the table",
    )
    .await
}

/// The rows of the night on the page: [number, unsent?, result] each.
async fn rows(p: &Page) -> Value {
    p.js("return Array.from(document.querySelectorAll('#table-body tr')).map(function (r) { return [r.getAttribute('data-number'), r.classList.contains('unsent'), r.getAttribute('data-result')]; })")
        .await
}

/// Waits until the page holds `v` and shows `n` rows; answers how long it took.
async fn sees(p: &Page, v: &str, n: usize, what: &str) -> Duration {
    let start = Instant::now();
    p.wait_js(
        "return [document.getElementById('share-box').getAttribute('data-version'), document.querySelectorAll('#table-body tr').length]",
        json!([v, n]),
        what,
    )
    .await;
    start.elapsed()
}

/// HKMA (B = 8, 16 for 3, 4 faan). Ann's phone shares the night and shows
/// its table; Ben's phone joins with the scorer's link.
pub(crate) async fn live_scorers_flow(p: Page) {
    let l = p.l();
    let zh = l == "zh";
    std::fs::create_dir_all(crate::page::target_dir().join("shots")).expect("target/shots");
    p.open_in_language().await;
    p.forget_night().await;
    p.open("/?rules=hkma&view=table").await;
    p.viewport(390, 844).await;
    p.seat_players().await;
    let id = p.share_night().await;
    let score_url = score_link(&p).await;

    // The second scorer, in the same language, joins with the scorer's link.
    let (driver2, q) = p.another_browser("-2").await;
    q.open_in_language().await;
    q.viewport(390, 844).await;
    q.goto(&score_url).await;
    q.wait_loaded().await;
    q.wait_js(
        "var b = document.getElementById('share-box'); return b ? b.getAttribute('data-version') : null",
        json!("1"),
        "the second scorer on the shared night",
    )
    .await;

    // Each sees the other's hand within 2 s, with no reload.
    let start = win(&p, "Ann", "Ben", "3").await;
    sees(&q, "2", 1, "Ann's win on the second phone").await;
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(2),
        "[{l}] the second scorer saw the hand in {took:?}"
    );
    println!("live: the second scorer saw the hand {took:?} after the tap that sent it");
    let start = win(&q, "Ben", "", "4").await;
    sees(&p, "3", 2, "Ben's self-draw on the first phone").await;
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(2),
        "[{l}] the first scorer saw the hand in {took:?}"
    );
    assert_eq!(
        p.js("return Array.from(document.querySelectorAll('#table-standings li')).map(function (li) { return li.getAttribute('data-player') + ' ' + li.getAttribute('data-balance'); })")
            .await,
        json!(["Ben 64", "Ann 0", "Cat -32", "Dan -32"]),
        "[{l}] standings on the first phone after both hands: Ann +32 -32, Ben -32 +96, Cat and Dan -32"
    );

    // The same hand on both: the second phone is offline when it adds Cat's 3 on Dan's discard.
    q.offline(true).await;
    win(&q, "Cat", "Dan", "3").await;
    q.wait_js(
        "return document.getElementById('share-box').getAttribute('data-waiting')",
        json!("1"),
        "the hand waiting on the second phone",
    )
    .await;
    assert_eq!(
        rows(&q).await,
        json!([["1", false, "win"], ["2", false, "win"], ["3", true, "win"]]),
        "[{l}] the unsent hand is in the table, numbered after the server's, marked"
    );
    let marked = q.text("#table-body tr.unsent td.deal").await.unwrap();
    assert_eq!(
        marked,
        if zh { "未送出" } else { "Not sent yet" },
        "[{l}] the row says it is not sent"
    );
    win(&p, "Cat", "Dan", "3").await;
    p.wait_js(
        "return document.getElementById('share-box').getAttribute('data-version')",
        json!("4"),
        "the first phone's hand 3 on the server",
    )
    .await;
    q.offline(false).await;
    q.wait_js(
        "return document.getElementById('share-box').getAttribute('data-conflict')",
        json!("true"),
        "the conflict on the second phone",
    )
    .await;
    assert_eq!(
        q.js("return Array.from(document.querySelectorAll('#share-conflict-mine-list li')).map(function (li) { return li.getAttribute('data-same'); })")
            .await,
        json!(["2"]),
        "[{l}] mine is said to be the same as theirs (row 2, hand 3)"
    );
    let keep = q.text("#btn-conflict-keep").await.unwrap();
    assert_eq!(
        keep,
        if zh {
            "保留佢嘅：我嘅同佢一樣"
        } else {
            "Keep theirs: mine is the same"
        },
        "[{l}] the first choice never counts the hand twice"
    );
    let box_text = q.text("#share-conflict").await.unwrap();
    for part in if zh {
        ["佢嘅", "你嘅", "同佢嘅第 3 局一樣"]
    } else {
        ["Theirs", "Yours", "the same as their hand 3"]
    } {
        assert!(
            box_text.contains(part),
            "[{l}] the conflict box says {part:?}: {box_text:?}"
        );
    }
    q.js("document.getElementById('share-conflict').scrollIntoView(); return null")
        .await;
    q.screenshot(&format!("shots/live-conflict-{l}-390.png"))
        .await;
    centre(&q, "btn-conflict-keep").await;
    q.click("#btn-conflict-keep").await;
    q.wait_js(
        "return [document.getElementById('share-box').getAttribute('data-conflict'), document.getElementById('share-box').getAttribute('data-waiting'), document.getElementById('share-box').getAttribute('data-version'), document.getElementById('status').getAttribute('data-state')]",
        json!(["false", "0", "4", "ok"]),
        "the conflict settled, the red line gone",
    )
    .await;
    assert_eq!(
        server_hands(&p, &id).await,
        json!(["Ann 3 Ben", "Ben 4 self", "Cat 3 Dan"]),
        "[{l}] the same hand once"
    );
    assert_eq!(
        rows(&q).await,
        json!([
            ["1", false, "win"],
            ["2", false, "win"],
            ["3", false, "win"]
        ]),
        "[{l}] the second phone's table: three hands, none unsent"
    );

    // Offline for two hands: shown at once, marked, then sent in order.
    q.offline(true).await;
    centre(&q, "btn-add-draw").await;
    q.click("#btn-add-draw").await;
    q.wait_js(
        "return document.getElementById('share-box').getAttribute('data-offline')",
        json!("true"),
        "offline",
    )
    .await;
    win(&q, "Dan", "", "3").await;
    q.wait_js(
        "return document.getElementById('share-box').getAttribute('data-waiting')",
        json!("2"),
        "two hands waiting",
    )
    .await;
    assert_eq!(
        rows(&q).await,
        json!([
            ["1", false, "win"],
            ["2", false, "win"],
            ["3", false, "win"],
            ["4", true, "draw"],
            ["5", true, "win"]
        ]),
        "[{l}] both offline hands in the table, numbered 4 and 5 after the server's 3"
    );
    let deal = q.text("#table-deal").await.unwrap();
    assert!(
        deal.contains(if zh { "第 6 局" } else { "Hand 6" }),
        "[{l}] the card counts the same hands: {deal:?}"
    );
    assert_eq!(
        q.js("return document.getElementById('table-unsent-note').hidden")
            .await,
        json!(false),
        "[{l}] the standings say what is not counted yet"
    );
    q.js("document.getElementById('table-body').lastElementChild.scrollIntoView(); return null")
        .await;
    q.screenshot(&format!("shots/live-unsent-{l}-390.png"))
        .await;
    q.offline(false).await;
    q.wait_js(
        "return [document.getElementById('share-box').getAttribute('data-waiting'), document.getElementById('share-box').getAttribute('data-version')]",
        json!(["0", "6"]),
        "both sent",
    )
    .await;
    sees(&p, "6", 5, "the offline hands on the first phone").await;
    assert_eq!(
        server_hands(&p, &id).await,
        json!(["Ann 3 Ben", "Ben 4 self", "Cat 3 Dan", "draw", "Dan 3 self"]),
        "[{l}] the offline hands on the server, in order"
    );
    assert_eq!(
        rows(&p).await,
        json!([
            ["1", false, "win"],
            ["2", false, "win"],
            ["3", false, "win"],
            ["4", false, "draw"],
            ["5", false, "win"]
        ]),
        "[{l}] the first phone's table"
    );
    assert_eq!(
        q.axe_serious().await,
        json!([]),
        "[{l}] axe-core on the second scorer's page"
    );

    // The second phone on the link to watch: the settle-up (points, no
    // stake: the server's `transfers`), the CSV for people, and the hand
    // that comes in marked.
    q.goto(&format!("{}/t/{id}", q.base)).await;
    q.wait_js(
        "return [document.getElementById('v-connection').getAttribute('data-state'), document.getElementById('v-last').getAttribute('data-hands')]",
        json!(["live", "5"]),
        "the viewer's page",
    )
    .await;
    let server_transfers = p
        .js_async(
            r#"var done = arguments[1];
            window.fetch('/v1/tables/' + arguments[0]).then(function (r) { return r.json(); }).then(function (t) {
              done(t.ledger.transfers.map(function (x) { return [x.from, x.to, String(x.amount)]; }));
            }, function (e) { done(String(e)); });"#,
            vec![json!(id)],
            "the server's transfers",
        )
        .await;
    assert_eq!(
        q.js("return Array.from(document.querySelectorAll('#v-transfers li')).map(function (li) { return [li.getAttribute('data-from'), li.getAttribute('data-to'), li.getAttribute('data-amount')]; })")
            .await,
        server_transfers,
        "[{l}] the viewer's settle-up is the server's"
    );
    // The CSV button asks the server for the night in the page's language.
    let csv = q
        .js_async(
            r#"var done = arguments[0];
            var made = URL.createObjectURL;
            URL.createObjectURL = function (b) { b.text().then(done); return made.call(URL, b); };
            HTMLAnchorElement.prototype.click = function () {};
            document.getElementById('v-csv').click();"#,
            vec![],
            "the CSV",
        )
        .await;
    let csv = csv.as_str().unwrap_or_default().to_string();
    // (Blob.text() reads the byte order mark as UTF-8's and drops it.)
    let (head, settle) = if zh {
        ("局,場,圈,莊家,結果", "\r\n找數,付,收,金額,")
    } else {
        (
            "hand,game,round,dealer,result",
            "\r\nsettle up,from,to,amount,",
        )
    };
    assert!(
        csv.starts_with(head) && csv.contains(settle),
        "[{l}] the server's CSV for people, in the page's language: {csv:?}"
    );
    for t in server_transfers.as_array().unwrap() {
        let row = format!(
            "\r\n,{},{},{},",
            t[0].as_str().unwrap(),
            t[1].as_str().unwrap(),
            t[2].as_str().unwrap()
        );
        assert!(
            csv.contains(&row),
            "[{l}] the CSV settles up as the page does: {row:?} in {csv:?}"
        );
    }
    win(&p, "Ben", "Ann", "3").await;
    q.wait_js(
        "var r = document.querySelector('#v-body tr.new-hand'); return r ? [r.getAttribute('data-hand'), r.getAttribute('data-number')] : null",
        json!(["5", "6"]),
        "the new hand marked on the viewer's page",
    )
    .await;
    assert_eq!(
        q.axe_serious().await,
        json!([]),
        "[{l}] axe-core on the viewer's page with its settle-up"
    );
    q.js("document.getElementById('v-transfers').scrollIntoView(); return null")
        .await;
    q.screenshot(&format!("shots/viewer-settle-{l}-390.png"))
        .await;
    q.js("document.querySelector('#v-body tr.new-hand').scrollIntoView({block: 'center'}); return null")
        .await;
    q.screenshot(&format!("shots/viewer-new-hand-{l}-390.png"))
        .await;
    q.close().await;
    drop(driver2);
}

/// A scorer who joins after a change of stake sees the stake in force, the
/// ledger's `in_force` ($2.00), never the night's first ($1.00), and the
/// card counts played hands (a draw, then the change: hand 2 comes).
pub(crate) async fn joined_rules_flow(p: Page) {
    let l = p.l();
    p.open_in_language().await;
    p.forget_night().await;
    p.open("/?rules=hkma&view=table").await;
    p.seat_players().await;
    p.js("window.confirm = function () { return true; }; var c = document.getElementById('tr-stake'); c.value = '1'; c.dispatchEvent(new Event('change', {bubbles: true})); return null")
        .await;
    centre(&p, "btn-add-draw").await;
    p.click("#btn-add-draw").await;
    crate::table_row_count(&p, 1, "the draw").await;
    p.js("var c = document.getElementById('tr-stake'); c.value = '2'; c.dispatchEvent(new Event('change', {bubbles: true})); return null")
        .await;
    crate::table_row_count(&p, 2, "the change of stake").await;
    p.share_night().await;
    let score_url = score_link(&p).await;
    let (driver2, q) = p.another_browser("-2").await;
    q.open_in_language().await;
    // Her page had its own ruleset chosen before she opened the link.
    q.open("/?rules=wisteria-court").await;
    q.goto(&score_url).await;
    q.wait_loaded().await;
    crate::table_row_count(&q, 2, "the joined night").await;
    for visit in ["joined", "the score link opened again"] {
        if visit != "joined" {
            q.goto(&score_url).await;
            q.wait_loaded().await;
            crate::table_row_count(&q, 2, "the night again").await;
        }
        q.wait_js(
            "return document.getElementById('ruleset').value",
            json!("hkma"),
            &format!("[{l}] {visit}: the table's ruleset, not the one her page had"),
        )
        .await;
    }
    let rules = q.text("#table-in-force").await.unwrap();
    let (now, first) = if l == "zh" {
        ("每分 $2.00", "每分 $1.00")
    } else {
        ("$2.00 a point", "$1.00 a point")
    };
    assert!(
        rules.contains(now) && !rules.contains(first),
        "[{l}] the joined scorer sees the stake in force: {rules:?}"
    );
    assert_eq!(
        q.js("return document.getElementById('tr-stake-shown').getAttribute('data-stake')")
            .await,
        json!("2"),
        "[{l}] the table rules show the stake in force"
    );
    let deal = q.text("#table-deal").await.unwrap();
    assert!(
        deal.starts_with(if l == "zh" { "第 2 局" } else { "Hand 2:" }),
        "[{l}] one hand played: hand 2 comes: {deal:?}"
    );
    q.close().await;
    drop(driver2);
}

/// The shared night's scorer link, as the share box shows it.
pub(crate) async fn score_link(p: &Page) -> String {
    p.js("document.getElementById('btn-share-score').click(); return null")
        .await;
    p.js_str("return document.getElementById('share-url').value")
        .await
}
