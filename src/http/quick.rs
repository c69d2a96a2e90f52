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

use super::dto::{
    ContextDto, HandDto, MeldDto, MeldKindDto, ReplacementDto, ScoreRequest, WinByDto, WindDto,
};

/// The deepest nesting a body this reader accepts can have (body, hand, melds, meld).
pub const DEPTH: usize = 4;

/// The request, when the body has the plain shape; `None` to let serde read it.
pub fn score_request(bytes: &[u8]) -> Option<ScoreRequest> {
    // UTF-8 checked once for the whole body; strings are then slices of it.
    let text = std::str::from_utf8(bytes).ok()?;
    let mut r = Reader {
        s: text,
        b: bytes,
        i: 0,
    };
    let (mut ruleset, mut hand, mut context) = (None, None, None);
    r.object(|r, key| match key {
        b"ruleset" if ruleset.is_none() => {
            ruleset = Some(r.string()?.to_string());
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
    Some(ScoreRequest {
        ruleset: ruleset?,
        hand: hand?,
        context: context?,
        house_rules: None,
    })
}

struct Reader<'a> {
    /// The body as text, and as bytes.
    s: &'a str,
    b: &'a [u8],
    i: usize,
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
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        loop {
            match *self.b.get(self.i)? {
                b'"' => break,
                b'\\' | 0..=0x1f | 0x80.. => return None,
                _ => self.i += 1,
            }
        }
        // Between two ASCII quotes: character boundaries.
        let s = self.s.get(start..self.i)?;
        self.i += 1;
        Some(s)
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

    fn hand(&mut self) -> Option<HandDto> {
        let (mut tiles, mut melds, mut winning, mut flowers) = (None, None, None, None);
        self.object(|r, key| {
            match key {
                b"tiles" if tiles.is_none() => tiles = Some(r.string()?.to_string()),
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
                        Some(r.string()?.to_string())
                    })
                }
                b"flowers" if flowers.is_none() => {
                    let mut v = Vec::new();
                    r.array(|r| {
                        v.push(r.string()?.to_string());
                        Some(())
                    })?;
                    flowers = Some(v);
                }
                _ => return None,
            }
            Some(())
        })?;
        Some(HandDto {
            tiles: tiles?,
            melds: melds.unwrap_or_default(),
            winning_tile: winning.flatten(),
            flowers: flowers.unwrap_or_default(),
        })
    }

    fn meld(&mut self) -> Option<MeldDto> {
        let (mut kind, mut tiles, mut concealed, mut added) = (None, None, None, None);
        self.object(|r, key| {
            match key {
                b"kind" if kind.is_none() => {
                    kind = Some(match r.string()? {
                        "chow" => MeldKindDto::Chow,
                        "pung" => MeldKindDto::Pung,
                        "kong" => MeldKindDto::Kong,
                        _ => return None,
                    })
                }
                b"tiles" if tiles.is_none() => tiles = Some(r.string()?.to_string()),
                b"concealed" if concealed.is_none() => concealed = Some(r.boolean()?),
                b"added" if added.is_none() => added = Some(r.boolean()?),
                _ => return None,
            }
            Some(())
        })?;
        Some(MeldDto {
            kind: kind?,
            tiles: tiles?,
            concealed: concealed.unwrap_or(false),
            added: added.unwrap_or(false),
        })
    }

    fn wind(&mut self) -> Option<WindDto> {
        Some(match self.string()? {
            "east" => WindDto::East,
            "south" => WindDto::South,
            "west" => WindDto::West,
            "north" => WindDto::North,
            _ => return None,
        })
    }

    /// A seat or `null`.
    fn seat(&mut self) -> Option<Option<WindDto>> {
        if self.word(b"null") {
            Some(None)
        } else {
            self.wind().map(Some)
        }
    }

    fn context(&mut self) -> Option<ContextDto> {
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
                        "self_draw" => WinByDto::SelfDraw,
                        "discard" => WinByDto::Discard,
                        "robbing_kong" => WinByDto::RobbingKong,
                        _ => return None,
                    })
                }
                b"seat_wind" if seat.is_none() => seat = Some(r.wind()?),
                b"round_wind" if round.is_none() => round = Some(r.wind()?),
                b"discarder" if discarder.is_none() => discarder = Some(r.seat()?),
                b"liable" if liable.is_none() => liable = Some(r.seat()?),
                b"replacement" if replacement.is_none() => {
                    replacement = Some(match r.string()? {
                        "none" => ReplacementDto::None,
                        "kong" => ReplacementDto::Kong,
                        "flower" => ReplacementDto::Flower,
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
        Some(ContextDto {
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

    /// What serde makes of the body, as text (the DTOs have no `PartialEq`).
    fn serde(bytes: &[u8]) -> Option<String> {
        serde_json::from_slice::<ScoreRequest>(bytes)
            .ok()
            .map(|r| format!("{r:?}"))
    }

    fn quick(bytes: &[u8]) -> Option<String> {
        score_request(bytes).map(|r| format!("{r:?}"))
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
