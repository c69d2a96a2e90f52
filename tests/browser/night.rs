//! A night at the table: hands added one click each, a refused hand in the
//! page's words, and two winners on one discard.

use crate::page::Page;
use crate::{assert_player_words, table_row_count, table_rows};
use serde_json::json;

/// The Table: a night of four players under Wisteria Court (the deal
/// passes after every hand, ruleset data), each hand added with one click.
/// The quiet hand self-drawn is 4 faan, each other pays 32.
pub(crate) async fn table_night_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    p.forget_night().await;
    p.open("/").await;
    p.seat_players().await;
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
    p.forget_night().await;
}

/// A ledger problem in the page's words, naming the player (every
/// settle and ledger problem coded). Under HKMA (minimum 3) Ben's quiet
/// hand won on Cat's discard is all chows 1 and concealed hand 1 = 2 faan:
/// the server refuses it (`below_minimum`, Ben by name), and the night
/// stays empty.
pub(crate) async fn table_problem_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    p.forget_night().await;
    p.open("/").await;
    // The false win's chooser, empty before the players are
    // named, is as wide as a name (9rem), not a sliver.
    assert_eq!(
        p.js("var s = document.getElementById('table-offender'), rem = parseFloat(getComputedStyle(document.documentElement).fontSize); return [s.options.length === 0 || s.options[0].textContent === '', s.getBoundingClientRect().width >= 9 * rem - 1]")
            .await,
        json!([true, true]),
        "[{l}] the empty 詐糊者 chooser keeps its width"
    );
    p.seat_players().await;
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
    p.forget_night().await;
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
pub(crate) async fn double_win_flow(p: Page) {
    let lang = p.lang;
    let l = p.l();
    p.open_in_language().await;
    p.forget_night().await;
    p.open("/").await;
    p.seat_players().await;
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
        json!("$12.00 $40.00 $8.00"),
        "the transfers in money (what the table pays, money only)",
    )
    .await;
    let transfers: Vec<String> = serde_json::from_value(
        p.js("return Array.from(document.querySelectorAll('#table-transfers li')).map(function (li) { return li.textContent; })")
            .await,
    )
    .expect("transfers");
    assert!(
        transfers.iter().any(|t| t == lang.table_cat_paid_money),
        "[{l}] Dan pays Cat $40.00: {transfers:?}"
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
    p.forget_night().await;
}
