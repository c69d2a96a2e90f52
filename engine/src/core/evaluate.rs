//! Evaluation: the faan lines of every reading, the choice between
//! readings, the minimum and the settlement.
//!
//! Combination rules come from the ruleset (`docs/rules.md`, "Shared
//! reading of hands"): a pattern's `contains` list removes the lines it
//! includes; a limit pattern makes the total its limit value and no other
//! line is added (several limits settle once, at the highest); ordinary
//! totals are capped at the limit. The chosen reading has the highest capped
//! total, then the highest raw total, then comes first.

use super::decompose::{each_reading, Form, Reading};
use super::hand::{
    validate, Allowances, Context, ContextSpec, FieldError, Hand, HandSpec, RobbedKong,
};
use super::pattern::{count_all, Facts, Held, PatternId, PatternSet, Shape, PATTERN_COUNT};
use super::ruleset::{Ruleset, Value};
use super::settle::{money, settle, Overflow, Payments};
use std::fmt;

/// One scoring item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    pub pattern: PatternId,
    pub faan: u32,
    /// A limit pattern (its faan is the limit value, not added to others).
    pub limit: bool,
}

/// Room for every line a reading can have (36 patterns, a few counted per
/// set; many exclude each other). With every pattern made an ordinary faan
/// pattern by house rules, the fullest hands found hold 19 lines
/// (`no_reading_outgrows_its_lines` in `tests/properties.rs`).
pub const MAX_LINES: usize = 32;

/// The lines of one reading, at most [`MAX_LINES`] (`arrayvec`: no
/// allocation, and no line written before it is pushed).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Lines(arrayvec::ArrayVec<Line, MAX_LINES>);

impl Lines {
    const EMPTY: Line = Line {
        pattern: PatternId::ChickenHand,
        faan: 0,
        limit: false,
    };

    const fn new() -> Self {
        Lines(arrayvec::ArrayVec::new_const())
    }

    /// Adds a line; a line beyond [`MAX_LINES`] is dropped (not reached:
    /// `no_reading_outgrows_its_lines`), never a panic.
    fn push(&mut self, l: Line) {
        let _ = self.0.try_push(l);
    }
}

impl std::ops::Deref for Lines {
    type Target = [Line];
    fn deref(&self) -> &[Line] {
        &self.0
    }
}

impl fmt::Debug for Lines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A reading with its lines and totals.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScoredReading {
    pub reading: Reading,
    pub lines: Lines,
    pub raw_faan: u32,
    pub total_faan: u32,
    pub limit_hand: bool,
}

impl ScoredReading {
    /// A placeholder to fill in place.
    const EMPTY: ScoredReading = ScoredReading::blank(Reading::blank(Form::Standard));

    /// `reading` with no lines yet and zero totals.
    pub const fn blank(reading: Reading) -> Self {
        ScoredReading {
            reading,
            lines: Lines::new(),
            raw_faan: 0,
            total_faan: 0,
            limit_hand: false,
        }
    }
}

/// The full result of scoring a hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    pub readings: Vec<ScoredReading>,
    pub chosen: usize,
    pub min_faan: u32,
    pub meets_minimum: bool,
    /// Faan short of the minimum (0 when it is met).
    pub missing_faan: u32,
    pub base_points: u64,
    pub payments: Payments,
    /// Payments in US cents, where the ruleset has a money rate.
    pub money_cents: Option<[i64; 4]>,
}

impl Score {
    pub fn best(&self) -> &ScoredReading {
        &self.readings[self.chosen]
    }

    pub fn total_faan(&self) -> u32 {
        self.best().total_faan
    }
}

/// Why a hand could not be scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoreError {
    /// The request breaks a rule; each error points at a field.
    Invalid(Vec<FieldError>),
    /// The tiles do not form a winning hand under this ruleset.
    NotWinning { tiles: usize, detail: String },
    /// A total or an amount too large to answer exactly (refused, never clamped).
    Overflow(Overflow),
}

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScoreError::Invalid(errs) => {
                let parts: Vec<String> = errs.iter().map(ToString::to_string).collect();
                write!(f, "invalid request: {}", parts.join("; "))
            }
            ScoreError::NotWinning { detail, .. } => f.write_str(detail),
            ScoreError::Overflow(o) => f.write_str(&o.explain()),
        }
    }
}

impl std::error::Error for ScoreError {}

/// Validates and scores a hand under `ruleset`.
pub fn score(ruleset: &Ruleset, hand: &HandSpec, ctx: &ContextSpec) -> Result<Score, ScoreError> {
    let (hand, ctx) = validate(hand, ctx, allowances(ruleset)).map_err(ScoreError::Invalid)?;
    score_hand(ruleset, &hand, &ctx)
}

/// What validation needs to know of a ruleset.
pub fn allowances(ruleset: &Ruleset) -> Allowances<'_> {
    Allowances {
        ruleset_id: ruleset.id(),
        bonus_tiles: ruleset.bonus_tiles(),
        flower_wins: ruleset.tables().special.flower_wins,
        waiting: false,
    }
}

/// Scores a validated hand.
pub fn score_hand(ruleset: &Ruleset, hand: &Hand, ctx: &Context) -> Result<Score, ScoreError> {
    // Two copies: a ruleset without the optional rules (every built-in
    // one) runs the one that never looks at them (bench/core.md).
    if ruleset.tables().optional_rules {
        score_hand_as::<true>(ruleset, hand, ctx)
    } else {
        score_hand_as::<false>(ruleset, hand, ctx)
    }
}

fn score_hand_as<const OPTIONAL_RULES: bool>(
    ruleset: &Ruleset,
    hand: &Hand,
    ctx: &Context,
) -> Result<Score, ScoreError> {
    let facts = Facts::new::<OPTIONAL_RULES>(hand, ctx, ruleset.bonus_tiles());
    // Two fit most hands and stay small enough for the allocator's fast path.
    let mut scored: Vec<ScoredReading> = Vec::with_capacity(2);
    let mut chosen = 0;
    // Each reading is scored as the decomposer finds it (no list of readings).
    // A concealed kong may be robbed only to complete thirteen orphans.
    let orphans_only = ctx.robbed_kong == RobbedKong::Concealed;
    let mut overflow = None;
    let special = ruleset.tables().special;
    each_reading(hand, ctx.win_by, ctx.flower_win, special, |p| {
        if orphans_only && p.base.form != Form::ThirteenOrphans {
            return;
        }
        // Filled in place: a scored reading is a few hundred bytes.
        scored.push(ScoredReading::EMPTY);
        let last = scored.len() - 1;
        scored[last].reading = *p.base;
        p.apply(&mut scored[last].reading);
        if let Err(o) = evaluate_into::<OPTIONAL_RULES>(ruleset, &facts, ctx, &mut scored[last]) {
            overflow = Some(o);
        }
        let (s, best) = (&scored[last], &scored[chosen]);
        if (s.total_faan, s.raw_faan) > (best.total_faan, best.raw_faan) {
            chosen = last;
        }
    });
    if let Some(o) = overflow {
        return Err(ScoreError::Overflow(o));
    }
    if scored.is_empty() {
        if orphans_only {
            return Err(ScoreError::NotWinning {
                tiles: hand.concealed_len
                    + hand.melds.iter().map(|m| m.size() as usize).sum::<usize>(),
                detail: "not a winning hand: a concealed kong may be robbed only to complete thirteen orphans, and these tiles do not form thirteen orphans under this ruleset".into(),
            });
        }
        return Err(not_winning(hand));
    }
    let total = scored[chosen].total_faan;
    let meets_minimum = total >= ruleset.min_faan();
    let Some(base_points) = ruleset.base_points(total) else {
        let p = largest_line(&scored[chosen].lines);
        return Err(ScoreError::Overflow(Overflow::BasePoints(p)));
    };
    let payments = if meets_minimum {
        settle(ruleset, ctx, base_points)
    } else {
        [0; 4]
    };
    Ok(Score {
        readings: scored,
        chosen,
        min_faan: ruleset.min_faan(),
        meets_minimum,
        missing_faan: ruleset.min_faan().saturating_sub(total),
        base_points,
        money_cents: money(ruleset, &payments).map_err(ScoreError::Overflow)?,
        payments,
    })
}

/// Fills the lines and totals of `out` (a [`ScoredReading::blank`]) for its
/// reading; `OPTIONAL_RULES` as `Ruleset::uses_optional_rules` (see [`score_hand`]). A total
/// beyond `u32` is [`Overflow::Faan`].
fn evaluate_into<const OPTIONAL_RULES: bool>(
    ruleset: &Ruleset,
    facts: &Facts,
    ctx: &Context,
    out: &mut ScoredReading,
) -> Result<(), Overflow> {
    let t = ruleset.tables();
    let r = &out.reading;
    let shape = Shape::new(r);
    let mut held = count_all::<OPTIONAL_RULES>(&shape, facts, ctx, &t.conditions);
    if r.form == Form::FlowerWin
        && t.special
            .flower_wins
            .scores_the_draw(facts.flowers.count_ones())
    {
        held.add_the_draw(&t.conditions);
    }
    combine::<OPTIONAL_RULES>(ruleset, &held, out)
}

/// The lines and totals of `out` from the patterns that hold (`held`: a
/// reading's, or what a table declared): the ruleset's values, then
/// `contains`, the `exclusive` pairs, a limit pattern setting the total,
/// and the cap. The one place patterns are combined, so a declared win
/// counts as a scored hand would.
fn combine<const OPTIONAL_RULES: bool>(
    ruleset: &Ruleset,
    held: &Held,
    out: &mut ScoredReading,
) -> Result<(), Overflow> {
    let t = ruleset.tables();
    // Patterns this ruleset scores that hold, minus those another holding pattern contains.
    let holding: PatternSet = held.set & t.enabled;
    let mut suppressed: PatternSet = 0;
    for i in indices(holding) {
        suppressed |= t.contains[i];
    }
    let mut scoring = holding & !suppressed;
    // Exclusive pairs: keep the higher line (the first of the pair on a tie).
    if OPTIONAL_RULES {
        for &(a, b) in ruleset.exclusive() {
            if scoring & a.bit() != 0 && scoring & b.bit() != 0 {
                let worth =
                    |id: PatternId| u64::from(t.line_faan[id.index()]) * u64::from(held.count(id));
                let loser = if worth(b) > worth(a) { a } else { b };
                scoring &= !loser.bit();
            }
        }
    }
    let lines = &mut out.lines;
    let limits = scoring & t.limits;
    let limits_add = OPTIONAL_RULES && ruleset.limits_add();
    if limits != 0 && !limits_add {
        let mut total = 0;
        for i in indices(limits) {
            let v = t.line_faan[i];
            total = total.max(v);
            lines.push(Line {
                pattern: PatternId::ALL[i],
                faan: v,
                limit: true,
            });
        }
        out.raw_faan = total;
        out.total_faan = total;
        out.limit_hand = true;
        return Ok(());
    }
    // Summed wide (at most 32 lines of u32) and checked once: exact or refused.
    let mut raw = 0u64;
    for i in indices(scoring) {
        let id = PatternId::ALL[i];
        let v = t.line_faan[i];
        for _ in 0..held.count(id) {
            lines.push(Line {
                pattern: id,
                faan: v,
                // Without limits_add no limit gets here.
                limit: limits_add && limits & id.bit() != 0,
            });
            raw += u64::from(v);
        }
    }
    if lines.is_empty() {
        if let Some(Value::Faan(v)) = ruleset.pattern(PatternId::ChickenHand).map(|p| p.value) {
            lines.push(Line {
                pattern: PatternId::ChickenHand,
                faan: v,
                limit: false,
            });
            raw = u64::from(v);
        }
    }
    let Ok(raw) = u32::try_from(raw) else {
        return Err(Overflow::Faan(largest_line(lines)));
    };
    out.raw_faan = raw;
    // limits_add: limit lines add like the others and nothing is capped.
    out.total_faan = if limits_add {
        raw
    } else {
        raw.min(ruleset.limit())
    };
    out.limit_hand = limits_add && limits != 0;
    Ok(())
}

/// What a table counted for a win entered without tiles
/// (`docs/api.md`, "Wins without tiles").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Declared {
    /// A number of faan; above the limit it is paid at the limit.
    Faan(u32),
    /// A limit hand.
    Limit,
    /// How many times each pattern (by id index) was declared, each at most
    /// [`PatternId::max_declared`] and each one the ruleset scores.
    Patterns([u8; PATTERN_COUNT]),
}

/// The score of a declared win under `ruleset`: one reading of no tiles
/// whose lines (for declared patterns) are combined as a scored hand's,
/// settled as a scored hand is. The caller refuses a total below the minimum.
pub fn score_declared(
    ruleset: &Ruleset,
    declared: &Declared,
    ctx: &Context,
) -> Result<Score, ScoreError> {
    let mut out = ScoredReading::blank(Reading::blank(Form::Standard));
    match declared {
        Declared::Faan(n) => {
            out.raw_faan = *n;
            out.total_faan = (*n).min(ruleset.limit());
        }
        Declared::Limit => {
            out.raw_faan = ruleset.limit();
            out.total_faan = ruleset.limit();
            out.limit_hand = true;
        }
        Declared::Patterns(counts) => {
            let held = Held::declared(counts);
            let combined = if ruleset.tables().optional_rules {
                combine::<true>(ruleset, &held, &mut out)
            } else {
                combine::<false>(ruleset, &held, &mut out)
            };
            combined.map_err(ScoreError::Overflow)?;
        }
    }
    let total = out.total_faan;
    let meets_minimum = total >= ruleset.min_faan();
    let Some(base_points) = ruleset.base_points(total) else {
        return Err(ScoreError::Overflow(Overflow::BasePoints(largest_line(
            &out.lines,
        ))));
    };
    let payments = if meets_minimum {
        settle(ruleset, ctx, base_points)
    } else {
        [0; 4]
    };
    Ok(Score {
        readings: vec![out],
        chosen: 0,
        min_faan: ruleset.min_faan(),
        meets_minimum,
        missing_faan: ruleset.min_faan().saturating_sub(total),
        base_points,
        money_cents: money(ruleset, &payments).map_err(ScoreError::Overflow)?,
        payments,
    })
}

/// The pattern of the first of the largest lines (what to lower when a total overflows).
#[cold]
fn largest_line(lines: &Lines) -> PatternId {
    let mut top = Lines::EMPTY;
    for l in lines.iter() {
        if l.faan > top.faan {
            top = *l;
        }
    }
    top.pattern
}

/// The indices of the pattern ids in a set (each below [`PATTERN_COUNT`]), in id (contract) order.
fn indices(mut set: PatternSet) -> impl Iterator<Item = usize> {
    set &= (1 << PATTERN_COUNT) - 1;
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(i)
    })
}

fn not_winning(hand: &Hand) -> ScoreError {
    let tiles = hand.concealed_len + hand.melds.iter().map(|m| m.size() as usize).sum::<usize>();
    let sets_needed = 4 - hand.melds.len().min(4);
    let pairs = hand.concealed_counts.iter().filter(|&&n| n >= 2).count();
    let detail = if pairs == 0 {
        format!(
            "not a winning hand: the {} concealed tiles hold no pair, so they cannot form {sets_needed} set(s) and a pair ({tiles} tiles in all)",
            hand.concealed_len
        )
    } else {
        format!(
            "not a winning hand: the {} concealed tiles cannot be split into {sets_needed} set(s) and a pair with any of the {pairs} possible pair(s), and they form no special hand this ruleset scores ({tiles} tiles in all)",
            hand.concealed_len
        )
    };
    ScoreError::NotWinning { tiles, detail }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::hand::WinBy;
    use crate::core::registry::BUILTIN;
    use crate::core::tile::Wind;

    /// `scores_the_draw` is each flower pattern's own: hkma's file with
    /// flowers in play, seven flowers scoring the draw and eight flowers made
    /// 5 faan (not a limit) without it. Worked by hand for South, holding
    /// F2 and S2 (its seat flowers) and the set F1-F4: seven tiles score
    /// seven flowers 3 (containing the seat flowers and the set) + self-draw
    /// 1 = 4 (no replacement line: hkma counts no flower replacement);
    /// eight score eight flowers 5 + seat flowers 1 + 1 + two sets 1 + 1 =
    /// 9 and no self-draw. Writing the switch changes the ruleset's hash;
    /// leaving it at false does not.
    #[test]
    fn scores_the_draw_is_each_flower_patterns_own() {
        let hkma = BUILTIN
            .iter()
            .find(|(n, _)| *n == "hkma.toml")
            .expect("hkma.toml")
            .1;
        let edit = |seven: &str| {
            hkma.replacen("bonus_tiles = false", "bonus_tiles = true", 1)
                .replacen(
                    "[patterns.seven_flowers]\nfaan = 3\n",
                    &format!("[patterns.seven_flowers]\nfaan = 3\n{seven}"),
                    1,
                )
                .replacen(
                    "[patterns.eight_flowers]\nfaan = \"limit\"",
                    "[patterns.eight_flowers]\nfaan = 5\nscores_the_draw = false",
                    1,
                )
        };
        let text = edit("scores_the_draw = true\n");
        assert_ne!(text, edit(""), "the edits apply");
        let r = Ruleset::from_toml("draw.toml", &text).expect("loads");
        let ctx = ContextSpec {
            flower_win: true,
            ..ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, None)
        };
        let lines = |flowers: &[&str]| {
            let hand = HandSpec {
                tiles: "123m456p789s345m9p".to_string(),
                melds: vec![],
                winning_tile: None,
                flowers: flowers.iter().map(|f| f.to_string()).collect(),
            };
            let s = score(&r, &hand, &ctx).expect("scores");
            let got: Vec<(PatternId, u32)> =
                s.best().lines.iter().map(|l| (l.pattern, l.faan)).collect();
            (got, s.total_faan())
        };
        use PatternId as P;
        assert_eq!(
            lines(&["F1", "F2", "F3", "F4", "S1", "S2", "S3"]),
            (vec![(P::SelfDraw, 1), (P::SevenFlowers, 3)], 4),
            "seven flowers take the draw"
        );
        assert_eq!(
            lines(&["F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4"]),
            (
                vec![
                    (P::SeatFlower, 1),
                    (P::SeatFlower, 1),
                    (P::FlowerSet, 1),
                    (P::FlowerSet, 1),
                    (P::EightFlowers, 5)
                ],
                9
            ),
            "eight flowers keep their own false"
        );
        let plain = Ruleset::from_toml("plain.toml", &edit("")).expect("loads");
        let stated =
            Ruleset::from_toml("stated.toml", &edit("scores_the_draw = false\n")).expect("loads");
        assert_eq!(plain.hash(), stated.hash(), "false is not written");
        assert_ne!(plain.hash(), r.hash(), "true is");
    }

    /// Thirteen orphans on its thirteen-sided wait, set in a ruleset file
    /// (wisteria-court's, with two lines added): the double limit of
    /// rulesets/README.md. Worked by hand: the 1m won on a discard makes the
    /// pair, so concealed hand 1 + thirteen orphans 10 + thirteen-sided 10 =
    /// 21 (limits_add: no cap), paid per limit: 2 x 128 + B(1) 2 = 258; on
    /// 9m (a single wait) 1 + 10 = 11, 128 + 2 = 130.
    #[test]
    fn thirteen_sided_orphans_set_in_a_ruleset_file() {
        let text = BUILTIN
            .iter()
            .find(|(n, _)| *n == "wisteria-court.toml")
            .expect("wisteria-court.toml")
            .1
            .replacen(
                "bonus_tiles = true",
                "bonus_tiles = true\nlimits_add = true",
                1,
            )
            + "\n[patterns.thirteen_sided_orphans]\nfaan = \"limit\"\n";
        let r = Ruleset::from_toml("double.toml", &text).expect("loads");
        assert!(
            r.uses_optional_rules(),
            "an optional pattern and limits_add"
        );
        let ctx = ContextSpec::new(WinBy::Discard, Wind::South, Wind::East, Some(Wind::West));
        type Want<'a> = &'a [(PatternId, u32)];
        // (winning tile, lines, total, base points)
        let cases: &[(&str, Want, u32, u64)] = &[
            (
                "1m",
                &[
                    (PatternId::ConcealedHand, 1),
                    (PatternId::ThirteenOrphans, 10),
                    (PatternId::ThirteenSidedOrphans, 10),
                ],
                21,
                258,
            ),
            (
                "9m",
                &[
                    (PatternId::ConcealedHand, 1),
                    (PatternId::ThirteenOrphans, 10),
                ],
                11,
                130,
            ),
        ];
        for &(win, want, total, base) in cases {
            let hand = HandSpec {
                tiles: "119m19p19s1234567z".to_string(),
                melds: vec![],
                winning_tile: Some(win.to_string()),
                flowers: vec!["F1".to_string()],
            };
            let s = score(&r, &hand, &ctx).expect("scores");
            let got: Vec<(PatternId, u32)> =
                s.best().lines.iter().map(|l| (l.pattern, l.faan)).collect();
            assert_eq!(got, want, "thirteen orphans won on {win}: lines");
            assert_eq!(
                s.total_faan(),
                total,
                "thirteen orphans won on {win}: total"
            );
            assert_eq!(
                s.base_points, base,
                "won on {win}: each whole limit pays 128, the faan left over their own"
            );
        }
        // The same file with `limits_pay = "once"`: the double limit pays one
        // limit, 128 (west 2B = 256, east and north 128, south +512).
        let once = Ruleset::from_toml(
            "once.toml",
            &text.replacen(
                "limits_add = true",
                "limits_add = true\nlimits_pay = \"once\"",
                1,
            ),
        )
        .expect("loads");
        let hand = HandSpec {
            tiles: "119m19p19s1234567z".to_string(),
            melds: vec![],
            winning_tile: Some("1m".to_string()),
            flowers: vec!["F1".to_string()],
        };
        let s = score(&once, &hand, &ctx).expect("scores");
        assert_eq!(
            (s.total_faan(), s.base_points, s.payments),
            (21, 128, [-128, 512, -256, -128]),
            "limits_pay once in a file: 21 faan pays one limit"
        );
    }
}
