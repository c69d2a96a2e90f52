//! A fast reader for the common shape of a `POST /v1/score` body.
//!
//! serde's derived reader was the largest cost of a cache miss (more than
//! scoring the hand). This reads the plain case only: the known fields, in
//! any order, once each; strings of printable ASCII without escapes;
//! `true`, `false`, `null` where the schema allows them; no `house_rules`.
//! Anything else (an escape, a number, an unknown or repeated field, a
//! missing required field, trailing bytes, non-ASCII text) returns `None`
//! and the caller parses with serde, which gives the same value or the
//! error with its pointer. So this never decides an error: where it answers,
//! serde would have answered the same (a test compares them on every
//! corpus, fixture and bad-input body and on thousands of mutations).
//!
//! It reads straight into the core's [`HandSpec`] and [`ContextSpec`], its
//! strings borrowed from the body: no `String` is made for a plain request.

use super::dto::ScoreRequest;
use crate::core::hand::{ContextSpec, HandSpec, MeldKind, MeldSpec, Replacement, WinBy};
use crate::core::Wind;

/// The deepest nesting a body this reader accepts can have (body, hand, melds, meld).
pub const DEPTH: usize = 4;

/// A plain score request (no house rules), its strings borrowed from the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuickRequest<'a> {
    pub ruleset: &'a str,
    pub hand: HandSpec<&'a str>,
    pub context: ContextSpec,
}

impl QuickRequest<'_> {
    /// The request with owned strings, in the terms of [`core_parts`].
    pub fn to_owned_parts(&self) -> (String, HandSpec, ContextSpec) {
        (
            self.ruleset.to_owned(),
            self.hand.to_owned_spec(),
            self.context,
        )
    }
}

/// A request read by serde, in the fast reader's terms; `None` when it has
/// house rules (which the fast reader never reads). For comparing the two.
pub fn core_parts(r: &ScoreRequest) -> Option<(String, HandSpec, ContextSpec)> {
    r.house_rules
        .is_none()
        .then(|| (r.ruleset.clone(), r.hand.to_core(), r.context.to_core()))
}

/// The request, when the body has the plain shape; `None` to let serde read it.
pub fn score_request(bytes: &[u8]) -> Option<QuickRequest<'_>> {
    // UTF-8 checked once for the whole body (one pass with an ASCII fast
    // path); strings are then slices of it.
    let text = std::str::from_utf8(bytes).ok()?;
    let mut r = Reader {
        s: text,
        b: bytes,
        i: 0,
    };
    let (mut ruleset, mut hand, mut context) = (None, None, None);
    r.object(|r, key| match key {
        b"ruleset" if ruleset.is_none() => {
            ruleset = Some(r.string()?);
            Some(())
        }
        b"hand" if hand.is_none() => {
            hand = Some(r.hand()?);
            Some(())
        }
        b"context" if context.is_none() => {
            context = Some(r.context()?);
            Some(())
        }
        _ => None,
    })?;
    r.ws();
    if r.i != bytes.len() {
        return None;
    }
    Some(QuickRequest {
        ruleset: ruleset?,
        hand: hand?,
        context: context?,
    })
}

struct Reader<'a> {
    /// The body as text, and as bytes.
    s: &'a str,
    b: &'a [u8],
    i: usize,
}

/// Eight copies of a byte.
const fn splat(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

/// Of eight bytes (little-endian), a mask with the high bit set in the
/// first byte that ends a plain string (`"`, `\`, a control or non-ASCII
/// byte) and possibly in bytes after it; 0 when none does.
fn string_stops(w: u64) -> u64 {
    const LO: u64 = splat(0x01);
    const HI: u64 = splat(0x80);
    let zero = |x: u64| x.wrapping_sub(LO) & !x & HI;
    let quote = zero(w ^ splat(b'"'));
    let backslash = zero(w ^ splat(b'\\'));
    let control = w.wrapping_sub(splat(0x20)) & !w & HI;
    quote | backslash | control | (w & HI)
}

impl<'a> Reader<'a> {
    /// Skips JSON whitespace.
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    /// Skips whitespace and takes `c`.
    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    /// Whether the next token is `c` (after whitespace); takes it if so.
    fn next_is(&mut self, c: u8) -> bool {
        self.eat(c).is_some()
    }

    /// A string of printable ASCII without escapes.
    #[inline(always)]
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        let mut end = start;
        // Eight bytes at a time while eight remain, then one at a time.
        loop {
            match self.b.get(end..end + 8) {
                Some(chunk) => {
                    let w = u64::from_le_bytes(chunk.try_into().ok()?);
                    let stops = string_stops(w);
                    if stops != 0 {
                        end += (stops.trailing_zeros() / 8) as usize;
                        break;
                    }
                    end += 8;
                }
                None => {
                    while let Some(&b) = self.b.get(end) {
                        if matches!(b, b'"' | b'\\' | 0..=0x1f | 0x80..) {
                            break;
                        }
                        end += 1;
                    }
                    break;
                }
            }
        }
        if self.b.get(end) != Some(&b'"') {
            return None;
        }
        self.i = end + 1;
        // Between two ASCII quotes: character boundaries.
        self.s.get(start..end)
    }

    /// A literal word (`true`, `false`, `null`).
    fn word(&mut self, w: &[u8]) -> bool {
        self.ws();
        let hit = self.b[self.i..].starts_with(w)
            && !matches!(self.b.get(self.i + w.len()), Some(c) if c.is_ascii_alphanumeric());
        if hit {
            self.i += w.len();
        }
        hit
    }

    fn boolean(&mut self) -> Option<bool> {
        if self.word(b"true") {
            Some(true)
        } else if self.word(b"false") {
            Some(false)
        } else {
            None
        }
    }

    /// An object: `field` reads each value after its key (and refuses keys it does not know).
    fn object(&mut self, mut field: impl FnMut(&mut Self, &'a [u8]) -> Option<()>) -> Option<()> {
        self.eat(b'{')?;
        if self.next_is(b'}') {
            return Some(());
        }
        loop {
            let key = self.string()?.as_bytes();
            self.eat(b':')?;
            field(self, key)?;
            if self.next_is(b',') {
                continue;
            }
            return self.eat(b'}');
        }
    }

    /// An array: `item` reads each element.
    fn array(&mut self, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.eat(b'[')?;
        if self.next_is(b']') {
            return Some(());
        }
        loop {
            item(self)?;
            if self.next_is(b',') {
                continue;
            }
            return self.eat(b']');
        }
    }

    fn hand(&mut self) -> Option<HandSpec<&'a str>> {
        let (mut tiles, mut melds, mut winning, mut flowers) = (None, None, None, None);
        self.object(|r, key| {
            match key {
                b"tiles" if tiles.is_none() => tiles = Some(r.string()?),
                b"melds" if melds.is_none() => {
                    let mut v = Vec::new();
                    r.array(|r| {
                        v.push(r.meld()?);
                        Some(())
                    })?;
                    melds = Some(v);
                }
                b"winning_tile" if winning.is_none() => {
                    winning = Some(if r.word(b"null") {
                        None
                    } else {
                        Some(r.string()?)
                    })
                }
                b"flowers" if flowers.is_none() => {
                    let mut v = Vec::new();
                    r.array(|r| {
                        v.push(r.string()?);
                        Some(())
                    })?;
                    flowers = Some(v);
                }
                _ => return None,
            }
            Some(())
        })?;
        Some(HandSpec {
            tiles: tiles?,
            melds: melds.unwrap_or_default(),
            winning_tile: winning.flatten(),
            flowers: flowers.unwrap_or_default(),
        })
    }

    fn meld(&mut self) -> Option<MeldSpec<&'a str>> {
        let (mut kind, mut tiles, mut concealed, mut added) = (None, None, None, None);
        self.object(|r, key| {
            match key {
                b"kind" if kind.is_none() => {
                    kind = Some(match r.string()? {
                        "chow" => MeldKind::Chow,
                        "pung" => MeldKind::Pung,
                        "kong" => MeldKind::Kong,
                        _ => return None,
                    })
                }
                b"tiles" if tiles.is_none() => tiles = Some(r.string()?),
                b"concealed" if concealed.is_none() => concealed = Some(r.boolean()?),
                b"added" if added.is_none() => added = Some(r.boolean()?),
                _ => return None,
            }
            Some(())
        })?;
        Some(MeldSpec {
            kind: kind?,
            tiles: tiles?,
            concealed: concealed.unwrap_or(false),
            added: added.unwrap_or(false),
        })
    }

    fn wind(&mut self) -> Option<Wind> {
        Some(match self.string()? {
            "east" => Wind::East,
            "south" => Wind::South,
            "west" => Wind::West,
            "north" => Wind::North,
            _ => return None,
        })
    }

    /// A seat or `null`.
    fn seat(&mut self) -> Option<Option<Wind>> {
        if self.word(b"null") {
            Some(None)
        } else {
            self.wind().map(Some)
        }
    }

    fn context(&mut self) -> Option<ContextSpec> {
        let (mut win_by, mut seat, mut round, mut discarder, mut replacement) =
            (None, None, None, None, None);
        let mut flags: [Option<bool>; 5] = [None; 5];
        let mut liable = None;
        self.object(|r, key| {
            let flag = |name: &[u8]| {
                [
                    &b"double_kong"[..],
                    b"last_tile",
                    b"heavenly",
                    b"earthly",
                    b"flower_win",
                ]
                .iter()
                .position(|f| *f == name)
            };
            match key {
                b"win_by" if win_by.is_none() => {
                    win_by = Some(match r.string()? {
                        "self_draw" => WinBy::SelfDraw,
                        "discard" => WinBy::Discard,
                        "robbing_kong" => WinBy::RobbingKong,
                        _ => return None,
                    })
                }
                b"seat_wind" if seat.is_none() => seat = Some(r.wind()?),
                b"round_wind" if round.is_none() => round = Some(r.wind()?),
                b"discarder" if discarder.is_none() => discarder = Some(r.seat()?),
                b"liable" if liable.is_none() => liable = Some(r.seat()?),
                b"replacement" if replacement.is_none() => {
                    replacement = Some(match r.string()? {
                        "none" => Replacement::None,
                        "kong" => Replacement::Kong,
                        "flower" => Replacement::Flower,
                        _ => return None,
                    })
                }
                k => match flag(k) {
                    Some(i) if flags[i].is_none() => flags[i] = Some(r.boolean()?),
                    _ => return None,
                },
            }
            Some(())
        })?;
        let [double_kong, last_tile, heavenly, earthly, flower_win] =
            flags.map(|f| f.unwrap_or(false));
        Some(ContextSpec {
            win_by: win_by?,
            seat_wind: seat?,
            round_wind: round?,
            discarder: discarder.flatten(),
            replacement: replacement.unwrap_or_default(),
            double_kong,
            last_tile,
            heavenly,
            earthly,
            liable: liable.flatten(),
            flower_win,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Parts = (String, HandSpec, ContextSpec);

    /// What serde makes of the body, in core terms (`None` with house rules).
    fn serde(bytes: &[u8]) -> Option<Parts> {
        serde_json::from_slice::<ScoreRequest>(bytes)
            .ok()
            .and_then(|r| core_parts(&r))
    }

    fn quick(bytes: &[u8]) -> Option<Parts> {
        score_request(bytes).map(|r| r.to_owned_parts())
    }

    /// Where the fast reader answers, serde answers the same; it answers the plain bodies.
    #[test]
    fn answers_as_serde_does_or_not_at_all() {
        let plain: &[&str] = &[
            r#"{"ruleset":"hkma","hand":{"tiles":"123456m789p23455s","winning_tile":"9p"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}"#,
            r#" { "context" : { "round_wind" : "east" , "seat_wind" : "south" , "win_by" : "discard" , "discarder" : "west" , "last_tile" : true } , "hand" : { "flowers" : [ "F1" , "S2" ] , "melds" : [ { "kind" : "kong" , "tiles" : "1111s" , "concealed" : true } , { "added" : false , "tiles" : "777z" , "kind" : "pung" } ] , "tiles" : "234m22p" , "winning_tile" : "2p" } , "ruleset" : "wisteria-court" }
"#,
            r#"{"ruleset":"hkma","hand":{"tiles":"11122233344455m","melds":[],"flowers":[],"winning_tile":null},"context":{"win_by":"robbing_kong","seat_wind":"north","round_wind":"west","discarder":"east","liable":null,"replacement":"none","double_kong":false,"heavenly":false,"earthly":false,"flower_win":false}}"#,
        ];
        for body in plain {
            let q = quick(body.as_bytes());
            assert!(q.is_some(), "plain body not read: {body}");
            assert_eq!(q, serde(body.as_bytes()), "{body}");
        }
        let declined: &[&str] = &[
            r#"{"ruleset":"hk\u006da","hand":{"tiles":"1m","winning_tile":"1m"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}"#,
            r#"{"ruleset":"hkma","ruleset":"hkma","hand":{"tiles":"1m"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}"#,
            r#"{"ruleset":"hkma","hand":{"tiles":"1m"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"},"house_rules":null}"#,
            r#"{"ruleset":"hkma","hand":{"tiles":"1m"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}} x"#,
            r#"{"ruleset":"hkma","hand":{"tiles":"1m","melds":null},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}"#,
            r#"{"ruleset":"hkma","hand":{"tiles":"1m"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east","last_tile":1}}"#,
            r#"{"ruleset":"hkma","hand":{"tiles":"1m"},"context":{"win_by":"self_draw","seat_wind":"south"}}"#,
            r#"{"ruleset":"hkma","hand":{"tiles":"1m"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east","extra":true}}"#,
            r#"{"ruleset":"中","hand":{"tiles":"1m"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}"#,
            r#"{"ruleset":"hkma","hand":{"tiles":"1m"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east","heavenly":truex}}"#,
            r#"[]"#,
            r#"{"ruleset":"hkma","hand":["1m"],"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}"#,
        ];
        for body in declined {
            assert_eq!(
                quick(body.as_bytes()),
                None,
                "should leave to serde: {body}"
            );
        }
    }

    /// The eight-at-a-time string scan stops where the byte-at-a-time
    /// definition does: every stop byte at every position of strings of 0
    /// to 24 bytes, with and without a closing quote.
    #[test]
    fn strings_end_where_the_definition_says() {
        let plain = |b: u8| !matches!(b, b'"' | b'\\' | 0..=0x1f | 0x80..);
        for len in 0..25usize {
            for stop in [b'"', b'\\', 0x00, 0x1f, 0x7f, 0x80, 0xff, b' ', b'~'] {
                for at in 0..=len {
                    let mut body = vec![b'"'];
                    body.extend(
                        (0..len).map(|k| if k == at { stop } else { b'a' + (k % 26) as u8 }),
                    );
                    body.push(b'"');
                    let expected = body[1..]
                        .iter()
                        .position(|&b| !plain(b))
                        .filter(|&p| body[1 + p] == b'"')
                        .map(|p| std::str::from_utf8(&body[1..1 + p]).unwrap().to_string());
                    let Ok(text) = std::str::from_utf8(&body) else {
                        assert_eq!(expected, None, "{body:?}");
                        continue;
                    };
                    let mut r = Reader {
                        s: text,
                        b: &body,
                        i: 0,
                    };
                    let got = r.string().map(str::to_string);
                    assert_eq!(got, expected, "{:?}", String::from_utf8_lossy(&body));
                    if let Some(s) = got {
                        assert_eq!(r.i, s.len() + 2, "{:?}", String::from_utf8_lossy(&body));
                    }
                }
            }
        }
    }

    /// Every corpus body, then 20,000 byte mutations of them: never an
    /// answer serde would not give.
    #[test]
    fn mutations_never_disagree_with_serde() {
        let corpus = include_str!("../../bench/corpus.jsonl");
        let bodies: Vec<&str> = corpus.lines().filter(|l| !l.is_empty()).collect();
        for b in &bodies {
            assert_eq!(quick(b.as_bytes()), serde(b.as_bytes()), "{b}");
        }
        let alphabet = b" \t\n{}[]:,\"\\0123456789tfnulxe-.ab";
        let mut next = crate::core::tile::xorshift(0x9e37_79b9_7f4a_7c15);
        let (mut read, mut declined) = (0, 0);
        for k in 0..20_000 {
            let mut b = bodies[k % bodies.len()].as_bytes().to_vec();
            for _ in 0..1 + next() % 3 {
                let at = (next() % b.len() as u64) as usize;
                let c = alphabet[(next() % alphabet.len() as u64) as usize];
                match next() % 3 {
                    0 => b[at] = c,
                    1 => b.insert(at, c),
                    _ => {
                        b.remove(at);
                    }
                }
                if b.is_empty() {
                    b.push(b'{');
                }
            }
            let q = quick(&b);
            if q.is_some() {
                read += 1;
                assert_eq!(q, serde(&b), "{}", String::from_utf8_lossy(&b));
            } else {
                declined += 1;
            }
        }
        assert!(
            read > 1_000 && declined > 1_000,
            "read {read}, declined {declined}"
        );
    }
}
