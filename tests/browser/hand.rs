//! Scoring one hand: the score with its lines and payments, compare across
//! rulesets, and the waits of a hand one tile short.

use crate::lang::Lang;
use crate::page::Page;
use serde_json::json;
use std::time::Duration;

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

/// Score: a hand scored as it is tapped or typed, its payments, lines and
/// readings, on a wide and a phone-width screen; a late answer dropped; the
/// ruleset's notes linked from the result.
pub(crate) async fn score_flow(p: Page) {
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
pub(crate) async fn compare_flow(p: Page) {
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
pub(crate) async fn waits_flow(p: Page) {
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
