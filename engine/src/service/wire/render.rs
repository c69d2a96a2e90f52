//! The `POST /v1/score` body written straight from the core's [`Score`].
//!
//! [`ScoreResponse`](crate::api::ScoreResponse) is the schema (OpenAPI,
//! clients, tests); building it means a `String` per set, line and name and
//! then serde walking the tree, which cost more than scoring the hand. This
//! writes the same JSON into one buffer: byte for byte what
//! `serde_json::to_vec(&ScoreResponse::new(..))` gives (the tests below and
//! `tests/api` check it on every fixture and corpus hand). The rare money
//! object still goes through serde (its floats are formatted by serde_json).
//!
//! The score result's fields are written in one place (`score_fields`):
//! `POST /v1/score` closes the object, `POST /v1/settle` (`settle_json`)
//! adds `paid` first. The ledger's answer is in [`ledger`].

mod csv;
mod ledger;
mod results;

pub use csv::{ledger_csv, Lang};
pub use ledger::{ledger_json, NightWriter};

use super::sink::{Cursor, Sink};
use crate::api::{money_of, KeyHash};
use crate::core::decompose::{Form, Set, SetKind, WinPlace};
use crate::core::evaluate::{Score, ScoredReading};
use crate::core::hand::Context;
use crate::core::tile::Tile;
use crate::core::Ruleset;

/// The JSON body of a score, as `serde_json::to_vec(&ScoreResponse::new(ruleset_id, ruleset, ctx, score, hex(hand_hash)))`.
pub fn score_json(
    ruleset_id: &str,
    ruleset: &Ruleset,
    ctx: &Context,
    score: &Score,
    hand_hash: &KeyHash,
) -> Vec<u8> {
    let parts = Parts {
        ruleset_id,
        ruleset,
        ctx,
        score,
        hand_hash,
    };
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut buf) => score_json_in(&mut buf, &parts),
        // Not reached (nothing here re-enters), but never a panic.
        Err(_) => score_json_in(&mut [], &parts),
    })
}

/// What a score body is written from (the arguments of [`score_json`]).
struct Parts<'a> {
    ruleset_id: &'a str,
    ruleset: &'a Ruleset,
    ctx: &'a Context,
    score: &'a Score,
    hand_hash: &'a KeyHash,
}

/// Bytes of a thread's scratch buffer: more than any body of the corpus
/// (bench/load.md), so a body is written without growing it.
const SCRATCH_LEN: usize = 16 * 1024;

thread_local! {
    /// Where a body is written before it is copied out at its exact length
    /// (a fresh buffer cost a `memset` or the allocator's slow path each
    /// time: bench/load.md).
    static SCRATCH: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0; SCRATCH_LEN]);
}

/// [`score_json`] written through a cursor into `buf` (one bounds check a
/// write) and copied out at its length; a body that does not fit is
/// written again into a growing `Vec`.
fn score_json_in(buf: &mut [u8], parts: &Parts<'_>) -> Vec<u8> {
    let mut cursor = Cursor::new(buf);
    write_score(&mut cursor, parts);
    if let Some(body) = cursor.written() {
        return body.to_vec();
    }
    let mut out = Vec::with_capacity(2 * SCRATCH_LEN);
    write_score(&mut out, parts);
    out
}

/// One winner of a settlement: what its score result is written from, and
/// whether the discarder pays it.
pub struct SettledParts<'a> {
    pub context: &'a Context,
    pub score: &'a Score,
    /// The winner's `hand_hash`; none for a winner declared without tiles.
    pub hand_hash: Option<&'a KeyHash>,
    /// The faan a declared winner sent (`declared_faan`).
    pub declared_faan: Option<u32>,
    pub paid: bool,
}

/// The `POST /v1/settle` body, as `serde_json::to_vec` of
/// `api::SettleResponse`: each result is a score result's fields (the score
/// writer's) with `paid` after them, then the summed payments and money.
pub fn settle_json(
    ruleset_id: &str,
    ruleset: &Ruleset,
    winners: &[SettledParts<'_>],
    summed: [i64; 4],
    money_cents: Option<[i64; 4]>,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(256 + winners.len() * 4096);
    out.put(b"{\"ruleset\":");
    string(&mut out, ruleset_id);
    out.put(b",\"results\":[");
    separated(&mut out, winners, |out, w| {
        match w.hand_hash {
            Some(hand_hash) => score_fields(
                out,
                &Parts {
                    ruleset_id,
                    ruleset,
                    ctx: w.context,
                    score: w.score,
                    hand_hash,
                },
            ),
            None => declared_fields(out, ruleset_id, ruleset, w),
        }
        out.put(b",\"paid\":");
        boolean(out, w.paid);
        out.put(if w.hand_hash.is_some() {
            b",\"source\":\"tiles\"}"
        } else {
            b",\"source\":\"declared\"}"
        });
    });
    out.put(b"],\"payments\":");
    payments(&mut out, summed);
    money(&mut out, ruleset, money_cents);
    out.byte(b'}');
    out
}

/// A declared winner's result without `paid`, `source` and the closing
/// brace (`api::DeclaredResult`).
fn declared_fields<S: Sink>(
    out: &mut S,
    ruleset_id: &str,
    ruleset: &Ruleset,
    w: &SettledParts<'_>,
) {
    let score = w.score;
    out.put(b"{\"ruleset\":");
    string(out, ruleset_id);
    out.put(b",\"ruleset_hash\":\"");
    hex_to(out, &ruleset.hash());
    out.byte(b'"');
    if let Some(n) = w.declared_faan {
        out.put(b",\"declared_faan\":");
        uint(out, n.into());
    }
    out.put(b",\"lines\":");
    match score.readings.get(score.chosen) {
        Some(b) => {
            lines(out, b);
            totals(out, b);
        }
        None => out.put(b"[],\"raw_faan\":0,\"total_faan\":0,\"limit_hand\":false"),
    }
    result_tail(out, ruleset, score, w.context);
}

fn write_score<S: Sink>(out: &mut S, parts: &Parts<'_>) {
    score_fields(out, parts);
    out.byte(b'}');
}

/// A score result's object without its closing brace: `{` and every field
/// of `api::ScoreResponse` in order (a settled result adds `paid` after
/// them). The one place a score result's fields are written.
fn score_fields<S: Sink>(out: &mut S, parts: &Parts<'_>) {
    let Parts {
        ruleset_id,
        ruleset,
        ctx,
        score,
        hand_hash,
    } = *parts;
    out.put(b"{\"ruleset\":");
    string(out, ruleset_id);
    out.put(b",\"ruleset_hash\":\"");
    hex_to(out, &ruleset.hash());
    out.put(b"\",\"hand_hash\":\"");
    hex_to(out, hand_hash);
    out.put(b"\",\"decompositions\":[");
    let chosen = score.chosen.min(score.readings.len().saturating_sub(1));
    // Where the chosen reading's lines were written: the top-level `lines`
    // are the same bytes, copied rather than written again.
    let mut chosen_lines = 0..0;
    separated(out, score.readings.iter().enumerate(), |out, (i, sr)| {
        let at = decomposition(out, sr);
        if i == chosen {
            chosen_lines = at;
        }
    });
    out.put(b"],\"chosen\":");
    let best = score.readings.get(chosen);
    uint(out, chosen as u64);
    out.put(b",\"form\":\"");
    out.put(best.map_or("", |b| b.reading.form.name()).as_bytes());
    out.put(b"\",\"lines\":");
    if chosen_lines.is_empty() {
        out.put(b"[]");
    } else {
        out.copy_within(chosen_lines);
    }
    match best {
        Some(b) => totals(out, b),
        None => out.put(b",\"raw_faan\":0,\"total_faan\":0,\"limit_hand\":false"),
    }
    result_tail(out, ruleset, score, ctx);
}

/// Signed points by seat (`api::Payments`).
/// The fields after a result's totals, alike for a scored and a declared
/// winner: the ruleset's limit, the minimum, base points, winner, payments
/// and money.
fn result_tail<S: Sink>(out: &mut S, ruleset: &Ruleset, score: &Score, ctx: &Context) {
    out.put(b",\"limit\":");
    uint(out, ruleset.limit().into());
    out.put(b",\"min_faan\":");
    uint(out, score.min_faan.into());
    out.put(b",\"meets_minimum\":");
    boolean(out, score.meets_minimum);
    out.put(b",\"missing_faan\":");
    uint(out, score.missing_faan.into());
    out.put(b",\"base_points\":");
    uint(out, score.base_points);
    out.put(b",\"winner\":\"");
    out.put(ctx.seat_wind.name().as_bytes());
    out.put(b"\",\"payments\":");
    payments(out, score.payments);
    money(out, ruleset, score.money_cents);
}

fn payments<S: Sink>(out: &mut S, by_seat: [i64; 4]) {
    for (key, v) in [
        &b"{\"east\":"[..],
        b",\"south\":",
        b",\"west\":",
        b",\"north\":",
    ]
    .iter()
    .zip(by_seat)
    {
        out.put(key);
        int(out, v);
    }
    out.byte(b'}');
}

/// `,"money":{..}` at a stake under any ruleset, or at the ruleset's chip
/// rate (`api::money_of`); nothing without either.
fn money<S: Sink>(out: &mut S, ruleset: &Ruleset, cents: Option<[i64; 4]>) {
    if let Some(m) = money_of(ruleset, cents) {
        out.put(b",\"money\":");
        // Floats: serde_json's own formatting (ryu), as the schema type gets.
        let money = serde_json::to_vec(&m).unwrap_or_default();
        out.put(&money);
    }
}

/// Writes one reading; returns where its `lines` array is in `out`.
fn decomposition<S: Sink>(out: &mut S, sr: &ScoredReading) -> std::ops::Range<usize> {
    let r = &sr.reading;
    let sets = r.sets();
    out.put(b"{\"form\":\"");
    out.put(r.form.name().as_bytes());
    out.put(b"\",\"sets\":[");
    separated(out, sets, set_text);
    out.put(b"],\"pair\":");
    match r.form {
        Form::Standard | Form::ThirteenOrphans => pair_text(out, r.pair),
        Form::SevenPairs | Form::FlowerWin => out.put(b"null"),
    }
    if r.form == Form::SevenPairs {
        out.put(b",\"pairs\":[");
        separated(out, r.pairs.iter().copied(), pair_text);
        out.byte(b']');
    }
    if r.form == Form::ThirteenOrphans {
        out.put(b",\"singles\":[");
        separated(out, r.singles(), |out, t| {
            out.put(&[b'"', b'0' + t.number(), t.suit().letter() as u8, b'"']);
        });
        out.byte(b']');
    }
    out.put(b",\"set_details\":[");
    let tails = &*SET_TAILS;
    separated(out, sets.iter().enumerate(), |out, (i, s)| {
        out.put(b"{\"tiles\":");
        set_text(out, s);
        out.put(
            &tails[set_tail(
                s.kind,
                s.concealed,
                s.declared,
                r.win == WinPlace::Set(i as u8),
            )],
        );
    });
    out.put(b"],\"winning_in_pair\":");
    boolean(out, r.win == WinPlace::Pair);
    out.put(b",\"lines\":");
    let start = out.pos();
    lines(out, sr);
    let at = start..out.pos();
    totals(out, sr);
    out.byte(b'}');
    at
}

/// The rest of a `set_details` item after its tiles, for each kind and
/// flags: `,"kind":"chow","concealed":true,"declared":false,"winning":false}`
/// (one copy instead of seven writes).
static SET_TAILS: std::sync::LazyLock<Vec<Vec<u8>>> = std::sync::LazyLock::new(|| {
    let mut tails = Vec::with_capacity(24);
    for kind in ["chow", "pung", "kong"] {
        for flags in 0..8u8 {
            let (concealed, declared, winning) = (flags & 4 != 0, flags & 2 != 0, flags & 1 != 0);
            tails.push(
                format!(",\"kind\":\"{kind}\",\"concealed\":{concealed},\"declared\":{declared},\"winning\":{winning}}}")
                    .into_bytes(),
            );
        }
    }
    tails
});

/// Where a set's tail is in [`SET_TAILS`].
fn set_tail(kind: SetKind, concealed: bool, declared: bool, winning: bool) -> usize {
    let k = match kind {
        SetKind::Chow => 0,
        SetKind::Pung => 1,
        SetKind::Kong => 2,
    };
    k * 8 + usize::from(concealed) * 4 + usize::from(declared) * 2 + usize::from(winning)
}

/// A reading's `raw_faan`, `total_faan` and `limit_hand` fields.
fn totals<S: Sink>(out: &mut S, sr: &ScoredReading) {
    out.put(b",\"raw_faan\":");
    uint(out, sr.raw_faan.into());
    out.put(b",\"total_faan\":");
    uint(out, sr.total_faan.into());
    out.put(b",\"limit_hand\":");
    boolean(out, sr.limit_hand);
}

fn lines<S: Sink>(out: &mut S, sr: &ScoredReading) {
    out.byte(b'[');
    separated(out, sr.lines.iter(), |out, l| {
        out.put(b"{\"pattern\":\"");
        out.put(l.pattern.as_str().as_bytes());
        out.put(b"\",\"name\":");
        string(out, l.pattern.name());
        out.put(b",\"name_zh\":");
        string(out, l.pattern.name_zh());
        out.put(b",\"faan\":");
        uint(out, l.faan.into());
        out.put(b",\"limit\":");
        boolean(out, l.limit);
        out.byte(b'}');
    });
    out.byte(b']');
}

/// Writes each item with `item`, a comma between each two: the one place
/// the writers put the commas of an array's items or of an object's
/// repeated members (the caller writes the brackets, fused with the keys
/// around them). Always inlined: as a call of its own it kept its callers'
/// writers out of line too, and the ledger's writer was slower (bench/load.md).
#[inline(always)]
fn separated<S: Sink, T>(
    out: &mut S,
    items: impl IntoIterator<Item = T>,
    mut item: impl FnMut(&mut S, T),
) {
    let mut first = true;
    for x in items {
        if !std::mem::take(&mut first) {
            out.byte(b',');
        }
        item(out, x);
    }
}

fn set_text<S: Sink>(out: &mut S, s: &Set) {
    let (buf, len) = s.text_bytes();
    out.byte(b'"');
    out.put(&buf[..len]);
    out.byte(b'"');
}

/// A tile twice, as a pair: `"55p"`.
fn pair_text<S: Sink>(out: &mut S, t: Tile) {
    let n = b'0' + t.number();
    out.put(&[b'"', n, n, t.suit().letter() as u8, b'"']);
}

/// A JSON string: as is when nothing needs escaping (names, ids), else serde_json's escaping.
fn string<S: Sink>(out: &mut S, s: &str) {
    // Folded without an early exit, so the check is vectorised.
    let plain = s
        .bytes()
        .fold(true, |ok, b| ok & (b >= 0x20) & (b != b'"') & (b != b'\\'));
    if plain {
        out.byte(b'"');
        out.put(s.as_bytes());
        out.byte(b'"');
    } else {
        out.put(&serde_json::to_vec(s).unwrap_or_default());
    }
}

// Each branch copies a constant length (inlined stores); one copy of a
// length chosen at run time is a call to `memcpy`.
fn boolean<S: Sink>(out: &mut S, b: bool) {
    if b {
        out.put(b"true");
    } else {
        out.put(b"false");
    }
}

fn uint<S: Sink>(out: &mut S, v: u64) {
    if v < 10 {
        out.byte(b'0' + v as u8);
    } else if v < 100 {
        out.put(&[b'0' + (v / 10) as u8, b'0' + (v % 10) as u8]);
    } else {
        out.put(itoa::Buffer::new().format(v).as_bytes());
    }
}

fn int<S: Sink>(out: &mut S, v: i64) {
    out.put(itoa::Buffer::new().format(v).as_bytes());
}

fn hex_to<S: Sink>(out: &mut S, h: &KeyHash) {
    let mut buf = [0u8; 64];
    // 32 bytes always fit 64 digits.
    let _ = hex::encode_to_slice(h, &mut buf);
    out.put(&buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ScoreRequest, ScoreResponse};
    use crate::core::evaluate::{allowances, score_hand};
    use crate::core::hand::validate;
    use crate::core::Registry;
    use crate::service::key::key_hash;

    /// Every built-in ruleset, hands of every form (with melds, flowers,
    /// money, names that differ on a discard): the writer equals serde.
    #[test]
    fn writes_what_serde_writes_for_the_schema_type() {
        let reg = Registry::builtin().unwrap();
        let hands = [
            r#"{"hand":{"tiles":"123456m789p23455s","winning_tile":"9p"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}"#,
            r#"{"hand":{"tiles":"11122233344455m","winning_tile":"5m"},"context":{"win_by":"discard","seat_wind":"east","round_wind":"east","discarder":"north"}}"#,
            r#"{"hand":{"tiles":"1133557799m1122p","winning_tile":"2p"},"context":{"win_by":"self_draw","seat_wind":"west","round_wind":"south"}}"#,
            r#"{"hand":{"tiles":"19m19p19s12345677z","winning_tile":"7z"},"context":{"win_by":"discard","seat_wind":"north","round_wind":"east","discarder":"east"}}"#,
            r#"{"hand":{"tiles":"88s","melds":[{"kind":"pung","tiles":"777z"},{"kind":"kong","tiles":"2222z","concealed":true},{"kind":"chow","tiles":"345m"},{"kind":"pung","tiles":"666p"}],"winning_tile":"8s","flowers":["F1","S2"]},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east","replacement":"kong"}}"#,
        ];
        let mut checked = 0;
        for r in reg.all() {
            for h in hands {
                let mut v: serde_json::Value = serde_json::from_str(h).unwrap();
                v["ruleset"] = r.id().into();
                let text = v.to_string();
                let req: ScoreRequest = serde_json::from_str(&text).unwrap();
                let mut allow = allowances(r);
                allow.bonus_tiles = true;
                let Ok((hand, ctx)) = validate(&req.hand.to_core(), &req.context.to_core(), allow)
                else {
                    continue;
                };
                let Ok(score) = score_hand(r, &hand, &ctx) else {
                    continue;
                };
                let key = key_hash(
                    r,
                    crate::service::key::KeyBy::Id,
                    &Default::default(),
                    &hand,
                    &ctx,
                );
                let serde =
                    serde_json::to_vec(&ScoreResponse::new(r.id(), r, &ctx, &score, key)).unwrap();
                let direct = score_json(r.id(), r, &ctx, &score, &key);
                // Every size of room, from none to more than enough: the
                // cursor and its fallback write the same bytes.
                for room in [
                    0,
                    1,
                    10,
                    100,
                    direct.len() - 1,
                    direct.len(),
                    direct.len() + 1,
                ] {
                    assert_eq!(
                        score_json_in(
                            &mut vec![0; room],
                            &Parts {
                                ruleset_id: r.id(),
                                ruleset: r,
                                ctx: &ctx,
                                score: &score,
                                hand_hash: &key
                            }
                        ),
                        direct,
                        "room {room}: {} {h}",
                        r.id()
                    );
                }
                assert_eq!(
                    String::from_utf8(direct).unwrap(),
                    String::from_utf8(serde).unwrap(),
                    "{} {h}",
                    r.id()
                );
                checked += 1;
            }
        }
        assert!(checked >= 40, "only {checked} hands scored");
    }

    #[test]
    fn strings_that_need_escaping_are_escaped() {
        for s in [
            "plain",
            "Dragon \"pung\"",
            "back\\slash",
            "tab\there",
            "中文",
        ] {
            let mut out = Vec::new();
            string(&mut out, s);
            assert_eq!(out, serde_json::to_vec(s).unwrap(), "{s:?}");
        }
    }

    #[test]
    fn numbers_and_booleans_are_written_as_serde_writes_them() {
        for v in (0..=1000).chain([u64::from(u32::MAX), u64::MAX]) {
            let mut out = Vec::new();
            uint(&mut out, v);
            assert_eq!(out, serde_json::to_vec(&v).unwrap(), "{v}");
        }
        for b in [true, false] {
            let mut out = Vec::new();
            boolean(&mut out, b);
            assert_eq!(out, serde_json::to_vec(&b).unwrap(), "{b}");
        }
    }
}
