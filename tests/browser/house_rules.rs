//! House rules: pattern values, what contains what, exclusive pairs, and
//! the limits.

use crate::assert_player_words;
use crate::page::Page;
use serde_json::{json, Value};

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
pub(crate) async fn house_patterns_flow(p: Page) {
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
pub(crate) async fn house_contains_flow(p: Page) {
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
pub(crate) async fn house_exclusive_flow(p: Page) {
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
pub(crate) async fn house_limits_flow(p: Page) {
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
