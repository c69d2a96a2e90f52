//! The JSON of tables and groups, through the `api::tables` types: a
//! `TABLE` joined from its head and hands, a change's event data, and a
//! group with its nights and summed statistics. What a group shows of a
//! night ([`NightSummary`]) is kept beside the table, typed, so a group
//! never reads whole ledgers.

use crate::api::tables::{
    GroupBiggestDoc, GroupDoc, GroupStatsDoc, HandChange, NightDoc, TableDoc, UndoChange,
};
use crate::api::{Amount, ByPlayer};
use crate::core::ledger::{PlayerStats, PLAYERS};
use crate::store::{GroupRow, NightRow, TableRow};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// Milliseconds since the Unix epoch as RFC 3339 in UTC, to the millisecond.
pub fn rfc3339(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let milli = ms.rem_euclid(1000);
    match time::OffsetDateTime::from_unix_timestamp(secs) {
        Ok(t) => format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute(),
            t.second(),
            milli
        ),
        Err(_) => "1970-01-01T00:00:00.000Z".into(),
    }
}

/// JSON this server wrote (stored, or just made) as a raw value; a text
/// that is not JSON (a damaged store) reads as `null`.
fn raw(json: String) -> Box<RawValue> {
    RawValue::from_string(json).unwrap_or_else(|_| null())
}

fn null() -> Box<RawValue> {
    // "null" is JSON.
    RawValue::from_string("null".into()).unwrap_or_default()
}

/// The length of `{"ruleset":"…",` at the start of a ledger answer's
/// summary: where its `hands` go.
fn after_ruleset(summary: &str) -> Option<usize> {
    let rest = summary.strip_prefix("{\"ruleset\":\"")?;
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => break,
            _ => i += 1,
        }
    }
    let end = "{\"ruleset\":\"".len() + i + 1;
    (summary.as_bytes().get(end) == Some(&b',')).then_some(end + 1)
}

/// A table's request and ledger answer joined from its head and hands
/// (each hand: its request and its row). A table stored whole by an older
/// faan is its own.
pub fn joined(row: &TableRow, hands: &[(String, String)]) -> (String, String) {
    if row.state.is_none() {
        return (row.night.clone(), row.ledger.clone());
    }
    let size = |f: fn(&(String, String)) -> usize| hands.iter().map(f).sum::<usize>() + hands.len();
    // The request: the night's fields, then its hands.
    let mut request = String::with_capacity(row.night.len() + 16 + size(|h| h.0.len()));
    request.push_str(row.night.strip_suffix('}').unwrap_or(&row.night));
    if request.len() > 1 {
        request.push(',');
    }
    request.push_str("\"hands\":[");
    push_joined(&mut request, hands.iter().map(|h| h.0.as_str()));
    request.push_str("]}");
    // The answer: its ruleset, the rows, then the rest of the summary.
    let at = after_ruleset(&row.ledger).unwrap_or(row.ledger.len());
    let mut ledger = String::with_capacity(row.ledger.len() + 16 + size(|h| h.1.len()));
    ledger.push_str(&row.ledger[..at]);
    ledger.push_str("\"hands\":[");
    push_joined(&mut ledger, hands.iter().map(|h| h.1.as_str()));
    ledger.push_str("],");
    ledger.push_str(&row.ledger[at..]);
    (request, ledger)
}

fn push_joined<'a>(out: &mut String, parts: impl Iterator<Item = &'a str>) {
    for (i, p) in parts.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(p);
    }
}

/// `TABLE`: `{"id", "title", "version", "created_at", "updated_at",
/// "request", "ledger"}` (each one line of JSON, so that an event's
/// `data:` is one line too).
pub fn table(row: &TableRow, hands: &[(String, String)]) -> Vec<u8> {
    let (request, ledger) = joined(row, hands);
    let (request, ledger) = (raw(request), raw(ledger));
    to_vec(&table_doc(row, &request, &ledger))
}

/// The `TableDoc` of a head with its joined request and answer.
pub fn table_doc<'a>(
    row: &'a TableRow,
    request: &'a RawValue,
    ledger: &'a RawValue,
) -> TableDoc<'a> {
    TableDoc {
        id: &row.id,
        title: row.title.as_deref(),
        version: row.version,
        created_at: rfc3339(row.created_at),
        updated_at: rfc3339(row.updated_at),
        request,
        ledger,
    }
}

/// The `hand` event's data.
pub fn hand_change(row: &TableRow, request: &str, hand: &str) -> Vec<u8> {
    let (request, hand) = (raw(request.into()), raw(hand.into()));
    let ledger = raw(row.ledger.clone());
    to_vec(&HandChange {
        version: row.version,
        updated_at: rfc3339(row.updated_at),
        request: &request,
        hand: &hand,
        ledger: &ledger,
    })
}

/// The `undo` event's data.
pub fn undo_change(row: &TableRow) -> Vec<u8> {
    let ledger = raw(row.ledger.clone());
    to_vec(&UndoChange {
        version: row.version,
        updated_at: rfc3339(row.updated_at),
        hands: row.hands,
        ledger: &ledger,
    })
}

/// Serialises one of the tables' types (plain data: it cannot fail).
pub fn to_vec<T: Serialize>(v: &T) -> Vec<u8> {
    serde_json::to_vec(v).unwrap_or_default()
}

/// [`to_vec`] as a string.
pub fn to_string<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// What a group shows of a night, kept beside the table: the players, the
/// hands played, each player's points, money (in cents, with a stake) and
/// the ledger's statistics.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NightSummary {
    pub players: [String; PLAYERS],
    pub hands: usize,
    pub points: [i64; PLAYERS],
    pub money: Option<[i64; PLAYERS]>,
    pub stats: [PlayerStats; PLAYERS],
}

/// A group: `{"id", "name", "nights", "stats"}`, the nights newest first,
/// each player's statistics summed over the nights they sat in (a night
/// whose summary cannot be read is left out).
pub fn group(g: &GroupRow, nights: &[NightRow]) -> Vec<u8> {
    let read: Vec<(&NightRow, NightSummary)> = nights
        .iter()
        .filter_map(|n| Some((n, serde_json::from_str(&n.summary).ok()?)))
        .collect();
    let names: Vec<[&str; PLAYERS]> = read
        .iter()
        .map(|(_, s)| std::array::from_fn(|p| s.players[p].as_str()))
        .collect();
    let listed = read
        .iter()
        .zip(&names)
        .map(|((n, s), names)| NightDoc {
            id: &n.id,
            title: n.title.as_deref(),
            created_at: rfc3339(n.created_at),
            players: &s.players,
            hands: s.hands,
            balances: ByPlayer {
                names,
                values: s.points,
            },
        })
        .collect();
    let mut stats: Vec<GroupStatsDoc> = Vec::new();
    for (n, s) in &read {
        for p in 0..PLAYERS {
            let name = &s.players[p];
            let at = match stats.iter().position(|x| &x.player == name) {
                Some(i) => i,
                None => {
                    stats.push(GroupStatsDoc {
                        player: name.clone(),
                        ..GroupStatsDoc::default()
                    });
                    stats.len() - 1
                }
            };
            add(&mut stats[at], &n.id, s, p);
        }
    }
    to_vec(&GroupDoc {
        id: &g.id,
        name: &g.name,
        nights: listed,
        stats,
    })
}

/// Adds player `p` of the night `table` to their sums. Counts are at most
/// 1,000 nights of at most 2,000 hands, points and cents each exact in an
/// i64 (the ledger refuses more), so the sums saturate only in theory.
fn add(sum: &mut GroupStatsDoc, table: &str, night: &NightSummary, p: usize) {
    let s = night.stats[p];
    sum.nights += 1;
    sum.hands_won += s.hands_won;
    sum.self_draws += s.self_draws;
    sum.wins_on_discard += s.wins_on_discard;
    sum.dealt_in += s.dealt_in;
    sum.false_wins += s.false_wins;
    sum.points = sum.points.saturating_add(night.points[p]);
    if let Some(m) = night.money {
        let before = sum.money.map_or(0, |a| a.0);
        sum.money = Some(Amount(before.saturating_add(m[p])));
    }
    if let Some((hand, faan)) = s.biggest {
        if sum.biggest.as_ref().is_none_or(|b| faan > b.faan) {
            sum.biggest = Some(GroupBiggestDoc {
                table: table.into(),
                hand,
                faan,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    // Only to read back what the group writes.
    type Json = serde_json::value::Value;

    #[test]
    fn times_are_rfc3339_in_utc() {
        // 1,700,000,000 s is 2023-11-14 22:13:20 UTC (the well-known
        // round Unix time), plus 5 ms.
        assert_eq!(rfc3339(1_700_000_000_005), "2023-11-14T22:13:20.005Z");
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
    }

    #[test]
    fn hands_go_after_the_ruleset_even_when_its_id_has_a_quote() {
        // `{"ruleset":"a\"b",` is 18 characters: the hands go there.
        let s = r#"{"ruleset":"a\"b","next":{}}"#;
        assert_eq!(after_ruleset(s), Some(18));
        assert_eq!(after_ruleset(r#"{"next":{}}"#), None);
    }

    fn stats(won: u32, biggest: Option<(usize, u32)>) -> PlayerStats {
        PlayerStats {
            hands_won: won,
            biggest,
            ..PlayerStats::default()
        }
    }

    fn night(id: &str, ms: i64, s: &NightSummary) -> NightRow {
        NightRow {
            id: id.into(),
            title: None,
            created_at: ms,
            summary: serde_json::to_string(s).unwrap(),
        }
    }

    #[test]
    fn two_nights_sum_per_player() {
        // Night 1: Ann +96, Ben -32, Cat -32, Dan -32, with a stake
        //   (Ann $9.60, the others -$3.20); Ann won hand 0 at 4 faan.
        // Night 2: Ann -64, Cat +64 (others 0), no stake; Cat won hand 0 at 3.
        // Ann: 2 nights, 96 - 64 = 32 points, money only from night 1: 9.6.
        // Ben: 2 nights, -32, -3.2. Cat: -32 + 64 = 32, money -3.2.
        let g = GroupRow {
            id: "g".into(),
            key_hash: String::new(),
            name: "Thursdays".into(),
            created_at: 0,
        };
        let players = ["Ann", "Ben", "Cat", "Dan"].map(String::from);
        let one = NightSummary {
            players: players.clone(),
            hands: 1,
            points: [96, -32, -32, -32],
            money: Some([960, -320, -320, -320]),
            stats: [
                stats(1, Some((0, 4))),
                stats(0, None),
                stats(0, None),
                stats(0, None),
            ],
        };
        let two = NightSummary {
            players,
            hands: 1,
            points: [-64, 0, 64, 0],
            money: None,
            stats: [
                stats(0, None),
                stats(0, None),
                stats(1, Some((0, 3))),
                stats(0, None),
            ],
        };
        let nights = [night("t2", 2000, &two), night("t1", 1000, &one)];
        let v: Json = serde_json::from_slice(&group(&g, &nights)).unwrap();
        assert_eq!(v["nights"][0]["id"], "t2");
        assert_eq!(v["nights"][1]["balances"]["Ann"], 96);
        let stats = v["stats"].as_array().unwrap();
        let ann = stats.iter().find(|s| s["player"] == "Ann").unwrap();
        assert_eq!(ann["nights"], 2);
        assert_eq!(ann["points"], 32);
        assert_eq!(ann["hands_won"], 1);
        assert_eq!(ann["money"], 9.6);
        assert_eq!(ann["biggest"], json!({"table": "t1", "hand": 0, "faan": 4}));
        let cat = stats.iter().find(|s| s["player"] == "Cat").unwrap();
        assert_eq!(cat["points"], 32);
        assert_eq!(cat["money"], -3.2);
        assert_eq!(cat["biggest"], json!({"table": "t2", "hand": 0, "faan": 3}));
        let ben = stats.iter().find(|s| s["player"] == "Ben").unwrap();
        assert_eq!(ben["money"], -3.2);
        assert!(ben.get("biggest").is_none());
    }
}
