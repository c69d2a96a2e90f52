//! A table's changes as changes: its events applied in order are the
//! table, resumes replay what the server keeps, `Prefer: return=minimal`
//! answers the change, an event stays small however long the night, and a
//! store written whole by an older faan is split on start-up.

use super::support::*;
use serde_json::{json, Value};

fn dan_false_win() -> Value {
    json!({"result": "false_win", "offender": "Dan"})
}

/// A `TABLE` with one event applied, as docs/tables.md says a client does.
fn apply(table: &mut Value, kind: &str, data: &Value) {
    match kind {
        "table" => *table = data.clone(),
        "hand" => {
            push(&mut table["request"]["hands"], data["request"].clone());
            let mut rows = table["ledger"]["hands"].take();
            push(&mut rows, data["hand"].clone());
            table["ledger"] = with_hands(&data["ledger"], rows);
        }
        "undo" => {
            let n = data["hands"].as_u64().unwrap() as usize;
            truncate(&mut table["request"]["hands"], n);
            let mut rows = table["ledger"]["hands"].take();
            truncate(&mut rows, n);
            table["ledger"] = with_hands(&data["ledger"], rows);
        }
        other => panic!("unexpected event {other}"),
    }
    if kind != "table" {
        table["version"] = data["version"].clone();
        table["updated_at"] = data["updated_at"].clone();
    }
}

fn push(list: &mut Value, v: Value) {
    list.as_array_mut().expect("an array").push(v);
}

fn truncate(list: &mut Value, n: usize) {
    list.as_array_mut().expect("an array").truncate(n);
}

/// The summary with the rows as its `hands`.
fn with_hands(summary: &Value, rows: Value) -> Value {
    let mut l = summary.clone();
    l["hands"] = rows;
    l
}

/// A small deterministic generator (xorshift64*), so that a failing night
/// is named by its seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

/// One of the hands the random nights are made of: Ben's self-draw, a
/// draw, a false win by anyone, or a change of stake.
fn random_hand(rng: &mut Rng) -> Value {
    let names = ["Ann", "Ben", "Cat", "Dan"];
    match rng.below(4) {
        0 => ben_self_draw(),
        1 => json!({"result": "draw"}),
        2 => json!({"result": "false_win", "offender": names[rng.below(4) as usize]}),
        _ => json!({"result": "rules", "house_rules": {"stake": 1 + rng.below(3)}}),
    }
}

#[tokio::test]
async fn events_applied_in_order_are_the_table_at_every_version() {
    // Eight random nights of 24 changes each, a third of them undos: after
    // every change the stream's table, built from its first `table` event
    // and the changes after it, equals what GET answers at that version.
    let app = spawn_sqlite("changes-applied", |_| {}).await;
    let mut made = 0;
    for seed in 1..=8u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let (id, key, _) = app.create(night(vec![])).await;
        let mut s = app.stream(&id, None).await;
        let (kind, _, data) = s.next_with_data().await;
        let mut applied = Value::Null;
        apply(&mut applied, &kind, &data);
        let mut version = 1;
        for step in 0..24 {
            let r = if rng.below(3) == 0 {
                app.undo(&id, &key, version).await
            } else {
                app.append(&id, &key, version, random_hand(&mut rng)).await
            };
            if r.status != 200 {
                // An undo of no hand, or a hand after the match: nothing changed.
                assert_eq!(r.status, 422, "seed {seed} step {step}: {}", r.text());
                continue;
            }
            version += 1;
            made += 1;
            let got = app.get(&format!("/v1/tables/{id}"), &[]).await.json();
            while applied["version"] != json!(version) {
                let (kind, _, data) = s.next_with_data().await;
                apply(&mut applied, &kind, &data);
            }
            assert_eq!(applied, got, "seed {seed} step {step}: version {version}");
        }
    }
    // Most changes were made (an undo of no hand or a hand after the
    // match is refused): the check is of real nights.
    assert!(made >= 120, "only {made} of 192 changes were made");
}

#[tokio::test]
async fn a_resume_replays_what_is_kept_and_else_sends_the_table() {
    // 105 false wins by Dan (the deal stays, so the match never ends):
    // versions 2 to 106. From 3 back (103) the three changes;
    // from 100 back (6) the table, since only the last 64 are kept.
    let app = spawn_sqlite("changes-resume", |_| {}).await;
    let (id, key, _) = app.create(night(vec![])).await;
    let minimal = [("prefer", "return=minimal")];
    for v in 1..=105 {
        let r = app
            .append_with(&id, &key, v, dan_false_win(), &minimal)
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let mut near = app.stream(&id, Some(103)).await;
    for v in 104..=106 {
        assert_eq!(near.next_event().await, ("hand".into(), Some(v)));
    }
    let mut far = app.stream(&id, Some(6)).await;
    let (kind, version, data) = far.next_with_data().await;
    assert_eq!((kind.as_str(), version), ("table", Some(106)));
    assert_eq!(data["request"]["hands"].as_array().unwrap().len(), 105);
}

#[tokio::test]
async fn prefer_minimal_answers_the_change_its_event_carries() {
    // An append and an undo with `Prefer: return=minimal`: 200, the ETag of
    // the new version, and the same data as the stream's event.
    let app = spawn_sqlite("changes-minimal", |_| {}).await;
    let (id, key, _) = app.create(night(vec![])).await;
    let mut s = app.stream(&id, None).await;
    s.next_event().await;
    let minimal = [("prefer", "return=minimal")];
    let r = app
        .append_with(&id, &key, 1, ben_self_draw(), &minimal)
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("etag").as_deref(), Some("\"v2\""));
    assert_eq!(
        r.header("preference-applied").as_deref(),
        Some("return=minimal")
    );
    let (_, _, data) = s.next_with_data().await;
    assert_eq!(r.json(), data);
    assert_eq!(data["version"], 2);
    assert_eq!(data["hand"]["index"], 0);
    let r = app.undo_with(&id, &key, 2, &minimal).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let (kind, _, data) = s.next_with_data().await;
    assert_eq!(kind, "undo");
    assert_eq!(r.json(), data);
    assert_eq!(data["hands"], 0);
    assert_eq!(data["ledger"]["balances"]["Ben"], 0);
}

#[tokio::test]
async fn an_event_at_hand_two_thousand_is_small() {
    // A night of 1,999 false wins (the deal stays) made at once, then Ben's self-draw as hand
    // 2,000 (the default most): its event is under 16 KB, while the table
    // is far larger, and the ledger still matches POST /v1/ledger.
    let app = spawn_sqlite("changes-long", |_| {}).await;
    let (id, key, _) = app.create(night(vec![dan_false_win(); 1999])).await;
    let r = app
        .append_with(
            &id,
            &key,
            1,
            ben_self_draw(),
            &[("prefer", "return=minimal")],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.bytes.len() < 16 * 1024, "{} bytes", r.bytes.len());
    assert_eq!(r.json()["hand"]["index"], 1999);
    let table = app.get(&format!("/v1/tables/{id}"), &[]).await;
    assert!(
        table.bytes.len() > 200 * 1024,
        "{} bytes",
        table.bytes.len()
    );
    // One more is past the most: 422 at /hands, nothing stored.
    let r = app.append(&id, &key, 2, dan_false_win()).await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(r.json()["errors"][0]["pointer"], "/hands");
}

#[tokio::test]
async fn a_store_written_whole_by_an_older_faan_is_split_and_reads_the_same() {
    // tests/fixtures/table/store-v1: a store file written by faan before
    // tables were kept hand by hand (schema 1), and its answers then. On
    // start-up the schema moves on and each table is split into hands; each
    // table and the group read as they did (the JSON's key order aside:
    // the older faan wrote the request's keys sorted), its ledger is still
    // what POST /v1/ledger answers, and a hand appends.
    let fixture =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/table/store-v1");
    let before: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture.join("answers.json")).unwrap())
            .unwrap();
    let url = sqlite_url("changes-v1");
    let path = url.strip_prefix("sqlite:").unwrap().to_string();
    std::fs::copy(fixture.join("tables.db"), &path).unwrap();
    let app = spawn_sqlite_url(&url).await;
    for (id, old) in before["tables"].as_object().unwrap() {
        let now = app.get(&format!("/v1/tables/{id}"), &[]).await;
        assert_eq!(now.status, 200, "{}", now.text());
        // Played again when split, each row gains its game and number
        // (these nights are of one game: a change of rules is not numbered).
        let mut now = now.json();
        let mut played = 0;
        for (i, h) in now["ledger"]["hands"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .enumerate()
        {
            let h = h.as_object_mut().unwrap();
            let number = if h["result"] == "rules" {
                json!(null)
            } else {
                played += 1;
                json!(played)
            };
            assert_eq!(h.remove("game"), Some(json!(1)), "table {id} hand {i}");
            assert_eq!(h.remove("number"), Some(number), "table {id} hand {i}");
        }
        assert_eq!(&now, old, "table {id}");
        app.check_ledger(id).await;
    }
    let group = &before["group"];
    let now = app
        .get(
            &format!("/v1/groups/{}", group["id"].as_str().unwrap()),
            &[],
        )
        .await;
    assert_eq!(now.json(), group["answer"], "the group");
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let whole: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM faan_tables WHERE state IS NULL")
        .fetch_one(&pool)
        .await
        .unwrap();
    let hands: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM faan_hands")
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    assert_eq!((whole, hands), (0, 6), "every table split; 3 + 3 + 0 hands");
    let (id, key) = before["keys"].as_object().unwrap().iter().next().unwrap();
    let r = app
        .append(id, key.as_str().unwrap(), 1, dan_false_win())
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["request"]["hands"].as_array().unwrap().len(), 4);
}
