//! Before the win: how far a hand is from ready, which draws help, and what
//! each discard leaves (docs/api.md, "Hand analysis: POST /v1/analyze").
//!
//! A hand of 13 tiles (a declared meld counting as three, a kong too) waits
//! for a draw: its acceptance is every tile kind whose draw lowers its best
//! shanten, with the copies still unseen. A hand of 14 is about to discard:
//! each distinct concealed kind is tried as the discard. Where a hand is
//! ready its waits are [`waits::waits_by_shanten`]'s, the answer of
//! [`waits::waits`] (`POST /v1/waits`) from fewer scorings, so the two
//! agree. Shanten is [`shanten`]'s, read per the ruleset's special
//! forms; the model of nekobean/mahjong-cpp's `necessary tiles`.

use super::chances::{self, Chances, ChancesError, Start, Win, WinValues};
use super::evaluate::{allowances, score_hand, Score, ScoreError};
use super::hand::{
    validate, Allowances, ContextSpec, FieldError, HandRule, HandSpec, MeldSpec, WinBy,
};
use super::hand_changes::Changes;
use super::ruleset::Ruleset;
use super::shanten::{self, Forms, Shanten};
use super::tile::{format_tiles, parse_each, Counts, Tile, KINDS};
use super::waits::{self, Wait, WaitContext};
use std::cell::RefCell;

/// The tile kinds whose draw lowers the best shanten.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Acceptance {
    /// Each kind with its unseen copies, in tile order.
    pub tiles: Vec<(Tile, u8)>,
    /// The sum of their unseen copies.
    pub count: u32,
}

/// The hand after one discard.
#[derive(Clone, Debug, PartialEq)]
pub struct Discard {
    pub tile: Tile,
    pub shanten: i8,
    pub acceptance: Acceptance,
    /// Where the discard leaves the hand ready.
    pub waits: Option<Vec<Wait>>,
    /// Where asked for, and the discard leaves the hand near enough.
    pub chances: Option<Chances>,
}

/// What is known of the hand before the win.
#[derive(Clone, Debug, PartialEq)]
pub enum Analyzed {
    /// 13 tiles, waiting for a draw.
    Drawing {
        acceptance: Acceptance,
        waits: Option<Vec<Wait>>,
        chances: Option<Chances>,
    },
    /// 14 tiles, about to discard: best discard first.
    Discarding {
        discards: Vec<Discard>,
        /// The score of declaring the 14 tiles now, by self-draw, when they win.
        complete: Option<Score>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub shanten: Shanten,
    pub analyzed: Analyzed,
}

/// Unseen copies of each kind: four less the hand, its melds and `seen`.
pub type Unseen = Counts;

/// The chances asked for: draws still to come, whether the others'
/// discards count, and the hand changes the player may make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ask {
    pub draws: u32,
    pub discards: bool,
    pub changes: Changes,
    /// With 14 tiles, chances for the discards that raise shanten too.
    pub every_discard: bool,
}

/// Analyses `hand` (no winning tile) under `ruleset`; `seen` are the tiles
/// in sight elsewhere, as written by the client (pointer `/seen`).
pub fn analyze<S: AsRef<str>>(
    ruleset: &Ruleset,
    hand: &HandSpec<S>,
    ctx: &WaitContext,
    seen: Option<&str>,
    ask: Option<Ask>,
) -> Result<Analysis, ScoreError> {
    let (concealed, melds, all) = validate_before_win(ruleset, hand, ctx)?;
    let unseen = unseen(&all, seen)?;
    let forms = Forms::from(ruleset.tables().special);
    let now = shanten::shanten(&concealed, melds, forms);
    let held: usize = concealed.iter().map(|&n| n as usize).sum();
    let drawing = (held + 3 * melds) % 3 == 1;
    let waits_of = |c: &Counts| {
        let tiles = format_tiles(&tiles_of(c));
        waits::waits_by_shanten(ruleset, &with_tiles(hand, &tiles, None), ctx)
    };
    let self_drawn_waits_of = |c: &Counts| {
        let tiles = format_tiles(&tiles_of(c));
        waits::self_drawn_waits_by_shanten(ruleset, &with_tiles(hand, &tiles, None), ctx)
    };
    // One store of the hands every discard's graph reaches (the 14 tiles
    // hold the most of each kind any discard does): each ready hand is
    // scored once. With hand changes off it holds the graphs too, so it is
    // sized for the farthest start it will search; left small when unused.
    let farthest = match ask {
        Some(a) if a.changes.any() => 0,
        Some(a) if !drawing && a.every_discard => now.best + 1,
        Some(_) => now.best,
        None => 0,
    };
    let hands = RefCell::new(chances::Hands::new(
        melds, forms, &unseen, &concealed, farthest,
    ));
    let chances_of = |c: &Counts, ask: Ask| {
        let start = Start {
            hand: c,
            melds,
            forms,
            unseen: &unseen,
            draws: ask.draws,
            discards: ask.discards,
        };
        // Without the others' discards no win on a discard is counted, so
        // none is scored.
        let values = |ready: &Counts| {
            let scored = if ask.discards {
                waits_of(ready)
            } else {
                self_drawn_waits_of(ready)
            };
            win_values(&scored, ctx)
        };
        hands.borrow_mut().chances(start, ask.changes, values)
    };
    let analyzed = if drawing {
        let chances = match ask {
            Some(a) => Some(chances_of(&concealed, a).map_err(too_far)?),
            None => None,
        };
        Analyzed::Drawing {
            acceptance: acceptance(&concealed, melds, forms, now.best, &unseen),
            waits: (now.best == 0).then(|| waits_of(&concealed)).transpose()?,
            chances,
        }
    } else {
        let mut discards = Vec::new();
        // A discard keeps the shanten or raises it by one.
        let (_, keep) = shanten::unneeded(&concealed, melds, forms);
        for i in (0..KINDS).filter(|&i| concealed[i] > 0) {
            let mut after = concealed;
            after[i] -= 1;
            let s = now.best + i8::from(keep >> i & 1 == 0);
            discards.push(Discard {
                tile: Tile::from_index(i).expect("i < KINDS"),
                shanten: s,
                acceptance: acceptance(&after, melds, forms, s, &unseen),
                waits: (s == 0).then(|| waits_of(&after)).transpose()?,
                chances: match ask {
                    Some(a) if !a.every_discard && s > now.best => None,
                    // A discard that leaves the hand too far has none; one
                    // past the graph's bound fails the request.
                    Some(a) => match chances_of(&after, a) {
                        Ok(c) => Some(c),
                        Err(ChancesError::TooFar { .. }) => None,
                        Err(e) => return Err(too_far(e)),
                    },
                    None => None,
                },
            });
        }
        if let Some(far) = ask.and(discards.iter().map(|d| d.shanten).min()) {
            if far > chances::MAX_SHANTEN {
                return Err(too_far(ChancesError::TooFar { shanten: far }));
            }
        }
        // Lowest shanten, then the most points expected (where asked for)
        // or the most acceptance, then tile order (the loop's order, kept
        // by a stable sort).
        discards.sort_by(|a, b| {
            a.shanten
                .cmp(&b.shanten)
                .then_with(|| match (&a.chances, &b.chances) {
                    (Some(x), Some(y)) => y.expected_points.total_cmp(&x.expected_points),
                    _ => b.acceptance.count.cmp(&a.acceptance.count),
                })
        });
        let complete = if now.best == -1 {
            complete(ruleset, hand, ctx, &concealed)
        } else {
            None
        };
        Analyzed::Discarding { discards, complete }
    };
    Ok(Analysis {
        shanten: now,
        analyzed,
    })
}

/// The points a ready hand collects on each wait that counts: a win that
/// meets the minimum for how it was won, the winner's side of its payments.
fn win_values(waits: &Result<Vec<Wait>, ScoreError>, ctx: &WaitContext) -> WinValues {
    let seat = ctx.seat_wind.index();
    let points = |s: &Option<Score>| {
        s.as_ref()
            .filter(|s| s.meets_minimum)
            .map(|s| s.payments[seat] as f64)
    };
    WinValues {
        wins: waits
            .iter()
            .flatten()
            .map(|w| Win {
                kind: w.tile.index(),
                self_draw: points(&w.self_draw),
                discard: points(&w.discard),
            })
            .collect(),
    }
}

/// A hand too far for the model's cost bound: a 422 at `/chances`.
fn too_far(e: ChancesError) -> ScoreError {
    let rule = match e {
        ChancesError::TooFar { shanten } => HandRule::ChancesTooFar {
            shanten: i64::from(shanten),
            max: i64::from(chances::MAX_SHANTEN),
        },
        ChancesError::TooLarge { max } => HandRule::ChancesTooLarge {
            max: i64::try_from(max).unwrap_or(i64::MAX),
        },
    };
    ScoreError::Invalid(vec![FieldError::rule("/chances", rule)])
}

/// Every kind whose draw lowers `best` (the hand's shanten now), with its
/// unseen copies. A kind the hand holds four of cannot be drawn.
pub fn acceptance(
    counts: &Counts,
    melds: usize,
    forms: Forms,
    best: i8,
    unseen: &Unseen,
) -> Acceptance {
    let mut out = Acceptance::default();
    let (now, mut need) = shanten::necessary(counts, melds, forms);
    if now.best != best {
        // Not the hand's own shanten: each draw worked out afresh.
        need = 0;
        for i in (0..KINDS).filter(|&i| counts[i] < 4) {
            let mut c = *counts;
            c[i] += 1;
            if shanten::shanten(&c, melds, forms).best < best {
                need |= 1 << i;
            }
        }
    }
    out.tiles.reserve_exact(need.count_ones() as usize);
    for i in shanten::kinds_of(need) {
        out.tiles
            .push((Tile::from_index(i).expect("i < KINDS"), unseen[i]));
        out.count += u32::from(unseen[i]);
    }
    out
}

/// The concealed counts, the declared melds and every tile held, once the
/// hand is checked as 13 or 14 tiles with no winning tile.
fn validate_before_win<S: AsRef<str>>(
    ruleset: &Ruleset,
    hand: &HandSpec<S>,
    ctx: &WaitContext,
) -> Result<(Counts, usize, Counts), ScoreError> {
    if hand.winning_tile.is_some() {
        return Err(ScoreError::Invalid(vec![FieldError::rule(
            "/hand/winning_tile",
            HandRule::WinningTileWhileWaiting,
        )]));
    }
    let mut n = 0usize;
    let parsed = parse_each(hand.tiles.as_ref(), |_| n += 1).is_ok();
    let melds = hand.melds.len();
    let drawing = ContextSpec {
        last_tile: ctx.last_tile,
        ..ContextSpec::new(WinBy::SelfDraw, ctx.seat_wind, ctx.round_wind, None)
    };
    let waiting = Allowances {
        waiting: true,
        ..allowances(ruleset)
    };
    if !parsed || melds > 4 || n + 3 * melds == 13 {
        // validate's own errors name a bad tile or too many melds.
        let (h, _) = validate(hand, &drawing, waiting).map_err(ScoreError::Invalid)?;
        return Ok((h.concealed_counts, h.melds.len(), h.all_counts()));
    }
    if n + 3 * melds != 14 {
        return Err(ScoreError::Invalid(vec![FieldError::rule(
            "/hand/tiles",
            HandRule::AnalysisTileCount {
                drawing: 13 - 3 * melds as i64,
                discarding: 14 - 3 * melds as i64,
                melds,
                got: n,
            },
        )]));
    }
    // Fourteen: checked as a self-drawn hand whose last tile is any held.
    let mut first = None;
    let _ = parse_each(hand.tiles.as_ref(), |t| {
        first.get_or_insert(t);
    });
    let first = first.map(|t| t.to_string());
    let spec = with_tiles(hand, hand.tiles.as_ref(), first.as_deref());
    let (h, _) = validate(&spec, &drawing, allowances(ruleset)).map_err(ScoreError::Invalid)?;
    Ok((h.concealed_counts, h.melds.len(), h.all_counts()))
}

/// Four less what is held and what is seen, or a 422 at `/seen`.
fn unseen(held: &Counts, seen: Option<&str>) -> Result<Unseen, ScoreError> {
    // Counted wide: a long `seen` must not wrap or clamp what the error says.
    let mut sighted = held.map(u32::from);
    if let Some(s) = seen {
        parse_each(s, |t| sighted[t.index()] += 1)
            .map_err(|e| ScoreError::Invalid(vec![super::hand::notation("/seen", e)]))?;
    }
    let mut out = [0u8; KINDS];
    let mut errs = Vec::new();
    for i in 0..KINDS {
        if sighted[i] <= 4 {
            out[i] = 4 - sighted[i] as u8;
        } else {
            errs.push(FieldError::rule(
                "/seen",
                HandRule::SeenOverFour {
                    tile: Tile::from_index(i).expect("i < KINDS").to_string(),
                    count: sighted[i],
                    held: held[i],
                    seen: sighted[i] - u32::from(held[i]),
                },
            ));
        }
    }
    if errs.is_empty() {
        Ok(out)
    } else {
        Err(ScoreError::Invalid(errs))
    }
}

/// `hand`'s melds and bonus tiles with other concealed tiles and winning tile.
fn with_tiles<'a, S: AsRef<str>>(
    hand: &'a HandSpec<S>,
    tiles: &'a str,
    winning_tile: Option<&'a str>,
) -> HandSpec<&'a str> {
    HandSpec {
        tiles,
        melds: hand
            .melds
            .iter()
            .map(|m| MeldSpec {
                kind: m.kind,
                tiles: m.tiles.as_ref(),
                concealed: m.concealed,
                added: m.added,
            })
            .collect(),
        winning_tile,
        flowers: hand.flowers.iter().map(AsRef::as_ref).collect(),
    }
}

/// The concealed tiles of `c`, in tile order.
fn tiles_of(c: &Counts) -> Vec<Tile> {
    (0..KINDS)
        .flat_map(|i| std::iter::repeat_n(Tile::from_index(i).expect("i < KINDS"), c[i] as usize))
        .collect()
}

/// Declaring the 14 tiles now by self-draw: the best score over which held
/// kind was the tile just drawn (the request does not say).
fn complete<S: AsRef<str>>(
    ruleset: &Ruleset,
    hand: &HandSpec<S>,
    ctx: &WaitContext,
    concealed: &Counts,
) -> Option<Score> {
    let tiles = format_tiles(&tiles_of(concealed));
    let drawn = ContextSpec {
        last_tile: ctx.last_tile,
        ..ContextSpec::new(WinBy::SelfDraw, ctx.seat_wind, ctx.round_wind, None)
    };
    let mut best: Option<Score> = None;
    for i in (0..KINDS).filter(|&i| concealed[i] > 0) {
        let win = Tile::from_index(i).expect("i < KINDS").to_string();
        let spec = with_tiles(hand, &tiles, Some(&win));
        let Ok((h, c)) = validate(&spec, &drawn, allowances(ruleset)) else {
            continue;
        };
        if let Ok(s) = score_hand(ruleset, &h, &c) {
            let key = |s: &Score| (s.meets_minimum, s.base_points, s.total_faan());
            if best.as_ref().is_none_or(|b| key(&s) > key(b)) {
                best = Some(s);
            }
        }
    }
    best
}
