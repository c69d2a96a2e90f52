//! Validation: every rule of a hand and of the circumstances of its win,
//! each broken one a [`FieldError`] at its JSON pointer.

use super::{add_meld, Context, ContextSpec, FieldError, Hand, HandParts, HandRule, HandSpec};
use super::{Meld, MeldKind, Replacement, RobbedKong, WinBy, MAX_BONUS_TILES};
use crate::core::pointer::Pointer;
use crate::core::tile::{format_tiles, parse_each, Bonus, Counts, ParseError, Tile, KINDS};

/// The flower wins a ruleset scores (`docs/rules.md`, "Flowers"): seven
/// bonus tiles win only where `seven_flowers` scores, eight only where
/// `eight_flowers` does; each pattern's own
/// `scores_the_draw` says whether its win also scores the draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowerWins {
    pub seven: bool,
    pub eight: bool,
    pub seven_scores_the_draw: bool,
    pub eight_scores_the_draw: bool,
}

impl FlowerWins {
    /// No flower win (bonus tiles out of play, or neither pattern scored).
    pub const NONE: FlowerWins = FlowerWins {
        seven: false,
        eight: false,
        seven_scores_the_draw: false,
        eight_scores_the_draw: false,
    };

    /// Some flower win exists.
    pub const fn any(self) -> bool {
        self.seven || self.eight
    }

    /// A flower win on `count` bonus tiles exists.
    pub const fn on(self, count: u32) -> bool {
        match count {
            7 => self.seven,
            8 => self.eight,
            _ => false,
        }
    }

    /// A flower win on `count` bonus tiles also scores the self-draw and the replacement.
    pub const fn scores_the_draw(self, count: u32) -> bool {
        match count {
            7 => self.seven && self.seven_scores_the_draw,
            8 => self.eight && self.eight_scores_the_draw,
            _ => false,
        }
    }
}

/// What the ruleset in force allows, as far as validation needs to know.
#[derive(Clone, Copy, Debug)]
pub struct Allowances<'a> {
    pub ruleset_id: &'a str,
    pub bonus_tiles: bool,
    pub flower_wins: FlowerWins,
    /// The hand is one tile short of a win (for waits): no winning tile, 13 tiles plus one per kong.
    pub waiting: bool,
}

/// A hand and the circumstances of its win as sent, with what the ruleset
/// in force allows: what a [`Hand`] and its [`Context`] are checked from.
#[derive(Debug)]
pub struct Claim<'a, S> {
    pub hand: &'a HandSpec<S>,
    pub context: &'a ContextSpec,
    pub allow: Allowances<'a>,
}

// By hand: derived, they would ask `S: Copy` of the borrowed spec's strings.
impl<S> Clone for Claim<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Claim<'_, S> {}

/// Checks a hand and context; on success the checked forms. Every problem
/// found is reported, not only the first.
impl<S: AsRef<str>> TryFrom<Claim<'_, S>> for (Hand, Context) {
    type Error = Vec<FieldError>;

    fn try_from(claim: Claim<'_, S>) -> Result<Self, Self::Error> {
        check(claim.hand, claim.context, claim.allow)
    }
}

/// `<(Hand, Context)>::try_from(Claim { hand, context, allow })`, for
/// callers that hold the three apart.
pub fn validate<S: AsRef<str>>(
    hand: &HandSpec<S>,
    context: &ContextSpec,
    allow: Allowances<'_>,
) -> Result<(Hand, Context), Vec<FieldError>> {
    check(hand, context, allow)
}

fn check<S: AsRef<str>>(
    spec: &HandSpec<S>,
    ctx: &ContextSpec,
    allow: Allowances<'_>,
) -> Result<(Hand, Context), Vec<FieldError>> {
    let mut errs = Vec::new();

    let mut concealed_counts = [0u8; KINDS];
    let mut concealed_len = 0usize;
    let parsed = parse_each(spec.tiles.as_ref(), |t| {
        concealed_counts[t.index()] = concealed_counts[t.index()].saturating_add(1);
        concealed_len += 1;
    });
    if let Err(e) = parsed {
        errs.push(notation("/hand/tiles", e));
        concealed_counts = [0u8; KINDS];
        concealed_len = 0;
    }

    let mut melds = Vec::with_capacity(spec.melds.len());
    for (i, m) in spec.melds.iter().enumerate() {
        let ptr = || format!("/hand/melds/{i}");
        if m.kind != MeldKind::Kong && (m.concealed || m.added) {
            let field = if m.concealed { "concealed" } else { "added" };
            errs.push(FieldError::rule(
                format!("{}/{field}", ptr()),
                HandRule::MeldFlagNotKong {
                    flag: field,
                    kind: m.kind.name(),
                },
            ));
        }
        if m.concealed && m.added {
            errs.push(FieldError::rule(
                format!("{}/added", ptr()),
                HandRule::KongConcealedAndAdded,
            ));
        }
        let mut buf = [Tile::WHITE; 4];
        let mut n = 0usize;
        let parsed = parse_each(m.tiles.as_ref(), |t| {
            if n < buf.len() {
                buf[n] = t;
            }
            n += 1;
        });
        match parsed {
            Err(e) => errs.push(notation(format!("{}/tiles", ptr()), e)),
            Ok(()) if n > buf.len() => errs.push(FieldError::rule(
                format!("{}/tiles", ptr()),
                HandRule::MeldTooLong {
                    kind: m.kind.name(),
                    want: if m.kind == MeldKind::Kong { 4 } else { 3 },
                    got: n,
                },
            )),
            Ok(()) => {
                let tiles = &mut buf[..n];
                sort_small(tiles);
                match meld_from_tiles(m.kind, tiles) {
                    Ok(tile) => melds.push(Meld {
                        kind: m.kind,
                        tile,
                        concealed: m.concealed,
                        added: m.added,
                    }),
                    Err(rule) => errs.push(FieldError::rule(format!("{}/tiles", ptr()), rule)),
                }
            }
        }
    }
    if spec.melds.len() > 4 {
        errs.push(FieldError::rule(
            "/hand/melds",
            HandRule::TooManyMelds {
                got: spec.melds.len(),
            },
        ));
    }

    let winning_tile = match &spec.winning_tile {
        Some(_) if allow.waiting => {
            errs.push(FieldError::rule(
                "/hand/winning_tile",
                HandRule::WinningTileWhileWaiting,
            ));
            None
        }
        None => {
            if !ctx.flower_win && !allow.waiting {
                errs.push(FieldError::rule(
                    "/hand/winning_tile",
                    HandRule::WinningTileRequired,
                ));
            }
            None
        }
        Some(w) => match w.as_ref().parse::<Tile>() {
            Ok(t) => {
                if concealed_len > 0 && concealed_counts[t.index()] == 0 {
                    errs.push(FieldError::rule(
                        "/hand/winning_tile",
                        HandRule::WinningTileNotInHand {
                            tile: t.to_string(),
                        },
                    ));
                }
                Some(t)
            }
            Err(e) => {
                errs.push(notation("/hand/winning_tile", e));
                None
            }
        },
    };

    let mut flowers = 0u8;
    // Past the eighth nothing more is read: one error, not one per tile.
    for (i, f) in spec.flowers.iter().take(MAX_BONUS_TILES).enumerate() {
        match f.as_ref().parse::<Bonus>() {
            Ok(b) => {
                let bit = 1u8 << b.index();
                if flowers & bit != 0 {
                    errs.push(FieldError::rule(
                        format!("/hand/flowers/{i}"),
                        HandRule::BonusTwice {
                            bonus: b.to_string(),
                        },
                    ));
                }
                flowers |= bit;
            }
            Err(_) => errs.push(FieldError::rule(
                format!("/hand/flowers/{i}"),
                HandRule::BonusNotation {
                    text: crate::core::echo::echo(f.as_ref()).into_owned(),
                },
            )),
        }
    }
    if spec.flowers.len() > MAX_BONUS_TILES {
        errs.push(FieldError::rule(
            format!("/hand/flowers/{MAX_BONUS_TILES}"),
            HandRule::TooManyBonusTiles {
                max: MAX_BONUS_TILES,
                count: spec.flowers.len(),
            },
        ));
    }
    if !spec.flowers.is_empty() && !allow.bonus_tiles {
        errs.push(FieldError::rule(
            "/hand/flowers",
            HandRule::BonusOff {
                ruleset: allow.ruleset_id.to_string(),
            },
        ));
    }

    // Tile counts (only meaningful once the tiles parsed).
    let mut all = concealed_counts;
    for m in &melds {
        add_meld(&mut all, m);
    }
    // Folded without an early exit (vectorised); the loop only for a bad hand.
    if all.iter().fold(false, |any, &n| any | (n > 4)) {
        for (i, &n) in all.iter().enumerate() {
            if n > 4 {
                let t = Tile::from_index(i).expect("index < KINDS");
                errs.push(FieldError::rule(
                    "/hand/tiles",
                    HandRule::TileOverFour {
                        tile: t.to_string(),
                        count: n,
                    },
                ));
            }
        }
    }
    let all_parsed = !errs.iter().any(|e| e.pointer.ends_with("/tiles"));
    if all_parsed {
        let expected = 14 - 3 * melds.len() as i64 - i64::from(allow.waiting);
        let got = concealed_len as i64;
        let short_ok = ctx.flower_win && got == expected - 1;
        let melds = melds.len();
        if allow.waiting && got != expected {
            let rule = if got == expected + 1 {
                HandRule::WaitingComplete {
                    expected,
                    melds,
                    got,
                }
            } else if got < expected {
                HandRule::WaitingShort {
                    expected,
                    melds,
                    got,
                    short: expected + 1 - got,
                }
            } else {
                HandRule::WaitingOver {
                    expected,
                    melds,
                    got,
                }
            };
            errs.push(FieldError::rule("/hand/tiles", rule));
        } else if !allow.waiting && got != expected && !short_ok {
            errs.push(FieldError::rule(
                "/hand/tiles",
                HandRule::TileCount {
                    expected,
                    melds,
                    got,
                },
            ));
        }
    }

    validate_context(ctx, &melds, &all, winning_tile, flowers, allow, &mut errs);

    if !errs.is_empty() {
        return Err(errs);
    }
    sort_small(&mut melds);
    Ok((
        Hand(HandParts {
            concealed_len,
            concealed_counts,
            melds,
            winning_tile,
            flowers,
        }),
        Context(*ctx),
    ))
}

/// Insertion sort, for the few items here (a meld's tiles, a hand's melds:
/// at most four each), where the library sort's set-up was a visible cost.
fn sort_small<T: Ord>(v: &mut [T]) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && v[j - 1] > v[j] {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// A tile notation error at `pointer` (its message names the position).
pub(crate) fn notation(pointer: impl Into<Pointer>, e: ParseError) -> FieldError {
    FieldError::rule(
        pointer,
        HandRule::TileNotation {
            detail: e.message,
            position: e.position + 1,
        },
    )
}

/// The lowest tile of a meld of `kind` made of `tiles` (sorted), or the
/// rule it breaks (a problem at the meld's `/tiles`).
fn meld_from_tiles(kind: MeldKind, tiles: &[Tile]) -> Result<Tile, HandRule> {
    let want = if kind == MeldKind::Kong { 4u8 } else { 3 };
    let shown = || format_tiles(tiles);
    if tiles.len() != usize::from(want) {
        return Err(HandRule::MeldSize {
            kind: kind.name(),
            want,
            got: tiles.len(),
            tiles: shown(),
        });
    }
    let first = tiles[0];
    let ok = match kind {
        MeldKind::Chow => first.step(1) == Some(tiles[1]) && first.step(2) == Some(tiles[2]),
        _ => tiles.iter().all(|&t| t == first),
    };
    if ok {
        Ok(first)
    } else if kind == MeldKind::Chow {
        Err(HandRule::NotAChow { tiles: shown() })
    } else {
        Err(HandRule::NotASet {
            tiles: shown(),
            kind: kind.name(),
            want,
        })
    }
}

/// The context of a win declared without tiles: who won, who discarded and
/// who is liable, checked as a scored hand's are. Every other field is
/// refused where it is set (it would change nothing: the table counted).
pub fn validate_declared(ctx: &ContextSpec) -> Result<Context, Vec<FieldError>> {
    let mut errs = Vec::new();
    parties(ctx, &mut errs);
    let d = ContextSpec::new(ctx.win_by, ctx.seat_wind, ctx.round_wind, ctx.discarder);
    let set: [(&'static str, bool); 9] = [
        ("replacement", ctx.replacement != d.replacement),
        ("double_kong", ctx.double_kong != d.double_kong),
        ("last_tile", ctx.last_tile != d.last_tile),
        ("heavenly", ctx.heavenly != d.heavenly),
        ("earthly", ctx.earthly != d.earthly),
        ("flower_win", ctx.flower_win != d.flower_win),
        ("robbed_kong", ctx.robbed_kong != d.robbed_kong),
        (
            "last_of_its_kind",
            ctx.last_of_its_kind != d.last_of_its_kind,
        ),
        (
            "first_replacement",
            ctx.first_replacement != d.first_replacement,
        ),
    ];
    for (field, _) in set.iter().filter(|(_, differs)| *differs) {
        errs.push(FieldError::rule(
            format!("/context/{field}"),
            HandRule::DeclaredContextField { field },
        ));
    }
    if errs.is_empty() {
        Ok(Context(*ctx))
    } else {
        Err(errs)
    }
}

/// The winner, the discarder and the liable seat: a discard names its
/// discarder, a self-draw none, and neither is the winner.
fn parties(ctx: &ContextSpec, errs: &mut Vec<FieldError>) {
    let push = |errs: &mut Vec<FieldError>, field: &str, rule: HandRule| {
        errs.push(FieldError::rule(format!("/context/{field}"), rule));
    };
    match (ctx.win_by, ctx.discarder) {
        (WinBy::SelfDraw, Some(_)) => push(errs, "discarder", HandRule::DiscarderOnSelfDraw),
        (WinBy::Discard, None) => push(errs, "discarder", HandRule::DiscarderRequired),
        (WinBy::RobbingKong, None) => push(errs, "discarder", HandRule::DiscarderRequiredRobbing),
        (_, Some(d)) if d == ctx.seat_wind => push(
            errs,
            "discarder",
            HandRule::DiscarderIsWinner {
                seat: d.to_string(),
            },
        ),
        _ => {}
    }
    if let Some(l) = ctx.liable {
        if l == ctx.seat_wind {
            push(
                errs,
                "liable",
                HandRule::LiableIsWinner {
                    seat: l.to_string(),
                },
            );
        }
    }
}

fn validate_context(
    ctx: &ContextSpec,
    melds: &[Meld],
    all: &Counts,
    winning: Option<Tile>,
    flowers: u8,
    allow: Allowances<'_>,
    errs: &mut Vec<FieldError>,
) {
    let push = |errs: &mut Vec<FieldError>, field: &str, rule: HandRule| {
        errs.push(FieldError::rule(format!("/context/{field}"), rule));
    };
    parties(ctx, errs);
    let kongs = melds.iter().filter(|m| m.kind == MeldKind::Kong).count();
    if ctx.replacement != Replacement::None && ctx.win_by != WinBy::SelfDraw {
        push(errs, "replacement", HandRule::ReplacementNotSelfDraw);
    }
    if ctx.replacement == Replacement::Kong && kongs == 0 {
        push(errs, "replacement", HandRule::KongReplacementWithoutKong);
    }
    if ctx.robbed_kong == RobbedKong::Concealed && ctx.win_by != WinBy::RobbingKong {
        push(errs, "robbed_kong", HandRule::RobbedKongWithoutRobbing);
    }
    if ctx.robbed_kong == RobbedKong::Concealed && winning.is_some_and(|t| !t.is_orphan()) {
        push(errs, "robbed_kong", HandRule::ConcealedKongRobbedNotOrphan);
    }
    if ctx.last_of_its_kind && ctx.flower_win {
        push(errs, "last_of_its_kind", HandRule::LastOfItsKindFlowerWin);
    }
    match (ctx.first_replacement, ctx.replacement) {
        (Replacement::None, _) => {}
        // A flower replacement that drew a kong's fourth tile, then the
        // kong's replacement (`either_order`; the kong is checked above).
        (Replacement::Flower, Replacement::Kong) => {}
        (_, r) if r != Replacement::Flower => push(
            errs,
            "first_replacement",
            HandRule::SecondReplacementNotFlower,
        ),
        (Replacement::Kong, _) if kongs == 0 => push(
            errs,
            "first_replacement",
            HandRule::KongReplacementWithoutKong,
        ),
        (Replacement::Flower, _) if flowers.count_ones() < 2 => push(
            errs,
            "first_replacement",
            HandRule::TwoFlowerReplacements {
                found: flowers.count_ones(),
            },
        ),
        _ => {}
    }
    if ctx.double_kong {
        if ctx.replacement != Replacement::Kong {
            push(errs, "double_kong", HandRule::DoubleKongReplacement);
        }
        if kongs < 2 {
            push(
                errs,
                "double_kong",
                HandRule::DoubleKongTwoKongs { found: kongs },
            );
        }
    }
    if ctx.heavenly {
        if ctx.seat_wind != crate::core::tile::Wind::East {
            push(
                errs,
                "heavenly",
                HandRule::HeavenlyNotEast {
                    seat: ctx.seat_wind.to_string(),
                },
            );
        }
        if ctx.win_by != WinBy::SelfDraw {
            push(errs, "heavenly", HandRule::HeavenlyNotSelfDraw);
        }
        if !melds.is_empty() {
            push(errs, "heavenly", HandRule::HeavenlyMelds);
        }
    }
    if ctx.earthly {
        if ctx.seat_wind == crate::core::tile::Wind::East {
            push(errs, "earthly", HandRule::EarthlyEast);
        }
        if ctx.win_by != WinBy::Discard {
            push(errs, "earthly", HandRule::EarthlyNotDiscard);
        } else if ctx
            .discarder
            .is_some_and(|d| d != crate::core::tile::Wind::East)
        {
            push(errs, "earthly", HandRule::EarthlyDiscarder);
        }
        if !melds.is_empty() {
            push(errs, "earthly", HandRule::EarthlyMelds);
        }
    }
    if ctx.heavenly && ctx.earthly {
        push(errs, "earthly", HandRule::HeavenlyAndEarthly);
    }
    if ctx.first_go_around {
        if ctx.seat_wind == crate::core::tile::Wind::East {
            push(errs, "first_go_around", HandRule::FirstGoAroundEast);
        }
        if ctx.win_by != WinBy::Discard {
            push(errs, "first_go_around", HandRule::FirstGoAroundNotDiscard);
        }
        if !melds.is_empty() {
            push(errs, "first_go_around", HandRule::FirstGoAroundMelds);
        }
    }
    if ctx.win_by == WinBy::RobbingKong {
        if let Some(w) = winning {
            let n = all[w.index()];
            if n > 1 {
                push(
                    errs,
                    "win_by",
                    HandRule::RobbingCount {
                        tile: w.to_string(),
                        count: n,
                    },
                );
            }
        }
    }
    if ctx.flower_win {
        let n = flowers.count_ones();
        if !allow.flower_wins.any() {
            push(
                errs,
                "flower_win",
                HandRule::FlowerWinRuleset {
                    ruleset: allow.ruleset_id.to_string(),
                },
            );
        } else if n < 7 {
            push(errs, "flower_win", HandRule::FlowerWinCount { count: n });
        } else if !allow.flower_wins.on(n) {
            // Its seat-flower and set lines never make a win of their own.
            push(
                errs,
                "flower_win",
                HandRule::FlowerWinNotScored {
                    ruleset: allow.ruleset_id.to_string(),
                    count: n,
                    pattern: if n == 7 {
                        "seven_flowers"
                    } else {
                        "eight_flowers"
                    },
                },
            );
        }
        if ctx.win_by != WinBy::SelfDraw {
            push(errs, "flower_win", HandRule::FlowerWinSelfDraw);
        }
    }
}

#[cfg(test)]
mod tests;
