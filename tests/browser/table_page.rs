//! The page a table uses, at 390 and 1366 px in both languages: Enter in
//! every field of the Table card keeps to that field, the score link opens
//! on the night, every target is at least 44 × 44 px, the Chinese page shows
//! no identifier or tile code, and the ticked patterns offer only what fits
//! the win, with their running total. Screenshots at
//! `target/shots/table-{lang}-{step}.png`.

use crate::page::{self, Page};
use crate::{table_row_count, tap};
use serde_json::{json, Value};
use std::time::Duration;

#[tokio::test]
#[ignore = "needs chromium and chromium-driver (apt-get install chromium chromium-driver)"]
async fn table_page_en() {
    page::run_with_tables("table_page", &crate::lang::EN, table_page_flow).await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver (apt-get install chromium chromium-driver)"]
async fn table_page_zh() {
    page::run_with_tables("table_page", &crate::lang::ZH, table_page_flow).await;
}

/// Every visible target under 44 px either way, as "what w×h". A box or a
/// radio is the label around it (the label is what a finger taps); an
/// element placed off the page (the skip link until focused) is not seen.
async fn small_targets(p: &Page) -> Value {
    p.js(r#"var out = [];
        document.querySelectorAll('button, input, select, summary, a[href], textarea').forEach(function (e) {
          if (e.type === 'hidden') return;
          var t = e;
          if (e.tagName === 'INPUT' && (e.type === 'checkbox' || e.type === 'radio')) t = e.closest('label') || e;
          if (!t.checkVisibility({checkOpacity: false, checkVisibilityCSS: true})) return;
          var r = t.getBoundingClientRect();
          if (r.width === 0 || r.height === 0 || r.right + window.scrollX <= 0) return;
          if (r.width < 43.5 || r.height < 43.5) out.push((t.id || t.tagName.toLowerCase() + '.' + t.className) + ' "' + (t.textContent || '').trim().slice(0, 20) + '" ' + Math.round(r.width) + 'x' + Math.round(r.height));
        });
        return out;"#)
        .await
}

async fn assert_targets(p: &Page, what: &str) {
    let small = small_targets(p).await;
    assert_eq!(
        small,
        json!([]),
        "[{}] {what}: every target at least 44 × 44 px",
        p.l()
    );
}

/// What the Chinese page shows in Latin that is an identifier or a tile
/// code: each visible text node, each visible element's aria-label and
/// placeholder, and the options of the visible choosers.
async fn latin_codes(p: &Page) -> Value {
    p.js(r#"var res = [/[a-z][a-z0-9]*_[a-z0-9_]+/, /(^|[^A-Za-z0-9])[1-9]+[mpsz]([^A-Za-z]|$)/, /(^|[^A-Za-z])[FS][1-8]([^0-9A-Za-z]|$)/, /\bAPI\b/, /\b[a-z]+(-[a-z0-9]+)+\b/];
        var out = [];
        function check(text, where) { res.forEach(function (re) { if (re.test(text)) out.push(where + ': ' + text.trim().slice(0, 60)); }); }
        var w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (var n = w.nextNode(); n; n = w.nextNode()) {
          var e = n.parentElement;
          if (!e || e.closest('script, style, option') || !n.textContent.trim()) continue;
          if (!e.checkVisibility({checkVisibilityCSS: true})) continue;
          check(n.textContent, e.id || e.tagName.toLowerCase());
        }
        document.querySelectorAll('[aria-label], [placeholder], [title]').forEach(function (e) {
          if (!e.checkVisibility({checkVisibilityCSS: true})) return;
          ['aria-label', 'placeholder', 'title'].forEach(function (a) { if (e.hasAttribute(a)) check(e.getAttribute(a), (e.id || e.tagName.toLowerCase()) + '@' + a); });
        });
        document.querySelectorAll('select').forEach(function (s) {
          if (!s.checkVisibility({checkVisibilityCSS: true})) return;
          Array.from(s.options).forEach(function (o) { check(o.textContent, (s.id || 'select') + ' option'); });
        });
        return out;"#)
        .await
}

async fn assert_chinese_only(p: &Page, what: &str) {
    if p.l() != "zh" {
        return;
    }
    assert_eq!(
        latin_codes(p).await,
        json!([]),
        "[zh] {what}: no identifier or tile code in the Chinese page"
    );
}

async fn assert_axe(p: &Page, what: &str) {
    assert_eq!(
        p.axe_serious().await,
        json!([]),
        "[{}] axe-core on {what}: no serious or critical violation",
        p.l()
    );
}

/// A step's picture under `target/shots/`.
async fn shot(p: &Page, step: &str) {
    std::fs::create_dir_all(page::target_dir().join("shots")).expect("target/shots");
    p.screenshot(&format!("shots/table-{}-{step}.png", p.l()))
        .await;
}

/// Enter in the field `id` (focused where it is on screen): the page stays
/// where it was, no calculator problem shows, the field keeps the focus.
async fn enter_in(p: &Page, id: &str) {
    let l = p.l();
    p.js(&format!(
        "var e = document.getElementById('{id}'); e.scrollIntoView({{block: 'center'}}); e.focus(); return null"
    ))
    .await;
    let before = p.js("return Math.round(window.scrollY)").await;
    p.type_keys(&format!("#{id}"), "\u{E007}").await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let after = p
        .js("return [Math.round(window.scrollY), document.getElementById('error-summary').hidden, document.getElementById('status').getAttribute('data-state'), document.activeElement && document.activeElement.id, document.getElementById('phone-strip').getAttribute('data-state')]")
        .await;
    assert_eq!(
        after[0], before,
        "[{l}] Enter in #{id} leaves the page where it was"
    );
    assert_eq!(
        after[1],
        json!(true),
        "[{l}] Enter in #{id}: no calculator problem shown"
    );
    assert_ne!(
        after[2],
        json!("error"),
        "[{l}] Enter in #{id}: the status is not an error"
    );
    assert_eq!(
        after[3],
        json!(id),
        "[{l}] Enter in #{id}: the field keeps the focus"
    );
}

/// The ids of the patterns the panel offers to tick.
async fn offered(p: &Page) -> Vec<String> {
    p.wait_js(
        "return document.querySelectorAll('#quick-choices [data-quick-tick]').length > 0",
        json!(true),
        "the patterns to tick",
    )
    .await;
    serde_json::from_value(
        p.js("return Array.from(document.querySelectorAll('#quick-choices [data-quick-tick]')).map(function (b) { return b.getAttribute('data-quick-tick'); })")
            .await,
    )
    .expect("ids")
}

async fn tick(p: &Page, id: &str) {
    tap(p, "data-quick-tick", id).await;
}

async fn running(p: &Page, want: &str, what: &str) {
    p.wait_text("#quick-running", what, |t| t == want).await;
}

/// The page a table uses, at a phone's 390 px and a desktop's 1366 px,
/// under HKMA (half-spicy base points B = 1, 2, 4, 8, 16, 24, 32, 48, 64,
/// 96, 128 for 0 to 10 faan; on a discard the discarder pays 4B alone; no
/// bonus tiles in play).
async fn table_page_flow(p: Page) {
    let l = p.l();
    let zh = l == "zh";
    p.open_in_language().await;
    p.js("window.localStorage.removeItem('faan.night'); window.localStorage.removeItem('faan.shared'); window.localStorage.removeItem('faan.mode'); return null")
        .await;
    p.open("/?rules=hkma").await;
    p.js("window.confirm = function () { return true; }; document.getElementById('table-rules').open = true; return null")
        .await;

    // Enter in every field of the Table card, at both widths: the names,
    // the stake (committed by Enter), the dealer's multiplier.
    for (width, height, stake) in [(1366, 768, "1"), (390, 844, "0.5")] {
        p.viewport(width, height).await;
        for (i, name) in ["Ann", "Ben", "Cat", "Dan"].iter().enumerate() {
            let id = format!("player-{i}");
            p.js(&format!(
                "document.getElementById('{id}').value = ''; return null"
            ))
            .await;
            p.type_keys(&format!("#{id}"), name).await;
            enter_in(&p, &id).await;
        }
        p.js("document.getElementById('tr-stake').value = ''; return null")
            .await;
        p.type_keys("#tr-stake", stake).await;
        enter_in(&p, "tr-stake").await;
        p.wait_js(
            "return document.getElementById('tr-stake-shown').getAttribute('data-stake')",
            json!(stake),
            "the stake committed by Enter",
        )
        .await;
        enter_in(&p, "tr-dealer-multiplier").await;
        // Calculator targets, with the table's rules open.
        p.js("window.scrollTo(0, 0); return null").await;
        assert_targets(&p, &format!("the calculator at {width} px")).await;
    }
    assert_chinese_only(&p, "the calculator").await;
    shot(&p, "calculator-390").await;

    // A hand on the calculator: its tiles named, never coded, in Chinese.
    p.click_tiles(&["1m", "1m", "1m", "5z"]).await;
    p.click("#target label:has(input[value='pung'])").await;
    p.click_tiles(&["7z"]).await;
    p.wait_js(
        "return document.querySelectorAll('#melds .meld').length",
        json!(1),
        "the pung of red dragons declared",
    )
    .await;
    assert_targets(&p, "the calculator with a hand and a meld at 390 px").await;
    assert_chinese_only(&p, "the calculator with a hand and a meld").await;
    shot(&p, "hand-390").await;
    // Cleared (Reset would also put back the default ruleset).
    p.click("#btn-clear-hand").await;
    p.wait_js(
        "return document.querySelectorAll('#melds .meld').length",
        json!(0),
        "the hand cleared",
    )
    .await;

    // Ticked patterns on a discard win (390 px): no self-draw, no flower
    // pattern (HKMA has no bonus tiles), and the running total the server counts.
    p.click("#btn-quick-win").await;
    tap(&p, "data-quick-player", "Ben").await;
    tap(&p, "data-quick-how", "Cat").await;
    p.click("#btn-quick-patterns").await;
    let on_discard = offered(&p).await;
    for id in ["self_draw", "no_flowers", "seat_flower", "flower_set"] {
        assert!(
            !on_discard.iter().any(|x| x == id),
            "[{l}] {id} is not offered on a discard win under HKMA: {on_discard:?}"
        );
    }
    for id in [
        "mixed_one_suit",
        "all_pungs",
        "dragon_pung",
        "concealed_hand",
    ] {
        assert!(
            on_discard.iter().any(|x| x == id),
            "[{l}] {id} is offered: {on_discard:?}"
        );
    }
    let (none, seven, eight) = if zh {
        ("未剔番種。", "已剔：7 番。", "已剔：8 番。")
    } else {
        (
            "Nothing ticked yet.",
            "Ticked so far: 7 faan.",
            "Ticked so far: 8 faan.",
        )
    };
    running(&p, none, "nothing ticked").await;
    // Mixed one suit 3 + all pungs 3 + a dragon pung 1 = 7; a second dragon pung, 8.
    tick(&p, "mixed_one_suit").await;
    tick(&p, "all_pungs").await;
    tick(&p, "dragon_pung").await;
    running(&p, seven, "3 + 3 + 1").await;
    tick(&p, "dragon_pung").await;
    running(&p, eight, "3 + 3 + 1 + 1").await;
    assert_targets(&p, "the ticked patterns at 390 px").await;
    assert_chinese_only(&p, "the ticked patterns").await;
    assert_axe(&p, "the ticked patterns").await;
    shot(&p, "ticks-390").await;
    // Kept: 8 faan, B = 64; Cat pays 4B = 256, at $0.50 a point $128.00.
    p.click("#btn-quick-send-patterns").await;
    table_row_count(&p, 1, "the ticked win kept").await;
    assert_eq!(
        p.js("return ['Ann', 'Ben', 'Cat', 'Dan'].map(function (n) { return document.querySelector('#table-body tr [data-player=\"' + n + '\"]').getAttribute('data-delta'); })")
            .await,
        json!(["0", "256", "-256", "0"]),
        "[{l}] Ben's 8 faan on Cat's discard"
    );

    // On a self-drawn win (1366 px) the self-draw is offered: self-draw 1 +
    // concealed hand 1 + all pungs 3 = 5.
    p.viewport(1366, 768).await;
    p.click("#btn-quick-win").await;
    tap(&p, "data-quick-player", "Ann").await;
    tap(&p, "data-quick-how", "").await;
    p.click("#btn-quick-patterns").await;
    let self_drawn = offered(&p).await;
    assert!(
        self_drawn.iter().any(|x| x == "self_draw"),
        "[{l}] the self-draw is offered on a self-drawn win: {self_drawn:?}"
    );
    tick(&p, "self_draw").await;
    tick(&p, "concealed_hand").await;
    tick(&p, "all_pungs").await;
    running(
        &p,
        if zh {
            "已剔：5 番。"
        } else {
            "Ticked so far: 5 faan."
        },
        "1 + 1 + 3",
    )
    .await;
    assert_targets(&p, "the ticked patterns at 1366 px").await;
    p.click("#btn-quick-cancel").await;

    // The night, one tap away: its card first, the hand's own sections behind "Calculator".
    p.viewport(390, 844).await;
    p.js("window.scrollTo(0, document.body.scrollHeight); return null")
        .await;
    p.click("#mode-night").await;
    p.wait_js(
        "return [document.body.getAttribute('data-mode'), document.getElementById('hand-section').checkVisibility(), window.scrollY]",
        json!(["night", false, 0]),
        "the night first",
    )
    .await;
    p.click("#btn-share").await;
    p.wait_js(
        "return document.getElementById('share-box').getAttribute('data-version')",
        json!("1"),
        "the night shared, its hand with it",
    )
    .await;
    p.click("#btn-share-copy").await;
    let copied = p
        .wait_text("#share-copied", "what the copy did", |t| !t.is_empty())
        .await;
    let said: &[&str] = if zh {
        &["已複製連結。", "複製唔到：連結已經揀好，請自己複製。"]
    } else {
        &[
            "Link copied.",
            "Could not copy: the link is selected, copy it by hand.",
        ]
    };
    assert!(
        said.contains(&copied.as_str()),
        "[{l}] copying the link says what it did: {copied:?}"
    );
    enter_in(&p, "share-url").await;
    p.click("#btn-share-score").await;
    let score_link = p
        .js_str("return document.getElementById('share-url').value")
        .await;
    p.js("window.scrollTo(0, 0); return null").await;
    // The signs said once; each column's caption once, under the first player.
    let signs = if zh {
        "正數係收，負數係俾，分同錢都係咁。中途轉過注碼，分同錢就分開計，所以可以分係正、錢係負。"
    } else {
        "Signs: + is what a player takes in, − what they pay out, in points and in money alike. After a change of stake the two are counted apart, so a player can be up in points and down in money."
    };
    assert_eq!(
        p.js("var seen = function (e) { return e.checkVisibility({checkVisibilityCSS: true}); }; return [Array.from(document.querySelectorAll('#table-head .caption-row th')).filter(function (th) { return th.textContent && seen(th); }).map(function (th) { return th.textContent; }).length, seen(document.getElementById('table-signs')), document.getElementById('table-signs').textContent]")
            .await,
        json!([2, true, signs]),
        "[{l}] the night says its signs once and captions this hand's points and money once"
    );
    assert_targets(&p, "the night at 390 px").await;
    assert_chinese_only(&p, "the night").await;
    assert_axe(&p, "the night").await;
    shot(&p, "night-390").await;

    // The score link's first screen, on another phone and on a desktop: the night.
    let (driver2, s) = p.another_browser("-2").await;
    s.open("/").await;
    s.switch_language().await;
    for (width, height) in [(390, 844), (1366, 768)] {
        s.viewport(width, height).await;
        s.goto(&score_link).await;
        s.wait_loaded().await;
        s.wait_js(
            "return document.querySelectorAll('#table-body tr').length",
            json!(1),
            "the scorer's night with its hand",
        )
        .await;
        let first = s
            .js("var t = document.getElementById('table-section').getBoundingClientRect(); var q = document.getElementById('btn-quick-win').getBoundingClientRect(); return [document.body.getAttribute('data-mode'), document.getElementById('hand-section').checkVisibility(), Math.round(window.scrollY), t.top < window.innerHeight / 2, q.bottom <= window.innerHeight, !document.getElementById('table').hidden]")
            .await;
        assert_eq!(
            first,
            json!(["night", false, 0, true, true, true]),
            "[{l}] the score link at {width} px opens on the night: its card at the top, Add a win in view, its table shown"
        );
        assert_targets(&s, &format!("the scorer's night at {width} px")).await;
        assert_chinese_only(&s, "the scorer's night").await;
        s.screenshot(&format!("shots/table-{l}-score-link-{width}.png"))
            .await;
    }
    // One tap back to the calculator.
    s.click("#mode-calc").await;
    s.wait_js(
        "return [document.body.getAttribute('data-mode'), document.getElementById('hand-section').checkVisibility()]",
        json!(["calc", true]),
        "the calculator back",
    )
    .await;
    s.close().await;
    drop(driver2);
}
