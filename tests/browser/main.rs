//! Browser tests of the calculator page: the real server on port 0,
//! headless Chromium driven through chromedriver (WebDriver, with the
//! `fantoccini` client), clicking and typing like a player.
//!
//! Needs `chromedriver` and Chromium (Debian: `apt-get install chromium
//! chromium-driver`), so every test is `#[ignore]`d: `cargo test --
//! --include-ignored` runs them (as `.ci/run` does), and there a missing
//! browser fails them. `FAAN_CHROMEDRIVER` and `FAAN_CHROMIUM` override the
//! binaries' paths.
//!
//! One test per flow and language (`score::en`, `score::zh`, ...), each with
//! its own server, chromedriver and Chromium, so flows run in parallel (two
//! browsers at once). Steps keep screenshots in `target/browser-{en,zh}-*.png`;
//! a failure names its flow and keeps `target/browser/<flow>-<lang>-failure.png`.
//! A view or control the page lacks fails the test: nothing here is optional.

mod lang;
mod load;
mod page;
mod share;

use lang::{Lang, EN, ZH};
use page::Page;
use serde_json::{json, Value};
use std::time::Duration;

/// One flow's tests, one per language.
macro_rules! flow {
    ($name:ident, $body:path) => {
        mod $name {
            use super::*;

            #[tokio::test]
            #[ignore = "needs chromium and chromium-driver (apt-get install chromium chromium-driver)"]
            async fn en() {
                page::run(stringify!($name), &EN, $body).await;
            }

            #[tokio::test]
            #[ignore = "needs chromium and chromium-driver (apt-get install chromium chromium-driver)"]
            async fn zh() {
                page::run(stringify!($name), &ZH, $body).await;
            }
        }
    };
}

flow!(language, language_flow);
flow!(score, score_flow);
flow!(compare, compare_flow);
flow!(waits, waits_flow);
flow!(discard, discard_flow);
flow!(discard_hand_changes, hand_changes_flow);
flow!(errors, errors_flow);
flow!(links, links_flow);
flow!(table_night, table_night_flow);
flow!(table_double_win, double_win_flow);
flow!(table_problem, table_problem_flow);
flow!(table_taps, table_taps_flow);
flow!(house_rules_patterns, house_patterns_flow);
flow!(house_rules_contains, house_contains_flow);
flow!(house_rules_exclusive, house_exclusive_flow);
flow!(house_rules_limits, house_limits_flow);
flow!(copy_and_labels, copy_labels_flow);
flow!(docs, docs_flow);
flow!(accessibility, axe_flow);

/// No API words in what a player reads: no JSON pointers, field names or status codes.
fn assert_player_words(text: &str, what: &str) {
    for bad in [
        "/hand",
        "/context",
        "seat_wind",
        "win_by",
        "hand.tiles",
        "(422)",
        "(400)",
        "422",
    ] {
        assert!(!text.contains(bad), "{what} shows {bad:?}: {text:?}");
    }
}

/// The quiet hand's lines as the API names them, asked by the page itself.
async fn api_line_names(p: &Page, lang: &Lang) -> Vec<(String, String)> {
    let script = r#"
        var done = arguments[0];
        window.fetch('/v1/score', {method: 'POST', headers: {'content-type': 'application/json'},
          body: JSON.stringify({ruleset: 'wisteria-court', hand: {tiles: '123456m789p23455s', winning_tile: '9p'},
                                context: {win_by: 'self_draw', seat_wind: 'south', round_wind: 'east'}})})
          .then(function (r) { return r.json(); })
          .then(function (j) { done(j.lines.map(function (l) { return [l.pattern, l.name, l.name_zh || null]; })); });
    "#;
    let v = p.js_async(script, vec![], "the API's lines").await;
    let rows: Vec<(String, String, Option<String>)> = serde_json::from_value(v).expect("rows");
    rows.into_iter()
        .map(|(p, en, zh)| {
            let name = if lang.code == "zh" {
                zh.unwrap_or_else(|| panic!("the API gives no name_zh for {p}"))
            } else {
                en
            };
            (p, name)
        })
        .collect()
}

/// The language: English by default from the browser; the switch is
/// remembered across a reload; labels, seats, the summary and the tiles in it.
async fn language_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open("/").await;
    if l == "en" {
        p.js("window.localStorage.clear(); return null").await;
        p.open("/").await;
        assert_eq!(
            p.js_str("return navigator.language").await,
            "en-US",
            "the browser runs in English"
        );
    }
    p.switch_language().await;
    assert_eq!(
        p.js_str("return document.documentElement.lang").await,
        lang.html_lang,
        "[{l}] the language chosen is remembered across a reload"
    );
    assert_eq!(
        p.text("#btn-score").await.unwrap(),
        lang.score_button,
        "[{l}] the Score button's label"
    );
    assert_eq!(
        p.js_str("return document.querySelector('#seat-wind option[value=south]').textContent")
            .await,
        lang.south,
        "[{l}] seat names"
    );
    let summary = p.text("#ruleset-summary").await.unwrap();
    assert!(
        summary.starts_with(lang.summary),
        "[{l}] the ruleset summary: {summary:?}"
    );
    // Tiles: the Unicode glyph with the MPSZ code underneath; Winter is "Wint".
    assert_eq!(
        p.js("var t = document.querySelector('#palette [data-tile=\"1m\"]'); return [t.querySelector('.glyph').textContent, t.querySelector('.code').textContent]")
            .await,
        json!(["\u{1F007}", "1m"]),
        "[{l}] the 1m button's glyph and code"
    );
    assert_eq!(
        p.js("var t = document.querySelector('#flowers [data-flower=\"S4\"]'); return [t.querySelector('.glyph').textContent, t.querySelector('.face-main').textContent, t.querySelector('.code').textContent]")
            .await,
        json!(["\u{1F029}", lang.winter_face, "S4"]),
        "[{l}] the winter season's glyph, short name and code"
    );
}

/// Score: a hand scored as it is tapped or typed, its payments, lines and
/// readings, on a wide and a phone-width screen; a late answer dropped; the
/// ruleset's notes linked from the result.
async fn score_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    // The Wisteria Court guide's quiet hand, tapped in: four chows and a
    // pair, concealed, no flowers, self-drawn: 4 faan, each of the three
    // others pays 2 x 16 = 32 and the winner gains 96. Scored as it is
    // entered, without pressing Score.
    p.tap_quiet_hand().await;
    assert_eq!(
        p.js_str("return document.getElementById('hand-text').value")
            .await,
        "123456m78p23455s9p",
        "[{l}] the box holds the tiles in the order they were tapped"
    );
    assert_eq!(
        p.js("return document.querySelectorAll('#hand [data-tile]').length")
            .await,
        json!(14)
    );
    assert_eq!(
        p.js_str("return document.querySelector('#hand [data-winning=\"true\"]').getAttribute('data-tile')")
            .await,
        "9p",
        "[{l}] the last tile tapped is the winning tile"
    );
    p.wait_text("#total-faan", "4 faan", |t| t == "4").await;
    p.wait_js(
        "return document.getElementById('output').getAttribute('data-stale')",
        json!("false"),
        "a current answer",
    )
    .await;
    for (seat, want) in [
        ("east", "-32"),
        ("south", "+96"),
        ("west", "-32"),
        ("north", "-32"),
    ] {
        assert_eq!(
            p.text(&format!("#payment-{seat}")).await.unwrap().trim(),
            want,
            "[{l}] payment of {seat}"
        );
    }
    assert_eq!(p.text("#base-points").await.unwrap(), "16");
    assert_eq!(p.text("#min-faan").await.unwrap(), "0");
    assert_eq!(p.text("#limit").await.unwrap(), "10");
    let mut shown = p.lines_shown().await;
    shown.sort();
    let mut want = api_line_names(&p, lang).await;
    want.sort();
    assert_eq!(
        shown.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(),
        ["all_chows", "concealed_hand", "no_flowers", "self_draw"],
        "[{l}] the quiet hand's lines"
    );
    assert_eq!(shown, want, "[{l}] the lines' names in the page's language");
    let money = p.text("#money-explain").await.unwrap();
    assert!(
        money.contains(lang.self_draw_money),
        "[{l}] the money explained: {money:?}"
    );
    assert!(
        p.displayed("#readings [data-chosen=\"true\"]").await,
        "the chosen reading is shown"
    );
    assert!(!p.displayed("#error-summary").await);
    p.js("window.scrollTo(0, 0); return null").await;
    p.shot("quiet-hand").await;

    // The same result on a phone-width screen: nothing wider than the screen.
    p.viewport(375, 800).await;
    let width = p
        .js("return [window.innerWidth, document.documentElement.scrollWidth]")
        .await;
    assert!(
        width[1].as_u64() <= width[0].as_u64(),
        "[{l}] the page scrolls sideways at phone width: {width}"
    );
    p.js("document.getElementById('output').scrollIntoView({block: 'start'}); return null")
        .await;
    p.shot("quiet-hand-phone").await;
    p.viewport(1280, 1000).await;

    // The stale-result case: an answer that arrives after a newer
    // request was sent is dropped. The first score request from here on is
    // held back 1.5 s (its abort ignored, so it does arrive late).
    p.js(r#"
        window.__fetch = window.__fetch || window.fetch;
        window.__calls = 0; window.__lateArrived = false;
        window.fetch = function (url, init) {
          if (String(url).indexOf('/v1/score') < 0) return window.__fetch(url, init);
          window.__calls += 1;
          if (window.__calls !== 1) return window.__fetch(url, init);
          var plain = Object.assign({}, init, {signal: undefined});
          return new Promise(function (r) { setTimeout(r, 1500); })
            .then(function () { return window.__fetch(url, plain); })
            .then(function (res) { setTimeout(function () { window.__lateArrived = true; }, 100); return res; });
        };
        return null;"#)
        .await;
    // Request A: a win on a discard (from East, the seat before the winner).
    p.click("#win-by option[value=\"discard\"]").await;
    p.wait_js("return window.__calls", json!(1), "request A sent")
        .await;
    assert_eq!(
        p.js_str("return document.getElementById('output').getAttribute('data-stale')")
            .await,
        "true",
        "[{l}] the answer on screen is marked out of date while A is out"
    );
    let note = p.text("#stale-note").await.unwrap();
    assert!(note.contains(lang.stale_note), "[{l}] stale note: {note:?}");
    assert!(
        p.js(
            "return parseFloat(getComputedStyle(document.getElementById('result')).opacity) < 0.6"
        )
        .await
            == json!(true),
        "[{l}] the out-of-date result is dimmed"
    );
    p.shot("stale").await;
    // Request B, sent while A is out: back to the self-draw (4 faan).
    p.click("#win-by option[value=\"self_draw\"]").await;
    p.wait_js("return window.__calls", json!(2), "request B sent")
        .await;
    p.wait_js(
        "return window.__lateArrived",
        json!(true),
        "the late answer A",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        p.text("#total-faan").await.unwrap(),
        "4",
        "[{l}] the late answer to A did not overwrite B's"
    );
    assert_eq!(p.text("#payment-west").await.unwrap(), "-32");
    assert_eq!(
        p.js_str("return document.getElementById('output').getAttribute('data-stale')")
            .await,
        "false",
        "[{l}] B's answer is current"
    );
    p.js("window.fetch = window.__fetch; return null").await;
    p.shot("stale-resolved").await;

    // The ruleset's notes, linked from the result.
    p.click("#result-notes-link").await;
    p.wait_js(
        "return document.querySelectorAll('#rules-notes li').length > 3 && !document.getElementById('rules').hidden",
        json!(true),
        "the ruleset's notes",
    )
    .await;
    // In Chinese, the notes' translation (notes_zh).
    assert_eq!(
        p.js_str("return document.querySelector('#rules-notes li').textContent")
            .await,
        lang.wisteria_first_note,
        "[{l}] Wisteria Court's first note in the page's language"
    );
    p.shot("ruleset-notes").await;
    p.click("#rules-back").await;
    p.wait_text("#total-faan", "4 faan again", |t| t == "4")
        .await;

    // The winning tile typed key by key is the last tile written: 5s.
    p.reset().await;
    p.type_keys("#hand-text", "123m").await;
    assert_eq!(
        p.js_str(
            "return document.getElementById('winning-note').getAttribute('data-winning-tile')"
        )
        .await,
        "3m",
        "[{l}] after 123m"
    );
    p.type_keys("#hand-text", "456m789p234s5").await;
    let count = p.text("#hand-count").await.unwrap();
    assert!(
        count.contains(lang.pending_note),
        "[{l}] a digit waiting for its suit: {count:?}"
    );
    p.type_keys("#hand-text", "5s").await;
    assert_eq!(
        p.js_str(
            "return document.getElementById('winning-note').getAttribute('data-winning-tile')"
        )
        .await,
        "5s",
        "[{l}] typed key by key, the winning tile is the last one"
    );
    assert_eq!(
        p.text("#winning-note").await.unwrap(),
        lang.last_tile_note,
        "[{l}] the page says which tile it picked"
    );
    p.wait_text("#total-faan", "4 faan", |t| t == "4").await;
    assert_eq!(
        p.js("return Array.from(document.querySelectorAll('#readings [data-chosen=\"true\"] .tile-group.winning [data-tile]')).map(function (t) { return t.getAttribute('data-tile'); })")
            .await,
        json!(["5s", "5s"]),
        "[{l}] the chosen reading completes the pair of 5s"
    );
    p.js("window.scrollTo(0, 0); return null").await;
    p.shot("typed-winning-tile").await;

    // A thirteen-orphans reading shows its twelve singles.
    p.reset().await;
    p.type_keys("#hand-text", "19m19p19s12345671z").await;
    p.wait_js(
        "var r = document.querySelector('#readings [data-form=\"thirteen_orphans\"] [data-singles]'); return r ? r.querySelectorAll('[data-tile]').length : -1",
        json!(12),
        "the twelve singles of thirteen orphans",
    )
    .await;
}

/// Compare: the quiet hand under every ruleset, a one-line-per-ruleset
/// table first, Wisteria Court (the one chosen) on top at 4.
async fn compare_flow(p: Page) {
    let l = p.l();
    p.open_in_language().await;
    p.tap_quiet_hand().await;
    p.wait_faan("4", "4 faan").await;
    p.click("#btn-compare").await;
    p.wait_text("#compare-wisteria-court .cmp-faan", "4", |t| t == "4")
        .await;
    let rows = p
        .js("return Array.from(document.querySelectorAll('#compare-summary tr[data-ruleset]')).map(function (r) { return r.getAttribute('data-ruleset'); })")
        .await;
    let n = p
        .js("return document.querySelectorAll('#ruleset option').length")
        .await;
    assert_eq!(
        rows.as_array().map(Vec::len),
        n.as_u64().map(|n| n as usize),
        "[{l}] one summary row per ruleset: {rows}"
    );
    assert_eq!(
        rows[0],
        json!("wisteria-court"),
        "[{l}] the selected ruleset first"
    );
    assert_eq!(
        p.js_str("return document.querySelector('#compare-summary tr[data-ruleset=\"wisteria-court\"]').cells[1].textContent")
            .await,
        "4"
    );
    p.js("window.scrollTo(0, 0); return null").await;
    p.shot("compare").await;
}

/// Waits: the quiet hand with its winning 9p taken back out; 6p and 9p
/// complete it. With a declared meld, ten concealed tiles.
async fn waits_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    p.tap_quiet_hand().await;
    p.wait_faan("4", "4 faan").await;
    p.click("#hand [data-winning=\"true\"]").await;
    p.click("#btn-waits").await;
    p.wait_js(
        "return Array.from(document.querySelectorAll('#waits-body [data-wait]')).map(function (r) { return r.getAttribute('data-wait'); }).join(',')",
        json!("6p,9p"),
        "the waits of 123456m78p23455s",
    )
    .await;
    // With a declared pung typed in, Waits counts ten concealed tiles.
    p.reset().await;
    p.type_keys("#hand-text", "[777z] 123m456p23s55s").await;
    assert_eq!(
        p.text("#btn-waits").await.unwrap(),
        lang.waits_button_with_meld,
        "[{l}] the Waits button counts the meld"
    );
    assert_eq!(
        p.js("return document.querySelectorAll('#melds [data-meld-index]').length")
            .await,
        json!(1),
        "[{l}] the typed meld is listed"
    );
    p.click("#btn-waits").await;
    p.wait_js(
        "return Array.from(document.querySelectorAll('#waits-body [data-wait]')).map(function (r) { return r.getAttribute('data-wait'); }).join(',')",
        json!("1s,4s"),
        "the waits of [777z] 123m456p23s55s",
    )
    .await;
    p.shot("waits-with-meld").await;
}

/// Which tile to discard: 123m 456m 78p 55s 222z 9s at the south seat
/// under hkma, 1z1z9s seen, 12 draws. Worked by hand: throwing 9s leaves it
/// ready on 6p/9p, 4 unseen each (8), the only discard that does; each
/// wait is 2 faan on a discard (concealed hand, seat wind), below hkma's 3,
/// and 3 self-drawn: marked "self-drawn only". The acceptance count is the
/// endpoint's too, asked by the page itself.
async fn discard_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    p.click("#ruleset option[value=\"hkma\"]").await;
    p.type_keys("#hand-text", "123m456m78p55s222z9s").await;
    p.type_keys("#seen-text", "1z1z9s").await;
    assert_eq!(
        p.text("#btn-discard").await.unwrap(),
        lang.discard_button,
        "[{l}] the button's name"
    );
    p.click("#btn-discard").await;
    p.wait_js(
        "return document.getElementById('discard-best-title').getAttribute('data-best')",
        json!("9s"),
        "the best discard of 123m456m78p55s222z9s",
    )
    .await;
    let shown = p
        .js("var q = function (s) { return Array.from(document.querySelectorAll(s)); };
             return {
               rows: q('#discard-body tr').map(function (r) { return [r.getAttribute('data-discard'), r.getAttribute('data-shanten'), r.getAttribute('data-acceptance')]; }).slice(0, 2),
               n: q('#discard-body tr').length,
               count: document.getElementById('discard-accept-title').getAttribute('data-count'),
               accept: q('#discard-acceptance [data-accept]').map(function (a) { return a.getAttribute('data-accept') + 'x' + a.getAttribute('data-unseen'); }),
               waits: q('#discard-waits [data-wait]').map(function (w) { return w.getAttribute('data-wait') + ':' + w.getAttribute('data-faan') + ':' + w.getAttribute('data-meets'); }),
               badge: (document.querySelector('#discard-waits .badge') || {}).textContent,
               win: document.querySelector('#discard-body tr.best .col-chance').textContent,
               points: document.querySelector('#discard-chart svg').getAttribute('data-points'),
               line: document.querySelector('#discard-chart polyline.win-line').getAttribute('points').split(' ').length
             };")
        .await;
    assert_eq!(
        shown,
        json!({
            "rows": [["9s", "0", "8"], ["1m", "1", "18"]],
            "n": 11,
            "count": "8",
            "accept": ["6px4", "9px4"],
            "waits": ["6p:3:self_draw", "9p:3:self_draw"],
            "badge": lang.discard_self_draw_only,
            "win": "65.2%",
            "points": "12",
            "line": 12
        }),
        "[{l}] the discard table, the best discard's acceptance, waits and chart"
    );
    let endpoint = p
        .js_async(
            r#"var done = arguments[0];
            window.fetch('/v1/analyze', {method: 'POST', headers: {'content-type': 'application/json'},
              body: JSON.stringify({ruleset: 'hkma', hand: {tiles: '123m456m78p55s222z9s'},
                context: {seat_wind: 'south', round_wind: 'east'}, seen: '1z1z9s', chances: {draws: 12, discards: true}})})
              .then(function (r) { return r.json(); })
              .then(function (j) { done([j.discards[0].tile, j.discards[0].acceptance_count]); });"#,
            vec![],
            "the endpoint's answer",
        )
        .await;
    assert_eq!(endpoint, json!(["9s", 8]), "[{l}] the endpoint agrees");
    p.shot("discard").await;
    p.viewport(1366, 768).await;
    p.shot("discard-1366x768").await;
    p.viewport(390, 844).await;
    p.click("#btn-discard").await;
    p.wait_js(
        "return document.body.getAttribute('data-answered') !== null && document.getElementById('discard-best-title').getAttribute('data-best')",
        json!("9s"),
        "the best discard on a phone",
    )
    .await;
    // Nothing wider than the phone's screen.
    assert_eq!(
        p.js("return document.documentElement.scrollWidth <= window.innerWidth")
            .await,
        json!(true),
        "[{l}] the discard view fits 390px"
    );
    p.js("document.getElementById('discard').scrollIntoView({block: 'start'})")
        .await;
    p.shot("discard-390x844").await;
    p.js("document.getElementById('discard-best').scrollIntoView({block: 'start'})")
        .await;
    p.shot("discard-390x844-best").await;
    // Thirteen tiles (the 9s thrown): the hand's own acceptance and waits, no table.
    p.viewport(1280, 1000).await;
    p.click("#hand [data-hand-index=\"13\"]").await;
    p.click("#btn-discard").await;
    p.wait_js(
        "return [document.getElementById('discard-table').hidden, document.getElementById('discard-accept-title').getAttribute('data-count'), Array.from(document.querySelectorAll('#discard-waits [data-wait]')).map(function (w) { return w.getAttribute('data-wait'); }).join(',')]",
        json!([true, "8", "6p,9p"]),
        "the 13-tile hand's acceptance and waits",
    )
    .await;
    p.shot("discard-13").await;
    // A 14-tile hand that is not a win, analysed: no problem shown (it is the view's purpose);
    // on a phone each number under its own header, the waits as tiles, and
    // the chances said to assume nobody else wins or claims first.
    p.viewport(390, 844).await;
    p.click("#palette [data-tile=\"9s\"]").await;
    p.wait_js(
        "return [document.getElementById('discard-table').hidden, document.getElementById('discard-best-title').getAttribute('data-best')]",
        json!([false, "9s"]),
        "the 9s drawn again, analysed as it is typed",
    )
    .await;
    let phone = p
        .js(r#"var visible = function (e) { return e.offsetParent !== null && getComputedStyle(e).display !== 'none'; };
            var heads = Array.from(document.querySelectorAll('#discard-table thead th')).filter(visible);
            var misplaced = [];
            document.querySelectorAll('#discard-body tr').forEach(function (r) {
              var cells = Array.from(r.children).filter(visible);
              if (cells.length !== heads.length) misplaced.push(r.getAttribute('data-discard') + ' has ' + cells.length + ' cells for ' + heads.length + ' headers');
              cells.forEach(function (c, i) {
                var h = heads[i]; if (!h) return;
                var a = c.getBoundingClientRect(), b = h.getBoundingClientRect();
                if (Math.abs(a.left - b.left) > 2 || Math.abs(a.right - b.right) > 2) misplaced.push(r.getAttribute('data-discard') + ' cell ' + i);
              });
            });
            return {
              problems: document.getElementById('error-summary').hidden,
              status: document.getElementById('status').getAttribute('data-state'),
              tiles: document.querySelectorAll('#discard-body [data-wait] .tile').length > 0,
              note: visible(document.getElementById('discard-table-note')),
              misplaced: misplaced
            };"#)
        .await;
    assert_eq!(
        phone,
        json!({"problems": true, "status": "ok", "tiles": true, "note": true, "misplaced": []}),
        "[{l}] the analysis of a 14-tile hand that is not a win at 390 px"
    );
    p.js("document.getElementById('discard').scrollIntoView({block: 'start'}); return null")
        .await;
    p.shot("discard-390-typed").await;
}

/// The discard rows' win chances as shown (`tile: "82.2%"`), with what the table note says it assumes.
async fn chances_shown(p: &Page) -> Value {
    p.js("var out = {};
          document.querySelectorAll('#discard-body tr').forEach(function (r) { out[r.getAttribute('data-discard')] = r.querySelector('td[data-win]').textContent; });
          return {win: out, assumes: document.getElementById('discard-table-note').getAttribute('data-assumes'),
                  note: document.getElementById('discard-table-note').textContent, chart: document.getElementById('discard-chart-note').textContent,
                  shown: !document.getElementById('discard-table-note').hidden};")
        .await
}

/// Hand changes: 233456m999p99s111z at the east seat in the east round
/// under hkma, 17 draws, self-drawn wins only (docs/analysis.md's example).
/// The figures are the CLI's, `cargo run -q -- analyze 233456m999p99s111z
/// --ruleset hkma --draws 17 --self-draw-only --json` (its seat and round
/// are East by default), then with
/// `--hand-changes`, then with `--hand-changes --shanten-down`: throwing 6m
/// wins 66.0% off and 69.5% with hand changes; throwing 5m (one from ready)
/// 47.1% off, 43.3% with hand changes (kept for points: 75.64 expected,
/// against 45.19 off) and 39.6% stepping back too; 3m's 82.2% is the same in all three.
async fn hand_changes_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    p.open("/?hand=233456m999p99s111z&rules=hkma&seat=east&round=east&draws=17&self_draw_only=true&view=discard")
        .await;
    // Every analysis request the page sends, as sent.
    p.js("window.sentChances = []; var f = window.fetch;
          window.fetch = function (u, o) { if (String(u).indexOf('/v1/analyze') >= 0) window.sentChances.push(JSON.parse(o.body).chances); return f.apply(this, arguments); };
          return null")
        .await;
    assert_eq!(
        p.js("return [document.getElementById('hand-changes').checked, document.getElementById('hand-changes').disabled, document.getElementById('shanten-down').checked, document.getElementById('shanten-down').disabled]")
            .await,
        json!([false, false, false, true]),
        "[{l}] hand changes off by default; stepping back a shanten waits for them"
    );
    p.click("#btn-discard").await;
    p.wait_js(
        "return (document.querySelector('#discard-body tr[data-discard=\"6m\"] td[data-win]') || {}).textContent || null",
        json!("66.0%"),
        "6m's chance with hand changes off",
    )
    .await;
    let off = chances_shown(&p).await;
    assert_eq!(
        (
            &off["win"]["3m"],
            &off["win"]["5m"],
            &off["assumes"],
            &off["note"],
            &off["shown"]
        ),
        (
            &json!("82.2%"),
            &json!("47.1%"),
            &json!("discard.changes_off"),
            &json!(lang.assumes_off),
            &json!(true)
        ),
        "[{l}] the figures with hand changes off, and what they assume"
    );
    assert!(
        off["chart"].as_str().unwrap().ends_with(lang.assumes_off),
        "[{l}] the chart's note says it too: {}",
        off["chart"]
    );
    assert_eq!(
        p.js("return window.sentChances[window.sentChances.length - 1]")
            .await,
        json!({"draws": 17, "discards": false}),
        "[{l}] the default request asks for no hand changes"
    );
    // Hand changes on from the keyboard: Tab from the box before reaches it, Space ticks it.
    p.js("document.getElementById('self-draw-only').focus(); return null")
        .await;
    p.type_keys("#self-draw-only", "\u{E004}").await;
    assert_eq!(
        p.js("return document.activeElement.id").await,
        json!("hand-changes"),
        "[{l}] Tab moves from Count self-drawn wins only to Hand changes"
    );
    p.type_keys("#hand-changes", " ").await;
    p.wait_js(
        "return (document.querySelector('#discard-body tr[data-discard=\"6m\"] td[data-win]') || {}).textContent || null",
        json!("69.5%"),
        "6m's chance with hand changes on",
    )
    .await;
    let on = chances_shown(&p).await;
    assert_eq!(
        (
            &on["win"]["3m"],
            &on["win"]["5m"],
            &on["assumes"],
            &on["note"]
        ),
        (
            &json!("82.2%"),
            &json!("43.3%"),
            &json!("discard.changes_on"),
            &json!(lang.assumes_on)
        ),
        "[{l}] the figures with hand changes on, and what they assume"
    );
    assert_eq!(
        p.js("return [window.sentChances[window.sentChances.length - 1], document.getElementById('shanten-down').disabled, location.search.indexOf('hand_changes=true') >= 0]").await,
        json!([{"draws": 17, "discards": false, "hand_changes": true}, false, true]),
        "[{l}] the request reached the server with hand changes on; stepping back can now be chosen; the URL keeps it"
    );
    p.click("#shanten-down").await;
    p.wait_js(
        "return (document.querySelector('#discard-body tr[data-discard=\"5m\"] td[data-win]') || {}).textContent || null",
        json!("39.6%"),
        "5m's chance stepping back a shanten too",
    )
    .await;
    let down = chances_shown(&p).await;
    assert_eq!(
        (&down["assumes"], &down["note"]),
        (&json!("discard.changes_down"), &json!(lang.assumes_down)),
        "[{l}] what the figures assume stepping back a shanten too"
    );
    assert_eq!(
        p.js("return window.sentChances[window.sentChances.length - 1]")
            .await,
        json!({"draws": 17, "discards": false, "hand_changes": true, "shanten_down": true}),
        "[{l}] the request with both on"
    );
    p.shot("hand-changes").await;
    // Kept like the other settings of the analysis: a reload of the URL ticks both again.
    let url = p.js("return location.pathname + location.search").await;
    p.open(url.as_str().unwrap()).await;
    assert_eq!(
        p.js("return [document.getElementById('hand-changes').checked, document.getElementById('shanten-down').checked, document.getElementById('shanten-down').disabled]").await,
        json!([true, true, false]),
        "[{l}] the choices read back from the URL"
    );
    // On a phone: nothing wider than the screen, the boxes and the line readable by everyone.
    p.viewport(390, 844).await;
    p.click("#btn-discard").await;
    p.wait_js(
        "return document.getElementById('discard-table-note').getAttribute('data-assumes')",
        json!("discard.changes_down"),
        "the analysis on a phone, both on",
    )
    .await;
    assert_eq!(
        p.js("return document.documentElement.scrollWidth <= window.innerWidth")
            .await,
        json!(true),
        "[{l}] the discard view fits 390px with its new boxes"
    );
    assert_eq!(
        p.axe_serious().await,
        json!([]),
        "[{l}] axe-core: nothing serious with hand changes on at 390 px"
    );
    p.js(
        "document.getElementById('discard-section').scrollIntoView({block: 'start'}); return null",
    )
    .await;
    p.shot("hand-changes-390-boxes").await;
    // Off again (a tap): stepping back goes with it, and the figures are the default ones.
    p.click("#hand-changes").await;
    p.wait_js(
        "return (document.querySelector('#discard-body tr[data-discard=\"6m\"] td[data-win]') || {}).textContent || null",
        json!("66.0%"),
        "6m's chance with hand changes off again",
    )
    .await;
    assert_eq!(
        p.js("return [document.getElementById('shanten-down').checked, document.getElementById('shanten-down').disabled, document.getElementById('discard-table-note').textContent, location.search.indexOf('shanten_down') < 0]").await,
        json!([false, true, lang.assumes_off, true]),
        "[{l}] hand changes off: stepping back unticked and disabled, the line says so"
    );
}

/// Errors: a fifth copy of a tile refused, tapped or typed; the server's
/// refusal beside its control, in the player's words; focus on the first
/// error; Reset clears everything.
async fn errors_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    // A fifth copy: tapped, it is refused with a message; typed, the
    // hand box says so in the player's words, before any request.
    p.reset().await;
    p.click_tiles(&["1m", "1m", "1m", "1m", "1m"]).await;
    assert_eq!(
        p.js("return document.querySelectorAll('#hand [data-tile=\"1m\"]').length")
            .await,
        json!(4),
        "[{l}] the fifth 1m was not added"
    );
    let msg = p.text("#palette-message").await.unwrap();
    assert!(
        msg.contains(lang.fifth_refused),
        "[{l}] the refusal: {msg:?}"
    );
    p.shot("fifth-copy-refused").await;
    p.type_keys("#hand-text", "1m23m4p5p6p7s8s9s1z").await;
    let msg = p
        .wait_text(
            "[data-error-for=\"/hand/tiles\"]",
            "the five-tiles error",
            |t| !t.is_empty(),
        )
        .await;
    assert!(
        msg.contains(lang.five_typed),
        "[{l}] the typed fifth copy: {msg:?}"
    );
    assert_eq!(
        p.js("return document.querySelector('[data-error-for=\"/hand/tiles\"]').closest('[data-pointer]').contains(document.getElementById('hand-text'))")
            .await,
        json!(true),
        "[{l}] the error sits beside the hand box"
    );
    assert!(p.displayed("#error-summary").await, "a summary too");
    let summary = p.text("#error-list").await.unwrap();
    assert!(summary.contains(lang.five_typed), "summary: {summary}");
    assert_player_words(&summary, "the error summary");
    assert!(!p.displayed("#result").await, "[{l}] no stale result");
    // Score pressed: focus moves to the first error's control.
    p.click("#btn-score").await;
    p.wait_js(
        "return document.activeElement && document.activeElement.id",
        json!("hand-text"),
        "focus on the hand box",
    )
    .await;
    assert_eq!(
        p.js(
            "var a = document.querySelector('#error-list a[href]'); return !!a && a.tabIndex >= 0"
        )
        .await,
        json!(true),
        "[{l}] the summary's items are links a keyboard reaches"
    );
    p.shot("fifth-copy-typed").await;

    // An error from the server, in the player's language, beside the
    // control it is about: a discard "from" the winner's own seat.
    p.reset().await;
    p.type_keys("#hand-text", "123456m789p23455s").await;
    p.wait_text("#total-faan", "4 faan", |t| t == "4").await;
    p.click("#win-by option[value=\"discard\"]").await;
    p.click("#discarder option[value=\"south\"]").await;
    let msg = p
        .wait_text(
            "[data-error-for=\"/context/discarder\"]",
            "the discarder error",
            |t| !t.is_empty(),
        )
        .await;
    assert_eq!(msg, lang.discarder_error, "[{l}] the discarder error");
    assert_eq!(
        p.js("return document.querySelector('[data-error-for=\"/context/discarder\"]').closest('[data-pointer]').contains(document.getElementById('discarder'))")
            .await,
        json!(true),
        "[{l}] the discarder error sits beside the discarder select"
    );
    let summary = p.text("#error-summary").await.unwrap();
    assert_player_words(&summary, "the error summary");
    assert!(summary.contains(lang.discarder_error), "summary: {summary}");
    p.click("#btn-score").await;
    p.wait_js(
        "return document.activeElement && document.activeElement.id",
        json!("discarder"),
        "focus on the discarder",
    )
    .await;
    p.js("window.scrollTo(0, 0); return null").await;
    p.shot("server-error").await;

    // Reset clears everything, messages included.
    p.click("#btn-reset").await;
    assert_eq!(
        p.js("return [document.getElementById('hand-text').value, document.getElementById('error-summary').hidden, document.querySelectorAll('[data-error-for]:not([hidden])').length, document.getElementById('palette-message').textContent, location.search, document.getElementById('result').hidden, document.getElementById('win-by').value]")
            .await,
        json!(["", true, 0, "", "", true, "self_draw"]),
        "[{l}] reset clears the hand, the errors, the messages, the URL and the answer"
    );
}

/// Links: the URL holds the whole input and reopens the same score; a
/// skip link past the palette; the API docs link back to the calculator.
async fn links_flow(p: Page) {
    let l = p.l();
    p.open_in_language().await;
    // The URL round trip: a hand with a typed meld, a discard, another
    // ruleset; the link reopens the same score.
    p.type_keys("#hand-text", "pung 7z 123m456m789m55m").await;
    p.click("#ruleset option[value=\"dragon-society\"]").await;
    p.click("#win-by option[value=\"discard\"]").await;
    p.click("#discarder option[value=\"north\"]").await;
    p.wait_js(
        "return document.getElementById('output').getAttribute('data-stale') === 'false' && !document.getElementById('result').hidden && document.getElementById('pay-north').getAttribute('data-role') === 'discarder' && document.getElementById('result-notes-link').getAttribute('href').indexOf('rules=dragon-society') >= 0",
        json!(true),
        "the score of the URL hand",
    )
    .await;
    let before = p
        .js("return [document.getElementById('total-faan').textContent, ['east','south','west','north'].map(function (s) { return document.getElementById('payment-' + s).textContent; }).join(' '), document.getElementById('lines').textContent]")
        .await;
    let url = p.js_str("return location.href").await;
    for part in ["hand=", "rules=dragon-society", "by=discard", "from=north"] {
        assert!(url.contains(part), "[{l}] the URL holds {part}: {url}");
    }
    p.goto("about:blank").await;
    p.goto(&url).await;
    p.wait_loaded().await;
    p.wait_js(
        "return !document.getElementById('result').hidden",
        json!(true),
        "the reopened link's score",
    )
    .await;
    let after = p
        .js("return [document.getElementById('total-faan').textContent, ['east','south','west','north'].map(function (s) { return document.getElementById('payment-' + s).textContent; }).join(' '), document.getElementById('lines').textContent]")
        .await;
    assert_eq!(after, before, "[{l}] the link reopens the same score");
    assert_eq!(
        p.js("return [document.getElementById('hand-text').value, document.getElementById('ruleset').value, document.getElementById('win-by').value, document.getElementById('discarder').value]")
            .await,
        json!(["pung 7z 123m456m789m55m", "dragon-society", "discard", "north"]),
        "[{l}] the link reopens the same inputs"
    );
    p.js("window.scrollTo(0, 0); return null").await;
    p.shot("url-round-trip").await;

    // A skip link past the 42 tile buttons, to the next section.
    assert_eq!(
        p.js("var a = document.getElementById('skip-palette'); var t = document.getElementById('after-palette'); return [a.getAttribute('href'), !!t, document.getElementById('palette').compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING ? 'after' : 'before', document.querySelectorAll('#palette button, #flowers button').length]")
            .await,
        json!(["#after-palette", true, "after", 42]),
        "[{l}] the skip link and its target after the palette"
    );
    p.js("document.getElementById('skip-palette').focus(); return null")
        .await;
    assert!(
        p.displayed("#skip-palette").await,
        "[{l}] the skip link shows when focused"
    );
    p.click("#skip-palette").await;
    p.wait_js(
        "return document.activeElement && document.activeElement.id",
        json!("after-palette"),
        "focus past the palette",
    )
    .await;

    // The API docs link back to the calculator.
    p.goto(&format!("{}/docs", p.base)).await;
    p.click("a[href=\"/\"]").await;
    p.wait_loaded().await;
    assert!(
        p.displayed("#hand-text").await,
        "[{l}] /docs links back to the calculator"
    );
}

async fn table_rows(p: &Page) -> Value {
    p.js("return Array.from(document.querySelectorAll('#table-body tr')).map(function (r) { return [r.querySelector('td.result').textContent].concat(Array.from(r.querySelectorAll('[data-player]')).map(function (c) { return c.getAttribute('data-player') + ' ' + c.getAttribute('data-delta') + ' ' + c.getAttribute('data-balance'); })); })")
        .await
}

async fn table_row_count(p: &Page, n: usize, what: &str) {
    p.wait_js(
        "return document.getElementById('table').hidden ? -1 : document.querySelectorAll('#table-body tr').length",
        json!(n),
        what,
    )
    .await;
}

/// The Table: a night of four players under Wisteria Court (the deal
/// passes after every hand, ruleset data), each hand added with one click.
/// The quiet hand self-drawn is 4 faan, each other pays 32.
async fn table_night_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    p.js("window.localStorage.removeItem('faan.night'); return null")
        .await;
    p.open("/").await;
    for (i, name) in ["Ann", "Ben", "Cat", "Dan"].iter().enumerate() {
        p.type_keys(&format!("#player-{i}"), name).await;
    }
    let deal = p.text("#table-deal").await.unwrap();
    assert!(
        deal.contains("Ann") && !deal.contains("Ben"),
        "[{l}] hand 1: Ann, the first player, deals: {deal:?}"
    );
    // Hand 1: Ben (South) self-draws the quiet hand.
    p.type_keys("#hand-text", "123456m789p23455s").await;
    p.click("#table-winner option[value=\"Ben\"]").await;
    p.click("#table-discarder option[value=\"\"]").await;
    assert_eq!(
        p.js("return [document.getElementById('seat-wind').value, document.getElementById('win-by').value]")
            .await,
        json!(["south", "self_draw"]),
        "[{l}] choosing Ben sets the calculator's seat: Ben sits South in hand 1"
    );
    p.click("#btn-add-win").await;
    table_row_count(&p, 1, "one hand in the table").await;
    assert_eq!(
        table_rows(&p).await,
        json!([[
            lang.table_ben_wins,
            "Ann -32 -32",
            "Ben 96 96",
            "Cat -32 -32",
            "Dan -32 -32"
        ]]),
        "[{l}] hand 1: Ben's self-draw, each other pays 32"
    );
    p.wait_text("#table-deal", "hand 2", |t| t == lang.table_hand2)
        .await;
    assert_eq!(
        p.js_str("return document.getElementById('hand-text').value")
            .await,
        "",
        "[{l}] the hand box is cleared for the next hand"
    );
    // The winner is chosen again by name, never whoever sits South.
    assert_eq!(
        p.js("var w = document.getElementById('table-winner'); return [w.value, document.getElementById('seat-wind').disabled]")
            .await,
        json!(["", true]),
        "[{l}] after a win nobody is the next winner until chosen; the seat wind follows the table"
    );

    // A draw, then undone: the deal goes back to Ben for hand 2.
    p.click("#btn-add-draw").await;
    table_row_count(&p, 2, "a draw added").await;
    // Undo asks first: the player says yes.
    p.js("window.confirm = function () { return true; }; return null")
        .await;
    p.click("#btn-undo").await;
    table_row_count(&p, 1, "the draw undone").await;
    p.wait_text("#table-deal", "hand 2 again", |t| t == lang.table_hand2)
        .await;

    // A hand the server refuses (fourteen tiles, no winning reading) is not
    // kept; the ledger's refusal names the winner.
    p.type_keys("#hand-text", "123456m789p23456s").await;
    p.click("#table-winner option[value=\"Ben\"]").await;
    p.click("#btn-add-win").await;
    let err = p
        .wait_text(
            "[data-error-for=\"/hand/tiles\"]",
            "the refusal beside the hand box",
            |t| t.starts_with(lang.not_winning_ben),
        )
        .await;
    assert_player_words(&err, "the refused hand's message");
    assert_eq!(
        p.js("return window.JSON.parse(window.localStorage.getItem('faan.night')).hands.length")
            .await,
        json!(1),
        "[{l}] the refused hand is not stored"
    );

    // Hand 2: Ben, now the dealer (East), self-draws again: 4 faan, no
    // dealer multiplier in Wisteria Court, so 32 from each again.
    p.js("var h = document.getElementById('hand-text'); h.value = ''; h.dispatchEvent(new Event('input')); return null")
        .await;
    p.type_keys("#hand-text", "123456m789p23455s").await;
    p.click("#table-winner option[value=\"Ben\"]").await;
    assert_eq!(
        p.js_str("return document.getElementById('seat-wind').value")
            .await,
        "east",
        "[{l}] Ben deals hand 2: he sits East"
    );
    // Scored as typed, without pressing Score, above the night's table.
    p.wait_js(
        "return [document.getElementById('result').hidden, document.getElementById('table').hidden, document.getElementById('total-faan').textContent]",
        json!([false, false, "4"]),
        "hand 2's faan shown beside the night without pressing Score",
    )
    .await;
    let payer = p.text("#pay-south .seat").await.unwrap();
    assert!(
        payer.starts_with("Cat"),
        "[{l}] the payments name the players during a night: {payer:?}"
    );
    p.click("#btn-add-win").await;
    table_row_count(&p, 2, "two hands").await;
    assert_eq!(
        table_rows(&p).await[1],
        json!([
            lang.table_ben_wins,
            "Ann -32 -64",
            "Ben 96 192",
            "Cat -32 -64",
            "Dan -32 -64"
        ]),
        "[{l}] hand 2: balances are the running sums"
    );
    // Wisteria Court passes the deal after every hand, a dealer's win too.
    assert_eq!(
        p.text("#table-deal").await.unwrap(),
        lang.table_hand3_cat,
        "[{l}] Wisteria Court passes the deal to Cat after Ben's own win"
    );
    let transfers: Vec<String> = serde_json::from_value(
        p.js("return Array.from(document.querySelectorAll('#table-transfers li')).map(function (li) { return li.textContent; })")
            .await,
    )
    .expect("transfers");
    assert_eq!(
        transfers.len(),
        3,
        "[{l}] three payments settle one winner against three losers: {transfers:?}"
    );
    assert!(
        transfers.iter().any(|t| t == lang.table_ann_pays),
        "[{l}] Ann pays Ben 64: {transfers:?}"
    );
    let standings = p.js("return Array.from(document.querySelectorAll('#table-standings li')).map(function (li) { return [li.getAttribute('data-player'), li.getAttribute('data-rank')]; })").await;
    assert_eq!(standings[0], json!(["Ben", "1"]), "[{l}] Ben first");
    assert_eq!(
        standings
            .as_array()
            .map(|a| a.iter().filter(|s| s[1] == "2").count()),
        Some(3),
        "[{l}] the other three share second place: {standings}"
    );

    // A false win does not move the deal.
    p.click("#table-offender option[value=\"Dan\"]").await;
    p.click("#btn-add-false-win").await;
    table_row_count(&p, 3, "a false win").await;
    assert_eq!(
        table_rows(&p).await[2][0],
        json!(lang.table_false_win),
        "[{l}] the false win in the table"
    );
    assert_eq!(
        p.text("#table-deal").await.unwrap(),
        lang.table_hand4_cat,
        "[{l}] a false win does not move the deal: Cat deals again"
    );
    p.js("window.scrollTo(0, 0); document.getElementById('table-section').scrollIntoView({block: 'start'}); return null")
        .await;
    p.shot("table").await;

    // Kept across a reload: the players locked, the three hands re-answered.
    p.open("/?view=table").await;
    table_row_count(&p, 3, "the night after a reload").await;
    assert_eq!(
        p.js("return [document.getElementById('player-0').value, document.getElementById('player-0').disabled]")
            .await,
        json!(["Ann", true]),
        "[{l}] the players are kept and locked while hands exist"
    );
    // At 1366 px the four players fit the output column, each
    // cell captioned; no scrollbar of its own.
    p.viewport(1366, 768).await;
    let fit = p
        .js("var t = document.querySelector('table.ledger'), s = t.closest('.table-scroll'); var names = Array.from(document.querySelectorAll('#table-head th[data-player]')).map(function (th) { var r = th.getBoundingClientRect(); return r.width > 0 && r.right <= s.getBoundingClientRect().right + 1; }); return [t.scrollWidth <= s.clientWidth + 1, names, document.querySelector('#table-head .caption-row th.num').textContent]")
        .await;
    assert_eq!(
        fit,
        json!([true, [true, true, true, true], lang.table_caption]),
        "[{l}] all four names visible at 1366 px, numbers captioned"
    );
    p.js("document.getElementById('table').scrollIntoView({block: 'start'}); return null")
        .await;
    p.shot("table-1366").await;
    p.viewport(1920, 1080).await;
    p.shot("table-1920").await;
    // Undo asks first: the player says yes.
    p.js("window.confirm = function () { return true; }; return null")
        .await;
    p.click("#btn-undo").await;
    table_row_count(&p, 2, "the false win undone").await;

    // A phone: the next hand's total and payments in a strip under the
    // palette, and "cannot reach the server" there too.
    p.viewport(390, 844).await;
    p.type_keys("#hand-text", "123456m789p23455s").await;
    p.click("#table-winner option[value=\"Cat\"]").await;
    let strip = p
        .wait_text("#phone-strip", "the strip with the total", |t| {
            t.starts_with("4 ")
        })
        .await;
    assert!(
        strip.contains("Cat +96"),
        "[{l}] the strip names the players: {strip:?}"
    );
    p.js("document.getElementById('palette').scrollIntoView({block: 'center'}); return null")
        .await;
    p.shot("table-phone-strip").await;
    p.js("window.fetch = function () { return Promise.reject(new TypeError('Failed to fetch')); }; var h = document.getElementById('hand-text'); h.value = '123456m789p23455s'; h.dispatchEvent(new Event('input')); document.getElementById('winning-tile').value = '2s'; document.getElementById('winning-tile').dispatchEvent(new Event('change')); document.getElementById('palette').scrollIntoView({block: 'center'}); return null")
        .await;
    p.wait_text("#phone-strip", "the offline message in the strip", |t| {
        t.starts_with(lang.unreachable)
    })
    .await;
    let inside = p
        .js("var r = document.getElementById('phone-strip').getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight")
        .await;
    assert_eq!(
        inside,
        json!(true),
        "[{l}] the offline message is inside the viewport"
    );
    let bar = p
        .js("var b = document.querySelector('#calc > .main-actions'), r = b.getBoundingClientRect(), first = b.querySelector('button').getBoundingClientRect(); return r.height < 2 * first.height")
        .await;
    assert_eq!(
        bar,
        json!(true),
        "[{l}] the sticky bar is one row at 390 px"
    );
    // Every action in view: none behind a sideways scroll or past the edge,
    // and the bar no taller than three lines of its labels.
    let fits = p
        .js("var b = document.querySelector('#calc > .main-actions'); var out = Array.from(b.querySelectorAll('button')).filter(function (x) { var r = x.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth; }).map(function (x) { return x.id; }); return [out, b.scrollWidth <= b.clientWidth, b.getBoundingClientRect().height <= 72]")
        .await;
    assert_eq!(
        fits,
        json!([[], true, true]),
        "[{l}] every button of the sticky bar is in view at 390 px (outside, no sideways scroll, at most 72 px tall, was about 110)"
    );
    p.shot("phone-offline").await;
    p.open("/?view=table").await;
    table_row_count(&p, 2, "the night again").await;

    p.viewport(375, 800).await;
    let width = p
        .js("return [window.innerWidth, document.documentElement.scrollWidth]")
        .await;
    assert!(
        width[1].as_u64() <= width[0].as_u64(),
        "[{l}] the table scrolls the page sideways at phone width: {width}"
    );
    p.js("document.getElementById('table').scrollIntoView({block: 'start'}); return null")
        .await;
    p.shot("table-phone").await;
    p.viewport(1280, 1000).await;
    p.js("window.localStorage.removeItem('faan.night'); return null")
        .await;
}

/// A ledger problem in the page's words, naming the player (every
/// settle and ledger problem coded). Under HKMA (minimum 3) Ben's quiet
/// hand won on Cat's discard is all chows 1 and concealed hand 1 = 2 faan:
/// the server refuses it (`below_minimum`, Ben by name), and the night
/// stays empty.
async fn table_problem_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    p.js("window.localStorage.removeItem('faan.night'); return null")
        .await;
    p.open("/").await;
    // The false win's chooser, empty before the players are
    // named, is as wide as a name (9rem), not a sliver.
    assert_eq!(
        p.js("var s = document.getElementById('table-offender'), rem = parseFloat(getComputedStyle(document.documentElement).fontSize); return [s.options.length === 0 || s.options[0].textContent === '', s.getBoundingClientRect().width >= 9 * rem - 1]")
            .await,
        json!([true, true]),
        "[{l}] the empty 詐糊者 chooser keeps its width"
    );
    for (i, name) in ["Ann", "Ben", "Cat", "Dan"].iter().enumerate() {
        p.type_keys(&format!("#player-{i}"), name).await;
    }
    p.click("#ruleset option[value=\"hkma\"]").await;
    p.type_keys("#hand-text", "123456m789p23455s").await;
    p.click("#table-winner option[value=\"Ben\"]").await;
    p.click("#table-discarder option[value=\"Cat\"]").await;
    p.click("#btn-add-win").await;
    let err = p
        .wait_text(
            "#error-list",
            "the ledger's refusal in the page's words",
            |t| t.contains("Ben") && t.contains(lang.below_minimum),
        )
        .await;
    assert_player_words(&err, "a hand below the minimum");
    assert!(
        !err.contains("false_win") && !err.contains("Ben scores"),
        "[{l}] the page's wording, not the server's English: {err:?}"
    );
    assert_eq!(
        p.js("var n = JSON.parse(window.localStorage.getItem('faan.night') || '{}'); return (n.hands || []).length")
            .await,
        json!(0),
        "[{l}] the refused hand is not added to the night"
    );
    p.shot("table-below-minimum").await;
    p.js("window.localStorage.removeItem('faan.night'); return null")
        .await;
}

/// A double win (一炮雙響) and the table rules, under Wisteria Court.
/// Hand 1, Ann deals (Ann E, Ben S, Cat W, Dan N); Dan discards 5s and two win on it:
/// - Ben (South) 123m 456m 789p 234s 55s: all chows, concealed hand, no
///   flowers = 3 faan, B = 8: Dan pays 2B = 16, Ann and Cat B = 8 each.
/// - Cat (West) 123s 456s 789s 111z 55s: mixed one suit 3, East round wind
///   pung 1, concealed hand 1, no flowers 1 = 6 faan, B = 32: Dan pays 64,
///   Ann and Ben 32 each.
///
/// Under `all` (the ruleset's) both are paid, and a winner never pays in a
/// hand it won (`co_winners_pay` false): Ann -8-32 = -40, Ben
/// 16+8 = +24 (not Cat's 8), Cat 64+32 = +96 (not Ben's 32), Dan -80. At a
/// stake of 0.50 a point Dan's 80 is $40.00.
/// Under `head_bump` only Ben (the first after Dan, North: East is Ann, no
/// winner, then South) is paid: Ann -8, Ben +32, Cat -8, Dan -16.
async fn double_win_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    p.js("window.localStorage.removeItem('faan.night'); return null")
        .await;
    p.open("/").await;
    for (i, name) in ["Ann", "Ben", "Cat", "Dan"].iter().enumerate() {
        p.type_keys(&format!("#player-{i}"), name).await;
    }
    p.click("#table-rules summary").await;
    p.wait_js(
        "var o = document.querySelector('#tr-dealer-keeps-on-win option'); return o ? o.textContent : ''",
        json!(lang.table_keeps_default),
        "the ruleset's default shown first in the table rules",
    )
    .await;

    // The stake is set as the night starts (a change during the night is a
    // hand of its own and leaves the hands before it as they were).
    // A stake that is not money is refused at the stake control.
    p.type_keys("#tr-stake", "abc\u{E004}").await;
    let err = p
        .wait_text(
            "[data-error-for=\"/house_rules/stake\"]",
            "the stake's error beside it",
            |t| t.contains(lang.table_stake_error),
        )
        .await;
    assert_player_words(&err, "a bad stake");
    // A stake of fifty cents a point: the night in money.
    p.js("var s = document.getElementById('tr-stake'); s.value = ''; return null")
        .await;
    p.type_keys("#tr-stake", "0.5\u{E004}").await;
    p.wait_text("#tr-stake-shown", "the stake in money", |t| {
        t == lang.table_stake_shown
    })
    .await;
    // Ben's hand, staged as the first winner on Dan's discard.
    p.type_keys("#hand-text", "123456m789p23455s").await;
    p.click("#table-winner option[value=\"Ben\"]").await;
    p.click("#table-discarder option[value=\"Dan\"]").await;
    p.click("#btn-add-cowinner").await;
    p.wait_js(
        "return Array.from(document.querySelectorAll('#table-pending li')).map(function (li) { return li.getAttribute('data-player'); })",
        json!(["Ben"]),
        "Ben staged",
    )
    .await;
    assert_eq!(
        p.js("return [document.getElementById('hand-text').value, document.getElementById('win-by').value, document.getElementById('discarder').value]")
            .await,
        json!(["", "discard", "north"]),
        "[{l}] the box is cleared for the next winner, the same discard kept"
    );
    // Ben cannot win twice.
    p.type_keys("#hand-text", "123456m789p23455s").await;
    p.click("#table-winner option[value=\"Ben\"]").await;
    p.click("#btn-add-cowinner").await;
    let err = p
        .wait_text(
            "[data-error-for=\"/table/winner\"]",
            "Ben twice refused at the winner",
            |t| t.contains("Ben"),
        )
        .await;
    assert_player_words(&err, "a winner twice");
    assert_eq!(
        p.js_str("return document.activeElement.id").await,
        "table-winner",
        "[{l}] the focus goes to the winner chooser"
    );
    // Cat's hand must end on Dan's 5s too; it is preset, and a
    // 9s chosen instead is refused in the page's words, naming both players.
    p.js("var h = document.getElementById('hand-text'); h.value = ''; h.dispatchEvent(new Event('input')); return null")
        .await;
    p.type_keys("#hand-text", "123456789s111z55s").await;
    assert_eq!(
        p.js_str("return document.getElementById('winning-tile').value")
            .await,
        "5s",
        "[{l}] the second winner's winning tile is the shared discard"
    );
    p.click("#winning-tile option[value=\"9s\"]").await;
    p.click("#table-winner option[value=\"Cat\"]").await;
    p.click("#btn-add-win").await;
    let err = p
        .wait_text(
            "[data-error-for=\"/hand/winning_tile\"]",
            "the second winner's tile refused at the winning tile",
            |t| t.contains("Cat") && t.contains("Ben") && t.contains(lang.co_winner_tile),
        )
        .await;
    assert_player_words(&err, "a co-winner on another tile");
    let stale = p.text("#stale-note").await.unwrap_or_default();
    assert!(
        !stale.contains(lang.rescoring),
        "[{l}] no 'Rescoring…' under a refusal: {stale:?}"
    );
    // Cat's hand, the second winner, added with Ben's as one hand.
    p.js("var h = document.getElementById('hand-text'); h.value = ''; h.dispatchEvent(new Event('input')); return null")
        .await;
    p.type_keys("#hand-text", "123456789s111z55s").await;
    p.click("#table-winner option[value=\"Cat\"]").await;
    assert_eq!(
        p.js_str("return document.getElementById('seat-wind').value")
            .await,
        "west",
        "[{l}] Cat sits West"
    );
    p.click("#btn-add-win").await;
    table_row_count(&p, 1, "the double win in the table").await;
    assert_eq!(
        table_rows(&p).await,
        json!([[
            lang.table_double_win,
            "Ann -40 -40",
            "Ben 24 24",
            "Cat 96 96",
            "Dan -80 -80"
        ]]),
        "[{l}] both winners paid as if alone by the seats that did not win"
    );
    let standings = p.js("return Array.from(document.querySelectorAll('#table-standings li')).map(function (li) { return li.getAttribute('data-player') + ' ' + li.getAttribute('data-rank'); })").await;
    assert_eq!(
        standings,
        json!(["Cat 1", "Ben 2", "Ann 3", "Dan 4"]),
        "[{l}] standings after the double win"
    );
    assert_eq!(
        p.js("return window.JSON.parse(window.localStorage.getItem('faan.night')).hands[0].winners.length")
            .await,
        json!(2),
        "[{l}] one stored hand with two winners"
    );

    p.wait_js(
        "return Array.from(document.querySelectorAll('#table-transfers li')).map(function (li) { return li.getAttribute('data-money'); }).sort().join(' ')",
        json!("+$12.00 +$40.00 +$8.00"),
        "the transfers in money",
    )
    .await;
    let transfers: Vec<String> = serde_json::from_value(
        p.js("return Array.from(document.querySelectorAll('#table-transfers li')).map(function (li) { return li.textContent; })")
            .await,
    )
    .expect("transfers");
    assert!(
        transfers.iter().any(|t| t == lang.table_cat_paid_money),
        "[{l}] Dan pays Cat 80 points, $40.00: {transfers:?}"
    );
    assert_eq!(
        p.js("return Array.from(document.querySelectorAll('#table-standings li')).map(function (li) { return li.getAttribute('data-money'); })").await,
        json!(["+$48.00", "+$12.00", "-$20.00", "-$40.00"]),
        "[{l}] standings in money"
    );
    assert_eq!(
        p.js("return window.JSON.parse(window.localStorage.getItem('faan.night')).rules")
            .await,
        json!({"stake": 0.5}),
        "[{l}] the stake kept with the night"
    );
    // Money is its own running column, captioned. Hand 2, Dan's
    // false win at Wisteria Court's minimum (B = 1: -18, +6 each): at $0.50 a
    // point Dan -$9.00, the others +$3.00, on top of the double win's money.
    p.click("#table-offender option[value=\"Dan\"]").await;
    p.click("#btn-add-false-win").await;
    table_row_count(&p, 2, "the false win after the double win").await;
    assert_eq!(
        p.js("return Array.from(document.querySelectorAll('#table-body tr')).map(function (r) { return Array.from(r.querySelectorAll('td.money-col')).map(function (c) { return c.getAttribute('data-money-player') + ' ' + c.getAttribute('data-money') + ' ' + c.getAttribute('data-money-total') + ' ' + c.querySelector('.balance').textContent; }); })")
            .await,
        json!([
            ["Ann -$20.00 -$20.00 -$20.00", "Ben +$12.00 +$12.00 +$12.00", "Cat +$48.00 +$48.00 +$48.00", "Dan -$40.00 -$40.00 -$40.00"],
            ["Ann +$3.00 -$17.00 -$17.00", "Ben +$3.00 +$15.00 +$15.00", "Cat +$3.00 +$51.00 +$51.00", "Dan -$9.00 -$49.00 -$49.00"]
        ]),
        "[{l}] each player's money, this hand's and running, in its own column"
    );
    assert_eq!(
        table_rows(&p).await[1],
        json!([
            lang.table_false_win,
            "Ann 6 -34",
            "Ben 6 30",
            "Cat 6 102",
            "Dan -18 -98"
        ]),
        "[{l}] the points beside the money"
    );
    // All four players and their money readable at 1366 px and on a phone:
    // no scrollbar of the table's own, nothing past the page's edge.
    for (w, h) in [(1366, 768), (390, 844)] {
        p.viewport(w, h).await;
        let fit = p
            .js("var t = document.querySelector('table.ledger'), s = t.closest('.table-scroll'), sr = s.getBoundingClientRect(); var inside = function (e) { var r = e.getBoundingClientRect(); return r.width > 0 && r.left >= sr.left - 1 && r.right <= sr.right + 1; }; return [t.scrollWidth <= s.clientWidth + 1, document.documentElement.scrollWidth <= window.innerWidth, Array.from(document.querySelectorAll('#table-head th[data-player]')).map(inside), Array.from(document.querySelectorAll('#table-foot td.money-col')).map(inside), document.querySelector('#table-head th.money-col').textContent]")
            .await;
        assert_eq!(
            fit,
            json!([
                true,
                true,
                [true, true, true, true],
                [true, true, true, true],
                lang.money_caption
            ]),
            "[{l}] at {w} px: four names and their running money inside the table, captioned"
        );
        p.js("document.getElementById('table').scrollIntoView({block: 'start'}); return null")
            .await;
        p.shot(&format!("table-money-{w}")).await;
    }
    p.viewport(1280, 1000).await;
    // Undo asks first: the player says yes.
    p.js("window.confirm = function () { return true; }; return null")
        .await;
    p.click("#btn-undo").await;
    table_row_count(&p, 1, "the false win undone").await;
    p.js("document.getElementById('table-section').scrollIntoView({block: 'start'}); return null")
        .await;
    p.shot("double-win").await;

    // Head bump: only Ben, the first after Dan, is paid. The night's rules
    // are fixed once it starts, so the double win is undone, the rule set
    // before the first hand, and the win redone under it.
    p.click("#btn-undo").await;
    p.wait_js(
        "return JSON.parse(localStorage.getItem('faan.night')).hands.length",
        json!(0),
        "the double win undone",
    )
    .await;
    p.click("#tr-multiple-winners option[value=\"head_bump\"]")
        .await;
    p.click("#btn-redo").await;
    p.wait_js(
        "var r = document.querySelector('#table-body tr'); return r ? r.querySelector('td.result').textContent : ''",
        json!(lang.table_double_win_head_bump),
        "the head bump retallied",
    )
    .await;
    assert_eq!(
        table_rows(&p).await[0],
        json!([
            lang.table_double_win_head_bump,
            "Ann -8 -8",
            "Ben 32 32",
            "Cat -8 -8",
            "Dan -16 -16"
        ]),
        "[{l}] head bump: only Ben is paid"
    );
    p.js("window.localStorage.removeItem('faan.night'); return null")
        .await;
}

/// Whether this server checks ruleset documents (`POST /v1/rulesets/validate`,
/// the inline rulesets): asked by the page itself.
async fn server_validates(p: &Page) -> bool {
    let script = r#"
        var done = arguments[0];
        window.fetch('/v1/rulesets/validate', {method: 'POST', headers: {'content-type': 'application/json'},
          body: JSON.stringify({ruleset: 'wisteria-court'})}).then(function (r) { done(r.status); });
    "#;
    let v = p.js_async(script, vec![], "validate status").await;
    // Without the route, the path is `/v1/rulesets/{id}`, which answers POST with 405.
    !matches!(v.as_u64(), Some(404 | 405))
}

/// The House rules panel: an optional pattern switched on changes the
/// score, and the rules exported as a ruleset document.
/// 123m 456m 789m 234s 55s self-drawn by South under Wisteria Court is 4
/// faan (all chows, self-drawn, concealed hand, no flowers). With
/// `voided_suit` at 3 faan (no dots: two numbered suits; it contains
/// nothing, rulesets/README.md "Optional patterns"): 4 + 3 = 7 faan,
/// B = 48 (half spicy), each other pays 2B = 96.
async fn house_patterns_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    p.open("/?hand=123456789m23455s").await;
    p.wait_text("#total-faan", "4 faan before the house rule", |t| t == "4")
        .await;
    p.click("#house-rules summary").await;
    p.click("#hr-patterns-box summary").await;
    p.wait_js(
        "return document.querySelectorAll('#hr-patterns tr[data-pattern]').length",
        json!(faan::core::pattern::PatternId::ALL.len()),
        "every pattern of GET /v1/patterns",
    )
    .await;
    // The optional ones first, named by the pattern table before anything scored them.
    assert_eq!(
        p.js("var r = document.querySelector('#hr-patterns tr[data-pattern]'); return [r.getAttribute('data-pattern'), r.cells[0].textContent]")
            .await,
        json!(["fully_concealed", if l == "zh" { "門前清自摸" } else { "Fully concealed hand" }]),
        "[{l}] the first row: the first optional pattern, in the page's language"
    );
    p.click("select[data-pattern-value=\"voided_suit\"] option[value=\"3\"]")
        .await;
    p.wait_text("#total-faan", "7 faan with the voided suit", |t| t == "7")
        .await;
    assert_eq!(
        p.lines_shown().await,
        vec![
            (
                "all_chows".to_string(),
                if l == "zh" { "平糊" } else { "All chows" }.to_string()
            ),
            (
                "self_draw".to_string(),
                if l == "zh" {
                    "自摸"
                } else {
                    "Self-drawn win"
                }
                .to_string()
            ),
            (
                "concealed_hand".to_string(),
                if l == "zh" {
                    "門前清"
                } else {
                    "Concealed hand"
                }
                .to_string()
            ),
            (
                "no_flowers".to_string(),
                if l == "zh" { "無花" } else { "No flowers" }.to_string()
            ),
            ("voided_suit".to_string(), lang.voided_suit.to_string()),
        ],
        "[{l}] the voided suit beside the ruleset's four lines"
    );
    assert_eq!(
        p.js_str("return document.getElementById('payment-east').getAttribute('data-value')")
            .await,
        "-96",
        "[{l}] 7 faan: each other pays 2 x 48"
    );
    // The row is named as the server names the pattern.
    p.wait_js(
        "return document.querySelector('#hr-patterns tr[data-pattern=\"voided_suit\"] td').textContent",
        json!(lang.voided_suit),
        "the row named from the server's line",
    )
    .await;

    // Exported: the document that extends Wisteria Court with the one pattern.
    let doc = p.export_document().await;
    assert_eq!(
        doc,
        json!({"extends": "wisteria-court", "id": "custom-wisteria-court", "name": lang.custom_name, "name_zh": "紫藤苑麻雀（自訂規則）",
               "patterns": {"voided_suit": {"faan": 3}}}),
        "[{l}] the ruleset document"
    );
    assert_eq!(
        p.js("var a = document.getElementById('hr-download'); return [a.hidden, a.getAttribute('download'), a.getAttribute('href').slice(0, 30)]")
            .await,
        json!([false, "custom-wisteria-court.json", "data:application/json;charset="]),
        "[{l}] a download of the document"
    );
    if server_validates(&p).await {
        let hash = p
            .wait_js(
                "var s = document.getElementById('hr-export-status'); return s.getAttribute('data-state') === 'valid' && s.getAttribute('data-hash').length",
                json!(64),
                "the server accepts the document, with its ruleset_hash",
            )
            .await;
        assert_eq!(hash, json!(64), "[{l}] a SHA-256 hash");
        // Compare with the document beside the built-in rulesets.
        p.click("#cmp-custom").await;
        assert!(
            p.js_str("return window.location.search")
                .await
                .contains("compare_custom=1"),
            "[{l}] the compare box is in the shared URL"
        );
        p.click("#btn-compare").await;
        p.wait_js(
            "var r = document.querySelector('#compare-summary tr[data-custom]'); return r ? r.getAttribute('data-total-faan') : null",
            json!("7"),
            "the custom ruleset compared at 7 faan",
        )
        .await;
        assert_eq!(
            p.js_str("return document.querySelector('#compare-summary tr[data-ruleset=\"wisteria-court\"]').getAttribute('data-total-faan')").await,
            "4",
            "[{l}] Wisteria Court itself, without the house rule, at 4"
        );
        // Reloaded, the comparison comes back with the page's own ruleset in it.
        let here = p
            .js_str("return window.location.pathname + window.location.search")
            .await;
        p.open(&here).await;
        p.wait_js(
            "var r = document.querySelector('#compare-summary tr[data-custom]'); return r ? r.getAttribute('data-total-faan') : null",
            json!("7"),
            "the custom ruleset compared again after a reload",
        )
        .await;
        // Unticked, the open comparison is drawn again at once (no button pressed).
        p.click("#cmp-custom").await;
        p.wait_js(
            "return document.querySelectorAll('#compare-summary tr[data-custom]').length",
            json!(0),
            "the comparison redrawn without the page's own ruleset",
        )
        .await;
        // The reload closed the patterns' box: opened again for the steps below.
        p.js("document.getElementById('hr-patterns-box').open = true; return null")
            .await;
        // Back to the score view for the import below.
        p.click("#btn-score").await;
        p.wait_text("#total-faan", "7 faan scored again", |t| t == "7")
            .await;
    } else {
        p.wait_js(
            "return document.getElementById('hr-export-status').getAttribute('data-state')",
            json!("unchecked"),
            "the page says the server cannot check documents",
        )
        .await;
        println!("[{l}] POST /v1/rulesets/validate is missing: validate and compare-with-custom not run end to end");
    }
    p.js("document.getElementById('house-rules').scrollIntoView({block: 'start'}); return null")
        .await;
    p.shot("house-panel").await;

    // Imported back: the pattern off again, then the document pasted.
    p.click("select[data-pattern-value=\"voided_suit\"] option[value=\"\"]")
        .await;
    p.wait_text("#total-faan", "back to 4 faan", |t| t == "4")
        .await;
    p.click("#hr-import-box summary").await;
    p.js("document.getElementById('hr-import-text').value = '{'; return null")
        .await;
    p.click("#btn-import").await;
    let err = p
        .wait_text(
            "[data-error-for=\"/ruleset_document\"]",
            "a broken document refused at the import box",
            |t| !t.is_empty(),
        )
        .await;
    assert_player_words(&err, "a broken document");
    p.js(&format!(
        "document.getElementById('hr-import-text').value = {}; return null",
        serde_json::to_string(&doc.to_string()).expect("a JS string")
    ))
    .await;
    p.click("#btn-import").await;
    p.wait_text(
        "#total-faan",
        "7 faan again from the imported document",
        |t| t == "7",
    )
    .await;
    assert_eq!(
        p.js_str(
            "return document.querySelector('select[data-pattern-value=\"voided_suit\"]').value"
        )
        .await,
        "3",
        "[{l}] the imported pattern's value in the panel"
    );
    // Compare under house rules says so on every row.
    p.click("#btn-compare").await;
    let label = p
        .wait_text(
            "#compare-summary tr[data-ruleset=\"dragon-society\"] a",
            "the compare row's label",
            |t| !t.is_empty(),
        )
        .await;
    assert!(
        label.contains(lang.house_rules_label),
        "[{l}] a ruleset compared under house rules is labelled so: {label:?}"
    );
    p.click("#btn-score").await;
    p.wait_text("#total-faan", "7 faan before the broken imports", |t| {
        t == "7"
    })
    .await;
    let status = p.text("#status").await.unwrap();
    assert!(
        status.contains(lang.house_rules_label),
        "[{l}] the single score names the house rules: {status:?}"
    );
    // Broken documents are refused before anything changes: an unknown
    // pattern id (GET /v1/patterns), a pattern above the limit.
    for (doc, want) in [
        (
            json!({"extends": "wisteria-court", "patterns": {"no_such_pattern": {"faan": 2}}}),
            "no_such_pattern",
        ),
        (
            json!({"extends": "wisteria-court", "patterns": {"voided_suit": {"faan": 99}}}),
            "99",
        ),
    ] {
        p.js(&format!(
            "document.getElementById('hr-import-text').value = {}; return null",
            serde_json::to_string(&doc.to_string()).expect("a JS string")
        ))
        .await;
        p.click("#btn-import").await;
        let err = p
            .wait_text(
                "[data-error-for=\"/ruleset_document\"]",
                "the broken document refused at the import box",
                |t| t.contains(want),
            )
            .await;
        assert_player_words(&err, "a refused import");
        let said = p.text("#hr-export-status").await.unwrap();
        assert!(
            said.starts_with(lang.import_refused),
            "[{l}] the status line describes the refusal, not an earlier import: {said:?}"
        );
        assert_eq!(
            p.js_str(
                "return document.querySelector('select[data-pattern-value=\"voided_suit\"]').value"
            )
            .await,
            "3",
            "[{l}] nothing changed on a refusal"
        );
    }
    p.reset().await;
}

/// Opens the House rules panel and its contains / exclusive box (by
/// property: clicking a summary would close one already open).
async fn open_contains_box(p: &Page) {
    p.js("document.getElementById('house-rules').open = true; document.getElementById('hr-contains-box').open = true; return null")
        .await;
}

/// What contains what, edited in the panel. 11m 33m 55m 77p 99p 22s 66s
/// self-drawn by South under Wisteria Court with seven pairs added at 4
/// faan: seven pairs (it contains the concealed hand when a house rule adds
/// it, GET /v1/patterns) 4 + self-drawn 1 + no flowers 1 = 6 faan, B = 32,
/// each other pays 64. Unticking the concealed hand from seven pairs' list
/// (`house_rules.contains: {"seven_pairs": []}`) adds it: 7 faan, B = 48,
/// each pays 96. The concealed hand made to contain seven pairs closes a
/// chain: the server refuses it at that pattern's row.
async fn house_contains_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    p.open("/?hand=113355m7799p2266s&patterns=seven_pairs:4")
        .await;
    p.wait_text(
        "#total-faan",
        "6 faan: seven pairs over the concealed hand",
        |t| t == "6",
    )
    .await;
    assert_eq!(
        p.line_ids().await,
        ["self_draw", "no_flowers", "seven_pairs"],
        "[{l}] seven pairs contains the concealed hand"
    );
    open_contains_box(&p).await;
    p.wait_js(
        "return !!document.querySelector('#hr-contains-pattern option[value=\"seven_pairs\"]')",
        json!(true),
        "seven pairs among the patterns scored",
    )
    .await;
    p.click("#hr-contains-pattern option[value=\"seven_pairs\"]")
        .await;
    let tick = "input[data-contains-of=\"seven_pairs\"][data-contains=\"concealed_hand\"]";
    p.wait_js(
        &format!("var c = document.querySelector('{tick}'); return c ? c.checked : null"),
        json!(true),
        "seven pairs' list shows the concealed hand ticked",
    )
    .await;
    p.click(tick).await;
    p.wait_text(
        "#total-faan",
        "7 faan: seven pairs stacks with the concealed hand",
        |t| t == "7",
    )
    .await;
    assert_eq!(
        p.line_ids().await,
        ["self_draw", "concealed_hand", "no_flowers", "seven_pairs"],
        "[{l}] the concealed hand scored beside seven pairs"
    );
    assert_eq!(
        p.js_str("return document.getElementById('payment-east').getAttribute('data-value')")
            .await,
        "-96",
        "[{l}] 7 faan: each other pays 2 x 48"
    );
    assert_eq!(
        p.js_str("return document.querySelector('#hr-contains-changed [data-contains-changed=\"seven_pairs\"] span').textContent")
            .await,
        lang.seven_pairs_stacks,
        "[{l}] the change listed"
    );
    // Exported: seven pairs with its own (empty) contains.
    let doc = p.export_document().await;
    assert_eq!(
        doc["patterns"],
        json!({"seven_pairs": {"faan": 4, "contains": []}}),
        "[{l}] contains on the pattern in the document"
    );

    // A chain: the concealed hand made to contain seven pairs, which contains it by default.
    p.click(tick).await;
    p.wait_text("#total-faan", "6 faan again", |t| t == "6")
        .await;
    p.click("#hr-contains-pattern option[value=\"concealed_hand\"]")
        .await;
    p.click("input[data-contains-of=\"concealed_hand\"][data-contains=\"seven_pairs\"]")
        .await;
    let err = p
        .wait_text(
            "[data-error-for=\"/house_rules/contains/concealed_hand\"]",
            "the cycle refused at the concealed hand's row",
            |t| !t.is_empty(),
        )
        .await;
    assert_eq!(
        err, lang.contains_cycle,
        "[{l}] the refusal in the page's language"
    );
    assert_player_words(&err, "a contains cycle");
    p.js(
        "document.getElementById('hr-contains-box').scrollIntoView({block: 'start'}); return null",
    )
    .await;
    p.shot("contains-refused").await;
    p.click("[data-contains-reset=\"concealed_hand\"]").await;
    p.wait_text("#total-faan", "6 faan once the chain is undone", |t| {
        t == "6"
    })
    .await;
    p.reset().await;
}

/// Exclusive pairs in the panel and the chart view. 123m 456m 789m
/// 234s 55s self-drawn by South under Wisteria Court: all chows, self-drawn,
/// concealed hand, no flowers, 4 faan. All chows and the concealed hand
/// declared exclusive, both 1 faan: the first of the pair stays, 3 faan,
/// B = 8, each pays 16. The concealed hand at 2 then outscores all chows:
/// self-drawn 1 + concealed 2 + no flowers 1 = 4 faan, B = 16, each pays 32;
/// the pair removed, all chows is back: 5 faan.
async fn house_exclusive_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    p.open("/?hand=123456789m23455s").await;
    p.wait_text("#total-faan", "4 faan", |t| t == "4").await;
    open_contains_box(&p).await;
    p.wait_js(
        "return !!document.querySelector('#hr-exclusive-b option[value=\"concealed_hand\"]')",
        json!(true),
        "the pair's choosers filled",
    )
    .await;
    p.click("#hr-exclusive-a option[value=\"all_chows\"]").await;
    p.click("#hr-exclusive-b option[value=\"concealed_hand\"]")
        .await;
    p.click("#btn-add-exclusive").await;
    p.wait_text("#total-faan", "3 faan: the concealed hand excluded", |t| {
        t == "3"
    })
    .await;
    assert_eq!(
        p.line_ids().await,
        ["all_chows", "self_draw", "no_flowers"],
        "[{l}] a tie keeps the first of the pair"
    );
    assert_eq!(
        p.js_str("return document.getElementById('payment-east').getAttribute('data-value')")
            .await,
        "-16",
        "[{l}] 3 faan: each other pays 2 x 8"
    );
    assert_eq!(
        p.js_str("return document.querySelector('#hr-exclusive [data-exclusive=\"all_chows,concealed_hand\"] span').textContent")
            .await,
        lang.exclusive_pair,
        "[{l}] the pair named in the page's language"
    );
    p.js("document.getElementById('hr-patterns-box').open = true; return null")
        .await;
    p.click("select[data-pattern-value=\"concealed_hand\"] option[value=\"2\"]")
        .await;
    p.wait_text(
        "#total-faan",
        "4 faan: the concealed hand at 2 wins the pair",
        |t| t == "4",
    )
    .await;
    assert_eq!(
        p.line_ids().await,
        ["self_draw", "concealed_hand", "no_flowers"],
        "[{l}] the higher line kept"
    );
    assert_eq!(
        p.js_str("return document.getElementById('payment-east').getAttribute('data-value')")
            .await,
        "-32",
        "[{l}] 4 faan: each other pays 2 x 16"
    );
    let doc = p.export_document().await;
    assert_eq!(
        (&doc["patterns"], &doc["exclusive"]),
        (
            &json!({"concealed_hand": {"faan": 2}}),
            &json!([["all_chows", "concealed_hand"]])
        ),
        "[{l}] exclusive at the document's top level"
    );
    p.click("[data-exclusive-remove=\"0\"]").await;
    p.wait_text("#total-faan", "5 faan without the pair", |t| t == "5")
        .await;

    // The chart view: a chart's pairs listed, nothing without them (the
    // real chart, with a pair put in, drawn by the page's own view).
    let script = r#"
        var lang = arguments[0], done = arguments[arguments.length - 1];
        Promise.all([import('/js/views/rules.js'), import('/js/state.js'),
                     fetch('/v1/rulesets/wisteria-court').then(function (r) { return r.json(); })])
          .then(function (m) {
            // The view draws a state whose answer on screen is the chart.
            var draw = function (res) {
              m[0].rulesView.render(Object.assign(m[1].initialState({lang: lang}), {shown: {view: 'rules', res: res, ctx: {}, key: '', document: null, seq: 0}}));
            };
            var chart = m[2], out = [];
            draw(chart);
            out.push(document.getElementById('rules-exclusive-box').hidden);
            draw(Object.assign({}, chart, {exclusive: [['all_chows', 'concealed_hand']]}));
            out.push(document.getElementById('rules-exclusive-box').hidden);
            out.push(document.querySelector('#rules-exclusive li').textContent);
            done(out);
          })
          .catch(function (e) { done('error: ' + e); });
    "#;
    let shown = p
        .js_async(script, vec![json!(lang.code)], "the rules view drawn")
        .await;
    assert_eq!(
        shown,
        json!([true, false, lang.exclusive_pair]),
        "[{l}] the chart view: no pairs, nothing shown; a pair, named"
    );
    p.reset().await;
}

/// Limits that add, and how a total above the limit pays
/// (rulesets/README.md "Limits that add"). Worked by hand:
/// 19m 19p 19s 1234567z + 1m won on West's discard by South (east round,
/// flower F1, not South's) under Wisteria Court with the house rule
/// `thirteen_sided_orphans: limit`: thirteen orphans (limit 10), the
/// thirteen-sided wait (limit 10; the thirteen tiles before the 1m are one of
/// each orphan) and the concealed hand (1; Wisteria Court's thirteen orphans
/// does not contain it). Half spicy, limit 10: B(10) = 128, B(1) = 2.
/// - Limits do not add: 10 faan, B = 128; West pays 2B = 256, East and North 128.
/// - Limits add, each limit pays (`per_limit`): 21 faan = 2 x 10 + 1,
///   B = 2 x 128 + 2 = 258; West 516, East and North 258, South gets 1032.
/// - Limits add, one limit (`once`): 21 faan, B = 128; West 256, the others 128.
///
/// (settle.json's limits_add fixtures work the same hand.)
async fn house_limits_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    p.open("/?hand=119m19p19s1234567z&win=1m&flowers=F1&by=discard&from=west&patterns=thirteen_sided_orphans:limit").await;
    p.wait_score(10, 128, "the limit: 10 faan, B 128").await;
    assert_eq!(
        p.payments_shown().await,
        json!([-128, 512, -256, -128]),
        "[{l}] limits do not add: West pays 2 x 128, East and North 128"
    );
    assert!(
        p.displayed("#hr-limits-add").await,
        "[{l}] the House rules panel opens with a rule set, Limits add up in it"
    );
    assert!(
        !p.displayed("#hr-limits-pay").await,
        "[{l}] Above the limit pays hidden while limits do not add"
    );

    p.click("#hr-limits-add option[value=\"true\"]").await;
    p.wait_score(21, 258, "limits add: 21 faan, two limits and B(1)")
        .await;
    assert_eq!(
        p.payments_shown().await,
        json!([-258, 1032, -516, -258]),
        "[{l}] per_limit: West pays 2 x 258, East and North 258"
    );
    assert!(
        p.displayed("#hr-limits-pay").await,
        "[{l}] Above the limit pays shown once limits add"
    );
    assert_eq!(
        p.text("#house-rules-count").await.unwrap(),
        lang.house_count_2,
        "[{l}] the pattern and limits_add counted"
    );

    p.click("#hr-limits-pay option[value=\"once\"]").await;
    p.wait_score(21, 128, "one limit at most: 21 faan, B 128")
        .await;
    assert_eq!(
        p.payments_shown().await,
        json!([-128, 512, -256, -128]),
        "[{l}] once: West pays 2 x 128, East and North 128"
    );
    let url = p.js_str("return location.search").await;
    assert!(
        url.contains("limits_add=true") && url.contains("limits_pay=once"),
        "[{l}] both in the URL: {url}"
    );
    p.js("document.getElementById('hr-limits-add').scrollIntoView({block: 'center'}); return null")
        .await;
    p.shot("limits").await;

    // Exported: both at the document's top level.
    let doc = p.export_document().await;
    assert_eq!(
        doc,
        json!({"extends": "wisteria-court", "id": "custom-wisteria-court", "name": lang.custom_name, "name_zh": "紫藤苑麻雀（自訂規則）",
               "limits_add": true, "limits_pay": "once",
               "patterns": {"thirteen_sided_orphans": {"faan": "limit"}}}),
        "[{l}] the ruleset document"
    );

    // A refusal of the server at its control: the request's limits_pay
    // rewritten on its way out (the page itself sends only what it offers).
    p.js(r#"
        window.__fetch = window.__fetch || window.fetch;
        window.fetch = function (url, init) {
          if (String(url).indexOf('/v1/score') < 0 || !init || !init.body) return window.__fetch(url, init);
          var body = JSON.parse(init.body);
          if (body.house_rules && body.house_rules.limits_pay) body.house_rules.limits_pay = 'twice';
          return window.__fetch(url, Object.assign({}, init, {body: JSON.stringify(body)}));
        };
        return null;"#)
        .await;
    p.click("#hr-limits-pay option[value=\"per_limit\"]").await;
    let err = p
        .wait_text(
            "[data-error-for=\"/house_rules/limits_pay\"]",
            "the refusal at Above the limit pays",
            |t| !t.is_empty(),
        )
        .await;
    assert!(
        err.starts_with(lang.limits_pay_refused),
        "[{l}] the refusal in the page's words: {err:?}"
    );
    assert_player_words(&err, "the refused limits_pay");
    assert_eq!(
        p.js("return [document.getElementById('hr-limits-pay-field').classList.contains('has-error'), document.getElementById('hr-limits-pay').getAttribute('aria-invalid')]")
            .await,
        json!([true, "true"]),
        "[{l}] the control marked"
    );
    p.js("window.fetch = window.__fetch; return null").await;

    // Back to the ruleset's: limits do not add, how above the limit pays goes with its control.
    p.click("#hr-limits-add option[value=\"\"]").await;
    p.wait_score(10, 128, "back to the limit").await;
    assert!(
        !p.displayed("#hr-limits-pay").await,
        "[{l}] Above the limit pays hidden again"
    );
    let url = p.js_str("return location.search").await;
    assert!(!url.contains("limits_"), "[{l}] neither in the URL: {url}");

    // Imported back: the document's choices in the panel and the score.
    p.click("#hr-import-box summary").await;
    p.js(&format!(
        "document.getElementById('hr-import-text').value = {}; return null",
        serde_json::to_string(&doc.to_string()).expect("a JS string")
    ))
    .await;
    p.click("#btn-import").await;
    p.wait_score(21, 128, "21 faan, one limit, from the document")
        .await;
    assert_eq!(
        p.js("return [document.getElementById('hr-limits-add').value, document.getElementById('hr-limits-pay').value]")
            .await,
        json!(["true", "once"]),
        "[{l}] the imported choices in the panel"
    );

    // A shared link keeps them.
    let href = p.js_str("return location.href").await;
    p.goto(&href).await;
    p.wait_loaded().await;
    p.wait_score(21, 128, "the link: 21 faan, one limit").await;
    assert_eq!(
        p.js("return [document.getElementById('hr-limits-add').value, document.getElementById('hr-limits-pay').value]")
            .await,
        json!(["true", "once"]),
        "[{l}] the link's choices in the panel"
    );

    // The compare checkbox's words on one line beside the box (they wrapped under it).
    assert_eq!(
        p.js("var box = document.getElementById('cmp-custom'), words = box.nextElementSibling, lh = parseFloat(getComputedStyle(words).lineHeight) || 20; var a = box.getBoundingClientRect(), w = words.getBoundingClientRect(); return [a.width < 30, w.left > a.right, w.height < 1.6 * lh]")
            .await,
        json!([true, true, true]),
        "[{l}] the compare checkbox: its own size, the words beside it on one line"
    );

    // The chart view: a chart whose limits add says how a total above the
    // limit pays (the real chart, limits_add put in, drawn by the page's view).
    let script = r#"
        var lang = arguments[0], done = arguments[arguments.length - 1];
        Promise.all([import('/js/views/rules.js'), import('/js/state.js'),
                     fetch('/v1/rulesets/wisteria-court').then(function (r) { return r.json(); })])
          .then(function (m) {
            // The view draws a state whose answer on screen is the chart.
            var draw = function (res) {
              m[0].rulesView.render(Object.assign(m[1].initialState({lang: lang}), {shown: {view: 'rules', res: res, ctx: {}, key: '', document: null, seq: 0}}));
            };
            var chart = m[2], out = [];
            var lines = function () { return Array.from(document.querySelectorAll('#rules-summary .summary-line')).map(function (x) { return x.textContent; }); };
            draw(chart);
            out.push(chart.limits_add, lines());
            draw(Object.assign({}, chart, {limits_add: true, limits_pay: 'once'}));
            out.push(lines());
            done(out);
          })
          .catch(function (e) { done('error: ' + e); });
    "#;
    let shown = p
        .js_async(script, vec![json!(lang.code)], "the rules view drawn")
        .await;
    assert_eq!(
        shown[0],
        json!(false),
        "[{l}] Wisteria Court's limits do not add"
    );
    let has_line = |v: &Value| {
        v.as_array()
            .is_some_and(|a| a.iter().any(|x| x == lang.limits_once_line))
    };
    assert!(
        !has_line(&shown[1]),
        "[{l}] no limits line where limits do not add: {}",
        shown[1]
    );
    assert!(
        has_line(&shown[2]),
        "[{l}] the chart view: limits add, one limit at most: {}",
        shown[2]
    );
    p.reset().await;
}

/// Selects whose chosen option's text is wider than the box shows (the text cut off), by id,
/// measured with the select's own font.
async fn truncated_selects(p: &Page) -> Value {
    p.js(
        r#"var c = document.createElement('canvas').getContext('2d'), out = [];
        document.querySelectorAll('select').forEach(function (s) {
          if (!s.offsetParent || s.selectedIndex < 0) return;
          var st = getComputedStyle(s);
          c.font = st.font;
          var text = s.options[s.selectedIndex].text;
          // The room for text: the box less its padding, borders and the arrow (about 20 px).
          var room = s.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 20;
          var w = c.measureText(text).width;
          if (w > room + 0.5) out.push((s.id || s.closest('[data-pattern]') && s.closest('[data-pattern]').getAttribute('data-pattern') || s.getAttribute('data-house') || '?') + ': ' + text + ' (' + Math.round(w) + ' px in ' + Math.round(room) + ')');
        });
        return out;"#,
    )
    .await
}

/// The count under the hand box never claims a winning hand;
/// counts read right ("1 tile", "1 change"); the winning tile's badge is in the page's
/// language at AA contrast; the house-rules text boxes have names; no select cuts its text
/// at 1366 or 390 px.
async fn copy_labels_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    // Fourteen tiles that make no hand: the count says only that the count is right.
    p.type_keys("#hand-text", "1357m1357p135799s").await;
    assert_eq!(
        p.text("#hand-count").await.unwrap(),
        lang.count_14,
        "[{l}] fourteen tiles: a count, not a complete hand"
    );
    p.click("#btn-score").await;
    p.wait_text(
        "[data-error-for=\"/hand/tiles\"]",
        "the not-winning refusal",
        |t| t.contains(lang.not_winning),
    )
    .await;
    assert_eq!(
        p.text("#hand-count").await.unwrap(),
        lang.count_14,
        "[{l}] the count stays a count beside the refusal"
    );
    p.shot("copy-not-winning").await;

    // One tile to wait on beside four declared melds.
    p.reset().await;
    p.type_keys("#hand-text", "[111m][222p][333s][444m] 5s")
        .await;
    assert_eq!(
        p.text("#btn-waits").await.unwrap(),
        lang.waits_button_one,
        "[{l}] one concealed tile for Waits"
    );

    // The winning tile's badge: the page's language, dark on gold.
    p.reset().await;
    p.tap_quiet_hand().await;
    p.wait_faan("4", "4 faan").await;
    let badge = p
        .js(r#"var b = document.querySelector('#hand [data-winning="true"]'), st = getComputedStyle(b, '::after');
            function lum(c) { var v = c.match(/[0-9.]+/g).slice(0, 3).map(function (x) { x = x / 255;
              return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
              return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; }
            var a = lum(st.color), g = lum(st.backgroundColor);
            return [JSON.parse(st.content), Math.round(100 * (Math.max(a, g) + 0.05) / (Math.min(a, g) + 0.05)) / 100, parseFloat(st.fontSize)];"#)
        .await;
    assert_eq!(
        badge[0],
        json!(lang.win_badge),
        "[{l}] the badge's word: {badge}"
    );
    let ratio = badge[1].as_f64().unwrap();
    assert!(
        ratio >= 4.5,
        "[{l}] the badge's contrast is AA (4.5:1): {badge}"
    );
    // The ruleset's name in the page's language: the select and the score's line.
    assert_eq!(
        p.js_str(
            "var s = document.getElementById('ruleset'); return s.options[s.selectedIndex].text"
        )
        .await,
        lang.wisteria_name,
        "[{l}] the ruleset select names Wisteria Court in the page's language"
    );
    let status = p.text("#status").await.unwrap();
    assert!(
        status.contains(lang.wisteria_name),
        "[{l}] the score's status names the ruleset: {status:?}"
    );
    p.shot("copy-badge").await;

    // One house rule set, counted in the singular; the panel's text boxes have names.
    p.open("/?hand=119m19p19s1234567z&win=1m&by=discard&from=west&patterns=thirteen_sided_orphans:limit").await;
    p.wait_score(10, 128, "the limit").await;
    assert_eq!(
        p.text("#house-rules-count").await.unwrap(),
        lang.house_count_1,
        "[{l}] one house rule"
    );
    let names = p
        .js(r#"return ['hr-points-table', 'hr-export-text', 'hr-import-text'].map(function (id) {
              var e = document.getElementById(id);
              return id + '=' + (e.getAttribute('aria-label') || Array.from(e.labels || []).map(function (x) { return x.textContent.trim(); }).join(' '));
            });"#)
        .await;
    for n in names.as_array().unwrap() {
        let n = n.as_str().unwrap();
        let (id, name) = n.split_once('=').unwrap();
        assert!(!name.is_empty(), "[{l}] #{id} has an accessible name");
        if l == "zh" {
            assert!(
                name.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "[{l}] #{id}'s name is Chinese: {name:?}"
            );
        }
    }

    // No select cuts its text, on a laptop or a phone, with the panels open.
    p.js("document.querySelectorAll('details').forEach(function (d) { d.open = true; }); return null")
        .await;
    for (w, h) in [(1366, 768), (390, 844)] {
        p.viewport(w, h).await;
        assert_eq!(
            truncated_selects(&p).await,
            json!([]),
            "[{l}] no select's text cut off at {w} px"
        );
        // The import box takes its card's width, not a narrow box of its own.
        let fill = p
            .js("var t = document.getElementById('hr-import-text'), c = t.parentElement.getBoundingClientRect(); return t.getBoundingClientRect().width / c.width")
            .await;
        assert!(
            fill.as_f64().unwrap() > 0.9,
            "[{l}] the import box fills its card at {w} px: {fill}"
        );
        p.js("document.getElementById('table-rules').scrollIntoView(); return null")
            .await;
        p.shot(&format!("copy-selects-{w}")).await;
    }
}

/// /docs opens with scoring, shows Markdown's `code` as code, and every
/// card fits a phone (nothing wider than its card).
async fn docs_flow(p: Page) {
    let l = p.l();
    p.open_docs().await;
    let first = p
        .js("return Array.from(document.querySelectorAll('#ops .op h3')).slice(0, 3).map(function (h) { return h.textContent; })")
        .await;
    assert_eq!(
        first,
        json!(["POST/v1/score", "POST/v1/score/batch", "POST/v1/compare"]),
        "[{l}] the docs open with the scoring endpoints"
    );
    let last = p
        .js("var h = document.querySelectorAll('#ops .op h3'); return h[h.length - 1].textContent")
        .await;
    assert!(
        !last.as_str().unwrap_or("").contains("/v1/"),
        "[{l}] the service's own pages come last: {last}"
    );
    let ticks = p
        .js("return Array.from(document.querySelectorAll('#desc, #ops p, #ops td, #schemas-list summary, #schemas-list td')).filter(function (e) { return e.textContent.indexOf('`') >= 0; }).map(function (e) { return e.textContent.slice(0, 80); })")
        .await;
    assert_eq!(
        ticks,
        json!([]),
        "[{l}] no raw backticks in the docs' prose"
    );
    // An index of the endpoints: one link per operation, each to its card.
    let index = p
        .js("var links = Array.from(document.querySelectorAll('#index a')); return [links.length, document.querySelectorAll('#ops .op').length, links.every(function (a) { return !!document.getElementById(a.getAttribute('href').slice(1)); })]")
        .await;
    assert!(
        index[0].as_u64().unwrap_or(0) > 10 && index[0] == index[1] && index[2] == json!(true),
        "[{l}] the index lists every operation and links to it: {index}"
    );
    // The responses' Status column holds its code on one line (not "S t a t u s").
    let status = p
        .js("return Array.from(document.querySelectorAll('#ops th.status, #ops td.status')).map(function (c) { var r = document.createRange(); r.selectNodeContents(c); return r.getClientRects().length === 1 && c.getBoundingClientRect().width >= 40; }).every(Boolean)")
        .await;
    assert_eq!(
        status,
        json!(true),
        "[{l}] every Status cell is one line, at least 40 px wide"
    );
    p.shot("docs-index-1280").await;
    let codes = p
        .js("return document.querySelectorAll('#ops p code').length")
        .await;
    assert!(
        codes.as_u64().unwrap_or(0) > 5,
        "[{l}] backticked names are code: {codes}"
    );
    p.viewport(390, 844).await;
    let wide = p
        .js(r#"var out = [];
            document.querySelectorAll('#ops .op').forEach(function (op) {
              var r = op.getBoundingClientRect();
              if (op.scrollWidth > op.clientWidth + 1) out.push(op.id + ' scrolls ' + op.scrollWidth + ' in ' + op.clientWidth);
              op.querySelectorAll('table').forEach(function (t) {
                var b = t.getBoundingClientRect();
                if (b.right > r.right + 1) out.push(op.id + ' table ends at ' + Math.round(b.right) + ' past ' + Math.round(r.right));
              });
            });
            if (document.documentElement.scrollWidth > window.innerWidth) {
              out.push('page ' + document.documentElement.scrollWidth);
              // What sticks out, named: the first few elements past the window's edge.
              Array.from(document.querySelectorAll('body *')).filter(function (e) { return e.getBoundingClientRect().right > window.innerWidth + 1; }).slice(0, 4).forEach(function (e) { out.push((e.id || e.tagName) + ' ' + (e.textContent || '').slice(0, 30) + ' ' + Math.round(e.getBoundingClientRect().right)); });
            }
            return out;"#)
        .await;
    assert_eq!(wide, json!([]), "[{l}] every card fits a 390 px phone");
    p.js("document.getElementById('score').scrollIntoView(); return null")
        .await;
    p.shot("docs-390").await;
}

/// Axe-core finds no serious or critical violation in any view, in either
/// language, at 390, 1366 and 1920 px.
async fn axe_flow(p: Page) {
    let l = p.l();
    p.open_in_language().await;
    let hand = "hand=123456m78p23455s9p&win=9p&by=self_draw";
    // A night with a stake: the table view shows the night, money columns too.
    p.js("window.localStorage.setItem('faan.night', JSON.stringify({players: ['Ann', 'Ben', 'Cat', 'Dan'], hands: [{result: 'false_win', offender: 'Dan'}, {result: 'draw'}], rules: {stake: 0.5}})); return null")
        .await;
    for view in ["score", "compare", "waits", "discard", "rules", "table"] {
        p.open(&format!("/?{hand}&view={view}")).await;
        p.js("document.querySelectorAll('details').forEach(function (d) { d.open = true; }); return null")
            .await;
        for (w, h) in [(390, 844), (1366, 768), (1920, 1080)] {
            p.viewport(w, h).await;
            assert_eq!(
                p.axe_serious().await,
                json!([]),
                "[{l}] axe-core: no serious or critical violation in the {view} view at {w} px"
            );
        }
    }
    assert_eq!(
        p.js("return document.querySelectorAll('#table-body td.money-col').length")
            .await,
        json!(8),
        "[{l}] the table view checked with its night's money columns"
    );
    // The hand empty (the rules and table views), and each question of a win by taps.
    for view in ["rules", "table"] {
        p.open(&format!("/?view={view}")).await;
        for (w, h) in [(390, 844), (1366, 768)] {
            p.viewport(w, h).await;
            assert_eq!(
                p.axe_serious().await,
                json!([]),
                "[{l}] axe-core: nothing serious in the {view} view with an empty hand at {w} px"
            );
        }
    }
    table_row_count(&p, 2, "the stored night shown").await;
    p.click("#btn-quick-win").await;
    for step in ["winner", "how", "faan"] {
        p.wait_js(
            "return document.getElementById('quick-panel').getAttribute('data-step')",
            json!(step),
            step,
        )
        .await;
        for (w, h) in [(390, 844), (1366, 768)] {
            p.viewport(w, h).await;
            assert_eq!(
                p.axe_serious().await,
                json!([]),
                "[{l}] axe-core: nothing serious at the {step} question at {w} px"
            );
        }
        if step != "faan" {
            p.click("#quick-choices button").await;
        }
    }
    p.js("window.localStorage.removeItem('faan.night'); return null")
        .await;
}

/// One tap of the quick-entry panel: the button whose attribute `attr` is `value`.
async fn tap(p: &Page, attr: &str, value: &str) {
    p.click(&format!("#quick-panel button[{attr}=\"{value}\"]"))
        .await;
}

/// The players' (delta, balance) of each hand on screen, by hand.
async fn night_rows(p: &Page) -> Value {
    p.js("return Array.from(document.querySelectorAll('#table-body tr')).map(function (r) { return [r.getAttribute('data-result')].concat(Array.from(r.querySelectorAll('td.points-col')).map(function (c) { return c.getAttribute('data-player') + ' ' + c.getAttribute('data-delta') + ' ' + c.getAttribute('data-balance'); })); })")
        .await
}

/// A night under HKMA entered with wins by taps only (who, how, the faan),
/// a change of stake at hand 4, a draw and a false win, at 390 and 1366 px,
/// checked against payments worked from rulesets/hkma.toml: half-spicy base
/// points B = 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128 for 0..10 faan; on a
/// discard the discarder pays 4B alone; a self-draw 2B from each; a limit
/// hand 10 faan; the false win pays each other player what that player
/// would collect from a self-drawn win at the minimum (3 faan: 2B = 16 from
/// each of three, 48).
async fn table_taps_flow(p: Page) {
    let l = p.l();
    p.open_in_language().await;
    p.js("window.localStorage.removeItem('faan.night'); return null")
        .await;
    p.open("/?rules=hkma").await;
    p.viewport(390, 844).await;
    for (i, name) in ["Ann", "Ben", "Cat", "Dan"].iter().enumerate() {
        p.type_keys(&format!("#player-{i}"), name).await;
    }
    // The page asks before a change of rules and an undo: the player says yes.
    p.js("window.confirm = function () { return true; }; return null")
        .await;

    // Hand 1 (390 px): Ben wins on Cat's discard, 3 faan: B = 8, Cat pays 4B = 32.
    p.click("#btn-quick-win").await;
    assert_eq!(
        p.js("return Array.from(document.querySelectorAll('#quick-choices button')).map(function (b) { return b.textContent; })")
            .await,
        json!(["Ann", "Ben", "Cat", "Dan"]),
        "[{l}] who won: the four names as buttons"
    );
    let size = p
        .js("var r = document.querySelector('#quick-choices button').getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]")
        .await;
    assert!(
        size[0].as_u64().unwrap_or(0) >= 44 && size[1].as_u64().unwrap_or(0) >= 44,
        "[{l}] the name buttons are at least 44 px each way at 390 px: {size}"
    );
    p.shot("taps-who-390").await;
    tap(&p, "data-quick-player", "Ben").await;
    tap(&p, "data-quick-how", "Cat").await;
    let pad = p
        .js("return Array.from(document.querySelectorAll('#quick-choices [data-quick-faan]')).map(function (b) { return b.textContent; })")
        .await;
    assert_eq!(
        pad,
        json!(["3", "4", "5", "6", "7", "8", "9", "10"]),
        "[{l}] the pad runs from HKMA's minimum 3 to its limit 10"
    );
    p.shot("taps-faan-390").await;
    tap(&p, "data-quick-faan", "3").await;
    table_row_count(&p, 1, "hand 1 by taps").await;
    assert_eq!(
        p.js("return document.getElementById('quick-panel').hidden")
            .await,
        json!(true),
        "[{l}] the panel closes once the win is kept"
    );

    // Hand 2: Ann self-draws 5 faan: B = 24, each other pays 2B = 48.
    p.click("#btn-quick-win").await;
    tap(&p, "data-quick-player", "Ann").await;
    tap(&p, "data-quick-how", "").await;
    tap(&p, "data-quick-faan", "5").await;
    table_row_count(&p, 2, "hand 2 by taps").await;

    // Hand 3 (1366 px): Dan's limit hand on Ben's discard: B = 128, Ben pays 512.
    p.viewport(1366, 768).await;
    p.click("#btn-quick-win").await;
    tap(&p, "data-quick-player", "Dan").await;
    tap(&p, "data-quick-how", "Ben").await;
    tap(&p, "data-quick-limit", "").await;
    table_row_count(&p, 3, "hand 3 by taps").await;
    let before = night_rows(&p).await;
    assert_eq!(
        before,
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
        "[{l}] hands 1-3 by taps, as worked"
    );

    // Hand 4: the stake changed during the night: a change of rules from the next hand on.
    p.js("document.getElementById('table-rules').open = true; return null")
        .await;
    p.js("var s = document.getElementById('tr-stake'); s.value = '0.5'; s.dispatchEvent(new Event('change', {bubbles: true})); return null")
        .await;
    table_row_count(&p, 4, "the change of rules is a hand of its own").await;
    let after = night_rows(&p).await;
    assert_eq!(
        after.as_array().map(|a| a[..3].to_vec()),
        before.as_array().cloned(),
        "[{l}] a change of rules at hand 4 leaves hands 1-3 as they were on screen"
    );
    assert_eq!(
        after[3][0],
        json!("rules"),
        "[{l}] hand 4 is the change of rules"
    );
    let in_force = p.text("#table-in-force").await.unwrap_or_default();
    assert!(
        in_force.contains("$0.50"),
        "[{l}] the night's header shows the stake in force: {in_force:?}"
    );
    let label = p.text("#table-ruleset").await.unwrap_or_default();
    assert!(
        !label.contains('+'),
        "[{l}] a table rule is not a house rule that scores: no \"+ house rules\" ({label:?})"
    );

    // Hand 5: Cat discards, Ann (5 faan: 4 x 24 = 96) and Dan (3 faan: 4 x 8 = 32) both win: one more tap for Dan.
    p.click("#btn-quick-win").await;
    tap(&p, "data-quick-player", "Ann").await;
    tap(&p, "data-quick-how", "Cat").await;
    tap(&p, "data-quick-also", "Dan").await;
    p.shot("taps-double-1366").await;
    tap(&p, "data-quick-faan", "5").await;
    tap(&p, "data-quick-faan", "3").await;
    table_row_count(&p, 5, "hand 5, two winners").await;
    // Hand 6: a draw, one tap. Hand 7: Dan's false win: who, then confirm (48 to each).
    p.click("#btn-add-draw").await;
    table_row_count(&p, 6, "a draw").await;
    p.click("#btn-quick-false-win").await;
    tap(&p, "data-quick-player", "Dan").await;
    tap(&p, "data-quick-confirm", "").await;
    table_row_count(&p, 7, "a false win").await;
    let rows = night_rows(&p).await;
    assert_eq!(
        rows.as_array().map(|a| a[4..].to_vec()),
        Some(vec![
            json!([
                "win",
                "Ann 96 240",
                "Ben 0 -528",
                "Cat -128 -208",
                "Dan 32 496"
            ]),
            json!(["draw", "Ann 0 240", "Ben 0 -528", "Cat 0 -208", "Dan 0 496"]),
            json!([
                "false_win",
                "Ann 48 288",
                "Ben 48 -480",
                "Cat 48 -160",
                "Dan -144 352"
            ])
        ]),
        "[{l}] hands 5-7 as worked (the stake in force from hand 5)"
    );
    assert_eq!(
        p.js("return Array.from(document.querySelectorAll('#table-body tr[data-hand=\"4\"] td.money-col')).map(function (c) { return c.getAttribute('data-money'); })")
            .await,
        json!(["+$48.00", "$0.00", "-$64.00", "+$16.00"]),
        "[{l}] hand 5 in money at $0.50 a point"
    );
    p.shot("taps-night-1366").await;

    // The CSV: the server's, saved as the night's file.
    p.js("window.__csv = null; var make = URL.createObjectURL; URL.createObjectURL = function (b) { b.arrayBuffer().then(function (a) { var u = new Uint8Array(a); window.__csv = Array.from(u.slice(0, 3)).join(' ') + '|' + new TextDecoder('utf-8', {ignoreBOM: false}).decode(u); }); return make.call(URL, b); }; return null")
        .await;
    p.click("#btn-csv").await;
    // The rows as tests/night.rs and docs/api.md describe them (money as the
    // server writes it, 48.0): the byte
    // order mark, a header, one row per hand (from 0), the totals; the
    // deal passes to each non-dealer winner (Ben, Cat, Dan) and Dan keeps it
    // by winning and by the draw (HKMA's dealer keeps the deal).
    let csv = p
        .wait_js(
            "return window.__csv === null ? null : window.__csv.split('\\r\\n')",
            json!([
                "239 187 191|hand,round,dealer,result,winners,faan,Ann,Ben,Cat,Dan,Ann money,Ben money,Cat money,Dan money",
                "0,east,Ann,win,Ben,3,0,32,-32,0,,,,",
                "1,east,Ben,win,Ann,5,144,-48,-48,-48,,,,",
                "2,east,Cat,win,Dan,10,0,-512,0,512,,,,",
                "3,east,Dan,rules,\"{\"\"stake\"\":0.5}\",,,,,,,,,",
                "4,east,Dan,win,Dan + Ann,3 + 5,96,0,-128,32,48.0,0.0,-64.0,16.0",
                "5,east,Dan,draw,,,0,0,0,0,0.0,0.0,0.0,0.0",
                "6,east,Dan,false_win,Dan,,48,48,48,-144,24.0,24.0,24.0,-72.0",
                "total,,,,,,288,-480,-160,352,72.0,24.0,-40.0,-56.0",
                ""
            ]),
            "the night's CSV",
        )
        .await;
    let _ = csv;

    // Hand 8 by ticked patterns: Ben self-draws mixed one suit (3) and two
    // dragon pungs (1 each), 5 faan: B = 24, each other pays 2B = 48.
    p.click("#btn-quick-win").await;
    tap(&p, "data-quick-player", "Ben").await;
    tap(&p, "data-quick-how", "").await;
    p.click("#btn-quick-patterns").await;
    p.wait_js(
        "return !!document.querySelector('[data-quick-tick=\"dragon_pung\"]')",
        json!(true),
        "the ruleset's patterns to tick",
    )
    .await;
    tap(&p, "data-quick-tick", "mixed_one_suit").await;
    tap(&p, "data-quick-tick", "dragon_pung").await;
    tap(&p, "data-quick-tick", "dragon_pung").await;
    assert_eq!(
        p.js("return document.querySelector('#quick-choices [data-quick-tick=\"dragon_pung\"]').textContent.indexOf('×2') > 0")
            .await,
        json!(true),
        "[{l}] a dragon pung ticked twice shows ×2"
    );
    p.shot("taps-patterns-1366").await;
    p.click("#btn-quick-send-patterns").await;
    table_row_count(&p, 8, "hand 8 by ticked patterns").await;
    assert_eq!(
        night_rows(&p).await[7],
        json!([
            "win",
            "Ann -48 240",
            "Ben 144 -336",
            "Cat -48 -208",
            "Dan -48 304"
        ]),
        "[{l}] hand 8: the ticked patterns' 5 faan, self-drawn"
    );
    assert_eq!(
        p.js("return Array.from(document.querySelectorAll('#table-foot [data-total-player]')).map(function (c) { return c.getAttribute('data-total-player') + ' ' + c.getAttribute('data-balance'); })")
            .await,
        json!(["Ann 240", "Ben -336", "Cat -208", "Dan 304"]),
        "[{l}] the running totals in their own row"
    );

    // The print view: the night's table alone (the print rules applied on screen for the picture).
    p.js("var css = ''; Array.from(document.styleSheets).forEach(function (sh) { Array.from(sh.cssRules).forEach(function (r) { if (r.media && r.media.mediaText === 'print') Array.from(r.cssRules).forEach(function (x) { css += x.cssText + ' '; }); }); }); var st = document.createElement('style'); st.id = 'as-printed'; st.textContent = css; document.head.appendChild(st); window.scrollTo(0, 0); return null")
        .await;
    assert_eq!(
        p.js("return [getComputedStyle(document.getElementById('calc')).display, getComputedStyle(document.getElementById('table')).display !== 'none', getComputedStyle(document.querySelector('.take-home')).display]")
            .await,
        json!(["none", true, "none"]),
        "[{l}] printed: the inputs and buttons left out, the night's table kept"
    );
    p.shot("taps-print-1366").await;
    p.js("document.getElementById('as-printed').remove(); return null")
        .await;
    p.viewport(390, 844).await;
    p.js("document.getElementById('table').scrollIntoView({block: 'start'}); return null")
        .await;
    p.shot("taps-night-390").await;
}
