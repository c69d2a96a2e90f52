//! The JSON of tables and groups: `TABLE`, a night's summary (what a group
//! shows of it, kept beside the table so a group never re-reads whole
//! ledgers), and a group with its nights and summed statistics.

use crate::store::{GroupRow, NightRow, TableRow};
use serde_json::{Map, Value};

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

fn push_str(out: &mut Vec<u8>, s: &str) {
    // A string always serialises.
    let _ = serde_json::to_writer(&mut *out, s);
}

/// `TABLE`: `{"id", "title", "version", "created_at", "updated_at",
/// "request", "ledger"}`, the request and the answer as stored (each one
/// line of JSON, so the event stream's `data:` is one line too).
pub fn table(row: &TableRow) -> Vec<u8> {
    let mut out = Vec::with_capacity(128 + row.request.len() + row.ledger.len());
    out.extend_from_slice(b"{\"id\":");
    push_str(&mut out, &row.id);
    out.extend_from_slice(b",\"title\":");
    match &row.title {
        Some(t) => push_str(&mut out, t),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"version\":");
    out.extend_from_slice(itoa::Buffer::new().format(row.version).as_bytes());
    out.extend_from_slice(b",\"created_at\":");
    push_str(&mut out, &rfc3339(row.created_at));
    out.extend_from_slice(b",\"updated_at\":");
    push_str(&mut out, &rfc3339(row.updated_at));
    out.extend_from_slice(b",\"request\":");
    out.extend_from_slice(row.request.as_bytes());
    out.extend_from_slice(b",\"ledger\":");
    out.extend_from_slice(row.ledger.as_bytes());
    out.push(b'}');
    out
}

/// What a group shows of a night, from its request and the ledger's
/// answer: `{"players", "hands", "balances", "stats"}`. `stats` is the
/// answer's own when it has them; otherwise each player's `points` (the
/// balance) and, with a stake, `money`.
pub fn summary(request: &Value, ledger: &Value) -> String {
    let players = request.get("players").cloned().unwrap_or(Value::Null);
    let hands = ledger
        .get("hands")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let balances = ledger.get("balances").cloned().unwrap_or(Value::Null);
    let stats = match ledger.get("stats") {
        Some(Value::Array(s)) => Value::Array(s.clone()),
        _ => {
            let money = ledger
                .get("money")
                .and_then(|m| m.get("balances"))
                .and_then(Value::as_object);
            let names = players.as_array().cloned().unwrap_or_default();
            Value::Array(
                names
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|p| {
                        let mut m = Map::new();
                        m.insert("player".into(), p.into());
                        m.insert(
                            "points".into(),
                            balances.get(p).cloned().unwrap_or(Value::from(0)),
                        );
                        if let Some(v) = money.and_then(|m| m.get(p)) {
                            m.insert("money".into(), v.clone());
                        }
                        Value::Object(m)
                    })
                    .collect(),
            )
        }
    };
    let mut m = Map::new();
    m.insert("players".into(), players);
    m.insert("hands".into(), hands.into());
    m.insert("balances".into(), balances);
    m.insert("stats".into(), stats);
    Value::Object(m).to_string()
}

/// One player's statistics summed over nights.
#[derive(Default)]
struct Summed {
    nights: i64,
    /// Every integer field, summed, in the order first seen.
    counts: Vec<(String, i64)>,
    /// `money` in cents, over the nights with a stake.
    money_cents: Option<i64>,
    /// The largest win: `{"table", "hand", "faan"}`.
    biggest: Option<(String, Value, i64)>,
}

impl Summed {
    fn add(&mut self, table: &str, stat: &Map<String, Value>) {
        self.nights += 1;
        for (k, v) in stat {
            match (k.as_str(), v) {
                ("player", _) => {}
                ("money", v) => {
                    // Money is to the cent: summed in whole cents, exactly.
                    if let Some(x) = v.as_f64() {
                        let cents = (x * 100.0).round() as i64;
                        *self.money_cents.get_or_insert(0) += cents;
                    }
                }
                ("biggest", Value::Object(b)) => {
                    let faan = b.get("faan").and_then(Value::as_i64).unwrap_or(0);
                    if self.biggest.as_ref().is_none_or(|(_, _, f)| faan > *f) {
                        let hand = b.get("hand").cloned().unwrap_or(Value::Null);
                        self.biggest = Some((table.into(), hand, faan));
                    }
                }
                (_, Value::Number(n)) => {
                    if let Some(n) = n.as_i64() {
                        // At most 1,000 nights of at most 2^53 each: no overflow.
                        match self.counts.iter_mut().find(|(name, _)| name == k) {
                            Some((_, sum)) => *sum += n,
                            None => self.counts.push((k.clone(), n)),
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// A group: `{"id", "name", "nights", "stats"}`, the nights newest first.
pub fn group(g: &GroupRow, nights: &[NightRow]) -> Vec<u8> {
    let mut listed = Vec::with_capacity(nights.len());
    let mut players: Vec<(String, Summed)> = Vec::new();
    for n in nights {
        let s: Value = serde_json::from_str(&n.summary).unwrap_or(Value::Null);
        let mut night = Map::new();
        night.insert("id".into(), n.id.clone().into());
        night.insert(
            "title".into(),
            n.title.clone().map_or(Value::Null, Value::from),
        );
        night.insert("created_at".into(), rfc3339(n.created_at).into());
        for k in ["players", "hands", "balances"] {
            night.insert(k.into(), s.get(k).cloned().unwrap_or(Value::Null));
        }
        listed.push(Value::Object(night));
        for stat in s
            .get("stats")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let (Some(obj), Some(name)) =
                (stat.as_object(), stat.get("player").and_then(Value::as_str))
            else {
                continue;
            };
            let at = match players.iter().position(|(p, _)| p == name) {
                Some(i) => i,
                None => {
                    players.push((name.into(), Summed::default()));
                    players.len() - 1
                }
            };
            players[at].1.add(&n.id, obj);
        }
    }
    let stats: Vec<Value> = players
        .into_iter()
        .map(|(name, s)| {
            let mut m = Map::new();
            m.insert("player".into(), name.into());
            m.insert("nights".into(), s.nights.into());
            for (k, v) in s.counts {
                m.insert(k, v.into());
            }
            if let Some((table, hand, faan)) = s.biggest {
                let mut b = Map::new();
                b.insert("table".into(), table.into());
                b.insert("hand".into(), hand);
                b.insert("faan".into(), faan.into());
                m.insert("biggest".into(), Value::Object(b));
            }
            if let Some(c) = s.money_cents {
                m.insert("money".into(), (c as f64 / 100.0).into());
            }
            Value::Object(m)
        })
        .collect();
    let mut m = Map::new();
    m.insert("id".into(), g.id.clone().into());
    m.insert("name".into(), g.name.clone().into());
    m.insert("nights".into(), Value::Array(listed));
    m.insert("stats".into(), Value::Array(stats));
    Value::Object(m).to_string().into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn times_are_rfc3339_in_utc() {
        // 1,700,000,000 s is 2023-11-14 22:13:20 UTC (the well-known
        // round Unix time), plus 5 ms.
        assert_eq!(rfc3339(1_700_000_000_005), "2023-11-14T22:13:20.005Z");
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
    }

    fn night(id: &str, ms: i64, summary: Value) -> NightRow {
        NightRow {
            id: id.into(),
            title: None,
            created_at: ms,
            summary: summary.to_string(),
        }
    }

    #[test]
    fn two_nights_sum_per_player() {
        // Night 1: Ann +96, Ben -32 (stake: Ann $9.60, Ben -$3.20).
        // Night 2: Ann -64, Cat +64, no stake.
        // Ann: 2 nights, 96 - 64 = 32 points, money only from night 1: 9.6.
        // Ben: 1 night, -32, -3.2. Cat: 1 night, 64, no money.
        let g = GroupRow {
            id: "g".into(),
            key_hash: String::new(),
            name: "Thursdays".into(),
            created_at: 0,
        };
        let nights = [
            night(
                "t2",
                2000,
                json!({"players": ["Ann", "Cat"], "hands": 1, "balances": {"Ann": -64, "Cat": 64},
                    "stats": [{"player": "Ann", "points": -64, "hands_won": 0},
                              {"player": "Cat", "points": 64, "hands_won": 1, "biggest": {"hand": 0, "faan": 3}}]}),
            ),
            night(
                "t1",
                1000,
                json!({"players": ["Ann", "Ben"], "hands": 1, "balances": {"Ann": 96, "Ben": -32},
                    "stats": [{"player": "Ann", "points": 96, "money": 9.6, "hands_won": 1, "biggest": {"hand": 0, "faan": 4}},
                              {"player": "Ben", "points": -32, "money": -3.2, "hands_won": 0}]}),
            ),
        ];
        let v: Value = serde_json::from_slice(&group(&g, &nights)).unwrap();
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
        assert_eq!(cat["points"], 64);
        assert!(cat.get("money").is_none());
        let ben = stats.iter().find(|s| s["player"] == "Ben").unwrap();
        assert_eq!(ben["money"], -3.2);
    }

    #[test]
    fn a_summary_without_stats_has_points_from_balances() {
        // A ledger answer without `stats`: each player's points are the balance.
        let s = summary(
            &json!({"players": ["Ann", "Ben", "Cat", "Dan"]}),
            &json!({"hands": [{}, {}], "balances": {"Ann": -32, "Ben": 96, "Cat": -32, "Dan": -32}}),
        );
        let v: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["hands"], 2);
        assert_eq!(v["stats"][1], json!({"player": "Ben", "points": 96}));
    }
}
