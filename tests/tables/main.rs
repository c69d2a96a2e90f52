//! Shared tables and groups on real stores: SQLite in a temporary file per
//! test (always), PostgreSQL in a throwaway cluster (`postgres`, ignored
//! unless PostgreSQL is installed).
//!
//! The figures are those of the contract's ledger example
//! (`openapi/examples/ledger-request-four-hands.json`, answered in
//! `ledger-200.json`): hand 0, Ben self-draws all pungs (4 faan) and each
//! other player pays him 32 (Ben +96); hand 1 is a draw; hand 3 is Dan's
//! false win, 48 to each of the other three (Dan -144).

mod changes;
mod durability;
mod lost;
mod postgres;
mod streams;
mod support;

use serde_json::json;
use std::time::Duration;
use support::*;

#[tokio::test]
async fn a_table_with_two_hands_has_their_balances() {
    let app = spawn_sqlite("two_hands", |_| {}).await;
    let (id, key, created) = app.create(night(vec![])).await;
    assert_eq!(created["version"], 1);
    assert_eq!(created["view_path"], format!("/t/{id}"));
    assert_eq!(created["score_path"], format!("/t/{id}#key={key}"));
    assert_eq!(created["table"]["title"], "Thursday");
    assert_eq!(created["table"]["ledger"]["balances"]["Ben"], 0);
    // Hand 0: Ben +96, the others -32 each.
    let r = app.append(&id, &key, 1, ben_self_draw()).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("etag").as_deref(), Some("\"v2\""));
    let t = r.json();
    assert_eq!(t["version"], 2);
    assert_eq!(
        t["ledger"]["balances"],
        json!({"Ann": -32, "Ben": 96, "Cat": -32, "Dan": -32})
    );
    // Hand 1, a draw: the balances stay, two hands.
    let t = app
        .append(&id, &key, 2, json!({"result": "draw"}))
        .await
        .json();
    assert_eq!(t["version"], 3);
    assert_eq!(t["ledger"]["hands"].as_array().unwrap().len(), 2);
    assert_eq!(t["ledger"]["balances"]["Ben"], 96);
    assert_eq!(t["request"]["hands"][1], json!({"result": "draw"}));
    // A read, then a read that has it already.
    let r = app.get(&format!("/v1/tables/{id}"), &[]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("etag").as_deref(), Some("\"v3\""));
    assert_eq!(r.json()["ledger"]["balances"]["Dan"], -32);
    let r = app
        .get(&format!("/v1/tables/{id}"), &[("if-none-match", "\"v3\"")])
        .await;
    assert_eq!(r.status, 304);
    // Taking back the draw is one more version (4), with one hand.
    let r = app.undo(&id, &key, 3).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let t = r.json();
    assert_eq!(t["version"], 4);
    assert_eq!(t["ledger"]["hands"].as_array().unwrap().len(), 1);
    // Deleted: gone.
    assert_eq!(app.delete_table(&id, Some(&key)).await.status, 204);
    let r = app.get(&format!("/v1/tables/{id}"), &[]).await;
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["type"], "/problems/no-such-table");
}

/// `GET /v1/tables/{id}` with `Accept: text/csv`: the night as the ledger's
/// CSV. Ben's all pungs self-drawn (all pungs 3 + self-draw 1 = 4 faan under
/// HKMA, 32 from each), then a draw with Ben dealing (the deal passed to
/// him when he won as South).
#[tokio::test]
async fn a_table_reads_as_csv_with_a_tag_of_its_own() {
    let app = spawn_sqlite("csv", |_| {}).await;
    let (id, key, _) = app.create(night(vec![])).await;
    assert_eq!(app.append(&id, &key, 1, ben_self_draw()).await.status, 200);
    let r = app.append(&id, &key, 2, json!({"result": "draw"})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let path = format!("/v1/tables/{id}");
    let r = app.get(&path, &[("accept", "text/csv")]).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("text/csv; charset=utf-8")
    );
    assert_eq!(r.header("etag").as_deref(), Some("\"v3.csv\""));
    assert_eq!(r.header("vary").as_deref(), Some("accept, accept-language"));
    // Ben's self-draw pays him 32 from each; the settling up is in points.
    assert_eq!(
        r.text(),
        "\u{feff}hand,game,round,dealer,result,winners,win_by,discarder,faan,Ann,Ben,Cat,Dan\r\n\
         1,1,east,Ann,win,Ben,self draw,,4,-32,96,-32,-32\r\n\
         2,1,east,Ben,draw,,,,,0,0,0,0\r\n\
         total,,,,,,,,,-32,96,-32,-32\r\n\
         settle up,from,to,amount,,,,,,,,,\r\n\
         ,Ann,Ben,32,,,,,,,,,\r\n\
         ,Cat,Ben,32,,,,,,,,,\r\n\
         ,Dan,Ben,32,,,,,,,,,\r\n"
    );
    // In Chinese, under a tag of its own.
    let zh = app
        .get(
            &path,
            &[("accept", "text/csv"), ("accept-language", "zh-HK")],
        )
        .await;
    assert_eq!(zh.header("etag").as_deref(), Some("\"v3.zh.csv\""));
    assert!(
        zh.text().starts_with(
            "\u{feff}局,場,圈,莊家,結果,食糊者,食糊方式,出銃者,番,Ann,Ben,Cat,Dan\r\n\
             1,1,東,Ann,食糊,Ben,自摸,,4,"
        ),
        "{}",
        zh.text()
    );
    // Each representation is revalidated against its own tag.
    let csv_tag = [("accept", "text/csv"), ("if-none-match", "\"v3.csv\"")];
    assert_eq!(app.get(&path, &csv_tag).await.status, 304);
    let json_tag = [("accept", "text/csv"), ("if-none-match", "\"v3\"")];
    assert_eq!(app.get(&path, &json_tag).await.status, 200);
    let r = app.get(&path, &[("if-none-match", "\"v3.csv\"")]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("etag").as_deref(), Some("\"v3\""));
}

#[tokio::test]
async fn two_scorers_from_one_version_one_wins_one_gets_the_other_hand() {
    let app = spawn_sqlite("conflict", |_| {}).await;
    let (id, key, _) = app.create(night(vec![])).await;
    // Both from version 1, at once: Ben's self-draw and a draw.
    let (a, b) = tokio::join!(
        app.append(&id, &key, 1, ben_self_draw()),
        app.append(&id, &key, 1, json!({"result": "draw"}))
    );
    let mut statuses = [a.status, b.status];
    statuses.sort();
    assert_eq!(statuses, [200, 412], "{} / {}", a.text(), b.text());
    let (won, lost) = if a.status == 200 { (a, b) } else { (b, a) };
    let p = lost.json();
    assert_eq!(p["type"], "/problems/version-conflict");
    // The loser's body is the table with the winner's hand in it.
    assert_eq!(p["table"]["version"], 2);
    assert_eq!(
        p["table"]["request"]["hands"][0],
        won.json()["request"]["hands"][0]
    );
    assert_eq!(p["table"]["ledger"]["hands"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn each_error_of_the_contract_at_its_status_and_type() {
    let app = spawn_sqlite("errors", |_| {}).await;
    let (id, key, _) = app.create(night(vec![])).await;
    let (other_id, other_key, _) = app.create(night(vec![])).await;
    let hands = format!("/v1/tables/{id}/hands");
    // No key: 401 with a Bearer challenge.
    let r = app
        .post(&hands, &ben_self_draw(), &[("if-match", "\"v1\"")])
        .await;
    assert_eq!(
        (r.status, r.json()["type"].clone()),
        (401, json!("/problems/unauthorized"))
    );
    assert_eq!(r.header("www-authenticate").as_deref(), Some("Bearer"));
    // A wrong key, and the key of another table: 403.
    for wrong in ["AAAAAAAAAAAAAAAAAAAAAA", other_key.as_str()] {
        let auth = format!("Bearer {wrong}");
        let r = app
            .post(
                &hands,
                &ben_self_draw(),
                &[("authorization", &auth), ("if-match", "\"v1\"")],
            )
            .await;
        assert_eq!(
            (r.status, r.json()["type"].clone()),
            (403, json!("/problems/forbidden"))
        );
    }
    // The right key without If-Match: 428.
    let auth = format!("Bearer {key}");
    let r = app
        .post(&hands, &ben_self_draw(), &[("authorization", &auth)])
        .await;
    assert_eq!(
        (r.status, r.json()["type"].clone()),
        (428, json!("/problems/precondition-required"))
    );
    // A guessed id, and a path that is no id at all: 404.
    for path in ["/v1/tables/AAAAAAAAAAAAAAAAAAAAAA", "/v1/tables/nope"] {
        let r = app.get(path, &[]).await;
        assert_eq!(
            (r.status, r.json()["type"].clone()),
            (404, json!("/problems/no-such-table"))
        );
    }
    // A hand that breaks a rule: 422 at the index it would have had (0), nothing stored.
    let bad = json!({"result": "win", "winners": [{"player": "Zed", "hand": {"tiles": "77755p", "melds": [{"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999s"}, {"kind": "pung", "tiles": "222p"}], "winning_tile": "5p"}, "context": {"win_by": "self_draw"}}]});
    let r = app.append(&id, &key, 1, bad).await;
    assert_eq!(r.status, 422, "{}", r.text());
    let pointer = r.json()["errors"][0]["pointer"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(pointer.starts_with("/hands/0/winners/0"), "{pointer}");
    let t = app.get(&format!("/v1/tables/{id}"), &[]).await.json();
    assert_eq!(t["version"], 1);
    assert_eq!(t["request"]["hands"], json!([]));
    // Deleting with another table's key: 403, and both tables stay.
    let r = app.delete_table(&id, Some(&other_key)).await;
    assert_eq!(r.status, 403);
    let r = app.delete_table(&other_id, None).await;
    assert_eq!(r.status, 401);
    // A title of 65 characters: 422 at /title.
    let mut long = night(vec![]);
    long["title"] = json!("x".repeat(65));
    let r = app.post("/v1/tables", &long, &[]).await;
    assert_eq!(
        (r.status, r.json()["errors"][0]["pointer"].clone()),
        (422, json!("/title"))
    );
    // The key never shows in the metrics.
    let m = app.get("/metrics", &[]).await.text();
    assert!(!m.contains(&key) && !m.contains(&other_key));
    assert!(
        m.contains("faan_store_seconds_bucket{op=\"create\",le=\"0.0005\"}"),
        "{m}"
    );
}

#[tokio::test]
async fn with_no_store_the_endpoints_say_tables_are_off() {
    let app = spawn_with(faan::config::ServeArgs::for_tests()).await;
    let r = app.post("/v1/tables", &night(vec![]), &[]).await;
    assert_eq!(
        (r.status, r.json()["type"].clone()),
        (404, json!("/problems/tables-disabled"))
    );
    let r = app.get("/v1/groups/AAAAAAAAAAAAAAAAAAAAAA", &[]).await;
    assert_eq!(r.status, 404);
    assert_eq!(app.get("/readyz", &[]).await.status, 200);
}

#[tokio::test]
async fn every_bound_is_a_clear_problem() {
    // One table in all: the second is a 503 tables-full with Retry-After.
    let app = spawn_sqlite("bound_count", |t| {
        t.tables_max = 1;
        t.events_per_table = 1;
    })
    .await;
    let (id, key, _) = app.create(night(vec![])).await;
    let r = app.post("/v1/tables", &night(vec![]), &[]).await;
    assert_eq!(
        (r.status, r.json()["type"].clone()),
        (503, json!("/problems/tables-full"))
    );
    assert!(r.header("retry-after").is_some());
    // One stream on a table: the second is a 503 with Retry-After.
    let _first = app.stream(&id, None).await;
    let r = app.get(&format!("/v1/tables/{id}/events"), &[]).await;
    assert_eq!(
        (r.status, r.json()["type"].clone()),
        (503, json!("/problems/streams-full"))
    );
    assert!(r.header("retry-after").is_some());
    drop(key);

    // Two new tables an hour from one address: the third is a 429.
    let app = spawn_sqlite("bound_rate", |t| t.tables_per_hour = 2).await;
    app.create(night(vec![])).await;
    app.create(night(vec![])).await;
    let r = app.post("/v1/tables", &night(vec![]), &[]).await;
    assert_eq!(
        (r.status, r.json()["type"].clone()),
        (429, json!("/problems/rate-limited"))
    );
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=3600).contains(&wait), "{wait}");

    // A table holds at most --ledger-hands (here 1): the second hand is a 422 at /hands.
    let app = spawn_sqlite_args("bound_hands", |a| a.ledger_hands = 1).await;
    let (id, key, _) = app.create(night(vec![])).await;
    assert_eq!(app.append(&id, &key, 1, ben_self_draw()).await.status, 200);
    let r = app.append(&id, &key, 2, json!({"result": "draw"})).await;
    assert_eq!(
        (r.status, r.json()["errors"][0]["pointer"].clone()),
        (422, json!("/hands"))
    );
}

#[tokio::test]
async fn a_subscriber_gets_the_table_then_each_change() {
    let app = spawn_sqlite("events", |_| {}).await;
    let (id, key, _) = app.create(night(vec![])).await;
    let mut s = app.stream(&id, None).await;
    assert_eq!(s.next_event().await, ("table".into(), Some(1)));
    app.append(&id, &key, 1, ben_self_draw()).await;
    let (kind, version, data) = s.next_with_data().await;
    assert_eq!((kind.as_str(), version), ("hand", Some(2)));
    // Ben's self-draw: 32 from each of three, the row and the summary.
    assert_eq!(data["hand"]["balances"]["Ben"], 96);
    assert_eq!(data["ledger"]["balances"]["Ben"], 96);
    assert_eq!(data["request"], ben_self_draw());
    assert!(data["ledger"].get("hands").is_none());
    app.append(&id, &key, 2, json!({"result": "draw"})).await;
    assert_eq!(s.next_event().await, ("hand".into(), Some(3)));
    // Resuming from 1: the changes 2 and 3, as changes.
    let mut behind = app.stream(&id, Some(1)).await;
    assert_eq!(behind.next_event().await, ("hand".into(), Some(2)));
    assert_eq!(behind.next_event().await, ("hand".into(), Some(3)));
    // Resuming from 3: nothing until the next change, the undo (version 4).
    let mut current = app.stream(&id, Some(3)).await;
    app.undo(&id, &key, 3).await;
    let (kind, version, data) = current.next_with_data().await;
    assert_eq!((kind.as_str(), version), ("undo", Some(4)));
    assert_eq!(data["hands"], 1);
    assert_eq!(data["ledger"]["balances"]["Ben"], 96);
    // Deleted: `deleted`, then the stream ends.
    app.delete_table(&id, Some(&key)).await;
    assert_eq!(s.next_event().await, ("undo".into(), Some(4)));
    assert_eq!(s.next_event().await, ("deleted".into(), None));
    assert!(s.ended().await);
}

#[tokio::test]
async fn a_group_sums_its_nights() {
    let app = spawn_sqlite("groups", |_| {}).await;
    let r = app
        .post("/v1/groups", &json!({"name": "Thursdays"}), &[])
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let g = r.json();
    let (gid, gkey) = (
        g["id"].as_str().unwrap().to_string(),
        g["key"].as_str().unwrap().to_string(),
    );
    assert_eq!(g["view_path"], format!("/g/{gid}"));
    // Night 1: Ben's self-draw (Ben +96). Night 2: the same and Dan's false
    // win (Ben 96 + 48 = 144, Dan -32 - 144 = -176). Summed: Ben 240 over
    // two nights, Dan -208.
    let mut n1 = night(vec![ben_self_draw()]);
    n1["group"] = json!({"id": gid, "key": gkey});
    let mut n2 = night(vec![
        ben_self_draw(),
        json!({"result": "false_win", "offender": "Dan"}),
    ]);
    n2["group"] = json!({"id": gid, "key": gkey});
    let (t1, _, _) = app.create(n1).await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let (t2, _, _) = app.create(n2.clone()).await;
    // A wrong group key: 403, and no night added.
    n2["group"]["key"] = json!("AAAAAAAAAAAAAAAAAAAAAA");
    assert_eq!(app.post("/v1/tables", &n2, &[]).await.status, 403);
    let v = app.get(&format!("/v1/groups/{gid}"), &[]).await.json();
    assert_eq!(v["name"], "Thursdays");
    let nights = v["nights"].as_array().unwrap();
    assert_eq!(nights.len(), 2);
    assert_eq!(nights[0]["id"], t2.as_str());
    assert_eq!(nights[1]["id"], t1.as_str());
    assert_eq!(nights[0]["hands"], 2);
    assert_eq!(nights[0]["balances"]["Dan"], -176);
    let ben = v["stats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["player"] == "Ben")
        .unwrap()
        .clone();
    assert_eq!(ben["nights"], 2);
    assert_eq!(ben["points"], 240);
    let dan = v["stats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["player"] == "Dan")
        .unwrap()
        .clone();
    assert_eq!(dan["points"], -208);
    // Deleting the group keeps its tables.
    let r = app
        .send(
            app.client
                .delete(app.url(&format!("/v1/groups/{gid}")))
                .bearer_auth(&gkey),
        )
        .await;
    assert_eq!(r.status, 204);
    assert_eq!(app.get(&format!("/v1/groups/{gid}"), &[]).await.status, 404);
    assert_eq!(app.get(&format!("/v1/tables/{t1}"), &[]).await.status, 200);
}

#[tokio::test]
async fn the_sweep_deletes_only_tables_idle_past_the_ttl() {
    // TTL 90 days. Table A is made, then the clock moves 89 days and B is
    // made; 2 more days (91 for A, 2 for B): the sweep deletes A only.
    let args = faan::tables::TablesArgs {
        store: sqlite_url("sweep"),
        ..Default::default()
    };
    let t = faan::tables::Tables::open(&args).unwrap();
    let live = t.live.clone().unwrap();
    let day = 86_400_000;
    let a = row("a");
    live.insert(a, vec![]).await.unwrap().unwrap();
    live.store.clock.advance(89 * day);
    let mut b = row("b");
    b.touched_at = live.store.clock.now_ms();
    live.insert(b, vec![]).await.unwrap().unwrap();
    live.store.clock.advance(2 * day);
    assert_eq!(live.sweep_once().await, 1);
    assert!(live.read(&"a".repeat(22)).await.unwrap().is_none());
    assert!(live.read(&"b".repeat(22)).await.unwrap().is_some());
}

#[tokio::test]
async fn a_store_newer_than_the_binary_is_refused() {
    // Open once (the binary's schema), then record a migration 99 this
    // binary lacks.
    let url = sqlite_url("newer");
    let store = faan::store::Store::open(&url, 1).await.unwrap();
    store.close().await;
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (99, 'from the future', TRUE, X'00', 0)",
    )
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let err = faan::store::Store::open(&url, 1)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("newer than this binary"), "{err}");
    assert!(err.contains("schema version 99"), "{err}");
}

/// A table row as the store takes it, for the sweep test.
fn row(c: &str) -> faan::store::TableRow {
    faan::store::TableRow {
        id: c.repeat(22),
        key_hash: faan::tables::key_hash("k"),
        title: None,
        group_id: None,
        version: 1,
        created_at: 0,
        updated_at: 0,
        touched_at: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64,
        night: "{}".into(),
        ledger: "{}".into(),
        summary: "{}".into(),
        state: Some("{}".into()),
        hands: 0,
    }
}

/// A table plays a second game hand by hand: sixteen draws with the deal
/// passing end game 1 (`dealer_keeps_on_draw` off), a `new_game` seats
/// Ben, Ann, Dan, Cat with Dan dealing, and Ben's self-draw follows as
/// hand 17 of game 2 (Ben west: 32 from each). After every change the
/// table's ledger is what POST /v1/ledger answers; an undo of the new game
/// leaves game 1 complete again.
#[tokio::test]
async fn a_table_plays_a_new_game_hand_by_hand() {
    let app = spawn_sqlite("games", |_| {}).await;
    let mut n = night(vec![json!({"result": "draw"}); 16]);
    n["house_rules"] = json!({"dealer_keeps_on_draw": false});
    let (id, key, _) = app.create(n).await;
    let t = app.get(&format!("/v1/tables/{id}"), &[]).await.json();
    assert_eq!(t["ledger"]["next"]["complete"], true, "{t}");
    app.check_ledger(&id).await;
    let early = app.append(&id, &key, 1, json!({"result": "draw"})).await;
    assert_eq!(early.status, 422, "{}", early.text());
    assert_eq!(early.json()["errors"][0]["code"], "match_complete");
    let r = app
        .append(
            &id,
            &key,
            1,
            json!({"result": "new_game", "players": ["Ben", "Ann", "Dan", "Cat"], "dealer": "Dan"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    app.check_ledger(&id).await;
    let r = app.append(&id, &key, 2, ben_self_draw()).await;
    assert_eq!(r.status, 200, "{}", r.text());
    app.check_ledger(&id).await;
    let t = app.get(&format!("/v1/tables/{id}"), &[]).await.json();
    let last = &t["ledger"]["hands"][17];
    assert_eq!(
        (&last["number"], &last["game"], &last["winners"][0]["seat"]),
        (&json!(17), &json!(2), &json!("west"))
    );
    assert_eq!(
        last["balances"],
        json!({"Ann": -32, "Ben": 96, "Cat": -32, "Dan": -32})
    );
    assert_eq!(t["ledger"]["next"]["dealer"], "Cat");
    // Undo twice: the new game is gone, and a draw is refused again.
    assert_eq!(app.undo(&id, &key, 3).await.status, 200);
    assert_eq!(app.undo(&id, &key, 4).await.status, 200);
    app.check_ledger(&id).await;
    let again = app.append(&id, &key, 5, json!({"result": "draw"})).await;
    assert_eq!(again.status, 422, "{}", again.text());
}
