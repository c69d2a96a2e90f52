//! A night of two games at one table on four phones: two scorers who add
//! hands in turn and see each other's live, and two friends watching on
//! the viewer's page (three phones at 390 px, one screen at 1366). A change
//! of stake at hand 5 whose settle-up is the server's `money.transfers` on
//! every phone, the north round played out, the next game with new seats,
//! and hands labelled by the played hands they are.

use crate::live::{centre, score_link, win};
use crate::page::Page;
use serde_json::{json, Value};

/// What the page shows to settle up: each transfer's from, to and money.
async fn settle_shown(p: &Page) -> Value {
    p.js("return Array.from(document.querySelectorAll('#table-transfers li')).map(function (li) { return [li.getAttribute('data-from'), li.getAttribute('data-to'), li.getAttribute('data-money')]; })")
        .await
}

/// What the viewer's page shows to settle up, as [`settle_shown`].
async fn viewer_settle(v: &Page) -> Value {
    v.js("return Array.from(document.querySelectorAll('#v-transfers li')).map(function (li) { return [li.getAttribute('data-from'), li.getAttribute('data-to'), li.getAttribute('data-money')]; })")
        .await
}

/// The ledger of the shared table as the server holds it (GET /v1/tables/{id}).
async fn server_ledger(id: &str, base: &str) -> Value {
    let table: Value = reqwest::get(format!("{base}/v1/tables/{id}"))
        .await
        .expect("the server answers")
        .json()
        .await
        .expect("JSON");
    table["ledger"].clone()
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

/// Sets one of the table's rules on a scorer's phone, as a player changes it.
async fn table_rule(p: &Page, id: &str, value: &str) {
    p.js(&format!(
        "var c = document.getElementById({}); c.value = {}; c.dispatchEvent(new Event('change', {{bubbles: true}})); return null",
        json!(id),
        json!(value)
    ))
    .await;
}

/// The four phones: the scorers' pages (the share box's version and the
/// rows of the night) and the viewers' (the page's version and its hands).
struct Table<'a> {
    scorers: [&'a Page; 2],
    viewers: [&'a Page; 2],
}

impl Table<'_> {
    /// Waits until every phone holds version `v`, `rows` rows on the
    /// scorers' (a change of rules or a new game is a row) and `rows` on the
    /// viewers'.
    async fn sees(&self, v: u32, rows: usize, what: &str) {
        for p in self.scorers {
            p.wait_js(
                "return [document.getElementById('share-box').getAttribute('data-version'), document.querySelectorAll('#table-body tr').length]",
                json!([v.to_string(), rows]),
                &format!("{what}, on a scorer's phone"),
            )
            .await;
        }
        for p in self.viewers {
            p.wait_js(
                "return [document.body.getAttribute('data-version'), document.querySelectorAll('#v-body tr').length]",
                json!([v.to_string(), rows]),
                &format!("{what}, on a viewer's phone"),
            )
            .await;
        }
    }

    /// Every phone's settle-up: the scorers' then the viewers'.
    async fn settle(&self) -> Vec<Value> {
        let mut out = Vec::new();
        for p in self.scorers {
            out.push(settle_shown(p).await);
        }
        for p in self.viewers {
            out.push(viewer_settle(p).await);
        }
        out
    }
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
///
/// Ann's phone (`p`) shares the night; Ben's (`q`) joins with the scorer's
/// link; Cat's phone and the table's big screen watch. The scorers take
/// turns, each hand seen on all four phones before the next.
pub(crate) async fn two_games_flow(p: Page) {
    let l = p.l();
    let zh = l == "zh";
    std::fs::create_dir_all(crate::page::target_dir().join("shots")).expect("target/shots");
    p.open_in_language().await;
    p.forget_night().await;
    p.open("/?rules=hkma&view=table").await;
    p.viewport(390, 844).await;
    p.seat_players().await;
    p.js("window.confirm = function () { return true; }; return null")
        .await;
    // The table's rules before the first hand: $1 a point, the deal passes after every hand.
    table_rule(&p, "tr-stake", "1").await;
    table_rule(&p, "tr-dealer-keeps-on-win", "false").await;
    table_rule(&p, "tr-dealer-keeps-on-draw", "false").await;
    let id = p.share_night().await;
    let score_url = score_link(&p).await;

    let (d2, q) = p.another_browser("-2").await;
    q.open_in_language().await;
    q.viewport(390, 844).await;
    q.goto(&score_url).await;
    q.wait_loaded().await;
    q.js("window.confirm = function () { return true; }; return null")
        .await;
    let (d3, r) = p.another_browser("-3").await;
    let (d4, s) = p.another_browser("-4").await;
    for (v, width, height) in [(&r, 390, 844), (&s, 1366, 900)] {
        v.open_in_language().await;
        v.viewport(width, height).await;
        v.goto(&format!("{}/t/{id}", v.base)).await;
        v.wait_js(
            "return document.getElementById('v-connection').getAttribute('data-state')",
            json!("live"),
            "the viewer's page following the night",
        )
        .await;
    }
    let t = Table {
        scorers: [&p, &q],
        viewers: [&r, &s],
    };
    t.sees(1, 0, "the shared night before its first hand").await;

    // Version 1 is the night; each hand or change of rules is one more.
    win(&p, "Ann", "Ben", "3").await;
    t.sees(2, 1, "hand 1, from Ann's phone").await;
    win(&q, "Ben", "", "4").await;
    t.sees(3, 2, "hand 2, from Ben's phone").await;
    win(&p, "Cat", "Dan", "3").await;
    t.sees(4, 3, "hand 3").await;
    win(&q, "Dan", "Ann", "5").await;
    t.sees(5, 4, "hand 4").await;
    // $2 a point from hand 5 on, set on Ben's phone: a change of rules, not a hand.
    table_rule(&q, "tr-stake", "2").await;
    t.sees(6, 5, "the change of stake").await;
    let want = if zh {
        "第 5 局：南圈，Ann 做莊。"
    } else {
        "Hand 5: South round, Ann deals."
    };
    for x in t.scorers {
        assert_eq!(
            x.text("#table-deal").await.unwrap(),
            want,
            "[{l}] a change of rules is not a hand: the next is hand 5"
        );
    }
    let rules = p.text("#table-in-force").await.unwrap();
    let (now, first) = if zh {
        ("每分 $2.00", "每分 $1.00")
    } else {
        ("$2.00 a point", "$1.00 a point")
    };
    assert!(
        rules.contains(now) && !rules.contains(first),
        "[{l}] Ann's phone shows the stake Ben set: {rules:?}"
    );
    win(&p, "Ann", "Cat", "4").await;
    t.sees(7, 6, "hand 5").await;
    win(&q, "Cat", "", "3").await;
    t.sees(8, 7, "hand 6").await;
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
    let worked = json!([["Cat", "Ben", "$32.00"]]);
    let server = money_transfers(&server_ledger(&id, &p.base).await);
    assert_eq!(
        server, worked,
        "[{l}] the server's money.transfers as worked"
    );
    for (i, shown) in t.settle().await.into_iter().enumerate() {
        assert_eq!(
            shown, worked,
            "[{l}] phone {}: the settle-up is the server's money, Cat pays Ben $32, never paired with the points' transfers",
            i + 1
        );
    }
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
    r.js("document.getElementById('v-transfers').scrollIntoView(); return null")
        .await;
    r.screenshot(&format!("shots/night-settle-viewer-{l}-390.png"))
        .await;

    // Ten draws, the scorers in turn, end the north round: hands 7 to 16.
    for k in 0..10u32 {
        let x = t.scorers[k as usize % 2];
        centre(x, "btn-add-draw").await;
        x.click("#btn-add-draw").await;
        t.sees(9 + k, 8 + k as usize, "a draw").await;
    }
    for x in t.scorers {
        x.wait_js(
            "return document.getElementById('next-game').hidden",
            json!(false),
            "the next game offered once the north round is over",
        )
        .await;
        assert_eq!(
            x.js("return [document.getElementById('output').getAttribute('data-stale'), document.getElementById('btn-next-game').disabled, document.getElementById('btn-undo').disabled]")
                .await,
            json!(["false", false, false]),
            "[{l}] after the north round the night is not out of date and goes on"
        );
    }
    p.js("document.getElementById('next-game').scrollIntoView(); return null")
        .await;
    p.screenshot(&format!("shots/night-next-game-{l}-390.png"))
        .await;
    // New seats, on Ann's phone: Ben, Ann, Dan, Cat east to north; Dan deals first.
    p.click("#next-game-seats summary").await;
    for (i, name) in ["Ben", "Ann", "Dan", "Cat"].iter().enumerate() {
        p.click(&format!("#ng-seat-{i} option[value=\"{name}\"]"))
            .await;
    }
    p.click("#ng-dealer option[value=\"Dan\"]").await;
    centre(&p, "btn-next-game").await;
    p.click("#btn-next-game").await;
    t.sees(19, 18, "the new game").await;
    let want = if zh {
        "第 2 場 · 第 17 局：東圈，Dan 做莊。"
    } else {
        "Game 2 · Hand 17: East round, Dan deals."
    };
    for x in t.scorers {
        assert_eq!(
            x.text("#table-deal").await.unwrap(),
            want,
            "[{l}] the second game: hand 17, Dan deals"
        );
        assert_eq!(
            x.js("return Array.from(document.querySelectorAll('#table-seats li')).map(function (li) { return li.getAttribute('data-seat') + ' ' + li.getAttribute('data-player'); })")
                .await,
            json!(["east Dan", "south Cat", "west Ben", "north Ann"]),
            "[{l}] the new seats, Dan east, on both scorers' phones"
        );
    }
    win(&q, "Ann", "", "3").await;
    t.sees(20, 19, "hand 17, from Ben's phone").await;
    let rows = p
        .js("var r = document.querySelectorAll('#table-body tr'); var last = r[r.length - 1]; return [r[17].getAttribute('data-result'), r[17].getAttribute('data-number'), last.getAttribute('data-number'), last.getAttribute('data-game')]")
        .await;
    assert_eq!(
        rows,
        json!(["new_game", "", "17", "2"]),
        "[{l}] the new game is a row without a number; hand 17 is game 2's"
    );
    let worked = json!([["Cat", "Ann", "$64.00"], ["Dan", "Ann", "$32.00"]]);
    let server = money_transfers(&server_ledger(&id, &p.base).await);
    assert_eq!(
        server, worked,
        "[{l}] the server's money.transfers over both games"
    );
    for (i, shown) in t.settle().await.into_iter().enumerate() {
        assert_eq!(
            shown,
            worked,
            "[{l}] phone {}: the night's settle-up over both games is the server's",
            i + 1
        );
    }
    assert_eq!(
        q.axe_serious().await,
        json!([]),
        "[{l}] axe-core on the second scorer's night of two games"
    );
    assert_eq!(
        s.axe_serious().await,
        json!([]),
        "[{l}] axe-core on the viewer's page at 1366 px"
    );
    q.js("document.getElementById('table-now').scrollIntoView(); return null")
        .await;
    q.screenshot(&format!("shots/night-game2-{l}-390.png"))
        .await;
    s.screenshot(&format!("shots/night-game2-viewer-{l}-1366.png"))
        .await;
    p.viewport(1366, 900).await;
    p.js("document.getElementById('table-now').scrollIntoView(); return null")
        .await;
    p.screenshot(&format!("shots/night-game2-{l}-1366.png"))
        .await;
    for (x, d) in [(q, d2), (r, d3), (s, d4)] {
        x.close().await;
        drop(d);
    }
}
