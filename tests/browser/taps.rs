//! A night entered by taps alone (who won, how, the faan), with a change
//! of stake, a draw and a false win.

use crate::page::Page;
use crate::{table_row_count, tap};
use serde_json::{json, Value};

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
pub(crate) async fn table_taps_flow(p: Page) {
    let l = p.l();
    p.open_in_language().await;
    p.forget_night().await;
    p.open("/?rules=hkma").await;
    p.viewport(390, 844).await;
    p.seat_players().await;
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
    // The server's CSV for people in the page's language (docs/api.md, "A
    // night as CSV"; money as the server writes it, 48.0): the byte order
    // mark, a header, one row per hand numbered from 1 (a change of rules
    // has none), the totals, then the settling up in money: Ann +$72,
    // Ben +$24, Cat -$40, Dan -$56, so Dan pays Ann 56, Cat pays Ben 24
    // and Ann 16. The deal passes to each non-dealer winner (Ben, Cat,
    // Dan) and Dan keeps it by winning and by the draw (HKMA's dealer
    // keeps the deal).
    let want = if l == "zh" {
        json!([
            "239 187 191|局,場,圈,莊家,結果,食糊者,食糊方式,出銃者,番,Ann,Ben,Cat,Dan,Ann 銀碼,Ben 銀碼,Cat 銀碼,Dan 銀碼",
            "1,1,東,Ann,食糊,Ben,出銃,Cat,3,0,32,-32,0,,,,",
            "2,1,東,Ben,食糊,Ann,自摸,,5,144,-48,-48,-48,,,,",
            "3,1,東,Cat,食糊,Dan,出銃,Ben,10,0,-512,0,512,,,,",
            ",1,東,Dan,改規則：stake 0.5,,,,,,,,,,,,",
            "4,1,東,Dan,食糊,Dan + Ann,出銃,Cat,3 + 5,96,0,-128,32,48.0,0.0,-64.0,16.0",
            "5,1,東,Dan,流局,,,,,0,0,0,0,0.0,0.0,0.0,0.0",
            "6,1,東,Dan,詐糊,Dan,,,,48,48,48,-144,24.0,24.0,24.0,-72.0",
            "累計,,,,,,,,,288,-480,-160,352,72.0,24.0,-40.0,-56.0",
            "找數,付,收,金額,,,,,,,,,,,,,",
            ",Dan,Ann,56.0,,,,,,,,,,,,,",
            ",Cat,Ben,24.0,,,,,,,,,,,,,",
            ",Cat,Ann,16.0,,,,,,,,,,,,,",
            ""
        ])
    } else {
        json!([
            "239 187 191|hand,game,round,dealer,result,winners,win_by,discarder,faan,Ann,Ben,Cat,Dan,Ann money,Ben money,Cat money,Dan money",
            "1,1,east,Ann,win,Ben,discard,Cat,3,0,32,-32,0,,,,",
            "2,1,east,Ben,win,Ann,self draw,,5,144,-48,-48,-48,,,,",
            "3,1,east,Cat,win,Dan,discard,Ben,10,0,-512,0,512,,,,",
            ",1,east,Dan,rules: stake 0.5,,,,,,,,,,,,",
            "4,1,east,Dan,win,Dan + Ann,discard,Cat,3 + 5,96,0,-128,32,48.0,0.0,-64.0,16.0",
            "5,1,east,Dan,draw,,,,,0,0,0,0,0.0,0.0,0.0,0.0",
            "6,1,east,Dan,false win,Dan,,,,48,48,48,-144,24.0,24.0,24.0,-72.0",
            "total,,,,,,,,,288,-480,-160,352,72.0,24.0,-40.0,-56.0",
            "settle up,from,to,amount,,,,,,,,,,,,,",
            ",Dan,Ann,56.0,,,,,,,,,,,,,",
            ",Cat,Ben,24.0,,,,,,,,,,,,,",
            ",Cat,Ann,16.0,,,,,,,,,,,,,",
            ""
        ])
    };
    let csv = p
        .wait_js(
            "return window.__csv === null ? null : window.__csv.split('\\r\\n')",
            want,
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
