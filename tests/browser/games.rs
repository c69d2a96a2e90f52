//! A night of two games on one phone (390 px): a change of stake at hand 5
//! whose settle-up is the server's `money.transfers`, the north round
//! played out, the next game with new seats, and hands labelled by the
//! played hands they are.

use crate::page::Page;
use crate::{table_row_count, tap};
use serde_json::{json, Value};

/// What the page shows to settle up: each transfer's from, to and money.
async fn settle_shown(p: &Page) -> Value {
    p.js("return Array.from(document.querySelectorAll('#table-transfers li')).map(function (li) { return [li.getAttribute('data-from'), li.getAttribute('data-to'), li.getAttribute('data-money')]; })")
        .await
}

/// The server's answer to the night the page keeps (POST /v1/ledger, as the page sends it).
async fn server_ledger(p: &Page) -> Value {
    p.js_async(
        r#"var done = arguments[0];
        var n = JSON.parse(window.localStorage.getItem('faan.night'));
        var body = {ruleset: n.ruleset, house_rules: n.house, players: n.players, hands: n.hands};
        window.fetch('/v1/ledger', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})
          .then(function (r) { return r.json(); }).then(done, function (e) { done(String(e)); });"#,
        vec![],
        "the night's ledger from the server",
    )
    .await
}

/// The server's money transfers as the page writes them: [from, to, "$x.xx"].
fn money_transfers(ledger: &Value) -> Value {
    Value::Array(
        ledger["money"]["transfers"]
            .as_array()
            .expect("money.transfers")
            .iter()
            .map(|t| {
                json!([
                    t["from"],
                    t["to"],
                    format!("${:.2}", t["amount"].as_f64().unwrap())
                ])
            })
            .collect(),
    )
}

async fn win(p: &Page, winner: &str, discarder: &str, faan: &str) {
    p.click("#btn-quick-win").await;
    tap(p, "data-quick-player", winner).await;
    tap(p, "data-quick-how", discarder).await;
    tap(p, "data-quick-faan", faan).await;
}

/// Two games under HKMA with the deal passing after every hand (the table
/// rules say so), worked from rulesets/hkma.toml: half-spicy base points
/// B = 8, 16, 24 for 3, 4, 5 faan; on a discard the discarder pays 4B
/// alone; a self-draw 2B from each other player.
///
/// At $1 a point: 1 Ann 3 on Ben's discard (Ann +32, Ben -32); 2 Ben
/// self-draws 4 (+96, each -32); 3 Cat 3 on Dan's (+32, -32); 4 Dan 5 on
/// Ann's (+96, -96). The stake goes to $2 before hand 5: 5 Ann 4 on Cat's
/// (+64 = $128, Cat -$128); 6 Cat self-draws 3 (+48 = $96, each -16 =
/// -$32). Points: Ann -48, Ben 48, Cat -16, Dan 16 (in points Ann pays Ben
/// 48 and Cat pays Dan 16); money: Ann $0, Ben $32, Cat -$32, Dan $0, so
/// the table pays one transfer, Cat to Ben $32, a pair the points never
/// name. Ten draws end the north round (hand 16). Game 2 seats Ben, Ann,
/// Dan, Cat east to north with Dan dealing first: Dan east, Cat south,
/// Ben west, Ann north. Hand 17: Ann self-draws 3 (+$96, each -$32):
/// money Ann $96, Ben $0, Cat -$64, Dan -$32: Cat pays Ann $64 and Dan
/// pays Ann $32.
pub(crate) async fn two_games_flow(p: Page) {
    let l = p.l();
    let zh = l == "zh";
    std::fs::create_dir_all(crate::page::target_dir().join("shots")).expect("target/shots");
    p.open_in_language().await;
    p.forget_night().await;
    p.open("/?rules=hkma").await;
    p.viewport(390, 844).await;
    p.seat_players().await;
    p.js("window.confirm = function () { return true; }; return null")
        .await;
    // The table's rules before the first hand: $1 a point, the deal passes after every hand.
    p.js("var set = function (id, v) { var c = document.getElementById(id); c.value = v; c.dispatchEvent(new Event('change', {bubbles: true})); };
          set('tr-stake', '1'); set('tr-dealer-keeps-on-win', 'false'); set('tr-dealer-keeps-on-draw', 'false'); return null")
        .await;
    win(&p, "Ann", "Ben", "3").await;
    table_row_count(&p, 1, "hand 1").await;
    win(&p, "Ben", "", "4").await;
    table_row_count(&p, 2, "hand 2").await;
    win(&p, "Cat", "Dan", "3").await;
    table_row_count(&p, 3, "hand 3").await;
    win(&p, "Dan", "Ann", "5").await;
    table_row_count(&p, 4, "hand 4").await;
    // $2 a point from hand 5 on: a change of rules, not a hand.
    p.js("var c = document.getElementById('tr-stake'); c.value = '2'; c.dispatchEvent(new Event('change', {bubbles: true})); return null")
        .await;
    table_row_count(&p, 5, "the change of stake").await;
    let deal = p.text("#table-deal").await.unwrap();
    let want = if zh {
        "第 5 局：南圈，Ann 做莊。"
    } else {
        "Hand 5: South round, Ann deals."
    };
    assert_eq!(
        deal, want,
        "[{l}] a change of rules is not a hand: the next is hand 5"
    );
    win(&p, "Ann", "Cat", "4").await;
    table_row_count(&p, 6, "hand 5").await;
    win(&p, "Cat", "", "3").await;
    table_row_count(&p, 7, "hand 6").await;
    assert_eq!(
        p.js("return Array.from(document.querySelectorAll('#table-body tr')).map(function (r) { return r.getAttribute('data-number'); })")
            .await,
        json!(["1", "2", "3", "4", "", "5", "6"]),
        "[{l}] the rows count played hands: the change of stake has no number"
    );
    assert_eq!(
        p.js("return Array.from(document.querySelectorAll('#table-standings li')).map(function (li) { return li.getAttribute('data-player') + ' ' + li.getAttribute('data-balance') + ' ' + li.getAttribute('data-money'); })")
            .await,
        json!(["Ben 48 +$32.00", "Dan 16 $0.00", "Cat -16 -$32.00", "Ann -48 $0.00"]),
        "[{l}] the standings in points, with the money as worked"
    );
    let shown = settle_shown(&p).await;
    assert_eq!(
        shown,
        json!([["Cat", "Ben", "$32.00"]]),
        "[{l}] the settle-up is in money: Cat pays Ben $32, never paired with the points' transfers"
    );
    assert_eq!(
        shown,
        money_transfers(&server_ledger(&p).await),
        "[{l}] the settle-up on the page is the server's money.transfers"
    );
    let said = p.text("#table-transfers li").await.unwrap();
    let want = if zh {
        "Cat 付 Ben $32.00"
    } else {
        "Cat pays Ben $32.00"
    };
    assert_eq!(said, want, "[{l}] the transfer in words, money only");
    p.js("document.getElementById('table-standings').scrollIntoView(); return null")
        .await;
    p.screenshot(&format!("shots/night-settle-{l}-390.png"))
        .await;

    // Ten draws end the north round: hands 7 to 16.
    for k in 0..10 {
        p.click("#btn-add-draw").await;
        table_row_count(&p, 8 + k, "a draw").await;
    }
    p.wait_js(
        "return document.getElementById('next-game').hidden",
        json!(false),
        "the next game offered once the north round is over",
    )
    .await;
    assert_eq!(
        p.js("return [document.getElementById('output').getAttribute('data-stale'), document.getElementById('btn-next-game').disabled, document.getElementById('btn-undo').disabled]")
            .await,
        json!(["false", false, false]),
        "[{l}] after the north round the night is not out of date and goes on"
    );
    p.js("document.getElementById('next-game').scrollIntoView(); return null")
        .await;
    p.screenshot(&format!("shots/night-next-game-{l}-390.png"))
        .await;
    // New seats: Ben, Ann, Dan, Cat east to north; Dan deals first.
    p.click("#next-game-seats summary").await;
    for (i, name) in ["Ben", "Ann", "Dan", "Cat"].iter().enumerate() {
        p.click(&format!("#ng-seat-{i} option[value=\"{name}\"]"))
            .await;
    }
    p.click("#ng-dealer option[value=\"Dan\"]").await;
    p.click("#btn-next-game").await;
    table_row_count(&p, 18, "the new game's row").await;
    let deal = p.text("#table-deal").await.unwrap();
    let want = if zh {
        "第 2 場 · 第 17 局：東圈，Dan 做莊。"
    } else {
        "Game 2 · Hand 17: East round, Dan deals."
    };
    assert_eq!(deal, want, "[{l}] the second game: hand 17, Dan deals");
    assert_eq!(
        p.js("return Array.from(document.querySelectorAll('#table-seats li')).map(function (li) { return li.getAttribute('data-seat') + ' ' + li.getAttribute('data-player'); })")
            .await,
        json!(["east Dan", "south Cat", "west Ben", "north Ann"]),
        "[{l}] the new seats, Dan east"
    );
    win(&p, "Ann", "", "3").await;
    table_row_count(&p, 19, "hand 17").await;
    let rows = p
        .js("var r = document.querySelectorAll('#table-body tr'); var last = r[r.length - 1]; return [r[17].getAttribute('data-result'), r[17].getAttribute('data-number'), last.getAttribute('data-number'), last.getAttribute('data-game')]")
        .await;
    assert_eq!(
        rows,
        json!(["new_game", "", "17", "2"]),
        "[{l}] the new game is a row without a number; hand 17 is game 2's"
    );
    let shown = settle_shown(&p).await;
    assert_eq!(
        shown,
        json!([["Cat", "Ann", "$64.00"], ["Dan", "Ann", "$32.00"]]),
        "[{l}] the night's settle-up over both games, as worked"
    );
    assert_eq!(
        shown,
        money_transfers(&server_ledger(&p).await),
        "[{l}] and the server's"
    );
    assert_eq!(
        p.axe_serious().await,
        json!([]),
        "[{l}] axe-core on the night of two games"
    );
    p.js("document.getElementById('table-now').scrollIntoView(); return null")
        .await;
    p.screenshot(&format!("shots/night-game2-{l}-390.png"))
        .await;
}
