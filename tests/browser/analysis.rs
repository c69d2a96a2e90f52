//! Before the win: each discard of a hand with its chances, and the same
//! with hand changes and stepping back a shanten.

use crate::page::Page;
use serde_json::{json, Value};

/// Which tile to discard: 123m 456m 78p 55s 222z 9s at the south seat
/// under hkma, 1z1z9s seen, 12 draws. Worked by hand: throwing 9s leaves it
/// ready on 6p/9p, 4 unseen each (8), the only discard that does; each
/// wait is 2 faan on a discard (concealed hand, seat wind), below hkma's 3,
/// and 3 self-drawn: marked "self-drawn only". The acceptance count is the
/// endpoint's too, asked by the page itself.
pub(crate) async fn discard_flow(p: Page) {
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
pub(crate) async fn hand_changes_flow(p: Page) {
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
