//! The canonical key of a score request and its SHA-256, `hand_hash`.
//!
//! The key is computed after validation (the core's `Hand` is sorted, so
//! tile order in the request does not matter) and before scoring. Its
//! SHA-256 is the response's `hand_hash` and the cache key: stable across
//! restarts and builds.

use crate::core::hand::{Context, Hand};
use crate::core::tile::{Wind, KINDS};
use crate::core::{HouseRuleFields, HouseRules, PatternOverride, PointsSpec, Ruleset};
use sha2::{Digest, Sha256};
use std::fmt::Write;

/// SHA-256 of a canonical key: a `hand_hash`.
pub type KeyHash = [u8; 32];

/// How the key names the ruleset.
///
/// A built-in ruleset (one the registry holds, asked for by id or sent as
/// a document that resolves to exactly it) is named by its id and version,
/// as before rulesets could be sent: every `hand_hash` already handed out
/// (the README's, clients' stored ones) stays what it was, and the key of a
/// plain request stays one SHA-256 block. Any other ruleset has no id a
/// client cannot reuse for other rules, so it is named by its content,
/// `ruleset_hash`: two identical documents share cache entries, two
/// different ones never do, whatever their ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyBy {
    /// Format `F2`: the ruleset's id and version.
    Id,
    /// Format `F3`: the ruleset's `ruleset_hash`.
    Hash,
}

/// SHA-256 of the canonical key: the cache key and `hand_hash`.
pub fn key_hash(
    ruleset: &Ruleset,
    by: KeyBy,
    house: &HouseRules,
    hand: &Hand,
    ctx: &Context,
) -> KeyHash {
    Sha256::digest(canonical_key(ruleset, by, house, hand, ctx)).into()
}

/// The canonical key of everything that decides a score: the bytes
/// [`key_hash`] hashes, in this layout (version 2; a fixed layout, so two
/// different inputs never give the same key, and short: a plain request's
/// key is one SHA-256 block):
///
/// | bytes | what |
/// |---|---|
/// | 2 | `F2` (the ruleset by id, [`KeyBy::Id`]) or `F3` (by hash, [`KeyBy::Hash`]), the format |
/// | varint + n, varint | `F2`: the ruleset id, then its version |
/// | 32 | `F3`: the ruleset's `ruleset_hash` |
/// | varint + n | the house-rule text (empty without house rules) |
/// | 17 | the 34 concealed counts, two per byte (low nibble first) |
/// | 1 + 2 per meld | the melds in canonical order: tile index, then kind (0 chow, 1 pung, 2 kong) + 4 if concealed + 8 if added |
/// | 1 | the winning tile's index, 255 for none |
/// | 1 | the bonus tiles (bit set, F1 = bit 0 … S4 = bit 7) |
/// | 4 | win_by + 4 x replacement + 16 double_kong + 32 last_tile + 64 heavenly + 128 earthly; seat + 4 x round + 16 flower_win; discarder; liable (wind index, 4 for none) |
/// | 0 or 1 | the optional rules' context: robbed_kong (1 concealed) + 2 last_of_its_kind + 4 x first_replacement + 16 first_go_around; left out when 0 |
///
/// Counts of a validated hand are at most 4, so a nibble holds them. The
/// last byte is appended only when one of its fields is set, so a request
/// that sets none keeps the `hand_hash` it had before they existed; the
/// bytes before it are fixed or length-prefixed, so the key with and without
/// it never collide.
pub fn canonical_key(
    ruleset: &Ruleset,
    by: KeyBy,
    house: &HouseRules,
    hand: &Hand,
    ctx: &Context,
) -> Vec<u8> {
    let mut house_rules = String::new();
    if !house.is_empty() {
        house_text(&mut house_rules, house);
    }
    let mut s = Vec::with_capacity(64 + ruleset.id().len() + house_rules.len());
    match by {
        KeyBy::Id => {
            s.extend_from_slice(b"F2");
            push_varint(&mut s, ruleset.id().len() as u64);
            s.extend_from_slice(ruleset.id().as_bytes());
            push_varint(&mut s, u64::from(ruleset.version()));
        }
        KeyBy::Hash => {
            s.extend_from_slice(b"F3");
            s.extend_from_slice(&ruleset.hash());
        }
    }
    push_varint(&mut s, house_rules.len() as u64);
    s.extend_from_slice(house_rules.as_bytes());
    let c = &hand.concealed_counts;
    s.extend((0..KINDS / 2).map(|i| c[2 * i].min(15) | c[2 * i + 1].min(15) << 4));
    s.push(hand.melds.len() as u8);
    for m in &hand.melds {
        s.extend_from_slice(&[
            m.tile.index() as u8,
            m.kind as u8 | u8::from(m.concealed) << 2 | u8::from(m.added) << 3,
        ]);
    }
    let wind = |w: Option<Wind>| w.map_or(4, |w| w.index() as u8);
    s.extend_from_slice(&[
        hand.winning_tile.map_or(255, |t| t.index() as u8),
        hand.flowers,
        ctx.win_by as u8
            | (ctx.replacement as u8) << 2
            | u8::from(ctx.double_kong) << 4
            | u8::from(ctx.last_tile) << 5
            | u8::from(ctx.heavenly) << 6
            | u8::from(ctx.earthly) << 7,
        ctx.seat_wind.index() as u8
            | (ctx.round_wind.index() as u8) << 2
            | u8::from(ctx.flower_win) << 4,
        wind(ctx.discarder),
        wind(ctx.liable),
    ]);
    let more = ctx.robbed_kong as u8
        | u8::from(ctx.last_of_its_kind) << 1
        | (ctx.first_replacement as u8) << 2
        | u8::from(ctx.first_go_around) << 4;
    if more != 0 {
        s.push(more);
    }
    s
}

/// LEB128: seven bits a byte, low first, the top bit set on all but the last.
fn push_varint(s: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        s.push(n as u8 | 0x80);
        n >>= 7;
    }
    s.push(n as u8);
}

/// The house-rule part of the key (rare: only when a request sets some).
/// The maps (`patterns`, `conditions`, `contains`) are written in the order
/// `house` holds them, which for a request is sorted by key
/// (`api::HouseRulesDto::to_fields`): `{"a": 1, "b": 2}` and `{"b": 2, "a": 1}`
/// are one key. Lists (`exclusive`, a `contains` list) keep their order.
fn house_text(s: &mut String, house: &HouseRules) {
    // Every field by name, none skipped by `..`: a new house rule does not
    // compile until it is in the key (or said here to stay out of it).
    let HouseRuleFields {
        min_faan,
        limit,
        flowers,
        points,
        discard_payment,
        patterns,
        multiple_winners,
        dealer_multiplier,
        stake,
        liable_discard,
        dealer_keeps_on_win,
        dealer_keeps_on_draw,
        co_winners_pay,
        // Out of the key: no score answer depends on it.
        false_win: _,
        conditions,
        contains,
        exclusive,
        limits_add,
        limits_pay,
    } = house.fields();
    let opt = |s: &mut String, name: &str, v: Option<String>| {
        if let Some(v) = v {
            let _ = write!(s, "{name}:{v};");
        }
    };
    opt(s, "min_faan", min_faan.map(|v| v.to_string()));
    opt(s, "limit", limit.map(|v| v.to_string()));
    opt(s, "flowers", flowers.map(|v| v.to_string()));
    opt(
        s,
        "points",
        points.as_ref().map(|p| match p {
            PointsSpec::Table(t) => {
                let mut v = String::from("[");
                for (i, b) in t.iter().enumerate() {
                    let _ = write!(v, "{}{b}", if i == 0 { "" } else { ", " });
                }
                v.push(']');
                v
            }
            other => other.name().to_string(),
        }),
    );
    opt(
        s,
        "discard_payment",
        discard_payment.map(|d| d.name().to_string()),
    );
    opt(
        s,
        "multiple_winners",
        multiple_winners.map(|m| m.name().to_string()),
    );
    opt(
        s,
        "dealer_multiplier",
        dealer_multiplier.map(|n| n.0.to_string()),
    );
    opt(s, "stake", stake.map(|n| n.0.to_string()));
    opt(
        s,
        "liable_discard",
        liable_discard.map(|l| l.name().to_string()),
    );
    opt(
        s,
        "dealer_keeps_on_win",
        dealer_keeps_on_win.map(|v| v.to_string()),
    );
    opt(
        s,
        "dealer_keeps_on_draw",
        dealer_keeps_on_draw.map(|v| v.to_string()),
    );
    opt(s, "co_winners_pay", co_winners_pay.map(|v| v.to_string()));
    for (k, v) in conditions {
        s.push_str("condition:");
        quoted(s, k);
        let _ = write!(s, "={v};");
    }
    for (id, list) in contains {
        s.push_str("contains:");
        quoted(s, id);
        s.push('=');
        quoted_list(s, list);
        s.push(';');
    }
    for pair in exclusive {
        s.push_str("exclusive:");
        quoted_list(s, pair);
        s.push(';');
    }
    opt(s, "limits_add", limits_add.map(|v| v.to_string()));
    opt(s, "limits_pay", limits_pay.map(|v| v.name().to_string()));
    for (id, ov) in patterns {
        let v = match ov {
            PatternOverride::Faan(n) => n.to_string(),
            PatternOverride::Limit => "limit".into(),
            PatternOverride::Off => "off".into(),
        };
        s.push_str("pattern:");
        quoted(s, id);
        let _ = write!(s, "={v};");
    }
}

/// A string of the house rules in the key: in double quotes, each character
/// escaped as `char::escape_debug` does but a single quote (the text the
/// key had when it was made with `{:?}`, written out so that it cannot move
/// with std's `Debug`; ids and keys are plain words, which stay as they are).
fn quoted(s: &mut String, v: &str) {
    s.push('"');
    for c in v.chars() {
        if c == '\'' {
            s.push(c);
        } else {
            s.extend(c.escape_debug());
        }
    }
    s.push('"');
}

/// A list of strings in the key: `["a", "b"]`.
fn quoted_list(s: &mut String, items: &[String]) {
    s.push('[');
    for (i, v) in items.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        quoted(s, v);
    }
    s.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::HashHex;
    use crate::core::hand::{self, ContextSpec, HandSpec, MeldKind, MeldSpec, WinBy};
    use crate::core::{evaluate, Registry, Wind};

    #[test]
    fn house_rules_change_the_key_and_a_plain_key_fits_one_block() {
        let reg = Registry::builtin().unwrap();
        let hands = [
            (
                "123456m789p23455s",
                vec![],
                "9p",
                vec![],
                WinBy::SelfDraw,
                None,
            ),
            (
                "234m567m22p",
                vec![("pung", "777z", false), ("kong", "1111s", true)],
                "2p",
                vec!["F1", "S3"],
                WinBy::Discard,
                Some(Wind::West),
            ),
        ];
        let houses = [
            HouseRules::default(),
            HouseRules::try_from(HouseRuleFields {
                min_faan: Some(0),
                limit: Some(13),
                flowers: Some(true),
                ..HouseRuleFields::default()
            })
            .unwrap(),
        ];
        for id in ["hkma", "wisteria-court", "sc-hk13"] {
            let r = reg.get(id).unwrap();
            for (tiles, melds, win, flowers, win_by, discarder) in &hands {
                let spec = HandSpec {
                    tiles: tiles.to_string(),
                    melds: melds
                        .iter()
                        .map(|(k, t, c)| MeldSpec {
                            kind: if *k == "pung" {
                                MeldKind::Pung
                            } else {
                                MeldKind::Kong
                            },
                            tiles: t.to_string(),
                            concealed: *c,
                            added: false,
                        })
                        .collect(),
                    winning_tile: Some(win.to_string()),
                    flowers: flowers.iter().map(|f| f.to_string()).collect(),
                };
                let mut ctx = ContextSpec::new(*win_by, Wind::South, Wind::East, *discarder);
                ctx.last_tile = true;
                let mut allow = evaluate::allowances(r);
                allow.bonus_tiles = true;
                let (hand, ctx) = hand::validate(&spec, &ctx, allow).expect("valid");
                let keys = houses
                    .each_ref()
                    .map(|house| canonical_key(r, KeyBy::Id, house, &hand, &ctx));
                assert_ne!(keys[0], keys[1], "{id} {tiles}: house rules are in the key");
                assert!(
                    keys[0].len() <= 55,
                    "{id} {tiles}: {} bytes, one SHA-256 block",
                    keys[0].len()
                );
            }
        }
    }

    /// The README's hand, its key worked out byte by byte from the layout.
    #[test]
    fn the_key_of_a_worked_hand() {
        let reg = Registry::builtin().unwrap();
        let r = reg.get("wisteria-court").unwrap();
        let spec = HandSpec {
            tiles: "123456m789p23455s".to_string(),
            melds: vec![],
            winning_tile: Some("9p".to_string()),
            flowers: vec![],
        };
        let ctx = ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, None);
        let (hand, ctx) = hand::validate(&spec, &ctx, evaluate::allowances(r)).expect("valid");
        let mut want = b"F2\x0ewisteria-court\x01\x00".to_vec();
        // Counts by index, two a byte: 1m-6m (0-5), 7p-9p (15-17), 2s-4s (19-21), 5s x2 (22).
        want.extend_from_slice(&[
            0x11, 0x11, 0x11, 0x00, 0x00, 0x00, 0x00, 0x10, 0x11, 0x10, 0x11, 0x02, 0, 0, 0, 0, 0,
        ]);
        // No melds; winning tile 9p (17); no bonus tiles; self-draw, no
        // replacement, no flags; seat south (1), round east (0); no discarder, no liable seat.
        want.extend_from_slice(&[0, 17, 0, 0, 1, 4, 4]);
        let key = canonical_key(r, KeyBy::Id, &HouseRules::default(), &hand, &ctx);
        assert_eq!(key, want, "{key:?}");
        assert_eq!(
            HashHex(key_hash(r, KeyBy::Id, &HouseRules::default(), &hand, &ctx)).to_string(),
            "4e3ace6cdd3b8c65edd07044a10528eb4b4dea9dff1fc12da98dfb71ece69b51",
            "the README's hand_hash"
        );
    }

    /// House rules that set every key of the house-rule text (each kind of
    /// points, pattern override and list), the text and the `hand_hash`
    /// pinned as main computed them before `house_text` was written out
    /// without `Debug`: neither may change.
    #[test]
    fn the_key_of_house_rules_of_every_kind() {
        use crate::core::ruleset::{
            DiscardPayment, LiableDiscard, LimitsPay, MultipleWinners, Number,
        };
        let reg = Registry::builtin().unwrap();
        let r = reg.get("hkma").unwrap();
        let house = HouseRules::try_from(HouseRuleFields {
            min_faan: Some(3),
            limit: Some(13),
            flowers: Some(true),
            points: Some(PointsSpec::Table(vec![
                1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384,
            ])),
            discard_payment: Some(DiscardPayment::DiscarderPaysHalf),
            patterns: vec![
                ("seven_pairs".into(), PatternOverride::Faan(4)),
                ("all_honors".into(), PatternOverride::Limit),
                ("no_flowers".into(), PatternOverride::Off),
            ],
            multiple_winners: Some(MultipleWinners::HeadBump),
            dealer_multiplier: Some(Number(1.5)),
            stake: Some(Number(0.05)),
            liable_discard: Some(LiableDiscard::PaysAll),
            dealer_keeps_on_win: Some(false),
            dealer_keeps_on_draw: Some(true),
            co_winners_pay: Some(true),
            false_win: Some(crate::core::ruleset::FalseWin::Faan(5)),
            conditions: vec![("four_as_two_pairs".into(), true)],
            contains: vec![
                ("seven_pairs".into(), vec![]),
                (
                    "all_chows".into(),
                    vec!["concealed_hand".into(), "self_draw".into()],
                ),
            ],
            exclusive: vec![vec!["all_chows".into(), "concealed_hand".into()]],
            limits_add: Some(true),
            limits_pay: Some(LimitsPay::Once),
        })
        .expect("checked house rules");
        let applied = r.with_house_rules(&house).expect("sensible house rules");
        let mut text = String::new();
        house_text(&mut text, &house);
        assert_eq!(
            text,
            concat!(
                "min_faan:3;limit:13;flowers:true;",
                "points:[1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384];",
                "discard_payment:discarder_pays_half;multiple_winners:head_bump;",
                "dealer_multiplier:1.5;stake:0.05;liable_discard:pays_all;",
                "dealer_keeps_on_win:false;dealer_keeps_on_draw:true;co_winners_pay:true;",
                "condition:\"four_as_two_pairs\"=true;",
                "contains:\"seven_pairs\"=[];",
                "contains:\"all_chows\"=[\"concealed_hand\", \"self_draw\"];",
                "exclusive:[\"all_chows\", \"concealed_hand\"];",
                "limits_add:true;limits_pay:once;",
                "pattern:\"seven_pairs\"=4;pattern:\"all_honors\"=limit;pattern:\"no_flowers\"=off;",
            ),
            "case: the house-rule text");
        let spec = HandSpec {
            tiles: "123456m789p23455s".to_string(),
            melds: vec![],
            winning_tile: Some("9p".to_string()),
            flowers: vec!["F1".to_string()],
        };
        let ctx = ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, None);
        let (hand, ctx) =
            hand::validate(&spec, &ctx, evaluate::allowances(&applied)).expect("valid");
        assert_eq!(
            HashHex(key_hash(r, KeyBy::Id, &house, &hand, &ctx)).to_string(),
            "be850860a2ec33d201809e11a188190daf961bff9d1f6f324c44810fd193c420",
            "case: hand_hash under every kind of house rule"
        );
    }

    /// The explicit quoting writes what `{:?}` wrote for any string (the
    /// keys of `hand_hash`es already handed out), odd characters included.
    #[test]
    fn quoted_strings_are_what_debug_wrote() {
        for v in [
            "seven_pairs",
            "",
            "a\"b",
            "back\\slash",
            "it's",
            "tab\tnew\nline\r",
            "\u{7}bell",
            "七對子",
            "e\u{301}",
            "\u{301}e",
            "\u{200b}zero width",
            "🀄",
        ] {
            let mut s = String::new();
            quoted(&mut s, v);
            assert_eq!(s, format!("{v:?}"), "case: {v:?}");
        }
    }

    /// A ruleset keyed by its hash: `F3` and the 32 bytes of `ruleset_hash`
    /// in place of the id and version, the rest as `F2`; rulesets of other
    /// content never share a key, whatever their ids.
    #[test]
    fn a_ruleset_by_hash_is_keyed_by_its_content() {
        let reg = Registry::builtin().unwrap();
        let r = reg.get("wisteria-court").unwrap();
        let spec = HandSpec {
            tiles: "123456m789p23455s".to_string(),
            melds: vec![],
            winning_tile: Some("9p".to_string()),
            flowers: vec![],
        };
        let ctx = ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, None);
        let (hand, ctx) = hand::validate(&spec, &ctx, evaluate::allowances(r)).expect("valid");
        let house = HouseRules::default();
        let by_id = canonical_key(r, KeyBy::Id, &house, &hand, &ctx);
        let by_hash = canonical_key(r, KeyBy::Hash, &house, &hand, &ctx);
        let mut want = b"F3".to_vec();
        want.extend_from_slice(&r.hash());
        let tail = &by_id[2 + 1 + r.id().len() + 1..];
        want.extend_from_slice(tail);
        assert_eq!(by_hash, want, "case: F3, the hash, then the F2 key's tail");
        // The same rules under another id (a copy of wisteria-court with its id changed).
        let mut doc = r.to_document();
        doc["id"] = "my-table".into();
        let copy = crate::core::Ruleset::from_document(&doc).unwrap();
        assert_ne!(
            canonical_key(&copy, KeyBy::Hash, &house, &hand, &ctx),
            by_hash,
            "case: another id is another ruleset"
        );
        assert_eq!(
            copy.patterns(),
            r.patterns(),
            "case: the copy has the same patterns"
        );
    }

    /// Every value of every context field (one field varied at a time), and
    /// the hands of the whole benchmark corpus: different inputs, different
    /// keys.
    #[test]
    fn different_inputs_never_share_a_key() {
        use crate::core::hand::Replacement;
        let reg = Registry::builtin().unwrap();
        let r = reg.get("hkma").unwrap();
        let house = HouseRules::default();
        let spec = HandSpec {
            tiles: "234m567m22p".to_string(),
            melds: vec![
                MeldSpec {
                    kind: MeldKind::Chow,
                    tiles: "789s".to_string(),
                    concealed: false,
                    added: false,
                },
                MeldSpec {
                    kind: MeldKind::Kong,
                    tiles: "1111s".to_string(),
                    concealed: false,
                    added: true,
                },
            ],
            winning_tile: Some("2p".to_string()),
            flowers: vec![],
        };
        let mut allow = evaluate::allowances(r);
        allow.bonus_tiles = true;
        let base = ContextSpec::new(WinBy::Discard, Wind::South, Wind::East, Some(Wind::West));
        let (hand, _) = hand::validate(&spec, &base, allow).expect("valid");
        let winds = [Wind::East, Wind::South, Wind::West, Wind::North];
        let mut contexts = vec![base];
        for w in [WinBy::SelfDraw, WinBy::Discard, WinBy::RobbingKong] {
            contexts.push(ContextSpec { win_by: w, ..base });
        }
        for w in winds {
            contexts.push(ContextSpec {
                seat_wind: w,
                ..base
            });
            contexts.push(ContextSpec {
                round_wind: w,
                ..base
            });
        }
        for w in winds.map(Some).into_iter().chain([None]) {
            contexts.push(ContextSpec {
                discarder: w,
                ..base
            });
            contexts.push(ContextSpec { liable: w, ..base });
        }
        for rep in [Replacement::None, Replacement::Kong, Replacement::Flower] {
            contexts.push(ContextSpec {
                replacement: rep,
                ..base
            });
        }
        for b in [false, true] {
            contexts.push(ContextSpec {
                double_kong: b,
                ..base
            });
            contexts.push(ContextSpec {
                last_tile: b,
                ..base
            });
            contexts.push(ContextSpec {
                heavenly: b,
                ..base
            });
            contexts.push(ContextSpec { earthly: b, ..base });
            contexts.push(ContextSpec {
                flower_win: b,
                ..base
            });
            contexts.push(ContextSpec {
                last_of_its_kind: b,
                ..base
            });
            contexts.push(ContextSpec {
                first_go_around: b,
                ..base
            });
        }
        contexts.push(ContextSpec {
            robbed_kong: hand::RobbedKong::Concealed,
            ..base
        });
        for rep in [Replacement::Kong, Replacement::Flower] {
            contexts.push(ContextSpec {
                first_replacement: rep,
                ..base
            });
        }
        let distinct: std::collections::HashSet<ContextSpec> = contexts.iter().copied().collect();
        let keys: std::collections::HashSet<Vec<u8>> = contexts
            .iter()
            .map(|ctx| canonical_key(r, KeyBy::Id, &house, &hand, &Context::unchecked(*ctx)))
            .collect();
        assert_eq!(keys.len(), distinct.len(), "one key per context");
        assert!(distinct.len() >= 20, "{} contexts", distinct.len());

        let corpus = include_str!("../../../bench/corpus.jsonl");
        let mut checked = 0;
        let mut seen = std::collections::HashMap::new();
        for line in corpus.lines().filter(|l| !l.is_empty()) {
            let req: crate::api::ScoreRequest = serde_json::from_str(line).unwrap();
            let id = req.ruleset.id().expect("the corpus names ids");
            let r = reg.get(id).unwrap();
            let Ok(house) = crate::api::house_rules(&req.house_rules) else {
                continue;
            };
            let mut allow = evaluate::allowances(r);
            allow.bonus_tiles = true;
            let Ok((hand, ctx)) =
                hand::validate(&req.hand.to_core(), &req.context.to_core(), allow)
            else {
                continue;
            };
            let key = canonical_key(r, KeyBy::Id, &house, &hand, &ctx);
            let input = (id.to_string(), hand, ctx);
            if let Some(other) = seen.insert(key, input.clone()) {
                assert_eq!(other, input, "two inputs share a key: {line}");
            }
            checked += 1;
        }
        assert!(checked >= 2000, "only {checked} corpus hands checked");
        // The corpus repeats some hands under the same ruleset and context.
        assert!(seen.len() >= 2000, "{} distinct keys", seen.len());
    }
}
