//! The page as a whole: the language switch, errors as a player reads them,
//! links, counts and labels, `/docs`, and accessibility (axe-core).

use crate::page::Page;
use crate::{assert_player_words, table_row_count};
use serde_json::{json, Value};

/// The language: English by default from the browser; the switch is
/// remembered across a reload; labels, seats, the summary and the tiles in it.
pub(crate) async fn language_flow(p: Page) {
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
    // Tiles: the Unicode glyph with the MPSZ code underneath in English;
    // the Chinese page names the tile and shows no code.
    assert_eq!(
        p.js("var t = document.querySelector('#palette [data-tile=\"1m\"]'); return [t.querySelector('.glyph').textContent, t.querySelector('.code').textContent, t.querySelector('.code').checkVisibility(), t.getAttribute('aria-label')]")
            .await,
        json!(["\u{1F007}", "1m", l == "en", if l == "en" { "1m" } else { "一萬" }]),
        "[{l}] the 1m button's glyph, its code (shown in English only) and its name"
    );
    assert_eq!(
        p.js("var t = document.querySelector('#flowers [data-flower=\"S4\"]'); return [t.querySelector('.glyph').textContent, t.querySelector('.face-main').textContent, t.querySelector('.code').textContent]")
            .await,
        json!(["\u{1F029}", lang.winter_face, "S4"]),
        "[{l}] the winter season's glyph, short name and code"
    );
}

/// Errors: a fifth copy of a tile refused, tapped or typed; the server's
/// refusal beside its control, in the player's words; focus on the first
/// error; Reset clears everything.
pub(crate) async fn errors_flow(p: Page) {
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
pub(crate) async fn links_flow(p: Page) {
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
    // The page in use (a tap on it gives the document the focus a keyboard user's page has).
    p.click("#hand-section h2").await;
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
pub(crate) async fn copy_labels_flow(p: Page) {
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
pub(crate) async fn docs_flow(p: Page) {
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
pub(crate) async fn axe_flow(p: Page) {
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
    p.forget_night().await;
}
