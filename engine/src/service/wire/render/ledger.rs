//! The `POST /v1/ledger` answer written straight from the core's [`Ledger`]:
//! byte for byte what `serde_json::to_vec` makes of
//! [`LedgerResponse`](crate::api::LedgerResponse) (`tests/writer.rs` checks
//! it on the hand-worked nights and the bench night). Each winner's lines
//! are the score writer's. Building the serde tree and walking it cost more
//! than playing the match (bench/ledger.md has the A/B).

use super::{boolean, int, lines, separated, string, uint, Sink};
use crate::api::change_at;
use crate::core::evaluate::Declared;
use crate::core::ledger::{Ledger, LedgerHand, Outcome, Transfer, PLAYERS};
use crate::core::{RuleChange, Ruleset, Wind};

/// The answer to the match `l` of the players `names` under `ruleset`
/// (house rules applied), requested as `ruleset_id`, its changes of rules
/// shown as `changes`; as `serde_json::to_vec(&LedgerResponse::new(ruleset_id,
/// ruleset, names, l, changes))`.
pub fn ledger_json(
    ruleset_id: &str,
    ruleset: &Ruleset,
    names: &[&str; PLAYERS],
    l: &Ledger,
    changes: &[RuleChange],
) -> Vec<u8> {
    let w = NightWriter::new(ruleset, names);
    // Room for a hand of one winner, so the answer is rarely reallocated
    // (its size: bench/ledger.md).
    let mut out = Vec::with_capacity(512 + l.hands.len() * 640);
    w.head(&mut out, ruleset_id);
    out.put(b"\"hands\":[");
    separated(&mut out, &l.hands, |out, h| w.row_into(out, h, changes));
    out.put(b"],");
    w.tail_into(&mut out, l);
    out
}

/// The parts of a ledger answer, written apart so that a night kept hand
/// by hand writes one row and its summary per change: the answer is
/// `{"ruleset":…,` then `"hands":[` and the rows joined by commas, `],`,
/// then the tail (`"next":…}`).
pub struct NightWriter {
    /// Each name as a JSON string, escaped once: a hand writes it ten times.
    quoted: [Vec<u8>; PLAYERS],
    /// Every winner carries the ruleset's hash: its hex written once.
    hash: [u8; 64],
}

impl NightWriter {
    /// The writer of a night of `names` whose rules start as `ruleset`
    /// (the hash every winner shows is this ruleset's).
    pub fn new(ruleset: &Ruleset, names: &[&str; PLAYERS]) -> NightWriter {
        let quoted = names.map(|n| {
            let mut q = Vec::with_capacity(n.len() + 2);
            string(&mut q, n);
            q
        });
        let mut hash = [0u8; 64];
        // 32 bytes always fit 64 digits.
        let _ = hex::encode_to_slice(ruleset.hash(), &mut hash);
        NightWriter { quoted, hash }
    }

    /// `{"ruleset":"…",`
    pub fn head(&self, out: &mut Vec<u8>, ruleset_id: &str) {
        out.put(b"{\"ruleset\":");
        string(out, ruleset_id);
        out.byte(b',');
    }

    /// One row of `hands`; `changes` holds the change of rules it shows, if
    /// it is one.
    pub fn row(&self, h: &LedgerHand, changes: &[RuleChange]) -> Vec<u8> {
        let mut out = Vec::with_capacity(640);
        self.row_into(&mut out, h, changes);
        out
    }

    fn row_into<S: Sink>(&self, out: &mut S, h: &LedgerHand, changes: &[RuleChange]) {
        hand(out, &Names(&self.quoted), &self.hash, h, changes);
    }

    /// The answer without its `hands`: `{"ruleset":…,"next":…}` (a shared
    /// table's `hand` and `undo` events carry it); `l.hands` is not read.
    pub fn summary(&self, ruleset_id: &str, l: &Ledger) -> Vec<u8> {
        let mut out = Vec::with_capacity(1024);
        self.head(&mut out, ruleset_id);
        self.tail_into(&mut out, l);
        out
    }

    /// Everything after the rows: `"next":…}`.
    fn tail_into(&self, out: &mut Vec<u8>, l: &Ledger) {
        let q = Names(&self.quoted);
        out.put(b"\"next\":{\"round_wind\":");
        wind(out, l.next.round_wind);
        out.put(b",\"dealer\":");
        out.put(q.of(l.next.dealer));
        out.put(b",\"dealer_streak\":");
        uint(out, l.next.dealer_streak.into());
        out.put(b",\"complete\":");
        boolean(out, l.next.complete);
        out.put(b"},\"balances\":");
        points(out, &q, l.balances);
        out.put(b",\"standings\":[");
        separated(out, &l.standings, |out, s| {
            out.put(b"{\"player\":");
            out.put(q.of(s.player));
            out.put(b",\"balance\":");
            int(out, s.balance);
            out.put(b",\"rank\":");
            uint(out, s.rank as u64);
            out.byte(b'}');
        });
        out.put(b"],\"transfers\":");
        transfers(out, &q, &l.transfers, int);
        if let Some(m) = &l.money {
            out.put(b",\"money\":{");
            if let Some(s) = m.stake {
                out.put(b"\"stake\":");
                float(out, s.as_number());
                out.byte(b',');
            }
            out.put(b"\"balances\":");
            money(out, &q, m.balances);
            out.put(b",\"transfers\":");
            transfers(out, &q, &m.transfers, amount);
            out.byte(b'}');
        }
        out.put(b",\"stats\":[");
        separated(out, l.stats.iter().enumerate(), |out, (p, s)| {
            out.put(b"{\"player\":");
            out.put(q.of(p));
            for (key, v) in [
                (&b",\"hands_won\":"[..], s.hands_won),
                (b",\"self_draws\":", s.self_draws),
                (b",\"wins_on_discard\":", s.wins_on_discard),
                (b",\"dealt_in\":", s.dealt_in),
                (b",\"false_wins\":", s.false_wins),
            ] {
                out.put(key);
                uint(out, v.into());
            }
            out.put(b",\"biggest\":");
            match s.biggest {
                Some((hand, faan)) => {
                    out.put(b"{\"hand\":");
                    uint(out, hand as u64);
                    out.put(b",\"faan\":");
                    uint(out, faan.into());
                    out.byte(b'}');
                }
                None => out.put(b"null"),
            }
            out.put(b",\"points\":");
            int(out, l.balances.get(p).copied().unwrap_or(0));
            if let Some(m) = &l.money {
                out.put(b",\"money\":");
                amount(out, m.balances.get(p).copied().unwrap_or(0));
            }
            out.byte(b'}');
        });
        out.put(b"]}");
    }
}

/// The players' names, each already a JSON string.
struct Names<'a>(&'a [Vec<u8>; PLAYERS]);

impl Names<'_> {
    /// Player `p`'s name (the core's indices are below [`PLAYERS`]).
    fn of(&self, p: usize) -> &[u8] {
        self.0.get(p).map_or(b"\"\"", Vec::as_slice)
    }
}

fn hand<S: Sink>(
    out: &mut S,
    q: &Names<'_>,
    hash: &[u8; 64],
    h: &LedgerHand,
    changes: &[RuleChange],
) {
    out.put(b"{\"index\":");
    uint(out, h.index as u64);
    out.put(b",\"number\":");
    match h.number {
        Some(n) => uint(out, n as u64),
        None => out.put(b"null"),
    }
    out.put(b",\"game\":");
    uint(out, h.game.into());
    out.put(b",\"round_wind\":");
    wind(out, h.round_wind);
    out.put(b",\"dealer\":");
    out.put(q.of(h.dealer));
    out.put(b",\"dealer_streak\":");
    uint(out, h.dealer_streak.into());
    out.put(b",\"seats\":");
    by_player(out, q, h.seats, |out, w| wind(out, w));
    out.put(b",\"result\":\"");
    out.put(h.outcome.name().as_bytes());
    out.byte(b'"');
    match &h.outcome {
        Outcome::Win(ws) if !ws.is_empty() => {
            out.put(b",\"winners\":[");
            separated(out, ws, |out, w| {
                out.put(b"{\"player\":");
                out.put(q.of(w.player));
                out.put(b",\"seat\":");
                wind(out, w.seat);
                out.put(b",\"paid\":");
                boolean(out, w.paid);
                // The chosen reading, as `Score::best`.
                let best = w.score.readings.get(w.score.chosen);
                if w.declared.is_none() {
                    out.put(b",\"form\":\"");
                    out.put(best.map_or("", |b| b.reading.form.name()).as_bytes());
                    out.byte(b'"');
                }
                out.put(b",\"lines\":");
                match best {
                    Some(b) => lines(out, b),
                    None => out.put(b"[]"),
                }
                out.put(b",\"total_faan\":");
                uint(out, best.map_or(0, |b| b.total_faan).into());
                out.put(b",\"limit_hand\":");
                boolean(out, best.is_some_and(|b| b.limit_hand));
                out.put(b",\"base_points\":");
                uint(out, w.score.base_points);
                out.put(b",\"ruleset_hash\":\"");
                out.put(hash);
                match w.declared {
                    None => out.put(b"\",\"source\":\"tiles\"}"),
                    Some(d) => {
                        out.put(b"\",\"source\":\"declared\"");
                        if let Declared::Faan(n) = d {
                            out.put(b",\"declared_faan\":");
                            uint(out, n.into());
                        }
                        out.byte(b'}');
                    }
                }
            });
            out.byte(b']');
        }
        Outcome::Win(_) | Outcome::Draw | Outcome::NewGame => {}
        Outcome::FalseWin { offender } => {
            out.put(b",\"offender\":");
            out.put(q.of(*offender));
        }
        Outcome::Rules => {
            if let Some(c) = change_at(changes, h.index) {
                // Rare: serde writes them, by their derived `Serialize`.
                out.put(b",\"house_rules\":");
                out.put(&crate::service::wire::to_json(&c.sent));
                out.put(b",\"in_force\":");
                out.put(&crate::service::wire::to_json(&c.in_force));
            }
        }
    }
    if h.outcome.played() {
        out.put(b",\"deltas\":");
        points(out, q, h.deltas);
    }
    out.put(b",\"balances\":");
    points(out, q, h.balances);
    if let Some(m) = h.money_deltas {
        out.put(b",\"money\":");
        money(out, q, m);
    }
    out.byte(b'}');
}

fn wind<S: Sink>(out: &mut S, w: Wind) {
    out.byte(b'"');
    out.put(w.name().as_bytes());
    out.byte(b'"');
}

/// Points by player: `{"Ann":-32,...}` (`api::ByPlayer<i64>`).
fn points<S: Sink>(out: &mut S, q: &Names<'_>, values: [i64; PLAYERS]) {
    by_player(out, q, values, int);
}

/// Money by player, from cents (`api::ByPlayer<Amount>`).
fn money<S: Sink>(out: &mut S, q: &Names<'_>, cents_by_player: [i64; PLAYERS]) {
    by_player(out, q, cents_by_player, amount);
}

fn by_player<S: Sink, T>(
    out: &mut S,
    q: &Names<'_>,
    values: [T; PLAYERS],
    value: impl Fn(&mut S, T),
) {
    out.byte(b'{');
    separated(out, values.into_iter().enumerate(), |out, (p, v)| {
        out.put(q.of(p));
        out.byte(b':');
        value(out, v);
    });
    out.byte(b'}');
}

fn transfers<S: Sink>(out: &mut S, q: &Names<'_>, ts: &[Transfer], amount: impl Fn(&mut S, i64)) {
    out.byte(b'[');
    separated(out, ts, |out, t| {
        out.put(b"{\"from\":");
        out.put(q.of(t.from));
        out.put(b",\"to\":");
        out.put(q.of(t.to));
        out.put(b",\"amount\":");
        amount(out, t.amount);
        out.byte(b'}');
    });
    out.byte(b']');
}

/// Whole cents as an amount, as `api::Amount` writes it (exact, from the integer).
fn amount<S: Sink>(out: &mut S, c: i64) {
    out.put(crate::api::Amount(c).text().as_bytes());
}

/// A float as serde_json writes it (ryu's shortest form; `null` when not
/// finite), through a stack buffer: no allocation.
fn float<S: Sink>(out: &mut S, v: f64) {
    let mut buf = [0u8; 32];
    let room = {
        let mut w = &mut buf[..];
        let _ = serde_json::to_writer(&mut w, &v);
        w.len()
    };
    out.put(&buf[..buf.len() - room]);
}
