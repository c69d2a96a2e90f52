//! The `POST /v1/score` body written straight from the core's [`Score`].
//!
//! [`ScoreResponse`](super::dto::ScoreResponse) is the schema (OpenAPI,
//! clients, tests); building it means a `String` per set, line and name and
//! then serde walking the tree, which cost more than scoring the hand. This
//! writes the same JSON into one buffer: byte for byte what
//! `serde_json::to_vec(&ScoreResponse::new(..))` gives (the tests below and
//! `tests/api` check it on every fixture and corpus hand). The rare money
//! object still goes through serde (its floats are formatted by serde_json).

use super::cache::KeyHash;
use super::dto::money_dto;
use crate::core::decompose::{Form, Set, SetKind, WinPlace};
use crate::core::evaluate::{Score, ScoredReading};
use crate::core::hand::{Context, WinBy};
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
    let on_discard = ctx.win_by == WinBy::Discard;
    let mut out = Vec::with_capacity(512 + 900 * score.readings.len());
    out.extend_from_slice(b"{\"ruleset\":");
    string(&mut out, ruleset_id);
    out.extend_from_slice(b",\"hand_hash\":\"");
    hex_into(&mut out, hand_hash);
    out.extend_from_slice(b"\",\"decompositions\":[");
    let chosen = score.chosen.min(score.readings.len().saturating_sub(1));
    // Where the chosen reading's lines were written: the top-level `lines`
    // are the same bytes, copied rather than written again.
    let mut chosen_lines = 0..0;
    for (i, sr) in score.readings.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let at = decomposition(&mut out, ruleset, sr, on_discard);
        if i == chosen {
            chosen_lines = at;
        }
    }
    out.extend_from_slice(b"],\"chosen\":");
    let best = score.readings.get(chosen);
    uint(&mut out, chosen as u64);
    out.extend_from_slice(b",\"form\":\"");
    out.extend_from_slice(best.map_or("", |b| b.reading.form.name()).as_bytes());
    out.extend_from_slice(b"\",\"lines\":");
    if chosen_lines.is_empty() {
        out.extend_from_slice(b"[]");
    } else {
        out.extend_from_within(chosen_lines);
    }
    out.extend_from_slice(b",\"raw_faan\":");
    uint(&mut out, best.map_or(0, |b| b.raw_faan).into());
    out.extend_from_slice(b",\"total_faan\":");
    uint(&mut out, best.map_or(0, |b| b.total_faan).into());
    out.extend_from_slice(b",\"limit_hand\":");
    boolean(&mut out, best.is_some_and(|b| b.limit_hand));
    out.extend_from_slice(b",\"limit\":");
    uint(&mut out, ruleset.limit.into());
    out.extend_from_slice(b",\"min_faan\":");
    uint(&mut out, score.min_faan.into());
    out.extend_from_slice(b",\"meets_minimum\":");
    boolean(&mut out, score.meets_minimum);
    out.extend_from_slice(b",\"missing_faan\":");
    uint(&mut out, score.missing_faan.into());
    out.extend_from_slice(b",\"base_points\":");
    uint(&mut out, score.base_points);
    out.extend_from_slice(b",\"winner\":\"");
    out.extend_from_slice(ctx.seat_wind.name().as_bytes());
    out.extend_from_slice(b"\",\"payments\":{");
    for (i, (seat, v)) in ["east", "south", "west", "north"]
        .iter()
        .zip(score.payments)
        .enumerate()
    {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'"');
        out.extend_from_slice(seat.as_bytes());
        out.extend_from_slice(b"\":");
        int(&mut out, v);
    }
    out.push(b'}');
    if let Some(m) = ruleset.money {
        out.extend_from_slice(b",\"money\":");
        // Floats: serde_json's own formatting (ryu), as the schema type gets.
        let _ = serde_json::to_writer(&mut out, &money_dto(m, score.money_cents));
    }
    out.push(b'}');
    out
}

/// Writes one reading; returns where its `lines` array is in `out`.
fn decomposition(
    out: &mut Vec<u8>,
    ruleset: &Ruleset,
    sr: &ScoredReading,
    on_discard: bool,
) -> std::ops::Range<usize> {
    let r = &sr.reading;
    let sets = r.sets();
    out.extend_from_slice(b"{\"form\":\"");
    out.extend_from_slice(r.form.name().as_bytes());
    out.extend_from_slice(b"\",\"sets\":[");
    for (i, s) in sets.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        set_text(out, s);
    }
    out.extend_from_slice(b"],\"pair\":");
    match r.form {
        Form::Standard | Form::ThirteenOrphans => pair_text(out, r.pair),
        Form::SevenPairs | Form::FlowerWin => out.extend_from_slice(b"null"),
    }
    if r.form == Form::SevenPairs {
        out.extend_from_slice(b",\"pairs\":[");
        for (i, &t) in r.pairs.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            pair_text(out, t);
        }
        out.push(b']');
    }
    out.extend_from_slice(b",\"set_details\":[");
    for (i, s) in sets.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"tiles\":");
        set_text(out, s);
        out.extend_from_slice(b",\"kind\":\"");
        out.extend_from_slice(match s.kind {
            SetKind::Chow => b"chow",
            SetKind::Pung => b"pung",
            SetKind::Kong => b"kong",
        });
        out.extend_from_slice(b"\",\"concealed\":");
        boolean(out, s.concealed);
        out.extend_from_slice(b",\"declared\":");
        boolean(out, s.declared);
        out.extend_from_slice(b",\"winning\":");
        boolean(out, r.win == WinPlace::Set(i as u8));
        out.push(b'}');
    }
    out.extend_from_slice(b"],\"winning_in_pair\":");
    boolean(out, r.win == WinPlace::Pair);
    out.extend_from_slice(b",\"lines\":");
    let start = out.len();
    lines(out, ruleset, sr, on_discard);
    let at = start..out.len();
    out.extend_from_slice(b",\"raw_faan\":");
    uint(out, sr.raw_faan.into());
    out.extend_from_slice(b",\"total_faan\":");
    uint(out, sr.total_faan.into());
    out.extend_from_slice(b",\"limit_hand\":");
    boolean(out, sr.limit_hand);
    out.push(b'}');
    at
}

fn lines(out: &mut Vec<u8>, ruleset: &Ruleset, sr: &ScoredReading, on_discard: bool) {
    out.push(b'[');
    for (i, l) in sr.lines.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"pattern\":\"");
        out.extend_from_slice(l.pattern.as_str().as_bytes());
        out.extend_from_slice(b"\",\"name\":");
        let name = match ruleset.pattern(l.pattern) {
            Some(p) => match (&p.name_on_discard, on_discard) {
                (Some(n), true) => n.as_str(),
                _ => p.name.as_str(),
            },
            None => l.pattern.default_name(),
        };
        string(out, name);
        out.extend_from_slice(b",\"faan\":");
        uint(out, l.faan.into());
        out.extend_from_slice(b",\"limit\":");
        boolean(out, l.limit);
        out.push(b'}');
    }
    out.push(b']');
}

fn set_text(out: &mut Vec<u8>, s: &Set) {
    let (buf, len) = s.text_bytes();
    out.push(b'"');
    out.extend_from_slice(&buf[..len]);
    out.push(b'"');
}

/// A tile twice, as a pair: `"55p"`.
fn pair_text(out: &mut Vec<u8>, t: Tile) {
    let n = b'0' + t.number();
    out.extend_from_slice(&[b'"', n, n, t.suit().letter() as u8, b'"']);
}

/// A JSON string: as is when nothing needs escaping (names, ids), else serde_json's escaping.
fn string(out: &mut Vec<u8>, s: &str) {
    // Folded without an early exit, so the check is vectorised.
    let plain = s
        .bytes()
        .fold(true, |ok, b| ok & (b >= 0x20) & (b != b'"') & (b != b'\\'));
    if plain {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

// Each branch copies a constant length (inlined stores); one copy of a
// length chosen at run time is a call to `memcpy`.
fn boolean(out: &mut Vec<u8>, b: bool) {
    if b {
        out.extend_from_slice(b"true");
    } else {
        out.extend_from_slice(b"false");
    }
}

fn uint(out: &mut Vec<u8>, v: u64) {
    if v < 10 {
        out.push(b'0' + v as u8);
    } else if v < 100 {
        out.extend_from_slice(&[b'0' + (v / 10) as u8, b'0' + (v % 10) as u8]);
    } else {
        out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
    }
}

fn int(out: &mut Vec<u8>, v: i64) {
    out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

/// Lowercase hex of a hash, appended.
pub fn hex_into(out: &mut Vec<u8>, h: &KeyHash) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    // Into a fixed buffer, then one copy of known length (64 pushes each
    // checked the capacity and stored the length).
    let mut buf = [0u8; 64];
    for (pair, &b) in buf.chunks_exact_mut(2).zip(h) {
        pair[0] = DIGITS[usize::from(b >> 4)];
        pair[1] = DIGITS[usize::from(b & 15)];
    }
    out.extend_from_slice(&buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::evaluate::{allowances, score_hand};
    use crate::core::hand::validate;
    use crate::core::Registry;
    use crate::http::cache::{hex, key_hash};
    use crate::http::dto::{ScoreRequest, ScoreResponse};

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
                v["ruleset"] = r.id.clone().into();
                let req: ScoreRequest = serde_json::from_value(v).unwrap();
                let mut allow = allowances(r);
                allow.bonus_tiles = true;
                let Ok((hand, ctx)) = validate(&req.hand.to_core(), &req.context.to_core(), allow)
                else {
                    continue;
                };
                let Ok(score) = score_hand(r, &hand, &ctx) else {
                    continue;
                };
                let key = key_hash(r, &Default::default(), &hand, &ctx);
                let serde =
                    serde_json::to_vec(&ScoreResponse::new(&r.id, r, &ctx, &score, hex(&key)))
                        .unwrap();
                let direct = score_json(&r.id, r, &ctx, &score, &key);
                assert_eq!(
                    String::from_utf8(direct).unwrap(),
                    String::from_utf8(serde).unwrap(),
                    "{} {h}",
                    r.id
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

    #[test]
    fn hex_is_lowercase_two_digits_a_byte() {
        let mut h = [0u8; 32];
        h[0] = 0x0f;
        h[31] = 0xa0;
        let mut out = Vec::new();
        hex_into(&mut out, &h);
        assert_eq!(String::from_utf8(out).unwrap(), hex(&h));
        assert!(hex(&h).starts_with("0f00") && hex(&h).ends_with("00a0"));
    }
}
