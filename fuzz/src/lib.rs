//! The fuzz targets' bodies, shared by the libFuzzer binaries
//! (`fuzz_targets/*.rs`) and the plain replayer (`src/replay.rs`).
//!
//! Both must hold for every input: nothing panics, and every successful
//! score keeps the contract's invariants (`docs/api.md`): the
//! chosen reading exists, payments sum to zero, a hand below the minimum
//! pays nothing.

use arbitrary::{Arbitrary, Unstructured};
use faan::core::evaluate::score;
use faan::core::tile::{format_tiles, parse_tiles, Tile, KINDS};
use faan::core::waits::{waits, WaitContext};
use faan::core::{
    ContextSpec, DiscardPayment, HandSpec, HouseRuleFields, HouseRules, MeldKind, MeldSpec, PatternOverride,
    PointsSpec, Registry, Replacement, RobbedKong, Ruleset, Score, WinBy, Wind,
};
use std::sync::OnceLock;

fn registry() -> &'static Registry {
    static R: OnceLock<Registry> = OnceLock::new();
    R.get_or_init(|| Registry::builtin().expect("built-in rulesets"))
}

/// The contract's invariants of a successful score.
fn check_score(s: &Score, what: &str) {
    assert!(
        s.chosen < s.readings.len(),
        "{what}: chosen {} of {} readings",
        s.chosen,
        s.readings.len()
    );
    let sum: i128 = s.payments.iter().map(|&p| i128::from(p)).sum();
    assert_eq!(
        sum, 0,
        "{what}: payments {:?} do not sum to zero",
        s.payments
    );
    if !s.meets_minimum {
        assert_eq!(s.payments, [0; 4], "{what}: below the minimum but pays");
    }
}

/// `mpsz`: arbitrary text as MPSZ, alone and in every tile field of a request.
pub fn mpsz(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(tiles) = parse_tiles(&text) {
        // What parses formats back to text that parses to the same tiles
        // (any length: regressions/mpsz/format-roundtrip-36-man-tiles).
        let again = parse_tiles(&format_tiles(&tiles))
            .unwrap_or_else(|e| panic!("format_tiles({tiles:?}) does not parse: {e}"));
        assert_eq!(again, tiles, "format/parse round trip of {text:?}");
    }
    // Split the text into fields: tiles | winning tile | meld tiles...
    let mut parts = text.split('|');
    let tiles = parts.next().unwrap_or("").to_string();
    let winning = parts.next().map(str::to_string);
    let kinds = [MeldKind::Chow, MeldKind::Pung, MeldKind::Kong];
    let melds: Vec<MeldSpec> = parts
        .take(6)
        .enumerate()
        .map(|(i, t)| MeldSpec {
            kind: kinds[(i + t.len()) % 3],
            tiles: t.to_string(),
            concealed: t.len() % 2 == 0,
            added: false,
        })
        .collect();
    let hand = HandSpec {
        tiles,
        melds,
        winning_tile: winning,
        flowers: vec![],
    };
    let ctx = ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, None);
    for r in registry().all() {
        if let Ok(s) = score(r, &hand, &ctx) {
            check_score(&s, &r.id);
        }
    }
}

/// A request built from fuzz bytes: mostly well-formed tile text so that
/// validation passes and the decomposer, patterns and settlement run.
#[derive(Debug)]
pub struct Request {
    pub hand: HandSpec,
    pub context: ContextSpec,
    /// As sent: checked (`HouseRules::try_from`) by each target.
    pub house: HouseRuleFields,
    pub wait_hand: HandSpec,
}

fn tile_text(ts: &[Tile]) -> String {
    format_tiles(ts)
}

fn tile(u: &mut Unstructured) -> arbitrary::Result<Tile> {
    Ok(Tile::from_index(usize::from(u8::arbitrary(u)?) % KINDS).expect("< KINDS"))
}

fn wind(u: &mut Unstructured) -> arbitrary::Result<Wind> {
    Ok(Wind::ALL[usize::from(u8::arbitrary(u)? % 4)])
}

fn opt_wind(u: &mut Unstructured) -> arbitrary::Result<Option<Wind>> {
    Ok(if bool::arbitrary(u)? {
        Some(wind(u)?)
    } else {
        None
    })
}

/// Tiles of a set starting at `t` (a chow may run across suits: validation must say no).
fn set_tiles(kind: MeldKind, t: Tile) -> Vec<Tile> {
    let n = match kind {
        MeldKind::Chow => {
            return (0..3)
                .map(|k| Tile::from_index((t.index() + k) % KINDS).expect("< KINDS"))
                .collect()
        }
        MeldKind::Pung => 3,
        MeldKind::Kong => 4,
    };
    vec![t; n]
}

fn request(u: &mut Unstructured) -> arbitrary::Result<Request> {
    let kinds = [MeldKind::Chow, MeldKind::Pung, MeldKind::Kong];
    // Melds: 0..=5, sometimes with raw text.
    let n_melds = usize::from(u8::arbitrary(u)? % 6);
    let mut melds = Vec::with_capacity(n_melds);
    for _ in 0..n_melds {
        let kind = kinds[usize::from(u8::arbitrary(u)? % 3)];
        let flags = u8::arbitrary(u)?;
        let tiles = if flags & 0x80 != 0 {
            String::arbitrary(u)?
        } else {
            let t = tile(u)?;
            // A wrong kind now and then (a pung's tiles as a kong...).
            let k = if flags & 0x40 != 0 {
                kinds[usize::from(flags % 3)]
            } else {
                kind
            };
            tile_text(&set_tiles(k, t))
        };
        melds.push(MeldSpec {
            kind,
            tiles,
            concealed: flags & 1 != 0,
            added: flags & 2 != 0,
        });
    }
    // Concealed tiles: whole sets and a pair, or a loose list.
    let mut concealed: Vec<Tile> = Vec::new();
    let shape = u8::arbitrary(u)?;
    if shape % 4 != 0 {
        for _ in 0..4usize.saturating_sub(melds.len()) {
            let kind = kinds[usize::from(u8::arbitrary(u)? % 2)];
            concealed.extend(set_tiles(kind, tile(u)?));
        }
        let p = tile(u)?;
        concealed.extend([p, p]);
    } else {
        let n = usize::from(u8::arbitrary(u)? % 20);
        for _ in 0..n {
            concealed.push(tile(u)?);
        }
    }
    // Drop or add a tile now and then.
    if shape & 0x10 != 0 && !concealed.is_empty() {
        let i = usize::from(u8::arbitrary(u)?) % concealed.len();
        concealed.remove(i);
    }
    if shape & 0x20 != 0 {
        concealed.push(tile(u)?);
    }
    if shape & 0x40 != 0 {
        u.arbitrary::<u8>()?; // shuffle seed: reverse order
        concealed.reverse();
    }
    concealed.truncate(24);
    let winning_tile = match u8::arbitrary(u)? % 8 {
        0 => None,
        1 => Some(String::arbitrary(u)?),
        2 => Some(tile(u)?.to_string()),
        _ if !concealed.is_empty() => {
            let i = usize::from(u8::arbitrary(u)?) % concealed.len();
            Some(concealed[i].to_string())
        }
        _ => Some(tile(u)?.to_string()),
    };
    let mut flowers = Vec::new();
    let nf = u8::arbitrary(u)? % 10;
    for _ in 0..nf {
        let b = u8::arbitrary(u)?;
        flowers.push(match b % 10 {
            0..=3 => format!("F{}", b % 4 + 1),
            4..=7 => format!("S{}", b % 4 + 1),
            8 => String::arbitrary(u)?,
            _ => format!("F{}", b / 10),
        });
    }
    let tiles = if u8::arbitrary(u)? == 0xff {
        String::arbitrary(u)?
    } else {
        tile_text(&concealed)
    };
    let hand = HandSpec {
        tiles,
        melds,
        winning_tile,
        flowers,
    };
    let win_by =
        [WinBy::SelfDraw, WinBy::Discard, WinBy::RobbingKong][usize::from(u8::arbitrary(u)? % 3)];
    let context = ContextSpec {
        win_by,
        seat_wind: wind(u)?,
        round_wind: wind(u)?,
        discarder: opt_wind(u)?,
        replacement: [Replacement::None, Replacement::Kong, Replacement::Flower]
            [usize::from(u8::arbitrary(u)? % 3)],
        double_kong: bool::arbitrary(u)?,
        last_tile: bool::arbitrary(u)?,
        heavenly: bool::arbitrary(u)?,
        earthly: bool::arbitrary(u)?,
        liable: opt_wind(u)?,
        flower_win: bool::arbitrary(u)?,
        robbed_kong: if bool::arbitrary(u)? {
            RobbedKong::Concealed
        } else {
            RobbedKong::Added
        },
        last_of_its_kind: bool::arbitrary(u)?,
        first_replacement: [Replacement::None, Replacement::Kong, Replacement::Flower]
            [usize::from(u8::arbitrary(u)? % 3)],
        first_go_around: bool::arbitrary(u)?,
    };
    let mut house = HouseRuleFields::default();
    if bool::arbitrary(u)? {
        let f = u8::arbitrary(u)?;
        if f & 1 != 0 {
            house.min_faan = Some(u32::from(u8::arbitrary(u)?));
        }
        if f & 2 != 0 {
            house.limit = Some(u32::from(u8::arbitrary(u)?));
        }
        if f & 4 != 0 {
            house.flowers = Some(bool::arbitrary(u)?);
        }
        if f & 8 != 0 {
            house.points = Some(match u8::arbitrary(u)? % 3 {
                0 => PointsSpec::FullSpicy,
                1 => PointsSpec::HalfSpicy,
                _ => PointsSpec::Table(Vec::<u64>::arbitrary(u)?.into_iter().take(80).collect()),
            });
        }
        if f & 16 != 0 {
            house.discard_payment = Some(
                [
                    DiscardPayment::DiscarderPaysAll,
                    DiscardPayment::DiscarderPaysHalf,
                    DiscardPayment::DiscarderPaysDouble,
                ][usize::from(u8::arbitrary(u)? % 3)],
            );
        }
        if f & 32 != 0 {
            let ids = faan::core::PatternId::ALL;
            for _ in 0..u8::arbitrary(u)? % 6 {
                let key = if bool::arbitrary(u)? {
                    ids[usize::from(u8::arbitrary(u)?) % ids.len()]
                        .as_str()
                        .to_string()
                } else {
                    String::arbitrary(u)?
                };
                let ov = match u8::arbitrary(u)? % 3 {
                    0 => PatternOverride::Off,
                    1 => PatternOverride::Limit,
                    _ => PatternOverride::Faan(i64::arbitrary(u)?),
                };
                house.patterns.push((key, ov));
            }
        }
    }
    // The waiting form: the same tiles less the winning one, no winning tile.
    let mut wait_tiles = concealed;
    if let Some(w) = hand
        .winning_tile
        .as_deref()
        .and_then(|w| w.parse::<Tile>().ok())
    {
        if let Some(i) = wait_tiles.iter().position(|&t| t == w) {
            wait_tiles.remove(i);
        }
    }
    let wait_hand = HandSpec {
        tiles: tile_text(&wait_tiles),
        winning_tile: None,
        ..hand.clone()
    };
    Ok(Request {
        hand,
        context,
        house,
        wait_hand,
    })
}

/// Decodes fuzz bytes into a request (for the replayer's messages).
pub fn decode(data: &[u8]) -> Option<Request> {
    request(&mut Unstructured::new(data)).ok()
}

/// `score_core`: a structured request under every ruleset, plain and with
/// its house rules, and its waiting form through `waits`.
pub fn score_core(data: &[u8]) {
    let Some(req) = decode(data) else { return };
    let wc = WaitContext {
        seat_wind: req.context.seat_wind,
        round_wind: req.context.round_wind,
        last_tile: req.context.last_tile,
    };
    for base in registry().all() {
        // The pipeline's stages: house rules checked, applied, then scored.
        let with_house = match HouseRules::try_from(req.house.clone()) {
            Ok(h) if !h.is_empty() => base.with_house_rules(&h).ok(),
            _ => None,
        };
        let plain: &Ruleset = base;
        for r in std::iter::once(plain).chain(with_house.as_ref()) {
            let what = if std::ptr::eq(r, plain) {
                ""
            } else {
                " with house rules"
            };
            if let Ok(s) = score(r, &req.hand, &req.context) {
                check_score(&s, &format!("{}{what}", r.id));
            }
            if let Ok(ws) = waits(r, &req.wait_hand, &wc) {
                for w in &ws {
                    for s in w.discard.iter().chain(&w.self_draw) {
                        check_score(s, &format!("{}{what} wait on {}", r.id, w.tile));
                    }
                }
            }
        }
    }
}

/// `score_json`: arbitrary bytes as a `POST /v1/score` body, through the
/// pipeline every entry point calls (`faan::service`): never a panic; a
/// request that scores keeps the invariants, and its body is valid JSON
/// with the result's totals.
pub fn score_json(data: &[u8]) {
    use faan::api::json::parse;
    use faan::api::ScoreRequest;
    use faan::service::Service;
    use std::sync::OnceLock;

    static SERVICE: OnceLock<Service> = OnceLock::new();
    let service = SERVICE.get_or_init(|| Service::uncached(Registry::builtin().expect("built in")));
    let body = service.score_body(data);
    let Ok(req) = parse::<ScoreRequest>(data) else {
        assert!(body.is_err(), "serde refuses what the pipeline scored");
        return;
    };
    let scored = service.score_hand(&req.ruleset, &req.house_rules, &req.hand.to_core(), &req.context.to_core());
    let Ok(evaluated) = scored else {
        assert!(body.is_err(), "the pipeline scored what score_hand refuses");
        return;
    };
    check_score(&evaluated.score, "score_json");
    let (bytes, _) = body.expect("score_hand scored it, so does the pipeline");
    assert_eq!(bytes, evaluated.body(), "one serializer");
    let schema = serde_json::to_vec(&evaluated.response()).expect("serialises");
    assert_eq!(bytes.as_ref(), schema.as_slice(), "the writer equals serde's rendering of the schema type");
    let v: serde_json::Value = serde_json::from_slice(&bytes).expect("a body is JSON");
    assert_eq!(v["total_faan"], evaluated.score.total_faan(), "total_faan");
}
