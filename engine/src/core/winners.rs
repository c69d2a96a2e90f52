//! Several winners on one discard or robbed kong (一炮多響), and the house
//! rule that pays only the first of them (截糊).
//!
//! `docs/api.md`, "Several winners on one discard"; `docs/rules.md`,
//! "Rounds and matches": the six-systems comparison says it "varies by
//! house", so every ruleset pays each winner as if alone
//! ([`MultipleWinners::All`]); under [`MultipleWinners::HeadBump`] only the
//! first winner in turn order after the discarder (east, south, west, north,
//! east) is paid. A robbed kong follows the same rule, the player who added
//! the kong standing as the discarder. Under a payment where the other
//! players pay too (classical), a paid winner never pays another paid
//! winner unless `co_winners_pay`. Each winner is scored exactly as
//! [`score`](super::evaluate::score) scores it, so one winner settles as one
//! score does.

use super::evaluate::{allowances, score_declared, score_hand, Declared, Score, ScoreError};
use super::hand::{
    validate, validate_declared, Context, ContextSpec, FieldError, Hand, HandRule, HandSpec, WinBy,
};
use super::pattern::{PatternId, PATTERN_COUNT};
use super::ruleset::{MultipleWinners, Ruleset};
use super::settle::{add_cents, Overflow, Payments};
use super::tile::Wind;
use std::fmt;

/// The most winners on one discard: everyone but the discarder.
pub const MAX_WINNERS: usize = 3;

/// One winner as the client wrote it: a hand and its context, exactly as
/// `POST /v1/score` takes them, or what the table counted in place of the hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinnerSpec<S = String> {
    pub claim: ClaimSpec<S>,
    pub context: ContextSpec,
}

/// What a winner shows: its tiles, or what the table counted
/// (`docs/api.md`, "Wins without tiles").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimSpec<S = String> {
    Tiles(HandSpec<S>),
    Declared(DeclaredSpec<S>),
}

impl<S> From<HandSpec<S>> for ClaimSpec<S> {
    fn from(h: HandSpec<S>) -> Self {
        ClaimSpec::Tiles(h)
    }
}

impl<S> ClaimSpec<S> {
    /// The hand, for a winner that shows its tiles.
    pub fn hand(&self) -> Option<&HandSpec<S>> {
        match self {
            ClaimSpec::Tiles(h) => Some(h),
            ClaimSpec::Declared(_) => None,
        }
    }

    /// Where a total below the minimum is pointed, under the winner.
    pub fn minimum_field(&self) -> &'static str {
        match self {
            ClaimSpec::Tiles(_) => "hand",
            ClaimSpec::Declared(DeclaredSpec::Patterns(_)) => "declared/patterns",
            ClaimSpec::Declared(_) => "declared/faan",
        }
    }
}

/// A declared win as sent: a number of faan (0 to 255, the wire's to
/// bound), a limit hand, or pattern ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeclaredSpec<S = String> {
    Faan(u32),
    Limit,
    Patterns(Vec<S>),
}

/// The longest text of an unknown pattern id echoed back in a problem.
const MAX_ECHO: usize = 40;

impl<S: AsRef<str>> DeclaredSpec<S> {
    /// The declared win checked under `ruleset`: each pattern one it scores,
    /// repeated at most as a hand could hold it, and won the way the win
    /// was (self-draw is not ticked on a discard). Errors point under
    /// `{at}/declared/patterns/{i}`.
    fn check(
        &self,
        ruleset: &Ruleset,
        win_by: WinBy,
        at: &str,
        errs: &mut Vec<FieldError>,
    ) -> Option<Declared> {
        let list = match self {
            DeclaredSpec::Faan(n) => return Some(Declared::Faan(*n)),
            DeclaredSpec::Limit => return Some(Declared::Limit),
            DeclaredSpec::Patterns(list) => list,
        };
        let mut counts = [0u8; PATTERN_COUNT];
        let before = errs.len();
        for (i, text) in list.iter().enumerate() {
            let text = text.as_ref();
            let here = format!("{at}/declared/patterns/{i}");
            let id = match text.parse::<PatternId>() {
                Ok(id) if ruleset.pattern(id).is_some() => id,
                _ => {
                    let pattern = if text.chars().count() > MAX_ECHO {
                        text.chars().take(MAX_ECHO).collect::<String>() + "…"
                    } else {
                        text.to_string()
                    };
                    errs.push(FieldError::rule(
                        here,
                        HandRule::PatternNotScored {
                            pattern,
                            ruleset: ruleset.id().to_string(),
                        },
                    ));
                    continue;
                }
            };
            if let Some(only_on) = id.only_on().filter(|&w| w != win_by) {
                errs.push(FieldError::rule(
                    here.clone(),
                    HandRule::PatternNotOnWin {
                        pattern: id.as_str(),
                        only_on: only_on.name(),
                        win_by: win_by.name(),
                    },
                ));
            }
            let n = &mut counts[id.index()];
            *n = n.saturating_add(1);
            if *n == id.max_declared() + 1 {
                errs.push(FieldError::rule(
                    here,
                    HandRule::PatternRepeated {
                        pattern: id.as_str(),
                        max: id.max_declared(),
                    },
                ));
            }
        }
        (errs.len() == before).then_some(Declared::Patterns(counts))
    }
}

/// One winner's score, and whether the discarder pays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinnerResult {
    /// The score as `POST /v1/score` answers it (its payments are the
    /// winner's own, paid or not), except that a paid winner's payments
    /// leave out what another paid winner would pay it unless `co_winners_pay`.
    pub score: Score,
    /// This winner is paid: the hand meets the minimum and, under
    /// `head_bump`, it is the first such winner after the discarder.
    pub paid: bool,
    /// The winner as validated (once, here): its hand (what its
    /// `hand_hash` is keyed from), or what the table declared.
    pub source: Source,
    pub context: Context,
}

/// Where a winner's score came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Tiles(Hand),
    Declared(Declared),
}

impl Source {
    /// The contract's `source`.
    pub const fn name(&self) -> &'static str {
        match self {
            Source::Tiles(_) => "tiles",
            Source::Declared(_) => "declared",
        }
    }

    /// The faan a winner declared, as sent (`declared_faan`).
    pub fn declared_faan(&self) -> Option<u32> {
        match self {
            Source::Declared(Declared::Faan(n)) => Some(*n),
            _ => None,
        }
    }
}

/// Several winners settled together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    /// One per winner, in request order.
    pub results: Vec<WinnerResult>,
    /// The payments of the paid winners summed, by seat; they sum to zero.
    pub payments: Payments,
    /// The money of the paid winners summed, in cents, where there is a stake or a money rate.
    pub money_cents: Option<[i64; 4]>,
}

/// Why winners (of a settlement or of a ledger hand) could not be settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// The request breaks a rule; each error points at a field.
    Invalid(Vec<FieldError>),
    /// A winner's tiles do not form a winning hand; `pointer` names that hand
    /// (`/winners/1/hand`), `player` the winner where it has a name (a ledger's).
    NotWinning {
        pointer: String,
        tiles: usize,
        detail: String,
        player: Option<String>,
    },
    /// A total or an amount too large to answer exactly (`settle::Overflow`);
    /// `pointer` is the ledger hand where money or points overflowed, `None`
    /// where what set it (the stake, a pattern's value) is the caller's to name.
    Overflow {
        what: Overflow,
        pointer: Option<String>,
    },
}

impl TableError {
    /// One broken rule.
    pub fn at(
        pointer: impl Into<crate::core::pointer::Pointer>,
        message: impl Into<String>,
    ) -> Self {
        TableError::Invalid(vec![FieldError::new(pointer, message)])
    }

    /// One broken rule of the table, coded.
    pub fn rule(pointer: impl Into<crate::core::pointer::Pointer>, rule: HandRule) -> Self {
        TableError::Invalid(vec![FieldError::rule(pointer, rule)])
    }

    /// The first pointer named (for a caller that needs one).
    pub fn pointer(&self) -> &str {
        match self {
            TableError::Invalid(errs) => errs.first().map_or("", |e| e.pointer.as_str()),
            TableError::NotWinning { pointer, .. } => pointer,
            TableError::Overflow { pointer, .. } => pointer.as_deref().unwrap_or(""),
        }
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Invalid(errs) => {
                let parts: Vec<String> = errs.iter().map(ToString::to_string).collect();
                write!(f, "invalid request: {}", parts.join("; "))
            }
            TableError::NotWinning {
                pointer, detail, ..
            } => write!(f, "{pointer}: {detail}"),
            TableError::Overflow { what, pointer } => match pointer {
                Some(p) => write!(f, "{p}: {}", what.explain()),
                None => f.write_str(&what.explain()),
            },
        }
    }
}

impl std::error::Error for TableError {}

/// Settles one to three winners on one discard or robbed kong under
/// `ruleset` (house rules already applied: [`Ruleset::with_house_rules`]).
///
/// Errors point into a request of the shape `{"winners": [{"hand", "context"}]}`.
pub fn settle_winners<S: AsRef<str>>(
    ruleset: &Ruleset,
    winners: &[WinnerSpec<S>],
) -> Result<Settlement, TableError> {
    let specs: Vec<(&ClaimSpec<S>, ContextSpec)> =
        winners.iter().map(|w| (&w.claim, w.context)).collect();
    let settled = settle_at(ruleset, &specs, &"/winners")?;
    // A declared win below the minimum cannot be declared.
    let short: Vec<FieldError> = settled
        .results
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.score.meets_minimum && matches!(r.source, Source::Declared(_)))
        .map(|(i, r)| {
            FieldError::rule(
                format!("/winners/{i}/{}", winners[i].claim.minimum_field()),
                HandRule::BelowMinimum {
                    player: r.context.seat_wind.to_string(),
                    faan: r.score.total_faan(),
                    min: r.score.min_faan,
                },
            )
        })
        .collect();
    if short.is_empty() {
        Ok(settled)
    } else {
        Err(TableError::Invalid(short))
    }
}

/// [`settle_winners`] for winners found at `{at}/{i}` of the request
/// (`at` is written out only for an error). A winner below the minimum is
/// settled unpaid: the caller says whether that may be.
pub(crate) fn settle_at<S: AsRef<str>>(
    ruleset: &Ruleset,
    winners: &[(&ClaimSpec<S>, ContextSpec)],
    at: &dyn fmt::Display,
) -> Result<Settlement, TableError> {
    let n = winners.len();
    if n == 0 || n > MAX_WINNERS {
        return Err(TableError::Invalid(vec![FieldError::rule(
            at.to_string(),
            HandRule::WinnerCount {
                max: MAX_WINNERS,
                got: n,
            },
        )]));
    }
    let mut errs = Vec::new();
    let mut valid = Vec::with_capacity(n);
    for (i, (claim, ctx)) in winners.iter().enumerate() {
        let under =
            |es: Vec<FieldError>| es.into_iter().map(move |e| e.under(&format!("{at}/{i}")));
        match claim {
            ClaimSpec::Tiles(hand) => match validate(hand, ctx, allowances(ruleset)) {
                Ok((h, c)) => valid.push((Source::Tiles(h), c)),
                Err(es) => errs.extend(under(es)),
            },
            ClaimSpec::Declared(d) => {
                let declared = d.check(ruleset, ctx.win_by, &format!("{at}/{i}"), &mut errs);
                match (validate_declared(ctx), declared) {
                    (Ok(c), Some(d)) => valid.push((Source::Declared(d), c)),
                    (Err(es), _) => errs.extend(under(es)),
                    (Ok(_), None) => {}
                }
            }
        }
    }
    if n > 1 {
        agree(winners, &valid, at, &mut errs);
    }
    if !errs.is_empty() {
        return Err(TableError::Invalid(errs));
    }
    let mut results = Vec::with_capacity(n);
    for (i, (source, context)) in valid.into_iter().enumerate() {
        let scored = match &source {
            Source::Tiles(hand) => score_hand(ruleset, hand, &context),
            Source::Declared(d) => score_declared(ruleset, d, &context),
        };
        let score = scored.map_err(|e| match e {
            ScoreError::NotWinning { tiles, detail } => TableError::NotWinning {
                pointer: format!("{at}/{i}/hand"),
                tiles,
                detail,
                player: None,
            },
            ScoreError::Invalid(es) => TableError::Invalid(
                es.into_iter()
                    .map(|e| e.under(&format!("{at}/{i}")))
                    .collect(),
            ),
            ScoreError::Overflow(what) => TableError::Overflow {
                what,
                pointer: None,
            },
        })?;
        let paid = score.meets_minimum;
        results.push(WinnerResult {
            score,
            paid,
            source,
            context,
        });
    }
    if ruleset.table().multiple_winners == MultipleWinners::HeadBump && n > 1 {
        // The winners all name one discarder (checked above).
        let head = winners[0].1.discarder.and_then(|d| {
            (1..4)
                .map(|k| Wind::ALL[(d.index() + k) % 4])
                .find_map(|seat| {
                    (0..n).find(|&i| results[i].paid && winners[i].1.seat_wind == seat)
                })
        });
        for (i, r) in results.iter_mut().enumerate() {
            r.paid = Some(i) == head;
        }
    }
    if !ruleset.table().co_winners_pay {
        spare_co_winners(&mut results, winners);
    }
    let mut payments = [0i64; 4];
    let mut money: Option<[i64; 4]> = results[0].score.money_cents.map(|_| [0; 4]);
    for r in results.iter().filter(|r| r.paid) {
        for (sum, p) in payments.iter_mut().zip(r.score.payments) {
            *sum += p;
        }
        // Points cannot overflow here (each below 2^56, three winners); money can pass 2^53.
        if let (Some(m), Some(c)) = (money.as_mut(), r.score.money_cents) {
            for (sum, p) in m.iter_mut().zip(c) {
                *sum = add_cents(*sum, p).map_err(|what| TableError::Overflow {
                    what,
                    pointer: None,
                })?;
            }
        }
    }
    Ok(Settlement {
        results,
        payments,
        money_cents: money,
    })
}

/// A winner never pays in a hand it won (`co_winners_pay: false`;
/// `docs/rules.md`): each paid winner's payments lose
/// the share another paid winner would have paid it, points and money
/// alike, and it receives that much less. Only a payment where the other
/// players pay too has such a share: under discarder-pays-all it is already
/// 0. A winner that is not paid (below the minimum, or bumped) did not win
/// and pays as any other seat.
fn spare_co_winners<S>(results: &mut [WinnerResult], winners: &[(&ClaimSpec<S>, ContextSpec)]) {
    let mut won = [false; 4];
    for (r, (_, c)) in results.iter().zip(winners) {
        won[c.seat_wind.index()] |= r.paid;
    }
    for (r, (_, c)) in results.iter_mut().zip(winners) {
        if !r.paid {
            continue;
        }
        let me = c.seat_wind.index();
        let co = |j: usize| j != me && won[j];
        let score = &mut r.score;
        for j in (0..4).filter(|&j| co(j)) {
            score.payments[me] += score.payments[j];
            score.payments[j] = 0;
            if let Some(m) = score.money_cents.as_mut() {
                m[me] += m[j];
                m[j] = 0;
            }
        }
    }
}

/// Checks that several winners describe one discard: the same `win_by`
/// (a discard or a robbed kong), discarder, round wind and winning tile, on
/// different seats. Each rule reports the first winner that breaks it.
fn agree<S: AsRef<str>>(
    winners: &[(&ClaimSpec<S>, ContextSpec)],
    valid: &[(Source, Context)],
    at: &dyn fmt::Display,
    errs: &mut Vec<FieldError>,
) {
    let first = &winners[0].1;
    let mut report = |i: usize, field: &str, rule: HandRule| {
        errs.push(FieldError::rule(format!("{at}/{i}/{field}"), rule));
    };
    let rest = || winners.iter().enumerate().skip(1);
    if let Some((i, (_, c))) =
        rest().find(|(_, (_, c))| c.win_by != first.win_by || c.win_by == WinBy::SelfDraw)
    {
        if c.win_by == first.win_by {
            report(i, "context/win_by", HandRule::CoWinnerSelfDraw);
        } else {
            let rule = HandRule::CoWinnerWinBy {
                win_by: c.win_by.name(),
                first: first.win_by.name(),
            };
            report(i, "context/win_by", rule);
        }
    }
    if let Some((i, _)) = rest().find(|(_, (_, c))| c.discarder != first.discarder) {
        report(i, "context/discarder", HandRule::CoWinnerDiscarder);
    }
    if let Some((i, (_, c))) = rest().find(|(_, (_, c))| c.round_wind != first.round_wind) {
        let rule = HandRule::CoWinnerRoundWind {
            round_wind: c.round_wind.to_string(),
            first: first.round_wind.to_string(),
        };
        report(i, "context/round_wind", rule);
    }
    if let Some((i, (_, c))) = rest().find(|(i, (_, c))| {
        winners[..*i]
            .iter()
            .any(|(_, e)| e.seat_wind == c.seat_wind)
    }) {
        let rule = HandRule::CoWinnerSeat {
            seat: c.seat_wind.to_string(),
        };
        report(i, "context/seat_wind", rule);
    }
    // The winning tile, where every winner was read; only winners that
    // carry tiles have one to compare.
    if valid.len() == winners.len() {
        let tiled: Vec<(usize, &Hand)> = valid
            .iter()
            .enumerate()
            .filter_map(|(i, (s, _))| match s {
                Source::Tiles(h) => Some((i, h)),
                Source::Declared(_) => None,
            })
            .collect();
        let Some(&(_, first_hand)) = tiled.first() else {
            return;
        };
        let tile0 = first_hand.winning_tile;
        if let Some(&(i, h)) = tiled.iter().skip(1).find(|(_, h)| h.winning_tile != tile0) {
            let shown = |t: Option<super::tile::Tile>| t.map_or("none".into(), |t| t.to_string());
            let rule = HandRule::CoWinnerWinningTile {
                tile: shown(h.winning_tile),
                first: shown(tile0),
            };
            report(i, "hand/winning_tile", rule);
        } else {
            over_four(&tiled, tile0, at, errs);
        }
    }
}

/// The winners hold at most four of each tile between them, the shared
/// winning tile counted once: the error names the winner that adds the
/// fifth (each hand alone was checked by `validate`).
fn over_four(
    tiled: &[(usize, &Hand)],
    shared: Option<super::tile::Tile>,
    at: &dyn fmt::Display,
    errs: &mut Vec<FieldError>,
) {
    let mut held = [0u8; super::tile::KINDS];
    for (nth, &(i, hand)) in tiled.iter().enumerate() {
        let mut counts = hand.all_counts();
        if let (true, Some(t)) = (nth > 0, shared) {
            counts[t.index()] = counts[t.index()].saturating_sub(1);
        }
        for (k, (h, c)) in held.iter_mut().zip(counts).enumerate() {
            *h = h.saturating_add(c);
            if *h > 4 {
                let tile =
                    super::tile::Tile::from_index(k).map_or(String::new(), |t| t.to_string());
                errs.push(FieldError::rule(
                    format!("{at}/{i}/hand/tiles"),
                    HandRule::WinnersTileOverFour { tile, count: *h },
                ));
                return;
            }
        }
    }
}
